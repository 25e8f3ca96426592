// The floor for run.sh's ONLY=floor table: the least work an HTTP/1.1 keep-alive response can cost.
// One thread, level-triggered epoll, nonblocking accept. Per readable connection: one read, count the
// complete requests (each ends in \r\n\r\n; nothing else is parsed), answer each with one prebuilt
// 200 response (the fixture as body) in one writev. Usage: floor <port> <body-file>
#define _GNU_SOURCE
#include <arpa/inet.h>
#include <errno.h>
#include <netinet/in.h>
#include <netinet/tcp.h>
#include <poll.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/epoll.h>
#include <sys/socket.h>
#include <sys/uio.h>
#include <unistd.h>

#define MAX_FDS 65536
#define MAX_BATCH 1024 /* IOV_MAX; a request is 4 bytes at least */
static unsigned char matched[MAX_FDS]; /* per connection: how much of "\r\n\r\n" the last read ended in */

int main(int argc, char **argv) {
    if (argc != 3) { fprintf(stderr, "usage: floor <port> <body-file>\n"); return 2; }
    FILE *file = fopen(argv[2], "rb");
    if (!file) { perror(argv[2]); return 1; }
    static char body[1 << 20], response[(1 << 20) + 256], buffer[4 * MAX_BATCH] /* at most MAX_BATCH requests a read */;
    size_t body_length = fread(body, 1, sizeof body, file);
    fclose(file);
    /* The header fields of mock-server's answer in run.sh, in its order: the same bytes on the wire. */
    int header_length = snprintf(response, 256, "HTTP/1.1 200 OK\r\nContent-Type: application/json\r\n"
        "Cache-Control: no-store\r\nX-Mock-Endpoint: static\r\nX-Mock-Scenario: success\r\nContent-Length: %zu\r\n"
        "Date: Mon, 01 Jan 2024 00:00:00 GMT\r\nConnection: keep-alive\r\n\r\n", body_length);
    memcpy(response + header_length, body, body_length);
    size_t response_length = header_length + body_length;
    struct iovec batch[MAX_BATCH];
    for (int i = 0; i < MAX_BATCH; i++) batch[i] = (struct iovec){response, response_length};

    int one = 1, listener = socket(AF_INET, SOCK_STREAM | SOCK_NONBLOCK, 0);
    setsockopt(listener, SOL_SOCKET, SO_REUSEADDR, &one, sizeof one);
    struct sockaddr_in address = {.sin_family = AF_INET, .sin_port = htons(atoi(argv[1])),
                                  .sin_addr.s_addr = htonl(INADDR_LOOPBACK)};
    if (bind(listener, (struct sockaddr *)&address, sizeof address) || listen(listener, 4096)) { perror("bind"); return 1; }
    int loop = epoll_create1(0);
    struct epoll_event event = {.events = EPOLLIN, .data.fd = listener}, events[256];
    epoll_ctl(loop, EPOLL_CTL_ADD, listener, &event);
    for (;;) {
        int ready = epoll_wait(loop, events, 256, -1);
        for (int e = 0; e < ready; e++) {
            int fd = events[e].data.fd;
            if (fd == listener) {
                int client;
                while ((client = accept4(listener, NULL, NULL, SOCK_NONBLOCK)) >= 0) {
                    if (client >= MAX_FDS) { close(client); continue; }
                    setsockopt(client, IPPROTO_TCP, TCP_NODELAY, &one, sizeof one);
                    matched[client] = 0;
                    event = (struct epoll_event){.events = EPOLLIN, .data.fd = client};
                    epoll_ctl(loop, EPOLL_CTL_ADD, client, &event);
                }
                continue;
            }
            ssize_t n = read(fd, buffer, sizeof buffer);
            if (n <= 0) { close(fd); continue; } /* EAGAIN cannot happen: level-triggered, one read */
            int requests = 0, m = matched[fd];
            for (ssize_t i = 0; i < n; i++) {
                char c = buffer[i];
                m = c == "\r\n\r\n"[m] ? m + 1 : c == '\r';
                if (m == 4) { requests++; m = 0; }
            }
            matched[fd] = m;
            /* One writev; only when the send buffer is full, wait for it (blocking this one client's batch). */
            for (size_t done = 0, total = requests * response_length; done < total;) {
                size_t first = done / response_length, skip = done % response_length;
                batch[first] = (struct iovec){response + skip, response_length - skip};
                ssize_t wrote = writev(fd, batch + first, requests - first);
                batch[first] = (struct iovec){response, response_length};
                if (wrote > 0) done += wrote;
                else if (wrote < 0 && errno == EAGAIN) poll(&(struct pollfd){fd, POLLOUT, 0}, 1, -1);
                else { close(fd); break; }
            }
        }
    }
}
