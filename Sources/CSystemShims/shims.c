#ifdef __linux__
#define _GNU_SOURCE
#include <fcntl.h>
#include <sched.h>
#include <stddef.h>
#include <unistd.h>
#include <sys/socket.h>
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
#endif
