// System headers that Swift's Glibc module does not bring in (epoll, accept4, inotify, statfs, the CPU
// affinity mask), a futex lock and a prefetch hint, for the HTTP core's platform layer only; and on Darwin, the
// process's environment, which Swift cannot name there.
#ifndef C_SYSTEM_SHIMS_H
#define C_SYSTEM_SHIMS_H

#ifdef __linux__
#include <sys/epoll.h>
#include <sys/inotify.h>
#include <sys/statfs.h>
#include <sys/socket.h>
#include <netinet/tcp.h>
#include <stdint.h>

/// accept4(2) without the peer address.
int c_system_shims_accept4(int fd, int flags);

/// pipe2(2): both ends created with `flags` (O_CLOEXEC, O_NONBLOCK).
int c_system_shims_pipe2(int fds[2], int flags);

/// How many CPUs the calling thread may run on (sched_getaffinity and CPU_COUNT, which are macros
/// Swift cannot call), or -1 when the mask cannot be read.
int c_system_shims_affinity_cpu_count(void);

/// A mutex of one 32-bit word, 0 when free, 1 when held, 2 when held and maybe waited for, whose waiters sleep
/// in futex(2) (Drepper, "Futexes Are Tricky", mutex 3). Taking and giving back a free one is one atomic
/// instruction each, inlined into the caller, where a pthread mutex is a call into the C library to lock and
/// another to unlock, six times a request.
void c_system_shims_lock_wait(uint32_t *word);
void c_system_shims_unlock_wake(uint32_t *word);

static inline void c_system_shims_lock(uint32_t *word) {
    uint32_t expected = 0;
    if (__builtin_expect(__atomic_compare_exchange_n(word, &expected, 1, 0, __ATOMIC_ACQUIRE, __ATOMIC_RELAXED), 1)) {
        return;
    }
    c_system_shims_lock_wait(word);
}

static inline void c_system_shims_unlock(uint32_t *word) {
    if (__builtin_expect(__atomic_exchange_n(word, 0, __ATOMIC_RELEASE) == 2, 0)) c_system_shims_unlock_wake(word);
}

/// Asks the CPU to bring the cache line at `address` in for writing, without waiting for it (a hint; never faults).
static inline void c_system_shims_prefetch_for_write(const void *address) {
    __builtin_prefetch(address, 1, 3);
}
#endif

#ifdef __APPLE__
#include <crt_externs.h>

/// The process's environment as posix_spawn takes it: `environ` is not visible to Swift on Darwin, so it is read
/// in C through `_NSGetEnviron`, as swift-foundation's `_FoundationCShims` (platform_shims.c) and
/// swift-subprocess's `process_shims.c` read it.
static inline char **c_system_shims_environ(void) {
    return *_NSGetEnviron();
}
#endif

#endif
