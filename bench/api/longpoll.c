// Many device agents long-polling one server, from one epoll loop in C: the same measurement as longpoll.py without
// Python's per-connection cost in the way. Each waiter holds GET /v1/patients/PATIENT/changes?anchor=ANCHOR&wait=60 on
// its own connection; once /metrics shows them all parked, one sample is posted, and the program prints the
// distribution of (answer complete - commit acknowledged) over all waiters.
//
//   cc -O2 -o /tmp/longpoll bench/api/longpoll.c
//   /tmp/longpoll HOST PORT DEVICE_TOKEN PATIENT WRITER_TOKEN ANCHOR WAITERS      (bench/api/live.sh runs it: CLIENT=c)
// LONGPOLL_KEEPALIVE=1 keeps each poll's connection open after its answer, as a device agent polling again would
// (the default asks the server to close it: `Connection: close`).
#define _GNU_SOURCE
#include <arpa/inet.h>
#include <errno.h>
#include <fcntl.h>
#include <netinet/in.h>
#include <netinet/tcp.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/epoll.h>
#include <sys/socket.h>
#include <time.h>
#include <unistd.h>

static struct sockaddr_in server;

/// Seconds on the monotonic clock.
static double now(void) {
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return t.tv_sec + t.tv_nsec / 1e9;
}

/// A connected blocking socket to the server, or exit.
static int dial(void) {
    int fd = socket(AF_INET, SOCK_STREAM, 0);
    int one = 1;
    setsockopt(fd, IPPROTO_TCP, TCP_NODELAY, &one, sizeof one);
    if (fd < 0 || connect(fd, (struct sockaddr *)&server, sizeof server) != 0) { perror("connect"); exit(1); }
    return fd;
}

/// Writes all of `text` to `fd`, or exit.
static void send_all(int fd, const char *text, size_t length) {
    while (length > 0) {
        ssize_t n = write(fd, text, length);
        if (n <= 0) { perror("write"); exit(1); }
        text += n; length -= (size_t)n;
    }
}

/// One request on a new connection (Connection: close); the whole answer into `answer` (at most `size` - 1 bytes).
static size_t exchange(const char *request, char *answer, size_t size) {
    int fd = dial();
    send_all(fd, request, strlen(request));
    size_t used = 0;
    ssize_t n;
    while (used < size - 1 && (n = read(fd, answer + used, size - 1 - used)) > 0) used += (size_t)n;
    answer[used] = 0;
    close(fd);
    return used;
}

/// The value of the metric line `name` in a /metrics answer, 0 when absent.
static double metric(const char *name) {
    static char answer[1 << 20];
    exchange("GET /metrics HTTP/1.1\r\nHost: bench\r\nConnection: close\r\n\r\n", answer, sizeof answer);
    size_t length = strlen(name);
    for (char *line = answer; line && *line; line = strchr(line, '\n') ? strchr(line, '\n') + 1 : NULL) {
        if (strncmp(line, name, length) == 0 && (line[length] == ' ' || line[length] == '{')) {
            char *space = strchr(line + length, ' ');
            return space ? atof(space + 1) : 0;
        }
    }
    return 0;
}

/// One waiter: its connection, what it has read, and when its answer was complete (0: not yet).
struct waiter {
    int fd;
    size_t used;
    char buffer[4096];
    double done;
    int status;
};

/// Whether the answer in `w` is complete (headers and Content-Length bytes of body); sets its status.
static int complete(struct waiter *w) {
    w->buffer[w->used < sizeof w->buffer ? w->used : sizeof w->buffer - 1] = 0;
    char *body = strstr(w->buffer, "\r\n\r\n");
    if (!body) return 0;
    w->status = atoi(w->buffer + 9);
    char *field = strcasestr(w->buffer, "\r\ncontent-length:");
    if (!field || field > body) return 0;
    return w->used >= (size_t)(body + 4 - w->buffer) + (size_t)atol(field + 17);
}

static int by_value(const void *a, const void *b) {
    double x = *(const double *)a, y = *(const double *)b;
    return (x > y) - (x < y);
}

int main(int argc, char **argv) {
    if (argc != 8) {
        fprintf(stderr, "usage: %s HOST PORT DEVICE_TOKEN PATIENT WRITER_TOKEN ANCHOR WAITERS\n", argv[0]);
        return 2;
    }
    const char *device = argv[3], *patient = argv[4], *writer = argv[5], *anchor = argv[6];
    int count = atoi(argv[7]);
    server.sin_family = AF_INET;
    server.sin_port = htons((uint16_t)atoi(argv[2]));
    inet_pton(AF_INET, argv[1], &server.sin_addr);

    const char *keep = getenv("LONGPOLL_KEEPALIVE");
    int keepAlive = keep != NULL && *keep != 0;  // set and not empty
    char request[1024];
    int length = snprintf(request, sizeof request,
                          "GET /v1/patients/%s/changes?anchor=%s&wait=60 HTTP/1.1\r\nHost: bench\r\n"
                          "Authorization: Bearer %s\r\n%s\r\n", patient, anchor, device,
                          keepAlive ? "" : "Connection: close\r\n");
    struct waiter *waiters = calloc((size_t)count, sizeof *waiters);
    int poll = epoll_create1(0);
    for (int i = 0; i < count; i++) {
        waiters[i].fd = dial();
        send_all(waiters[i].fd, request, (size_t)length);
        fcntl(waiters[i].fd, F_SETFL, O_NONBLOCK);
        struct epoll_event event = {.events = EPOLLIN, .data.u32 = (uint32_t)i};
        epoll_ctl(poll, EPOLL_CTL_ADD, waiters[i].fd, &event);
    }
    double parked = 0, deadline = now() + 45;
    while (now() < deadline && (parked = metric("caresync_feed_parked_long_polls")) < count) usleep(100000);
    printf("parked long polls: %.0f of %d\n", parked, count);
    fflush(stdout);
    // LONGPOLL_PAUSE=SECONDS waits before the commit (a profiler can start on the wake alone).
    if (getenv("LONGPOLL_PAUSE")) usleep((useconds_t)(atof(getenv("LONGPOLL_PAUSE")) * 1e6));

    const char *sample = "{\"samples\": [{\"type\": \"stepCount\", \"value\": 12, \"unit\": \"count\", "
                         "\"start\": \"2020-06-18T10:00:00Z\", \"end\": \"2020-06-18T10:01:00Z\"}]}";
    char post[2048], answer[8192];
    snprintf(post, sizeof post,
             "POST /v1/patients/%s/samples HTTP/1.1\r\nHost: bench\r\nAuthorization: Bearer %s\r\nConnection: close\r\n"
             "Content-Type: application/json\r\nContent-Length: %zu\r\n\r\n%s", patient, writer, strlen(sample), sample);
    double sent = now();
    exchange(post, answer, sizeof answer);
    double committed = now();

    int left = count;
    struct epoll_event events[256];
    deadline = committed + 70;
    while (left > 0 && now() < deadline) {
        int ready = epoll_wait(poll, events, 256, 1000);
        for (int e = 0; e < ready; e++) {
            struct waiter *w = &waiters[events[e].data.u32];
            for (;;) {
                ssize_t n = read(w->fd, w->buffer + w->used, sizeof w->buffer - 1 - w->used);
                if (n > 0) { w->used += (size_t)n; if (w->used < sizeof w->buffer - 1) continue; }
                if (n < 0 && errno == EAGAIN && !complete(w)) break;
                if (!w->done) { w->done = now(); complete(w); left--; }
                epoll_ctl(poll, EPOLL_CTL_DEL, w->fd, NULL);
                if (!keepAlive) close(w->fd);
                break;
            }
        }
    }
    double *latency = malloc(sizeof(double) * (size_t)count);
    int answered = 0, ok = 0;
    for (int i = 0; i < count; i++) {
        if (waiters[i].done == 0) continue;
        latency[answered++] = (waiters[i].done - committed) * 1000;
        ok += waiters[i].status == 200 && strstr(waiters[i].buffer, "\"samples\":[{") != NULL;
    }
    qsort(latency, (size_t)answered, sizeof *latency, by_value);
    printf("commit POST: %.3s in %.1f ms\n", answer + 9, (committed - sent) * 1000);
    printf("waiters answered 200 with the new sample: %d of %d (%d answered)\n", ok, count, answered);
    if (answered > 0) {
        printf("wake latency after the commit was acknowledged (ms): first %.1f, p50 %.1f, p99 %.1f, max %.1f\n",
               latency[0], latency[answered / 2], latency[(int)(answered * 0.99) > 0 ? (int)(answered * 0.99) - 1 : 0],
               latency[answered - 1]);
    }
    fflush(stdout);
    // LONGPOLL_DONE=FIFO hears "done" once the figures are out (the script waits on it without spending CPU).
    if (getenv("LONGPOLL_DONE")) {
        FILE *done = fopen(getenv("LONGPOLL_DONE"), "w");
        if (done) { fputs("done\n", done); fclose(done); }
    }
    // LONGPOLL_LINGER=SECONDS keeps the connections open after the figures (a profiler can stop before the teardown).
    if (getenv("LONGPOLL_LINGER")) usleep((useconds_t)(atof(getenv("LONGPOLL_LINGER")) * 1e6));
    return 0;
}
