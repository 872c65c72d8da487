/* net_test.c — the job of forked processes the endpoint's tests run in (net_test.h). The parent
 * plays the bootstrap: each child writes its endpoint's name up a pipe, the parent writes every
 * name back down, in process order, as PMI's key-value space will. */
#include "net_test.h"
#include "net/fabric_impl.h"

#include <errno.h>
#include <poll.h>
#include <sched.h>
#include <stdio.h>
#include <string.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

double nt_now(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + (double)ts.tv_nsec * 1e-9;
}

static void full_write(int fd, const void *buf, size_t len)
{
    const char *p = buf;
    while (len) {
        ssize_t n = write(fd, p, len);
        if (n < 0 && errno == EINTR)
            continue;
        CHECK(n > 0);
        p += n;
        len -= (size_t)n;
    }
}

static void full_read(int fd, void *buf, size_t len)
{
    char *p = buf;
    while (len) {
        ssize_t n = read(fd, p, len);
        if (n < 0 && errno == EINTR)
            continue;
        CHECK(n > 0);
        p += n;
        len -= (size_t)n;
    }
}

static void on_recv(void *arg, const void *msg, size_t len)
{
    struct nt *t = arg;
    if (t->raw) {
        CHECK(!t->raw_got);
        memcpy(t->raw_buf, msg, len);
        t->raw_len = len;
        t->raw_got = 1;
        return;
    }
    struct nt_hdr h;
    CHECK(len >= sizeof h);
    memcpy(&h, msg, sizeof h);
    CHECK((int)h.from < t->P && (int)h.from != t->rank);
    switch (h.type) {
    case NT_ARRIVE:
        CHECK(t->rank == 0 && h.seq < 16);
        t->arrived[h.seq]++;
        break;
    case NT_RELEASE:
        CHECK_INT(h.seq, t->released + 1);
        t->released = (int)h.seq;
        break;
    case NT_DATA: {
        /* In order from each sender, and every byte as it was written. */
        CHECK_INT(h.seq, t->next_seq[h.from]);
        t->next_seq[h.from]++;
        CHECK_INT(len, sizeof h + h.aux);
        const unsigned char *p = (const unsigned char *)msg + sizeof h;
        for (uint32_t i = 0; i < h.aux; i++)
            CHECK_INT(p[i], (unsigned char)(h.from * 31 + h.seq + i));
        t->data_got++;
        break;
    }
    case NT_MRINFO:
        CHECK_INT(len, sizeof t->mr);
        memcpy(&t->mr, msg, sizeof t->mr);
        t->have_mr = 1;
        break;
    case NT_THREAD:
        CHECK(h.aux < 4);
        CHECK_INT(h.seq, t->next_tseq[h.from][h.aux]);
        t->next_tseq[h.from][h.aux]++;
        /* Relaxed: the counter is the only thing the main thread reads from here. */
        atomic_fetch_add_explicit(&t->thread_got, 1, memory_order_relaxed);
        break;
    default:
        CHECK(!"a message of no known type");
    }
}

static void on_read_done(void *arg, void *ctx)
{
    struct nt *t = arg;
    int *done = ctx;
    CHECK(!*done);
    *done = 1;
    t->reads_done++;
}

/* ctx: a flag of the sender's, set once (a second call fails the test). */
static void on_send_done(void *arg, void *ctx)
{
    struct nt *t = arg;
    int *done = ctx;
    CHECK(!*done);
    *done = 1;
    t->sends_done++;
}

void (*nt_on_error_hook)(void *ctx);
uint64_t nt_mr_extra;

static void on_error(void *arg, void *ctx, int peer, const char *why)
{
    struct nt *t = arg;
    if (nt_on_error_hook)
        nt_on_error_hook(ctx);
    fprintf(stderr, "process %d: on_error(peer %d): %s\n", t->rank, peer, why);
    CHECK(why && *why);
    t->error_peer = peer;
    atomic_fetch_add(&t->errors, 1);
}

int nt_poll(struct nt *t)
{
    char err[256];
    int rc = loom__fabric_poll(t->f, err, sizeof err);
    if (rc < 0) {
        fprintf(stderr, "process %d: %s\n", t->rank, err);
        _exit(99);
    }
    return rc;
}

void nt_wait(struct nt *t, const int *flag, int want, const char *what)
{
    double give_up = nt_now() + NT_GIVE_UP;
    while (*flag < want) {
        if (nt_poll(t) == 0 && nt_now() > give_up) {
            fprintf(stderr, "process %d: gave up waiting for %s (%d of %d)\n", t->rank, what,
                    *flag, want);
            _exit(99);
        }
    }
}

void nt_send(struct nt *t, int peer, const void *msg, size_t len)
{
    double give_up = nt_now() + NT_GIVE_UP;
    void *slot;
    while (!(slot = loom__fabric_slot(t->f))) {
        t->slot_waits++;
        nt_poll(t);
        CHECK(nt_now() < give_up);
    }
    memcpy(slot, msg, len);
    char err[256];
    int rc;
    while ((rc = loom__fabric_send(t->f, peer, slot, len, err, sizeof err)) == 1) {
        nt_poll(t);
        CHECK(nt_now() < give_up);
    }
    if (rc) {
        fprintf(stderr, "process %d: %s\n", t->rank, err);
        _exit(99);
    }
}

void nt_barrier(struct nt *t, int phase)
{
    struct nt_hdr h = {.from = (uint32_t)t->rank, .seq = (uint32_t)phase};
    if (t->rank) {
        h.type = NT_ARRIVE;
        nt_send(t, 0, &h, sizeof h);
        nt_wait(t, &t->released, phase, "the barrier's release");
        return;
    }
    nt_wait(t, &t->arrived[phase], t->P - 1, "every process at the barrier");
    h.type = NT_RELEASE;
    for (int p = 1; p < t->P; p++)
        nt_send(t, p, &h, sizeof h);
}

void nt_drain(struct nt *t)
{
    void *held[256];
    int n = 0;
    double give_up = nt_now() + NT_GIVE_UP;
    CHECK(t->nslots <= 256);
    while (n < t->nslots) {
        void *s = loom__fabric_slot(t->f);
        if (s)
            held[n++] = s;
        else if (nt_poll(t) == 0)
            CHECK(nt_now() < give_up);
    }
    (void)held;
}

void nt_oob_barrier(struct nt *t)
{
    char c = 'b';
    full_write(t->up, &c, 1);
    /* Keep polling meanwhile: with manual progress a peer's reads of this process's memory
     * are served only while it polls. */
    struct pollfd pfd = {.fd = t->down, .events = POLLIN};
    double give_up = nt_now() + NT_GIVE_UP;
    while (poll(&pfd, 1, 0) == 0) {
        nt_poll(t);
        CHECK(nt_now() < give_up);
    }
    full_read(t->down, &c, 1);
}

static int child(int rank, int P, int up, int down, size_t msg_max, int nrecv, int nslots,
                 int threading, void (*body)(struct nt *))
{
    static struct nt t;
    t.rank = rank;
    t.P = P;
    t.nslots = nslots;
    t.error_peer = -2;
    t.up = up;
    t.down = down;
    struct loom_fabric_handlers h = {&t, on_recv, on_read_done, on_error, on_send_done};
    char err[256];
    if (loom__fabric_open_with(msg_max, nrecv, nslots, 1, &h, threading, nt_mr_extra, &t.f, err,
                               sizeof err)) {
        fprintf(stderr, "process %d: %s\n", rank, err);
        return 1;
    }
    size_t len = loom__fabric_name(t.f, NULL, 0);
    CHECK(len > 0 && len <= 1024);
    char name[1024];
    CHECK_INT(loom__fabric_name(t.f, name, len), len);
    full_write(up, &len, sizeof len);
    full_write(up, name, len);
    char *names = malloc(len * (size_t)P);
    CHECK(names);
    full_read(down, names, len * (size_t)P);
    CHECK(memcmp(names + len * (size_t)rank, name, len) == 0);
    if (loom__fabric_insert(t.f, names, P, len, err, sizeof err)) {
        fprintf(stderr, "process %d: %s\n", rank, err);
        return 1;
    }
    free(names);
    if (rank == 0)
        printf("provider %s, msg_max %zu, mr_mode%s%s%s%s%s, %s\n", loom__fabric_provider(t.f),
               loom__fabric_msg_max(t.f), t.f->mr_mode & FI_MR_LOCAL ? " local" : "",
               t.f->mr_mode & FI_MR_VIRT_ADDR ? " virt_addr" : "",
               t.f->mr_mode & FI_MR_ALLOCATED ? " allocated" : "",
               t.f->mr_mode & FI_MR_PROV_KEY ? " prov_key" : "",
               t.f->mr_mode & FI_MR_ENDPOINT ? " endpoint" : "",
               t.f->serialize ? "serialized" : "thread-safe");
    body(&t);
    loom__fabric_close(t.f);
    return 0;
}

int nt_job(int P, size_t msg_max, int nrecv, int nslots, int threading,
           void (*body)(struct nt *))
{
    CHECK(P >= 2 && P <= NT_MAXP);
    int up[NT_MAXP][2], down[NT_MAXP][2];
    pid_t pid[NT_MAXP];
    fflush(NULL);
    for (int r = 0; r < P; r++) {
        CHECK(pipe(up[r]) == 0 && pipe(down[r]) == 0);
        pid[r] = fork();
        CHECK(pid[r] >= 0);
        if (pid[r] == 0) {
            close(up[r][0]);
            close(down[r][1]);
            int rc = child(r, P, up[r][1], down[r][0], msg_max, nrecv, nslots, threading, body);
            fflush(NULL);
            exit(rc);
        }
        close(up[r][1]);
        close(down[r][0]);
    }
    /* The bootstrap: gather every name, give them all to everyone. */
    size_t len = 0;
    char *names = NULL;
    for (int r = 0; r < P; r++) {
        size_t l;
        full_read(up[r][0], &l, sizeof l);
        if (!names) {
            len = l;
            names = malloc(len * (size_t)P);
            CHECK(names);
        }
        CHECK_INT(l, len);
        full_read(up[r][0], names + len * (size_t)r, len);
    }
    for (int r = 0; r < P; r++)
        full_write(down[r][1], names, len * (size_t)P);
    free(names);
    /* Then serve nt_oob_barrier until a child closes its pipe (by exiting). */
    for (int open = 1; open;) {
        for (int r = 0; r < P && open; r++) {
            char c;
            ssize_t n;
            while ((n = read(up[r][0], &c, 1)) < 0 && errno == EINTR)
                ;
            open = n == 1;
        }
        for (int r = 0; r < P && open; r++)
            full_write(down[r][1], "b", 1);
    }
    for (int r = 0; r < P; r++) {
        close(down[r][1]);
        close(up[r][0]);
    }
    int bad = 0;
    for (int r = 0; r < P; r++) {
        int st;
        CHECK(waitpid(pid[r], &st, 0) == pid[r]);
        if (!WIFEXITED(st) || WEXITSTATUS(st)) {
            fprintf(stderr, "process %d: %s %d\n", r,
                    WIFEXITED(st) ? "exited with" : "killed by signal",
                    WIFEXITED(st) ? WEXITSTATUS(st) : WTERMSIG(st));
            bad = 1;
        }
    }
    return bad;
}
