/* procs.c — P node processes (argv[1]) on one endpoint each: a ping-pong of every message
 * length from 0 to msg_max, a burst of 1000 messages each way with few send slots (slots run
 * out and come back), RMA reads of 8 MiB, of 1 byte and of a buffer at an odd address.
 * argv[2] "domain" opens the endpoints at FI_THREAD_DOMAIN, which runs every libfabric call
 * under the endpoint's own lock (what loom does with providers that are not thread-safe);
 * "local" handles FI_MR_LOCAL as if the provider asked for it: slots and receive buffers
 * registered once, each read's local buffer registered for the read, descriptors passed. */
#include "net_test.h"
#include "net/fabric_impl.h"

#include <rdma/fabric.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define MSG_MAX (96 * 1024 + 40) /* not a power of two: slots and buffers are rounded */
#define NSLOTS 4                 /* few: the burst runs out of them */
#define BURST 1000
#define BIG (8u << 20)

/* The ping-pong's lengths: 0..3, 2^k - 1, 2^k, 2^k + 1 up to msg_max, and msg_max - 1, msg_max. */
static int lengths(size_t max, size_t *out)
{
    int n = 0;
    for (size_t s = 0; s < 4; s++)
        out[n++] = s;
    for (size_t p = 8; p <= max; p *= 2)
        for (size_t s = p - 1; s <= p + 1 && s <= max; s++)
            if (s > out[n - 1])
                out[n++] = s;
    if (out[n - 1] < max - 1)
        out[n++] = max - 1;
    if (out[n - 1] < max)
        out[n++] = max;
    return n;
}

static unsigned char ping_byte(size_t len, size_t i, int peer)
{
    return (unsigned char)(len * 7 + i * 13 + (size_t)peer);
}

/* Rank 0 pings every other process in turn with each length; they answer with the bytes
 * flipped. Raw messages, no header: only 0 and the process it pings talk meanwhile. */
static void pingpong(struct nt *t)
{
    size_t max = loom__fabric_msg_max(t->f);
    CHECK_INT(max, MSG_MAX);
    size_t lens[128];
    int n = lengths(max, lens);
    char *buf = malloc(max);
    t->raw_buf = malloc(max);
    CHECK(buf && t->raw_buf);
    if (t->rank == 0) {
        for (int p = 1; p < t->P; p++)
            for (int k = 0; k < n; k++) {
                for (size_t i = 0; i < lens[k]; i++)
                    buf[i] = (char)ping_byte(lens[k], i, p);
                nt_send(t, p, buf, lens[k]);
                nt_wait(t, &t->raw_got, 1, "a pong");
                CHECK_INT(t->raw_len, lens[k]);
                for (size_t i = 0; i < lens[k]; i++)
                    CHECK_INT((unsigned char)t->raw_buf[i], ping_byte(lens[k], i, p) ^ 0x5a);
                t->raw_got = 0;
            }
        t->raw = 0;
        struct nt_hdr h = {.type = NT_RELEASE, .from = 0, .seq = 1};
        for (int p = 1; p < t->P; p++)
            nt_send(t, p, &h, sizeof h);
    } else {
        for (int k = 0; k < n; k++) {
            nt_wait(t, &t->raw_got, 1, "a ping");
            CHECK_INT(t->raw_len, lens[k]);
            for (size_t i = 0; i < lens[k]; i++) {
                CHECK_INT((unsigned char)t->raw_buf[i], ping_byte(lens[k], i, t->rank));
                buf[i] = (char)(t->raw_buf[i] ^ 0x5a);
            }
            t->raw_got = 0;
            if (k == n - 1)
                t->raw = 0; /* what comes next has a header: the release */
            nt_send(t, 0, buf, lens[k]);
        }
        nt_wait(t, &t->released, 1, "the end of the ping-pong");
    }
    free(buf);
    free(t->raw_buf);
    t->raw_buf = NULL;
    printf("process %d: ping-pong of %d lengths (0..%zu) checked\n", t->rank, n, max);
}

/* Every process sends BURST messages to every other without waiting; receivers check order and
 * bytes (on_recv). NSLOTS slots cannot hold them: the sender must poll for slots. */
static void burst(struct nt *t)
{
    char msg[sizeof(struct nt_hdr) + 300];
    for (uint32_t seq = 0; seq < BURST; seq++)
        for (int p = 0; p < t->P; p++) {
            if (p == t->rank)
                continue;
            struct nt_hdr h = {.type = NT_DATA, .from = (uint32_t)t->rank, .seq = seq,
                               .aux = seq * 37 % 300};
            memcpy(msg, &h, sizeof h);
            for (uint32_t i = 0; i < h.aux; i++)
                msg[sizeof h + i] = (char)(h.from * 31 + seq + i);
            nt_send(t, p, msg, sizeof h + h.aux);
        }
    nt_wait(t, &t->data_got, BURST * (t->P - 1), "the burst");
    CHECK(t->slot_waits > 0);
    printf("process %d: burst of %d messages each way in order, %d waits for a slot\n",
           t->rank, BURST, t->slot_waits);
    nt_barrier(t, 2);
}

static unsigned char mem_byte(int rank, size_t i)
{
    return (unsigned char)(i * 131 + (size_t)rank * 7 + (i >> 13));
}

/* Read target's memory at off into local[len], waiting for it. */
static void read_wait(struct nt *t, int target, void *local, size_t len, size_t off)
{
    char err[256];
    int done = 0, rc;
    int before = t->reads_done;
    double give_up = nt_now() + NT_GIVE_UP;
    while ((rc = loom__fabric_read(t->f, target, local, len, t->mr.addr + off, t->mr.key, &done,
                                   err, sizeof err)) == 1) {
        nt_poll(t);
        CHECK(nt_now() < give_up);
    }
    if (rc) {
        fprintf(stderr, "process %d: %s\n", t->rank, err);
        _exit(99);
    }
    nt_wait(t, &done, 1, "a read");
    CHECK_INT(t->reads_done, before + 1);
    const unsigned char *p = local;
    for (size_t i = 0; i < len; i++)
        if (p[i] != mem_byte(target, off + i)) {
            fprintf(stderr, "process %d: read of %zu at %zu: byte %zu is %u, expected %u\n",
                    t->rank, len, off, i, p[i], mem_byte(target, off + i));
            _exit(99);
        }
}

/* Each process exposes BIG bytes and reads those of the next one: all of it, one byte, an odd
 * stretch into a buffer at an odd address, and 16 reads in flight at once. */
static void rma(struct nt *t)
{
    unsigned char *mine = aligned_alloc(4096, BIG);
    CHECK(mine);
    for (size_t i = 0; i < BIG; i++)
        mine[i] = mem_byte(t->rank, i);
    struct loom_fabric_mr mr;
    char err[256];
    if (loom__fabric_expose(t->f, mine, BIG, &mr, err, sizeof err)) {
        fprintf(stderr, "process %d: %s\n", t->rank, err);
        _exit(99);
    }
    struct nt_mrinfo info = {.h = {.type = NT_MRINFO, .from = (uint32_t)t->rank},
                             .key = mr.key, .addr = mr.addr};
    nt_send(t, (t->rank + t->P - 1) % t->P, &info, sizeof info);
    nt_wait(t, &t->have_mr, 1, "the next process's memory");
    int target = (t->rank + 1) % t->P;

    unsigned char *all = aligned_alloc(4096, BIG);
    unsigned char one;
    unsigned char *odd_mem = malloc((3u << 20) + 64);
    CHECK(all && odd_mem);
    read_wait(t, target, all, BIG, 0);
    read_wait(t, target, &one, 1, 12345);
    read_wait(t, target, odd_mem + 3, (3u << 20) + 11, 4097 + 5);

    /* 16 reads at once, each of 512 KiB - 1: several reads in flight together. */
    int done[16] = {0};
    size_t piece = (512u << 10) - 1;
    memset(all, 0, BIG);
    int before = t->reads_done;
    for (int k = 0; k < 16; k++) {
        int rc;
        double give_up = nt_now() + NT_GIVE_UP;
        while ((rc = loom__fabric_read(t->f, target, all + (size_t)k * piece, piece,
                                       t->mr.addr + (size_t)k * piece, t->mr.key, &done[k], err,
                                       sizeof err)) == 1) {
            nt_poll(t);
            CHECK(nt_now() < give_up);
        }
        CHECK_INT(rc, 0);
    }
    nt_wait(t, &t->reads_done, before + 16, "16 reads");
    for (size_t i = 0; i < 16 * piece; i++)
        CHECK_INT(all[i], mem_byte(target, i));
    CHECK_INT(atomic_load(&t->errors), 0);
    pthread_mutex_lock(&t->f->rma_lock);
    unsigned long busy = t->f->reads_busy, queued = t->f->reads_queued;
    pthread_mutex_unlock(&t->f->rma_lock);
    printf("process %d: reads of %u, 1 and %u bytes (odd address) and 16 at once checked; "
           "provider busy: %lu reads refused, %lu queued in part\n",
           t->rank, BIG, (3u << 20) + 11, busy, queued);
    /* With the provider's queues made tiny (the "small_queues" test) reads must have been
     * queued in part: poll posted their remaining pieces. */
    if (getenv("NT_EXPECT_QUEUED"))
        CHECK(queued > 0);

    /* Nobody reads mine any more once everyone is past this. */
    nt_barrier(t, 3);
    loom__fabric_unexpose(t->f, &mr);
    free(mine);
    free(all);
    free(odd_mem);
}

static void body(struct nt *t)
{
    t->raw = 1; /* before any message can come: the ping-pong's are raw */
    pingpong(t);
    burst(t);
    rma(t);
    nt_drain(t);
}

int main(int argc, char **argv)
{
    int P = argc > 1 ? atoi(argv[1]) : 2;
    const char *how = argc > 2 ? argv[2] : "";
    int threading = !strcmp(how, "domain") ? FI_THREAD_DOMAIN : FI_THREAD_SAFE;
    if (!strcmp(how, "local"))
        nt_mr_extra = FI_MR_LOCAL;
    return nt_job(P, MSG_MAX, 8, NSLOTS, threading, body);
}
