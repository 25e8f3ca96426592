#ifdef __linux__
#define _GNU_SOURCE
#include <fcntl.h>
#include <sched.h>
#include <stddef.h>
#include <unistd.h>
#include <linux/futex.h>
#include <sys/socket.h>
#include <sys/syscall.h>
#include "CSystemShims.h"

int c_system_shims_accept4(int fd, int flags) {
    return accept4(fd, NULL, NULL, flags);
}

int c_system_shims_pipe2(int fds[2], int flags) {
    return pipe2(fds, flags);
}

int c_system_shims_affinity_cpu_count(void) {
    cpu_set_t set;
    CPU_ZERO(&set);
    if (sched_getaffinity(0, sizeof(set), &set) != 0) return -1;
    return CPU_COUNT(&set);
}

void c_system_shims_lock_wait(uint32_t *word) {
    // Held: mark it waited for, and sleep while it stays so; whoever finds it free this way holds it as "2",
    // so that its unlock wakes the next waiter, if any.
    while (__atomic_exchange_n(word, 2, __ATOMIC_ACQUIRE) != 0) {
        syscall(SYS_futex, word, FUTEX_WAIT_PRIVATE, 2, NULL, NULL, 0);
    }
}

void c_system_shims_unlock_wake(uint32_t *word) {
    syscall(SYS_futex, word, FUTEX_WAKE_PRIVATE, 1, NULL, NULL, 0);
}
#endif
