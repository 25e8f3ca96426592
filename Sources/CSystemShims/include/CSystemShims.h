// System headers that Swift's Glibc module does not bring in (epoll, accept4, inotify, statfs), for
// MockServer's socket and file layer only.
#ifndef C_SYSTEM_SHIMS_H
#define C_SYSTEM_SHIMS_H

#ifdef __linux__
#include <sys/epoll.h>
#include <sys/inotify.h>
#include <sys/statfs.h>
#include <sys/socket.h>
#include <netinet/tcp.h>

int c_system_shims_accept4(int fd, int flags);
#endif

#endif
