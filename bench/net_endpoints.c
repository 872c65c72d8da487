/* bench/net_endpoints.c — one libfabric endpoint shared by a node process's sending threads, or
 * one per thread? T threads (1, 2, 4) each send N messages of 8 bytes to a peer process as
 * fast as the send slots allow:
 *   shared      one endpoint; a thread that finds no slot (or a busy provider) polls it if the
 *               poll lock is free (how net/ will poll), else yields
 *   per-thread  T endpoints, each thread sends on and polls its own
 * The peer (a forked process) has as many endpoints, all polled by one thread, and answers each
 * endpoint with one message once all of that endpoint's messages are in: T busy threads in the
 * sending process and 1 in the receiving one either way. Prints messages/s
 * from the first send to the last answer. Not part of ctest; run with FI_PROVIDER=tcp.
 * Usage: bench_net_endpoints [messages per thread] [rounds]. */
#include "net/fabric.h"

#include <pthread.h>
#include <sched.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#define MAXE 4
#define MSG 8
#define NSLOTS 64
#define NRECV 64

struct ep {
    struct loom_fabric *f;
    pthread_mutex_t poll_lock; /* one poller at a time (net/fabric.h's rule) */
    atomic_long got;           /* messages received (receiver) or answers (sender) */
};

static long per_thread = 200000;

static void die(const char *what, const char *err)
{
    fprintf(stderr, "bench_net_endpoints: %s: %s\n", what, err);
    exit(1);
}

static double now(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + (double)ts.tv_nsec * 1e-9;
}

static void on_recv(void *arg, const void *msg, size_t len)
{
    struct ep *e = arg;
    /* Relaxed: a counter; whoever reads it only compares it with a total. */
    atomic_fetch_add_explicit(&e->got, 1, memory_order_relaxed);
}
static void on_read_done(void *arg, void *ctx) {}
static void on_error(void *arg, void *ctx, int peer, const char *why)
{
    die("on_error", why);
}

static void poll_if_free(struct ep *e)
{
    char err[256];
    if (pthread_mutex_trylock(&e->poll_lock))
        return;
    if (loom__fabric_poll(e->f, err, sizeof err) < 0)
        die("poll", err);
    pthread_mutex_unlock(&e->poll_lock);
}

static void send_one(struct ep *e, int peer)
{
    char err[256];
    void *slot;
    while (!(slot = loom__fabric_slot(e->f))) {
        poll_if_free(e);
        sched_yield();
    }
    memset(slot, 0x11, MSG);
    int rc;
    while ((rc = loom__fabric_send(e->f, peer, slot, MSG, err, sizeof err)) == 1)
        poll_if_free(e);
    if (rc)
        die("send", err);
}

static void open_ep(struct ep *e)
{
    char err[256];
    struct loom_fabric_handlers h = {e, on_recv, on_read_done, on_error};
    pthread_mutex_init(&e->poll_lock, NULL);
    atomic_init(&e->got, 0);
    if (loom__fabric_open(256, NRECV, NSLOTS, 0, &h, &e->f, err, sizeof err))
        die("open", err);
}

/* Names of n endpoints: up the pipe, then the peer's down the other. */
static void swap_names(struct ep *eps, int n, int wfd, int rfd, int me)
{
    char err[256];
    for (int i = 0; i < n; i++) {
        char names[2][256];
        size_t len = loom__fabric_name(eps[i].f, names[me], sizeof names[me]);
        if (write(wfd, &len, sizeof len) != sizeof len ||
            write(wfd, names[me], len) != (ssize_t)len)
            die("pipe", "write");
        size_t plen;
        if (read(rfd, &plen, sizeof plen) != sizeof plen || plen != len ||
            read(rfd, names[1 - me], len) != (ssize_t)len)
            die("pipe", "read");
        char both[512];
        memcpy(both, names[0], len);
        memcpy(both + len, names[1], len);
        if (loom__fabric_insert(eps[i].f, both, 2, len, err, sizeof err))
            die("insert", err);
    }
}

/* Receiver: one thread polls every endpoint in turn (as one node process's poller would),
 * answers each once its messages are in, then keeps polling until the sender has closed. */
static void receive(struct ep *eps, int nep, long expect)
{
    int answered = 0;
    int done[MAXE] = {0};
    while (answered < nep)
        for (int i = 0; i < nep; i++) {
            poll_if_free(&eps[i]);
            if (!done[i] && atomic_load_explicit(&eps[i].got, memory_order_relaxed) >= expect) {
                send_one(&eps[i], 0);
                done[i] = 1;
                answered++;
            }
        }
    for (double end = now() + 0.5; now() < end;)
        for (int i = 0; i < nep; i++)
            poll_if_free(&eps[i]);
}

struct job {
    struct ep *e;
    long expect;
};

static void *send_all(void *arg)
{
    struct job *j = arg;
    for (long k = 0; k < j->expect; k++)
        send_one(j->e, 1);
    return NULL;
}

/* One configuration: threads senders on nep endpoints (1 shared, or one each). */
static double run(int threads, int nep)
{
    int to_child[2], to_parent[2];
    if (pipe(to_child) || pipe(to_parent))
        die("pipe", "create");
    fflush(NULL);
    pid_t pid = fork();
    if (pid == 0) {
        struct ep eps[MAXE];
        for (int i = 0; i < nep; i++)
            open_ep(&eps[i]);
        swap_names(eps, nep, to_parent[1], to_child[0], 1);
        receive(eps, nep, per_thread * threads / nep);
        for (int i = 0; i < nep; i++)
            loom__fabric_close(eps[i].f);
        _exit(0);
    }
    struct ep eps[MAXE];
    struct job jobs[MAXE];
    pthread_t th[MAXE];
    for (int i = 0; i < nep; i++)
        open_ep(&eps[i]);
    swap_names(eps, nep, to_child[1], to_parent[0], 0);
    double t0 = now();
    for (int i = 0; i < threads; i++) {
        jobs[i] = (struct job){&eps[i % nep], per_thread};
        pthread_create(&th[i], NULL, send_all, &jobs[i]);
    }
    for (int i = 0; i < threads; i++)
        pthread_join(th[i], NULL);
    for (int i = 0; i < nep; i++)
        while (atomic_load_explicit(&eps[i].got, memory_order_relaxed) < 1)
            poll_if_free(&eps[i]);
    double dt = now() - t0;
    for (int i = 0; i < nep; i++)
        loom__fabric_close(eps[i].f);
    waitpid(pid, NULL, 0);
    close(to_child[0]);
    close(to_child[1]);
    close(to_parent[0]);
    close(to_parent[1]);
    return (double)(per_thread * threads) / dt;
}

int main(int argc, char **argv)
{
    if (argc > 1)
        per_thread = atol(argv[1]);
    int rounds = argc > 2 ? atoi(argv[2]) : 3;
    printf("# %ld messages of %d B per thread, best of %d rounds (interleaved)\n", per_thread, MSG,
           rounds);
    printf("threads  shared_msg_per_s  per_thread_msg_per_s\n");
    for (int threads = 1; threads <= MAXE; threads *= 2) {
        double best[2] = {0, 0};
        for (int r = 0; r < rounds; r++)
            for (int m = 0; m < 2; m++) {
                double rate = run(threads, m ? threads : 1);
                if (rate > best[m])
                    best[m] = rate;
            }
        printf("%7d  %16.0f  %20.0f\n", threads, best[0], best[1]);
        fflush(stdout);
    }
    return 0;
}
