#ifdef __linux__
#define _GNU_SOURCE
#include <stddef.h>
#include <sys/socket.h>
#include "CSystemShims.h"

int c_system_shims_accept4(int fd, int flags) {
    return accept4(fd, NULL, NULL, flags);
}
#endif
