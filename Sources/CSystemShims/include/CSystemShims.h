// System headers that Swift's Glibc module does not bring in (epoll, accept4, inotify, statfs, the CPU
// affinity mask), for MockServer's platform layer only. Nothing here is used on Darwin.
#ifndef C_SYSTEM_SHIMS_H
#define C_SYSTEM_SHIMS_H

#ifdef __linux__
#include <sys/epoll.h>
#include <sys/inotify.h>
#include <sys/statfs.h>
#include <sys/socket.h>
#include <netinet/tcp.h>

/// accept4(2) without the peer address.
int c_system_shims_accept4(int fd, int flags);

/// pipe2(2): both ends created with `flags` (O_CLOEXEC, O_NONBLOCK).
int c_system_shims_pipe2(int fds[2], int flags);

/// How many CPUs the calling thread may run on (sched_getaffinity and CPU_COUNT, which are macros
/// Swift cannot call), or -1 when the mask cannot be read.
int c_system_shims_affinity_cpu_count(void);
#endif

#endif
