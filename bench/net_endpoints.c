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
 * Usage: bench_net_endpoints [messages per thread] [rounds].
 *
 * bench_net_endpoints pingpong [payload bytes ...]: the floor under loom's network latency.
 * Two processes, one endpoint each opened as loom opens its own (rxm's buffers preset, no
 * descriptor), bounced messages of loom's header plus each payload (default 8, 1024, 4096,
 * 16384, 32768); prints the median half round trip of 20000 exchanges. What loom's
 * MPI_Send/MPI_Recv ping-pong takes above it is loom's own path. */
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

static void send_len(struct ep *e, int peer, size_t len)
{
    char err[256];
    void *slot;
    while (!(slot = loom__fabric_slot(e->f))) {
        poll_if_free(e);
        sched_yield();
    }
    memset(slot, 0x11, len);
    int rc;
    while ((rc = loom__fabric_send(e->f, peer, slot, len, err, sizeof err)) == 1)
        poll_if_free(e);
    if (rc)
        die("send", err);
}

static void send_one(struct ep *e, int peer)
{
    send_len(e, peer, MSG);
}

static void open_ep(struct ep *e, size_t msg_max)
{
    char err[256];
    struct loom_fabric_handlers h = {e, on_recv, on_read_done, on_error, NULL};
    pthread_mutex_init(&e->poll_lock, NULL);
    atomic_init(&e->got, 0);
    if (loom__fabric_open(msg_max, NRECV, NSLOTS, 0, &h, &e->f, err, sizeof err))
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
            open_ep(&eps[i], 256);
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
        open_ep(&eps[i], 256);
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

/* The ping-pong: loom's header size and message size (net/net_impl.h, net/net_job.c). */
#define LOOM_HDR 72
#define LOOM_MSG_MAX (32768 + LOOM_HDR)
#define PP_WARM 1000
#define PP_ITERS 20000

static int cmp_double(const void *a, const void *b)
{
    double x = *(const double *)a, y = *(const double *)b;
    return x < y ? -1 : x > y;
}

static void bind_to(int cpu)
{
    cpu_set_t set;
    CPU_ZERO(&set);
    CPU_SET(cpu, &set);
    sched_setaffinity(0, sizeof set, &set); /* best effort: one core is enough to run */
}

/* me 0 pings, me 1 answers; returns the median half round trip (me 0) in microseconds. */
static double bounce(struct ep *e, int me, size_t len)
{
    static double rtt[PP_ITERS];
    long base = atomic_load_explicit(&e->got, memory_order_relaxed);
    double prev = 0;
    for (long i = 0; i < PP_WARM + PP_ITERS; i++) {
        double t = now();
        if (i >= PP_WARM)
            rtt[i - PP_WARM] = t - prev;
        prev = t;
        if (me == 0)
            send_len(e, 1, len);
        while (atomic_load_explicit(&e->got, memory_order_relaxed) < base + i + 1)
            poll_if_free(e);
        if (me == 1)
            send_len(e, 0, len);
    }
    qsort(rtt + 1, PP_ITERS - 1, sizeof rtt[0], cmp_double);
    return rtt[PP_ITERS / 2] / 2 * 1e6;
}

static int pingpong(int argc, char **argv)
{
    size_t sizes[16] = {8, 1024, 4096, 16384, 32768};
    int n = argc > 2 ? 0 : 5;
    for (int i = 2; i < argc && n < 16; i++)
        sizes[n++] = (size_t)atol(argv[i]);
    loom__fabric_preset(LOOM_MSG_MAX); /* as loom's bootstrap does, before libfabric starts */
    int to_child[2], to_parent[2];
    if (pipe(to_child) || pipe(to_parent))
        die("pipe", "create");
    fflush(NULL);
    pid_t pid = fork();
    int me = pid == 0;
    bind_to(me);
    struct ep e;
    open_ep(&e, LOOM_MSG_MAX);
    swap_names(&e, 1, me ? to_parent[1] : to_child[1], me ? to_child[0] : to_parent[0], me);
    if (!me)
        printf("# endpoint ping-pong (%s), loom's %d B header + payload, median of %d\n"
               "payload_bytes  half_round_trip_us\n",
               loom__fabric_provider(e.f), LOOM_HDR, PP_ITERS);
    for (int k = 0; k < n; k++) {
        if (sizes[k] + LOOM_HDR > loom__fabric_msg_max(e.f))
            die("pingpong", "a payload larger than loom's eager messages");
        double us = bounce(&e, me, sizes[k] + LOOM_HDR);
        if (!me)
            printf("%13zu  %18.3f\n", sizes[k], us);
    }
    /* both sides are past their last exchange: poll a moment so the last answer's send
     * completes before the endpoint closes */
    for (double end = now() + 0.2; now() < end;)
        poll_if_free(&e);
    loom__fabric_close(e.f);
    if (me)
        _exit(0);
    waitpid(pid, NULL, 0);
    return 0;
}

int main(int argc, char **argv)
{
    if (argc > 1 && !strcmp(argv[1], "pingpong"))
        return pingpong(argc, argv);
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
