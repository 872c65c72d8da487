/* p2p_stress [MSGS [MAXBYTES [SEED]]] — randomized point-to-point traffic between all ranks.
 *
 * Every rank sends MSGS messages to every other rank (to itself when alone): random tags from
 * a small set, sizes from 0 B to MAXBYTES (many around the eager threshold), by Send, Ssend,
 * Bsend, Isend and Issend. A message carries a header (source, destination, tag, sequence
 * number per (source, destination, tag), length) and a checksum of its payload; a message
 * shorter than the header carries bytes derived from the same fields. Receivers use
 * wildcards, blocking and nonblocking receives, posted receives polled with Test, probes and
 * matched probes, and check that every message arrives exactly once, intact, in order per
 * (source, tag), and that nothing is left over.
 *
 * Why it cannot deadlock: each rank runs a sender thread and a receiver (the rank's own
 * thread). What a source sends to a destination follows from the seed, so every receiver
 * knows how many messages it waits for, per source and tag. A receiver only ever blocks for
 * "any message" (ANY_SOURCE + ANY_TAG) or for a message a probe has shown to be there, and
 * polls otherwise; so while it still expects messages, any message sent to it is eventually
 * matched, and every blocked send eventually completes.
 * The polling loops call MPI and nothing else between polls. With sched_yield between them,
 * node processes of a multi-node job sharing a 2-core VM (Linux 6.18's scheduler) were
 * starved for tens of seconds at a time, and a second job running beside them with them.
 * Ranks are threads of one process: all state is per rank (no writable globals). */
#include <pthread.h>
#include "p2p_check.h"

#define NTAGS 4
#define WINDOW 8
#define BSEND_MAX 4096
#define HDR_WORDS 6
#define HDR_BYTES (HDR_WORDS * sizeof(uint64_t))

struct cfg {
    int msgs;       /* per ordered pair of ranks */
    size_t max;     /* largest message */
    uint64_t seed;
    int rank, size;
};

static uint64_t mix(uint64_t x)
{
    x ^= x >> 30;
    x *= 0xbf58476d1ce4e5b9ull;
    x ^= x >> 27;
    x *= 0x94d049bb133111ebull;
    return x ^ (x >> 31);
}

struct rng {
    uint64_t s;
};

static uint64_t rnd(struct rng *r)
{
    r->s += 0x9e3779b97f4a7c15ull;
    return mix(r->s);
}

enum { M_SEND, M_SSEND, M_BSEND, M_ISEND, M_ISSEND };

struct msg {
    int tag, mode;
    size_t len;
};

static size_t pick_len(const struct cfg *c, struct rng *r)
{
    uint64_t x = rnd(r), k = x % 100, y = x >> 8;
    size_t len;
    if (k < 25)
        len = (size_t)(y % 33); /* 0 .. 32: shorter than the header too */
    else if (k < 50)
        len = 33 + (size_t)(y % 4064);
    else if (k < 72)
        len = 16384 - 256 + (size_t)(y % 513); /* around the default eager threshold */
    else if (k < 93)
        len = (size_t)(y % (c->max / 8 + 1));
    else
        len = (size_t)(y % (c->max + 1));
    return len < c->max ? len : c->max;
}

/* What src sends to dst, in order: known to both (same seed). */
static void plan(const struct cfg *c, int src, int dst, struct msg *out)
{
    struct rng r = {mix(c->seed ^ mix((uint64_t)src * 1000003u + (uint64_t)dst + 1))};
    for (int k = 0; k < c->msgs; k++) {
        out[k].tag = (int)(rnd(&r) % NTAGS);
        out[k].len = pick_len(c, &r);
        uint64_t m = rnd(&r) % 20;
        out[k].mode = m < 5 ? M_SEND : m < 8 ? M_SSEND : m < 10 ? M_BSEND
                                                   : m < 16 ? M_ISEND : M_ISSEND;
        if (out[k].mode == M_BSEND && out[k].len > BSEND_MAX)
            out[k].mode = M_ISEND;
    }
}

static uint64_t msg_key(const struct cfg *c, int src, int dst, int tag, int seq)
{
    return mix(c->seed + ((uint64_t)src << 40) + ((uint64_t)dst << 24) + ((uint64_t)tag << 20) +
               (uint64_t)seq);
}

static void fill(unsigned char *p, size_t n, uint64_t key)
{
    struct rng r = {key};
    size_t i = 0;
    for (; i + 8 <= n; i += 8) {
        uint64_t w = rnd(&r);
        memcpy(p + i, &w, 8);
    }
    if (i < n) {
        uint64_t w = rnd(&r);
        memcpy(p + i, &w, n - i);
    }
}

static uint64_t checksum(const unsigned char *p, size_t n)
{
    uint64_t h = 0xcbf29ce484222325ull;
    size_t i = 0;
    for (; i + 8 <= n; i += 8) {
        uint64_t w;
        memcpy(&w, p + i, 8);
        h = (h ^ w) * 0x100000001b3ull;
    }
    for (; i < n; i++)
        h = (h ^ p[i]) * 0x100000001b3ull;
    return h;
}

static void build(const struct cfg *c, unsigned char *p, size_t len, int dst, int tag, int seq)
{
    uint64_t key = msg_key(c, c->rank, dst, tag, seq);
    if (len < HDR_BYTES) {
        fill(p, len, key);
        return;
    }
    fill(p + HDR_BYTES, len - HDR_BYTES, key);
    uint64_t h[HDR_WORDS] = {(uint64_t)c->rank, (uint64_t)dst, (uint64_t)tag, (uint64_t)seq,
                             (uint64_t)len, checksum(p + HDR_BYTES, len - HDR_BYTES)};
    memcpy(p, h, sizeof h);
}

static void verify(const struct cfg *c, const unsigned char *p, size_t len, int src, int tag,
                   int seq)
{
    if (len < HDR_BYTES) {
        unsigned char want[HDR_BYTES];
        fill(want, len, msg_key(c, src, c->rank, tag, seq));
        if (memcmp(p, want, len) != 0) {
            fprintf(stderr, "stress: rank %d: short message from %d tag %d seq %d corrupt\n",
                    c->rank, src, tag, seq);
            CHECK(0);
        }
        return;
    }
    uint64_t h[HDR_WORDS];
    memcpy(h, p, sizeof h);
    CHECK_INT(h[0], src);
    CHECK_INT(h[1], c->rank);
    CHECK_INT(h[2], tag);
    CHECK_INT(h[3], seq);
    CHECK_INT(h[4], len);
    if (checksum(p + HDR_BYTES, len - HDR_BYTES) != h[5]) {
        fprintf(stderr, "stress: rank %d: message from %d tag %d seq %d (%zu B): bad checksum\n",
                c->rank, src, tag, seq, len);
        CHECK(0);
    }
}

/* ---- sender thread ------------------------------------------------------------------ */

static void *sender(void *p)
{
    const struct cfg *c = p;
    int n = c->size, me = c->rank, ndst = n > 1 ? n - 1 : 1;
    int *dsts = p2p_malloc(sizeof(int) * (size_t)ndst), *pos = calloc((size_t)ndst, sizeof(int));
    int *seq = calloc((size_t)ndst * NTAGS, sizeof(int));
    struct msg *plans = p2p_malloc(sizeof(struct msg) * (size_t)ndst * (size_t)c->msgs);
    CHECK(pos && seq);
    for (int i = 0, d = 0; d < n; d++)
        if (d != me || n == 1)
            dsts[i++] = d;
    for (int i = 0; i < ndst; i++)
        plan(c, me, dsts[i], plans + (size_t)i * (size_t)c->msgs);

    int bsize = WINDOW * (BSEND_MAX + MPI_BSEND_OVERHEAD);
    void *battach = p2p_malloc((size_t)bsize);
    OK(MPI_Buffer_attach(battach, bsize));

    MPI_Request win[WINDOW];
    unsigned char *wbuf[WINDOW];
    for (int i = 0; i < WINDOW; i++) {
        win[i] = MPI_REQUEST_NULL;
        wbuf[i] = NULL;
    }
    struct rng order = {mix(c->seed ^ 0x5e4d ^ ((uint64_t)me << 32))};
    int total = ndst * c->msgs;
    for (int sent = 0; sent < total; sent++) {
        int i;
        do
            i = (int)(rnd(&order) % (uint64_t)ndst);
        while (pos[i] == c->msgs);
        struct msg *m = &plans[(size_t)i * (size_t)c->msgs + (size_t)pos[i]++];
        int d = dsts[i], s = seq[i * NTAGS + m->tag]++;
        unsigned char *buf = p2p_malloc(m->len);
        build(c, buf, m->len, d, m->tag, s);
        int len = (int)m->len, rc;
        switch (m->mode) {
        case M_SEND:
            OK(MPI_Send(buf, len, MPI_BYTE, d, m->tag, MPI_COMM_WORLD));
            free(buf);
            break;
        case M_SSEND:
            OK(MPI_Ssend(buf, len, MPI_BYTE, d, m->tag, MPI_COMM_WORLD));
            free(buf);
            break;
        case M_BSEND:
            /* the attached buffer may be full of undelivered messages: then a plain send */
            rc = MPI_Bsend(buf, len, MPI_BYTE, d, m->tag, MPI_COMM_WORLD);
            if (rc == MPI_ERR_BUFFER)
                rc = MPI_Send(buf, len, MPI_BYTE, d, m->tag, MPI_COMM_WORLD);
            OK(rc);
            free(buf);
            break;
        default: {
            int slot = -1;
            for (int k = 0; k < WINDOW && slot < 0; k++)
                if (win[k] == MPI_REQUEST_NULL)
                    slot = k;
            if (slot < 0) { /* window full: retire one, by Waitany or by polling Testsome */
                if (sent % 2) {
                    OK(MPI_Waitany(WINDOW, win, &slot, MPI_STATUS_IGNORE));
                } else {
                    int cnt = 0, idx[WINDOW];
                    for (;;) {
                        OK(MPI_Testsome(WINDOW, win, &cnt, idx, MPI_STATUSES_IGNORE));
                        if (cnt > 0)
                            break;
                    }
                    for (int k = 1; k < cnt; k++) {
                        free(wbuf[idx[k]]);
                        wbuf[idx[k]] = NULL;
                    }
                    slot = idx[0];
                }
                CHECK(slot >= 0 && slot < WINDOW);
                free(wbuf[slot]);
            }
            wbuf[slot] = buf;
            if (m->mode == M_ISEND)
                OK(MPI_Isend(buf, len, MPI_BYTE, d, m->tag, MPI_COMM_WORLD, &win[slot]));
            else
                OK(MPI_Issend(buf, len, MPI_BYTE, d, m->tag, MPI_COMM_WORLD, &win[slot]));
        }
        }
    }
    OK(MPI_Waitall(WINDOW, win, MPI_STATUSES_IGNORE));
    for (int i = 0; i < WINDOW; i++)
        free(wbuf[i]);
    void *got;
    int got_size;
    OK(MPI_Buffer_detach(&got, &got_size)); /* waits until the buffered ones are delivered */
    CHECK(got == battach);
    free(battach);
    free(plans);
    free(seq);
    free(pos);
    free(dsts);
    return NULL;
}

/* ---- receiver (the rank's thread) ------------------------------------------------- */

struct expect {
    size_t *len[NTAGS]; /* lengths in order, per tag */
    int count[NTAGS], next[NTAGS];
};

struct recv_state {
    const struct cfg *c;
    struct expect *from; /* [size] */
    int left_by_tag[NTAGS];
    long received, bytes;
};

static void handle(struct recv_state *rs, const unsigned char *buf, const MPI_Status *st)
{
    int src = st->MPI_SOURCE, tag = st->MPI_TAG, count;
    CHECK(src >= 0 && src < rs->c->size);
    CHECK(src != rs->c->rank || rs->c->size == 1);
    CHECK(tag >= 0 && tag < NTAGS);
    struct expect *e = &rs->from[src];
    int k = e->next[tag];
    if (k >= e->count[tag]) {
        fprintf(stderr, "stress: rank %d: message %d from %d tag %d is one too many\n",
                rs->c->rank, k, src, tag);
        CHECK(0);
    }
    size_t len = e->len[tag][k];
    OK(MPI_Get_count(st, MPI_BYTE, &count));
    CHECK_INT(count, len);
    verify(rs->c, buf, len, src, tag, k);
    e->next[tag]++;
    rs->left_by_tag[tag]--;
    rs->received++;
    rs->bytes += (long)len;
}

/* Receive a message known to be there (probed) from src/tag with count bytes. */
static void recv_probed(struct recv_state *rs, const MPI_Status *pst, int nonblocking)
{
    int count;
    MPI_Status st;
    OK(MPI_Get_count(pst, MPI_BYTE, &count));
    unsigned char *buf = p2p_malloc((size_t)count);
    if (nonblocking) {
        MPI_Request r;
        OK(MPI_Irecv(buf, count, MPI_BYTE, pst->MPI_SOURCE, pst->MPI_TAG, MPI_COMM_WORLD, &r));
        OK(MPI_Wait(&r, &st));
    } else {
        OK(MPI_Recv(buf, count, MPI_BYTE, pst->MPI_SOURCE, pst->MPI_TAG, MPI_COMM_WORLD, &st));
    }
    handle(rs, buf, &st);
    free(buf);
}

static void receive_all(struct recv_state *rs, long total)
{
    const struct cfg *c = rs->c;
    unsigned char *big = p2p_malloc(c->max), *big2 = p2p_malloc(c->max);
    struct rng r = {mix(c->seed ^ 0x7ec0 ^ ((uint64_t)c->rank << 32))};
    MPI_Status st, pst;
    MPI_Message msg;
    MPI_Request req;
    int flag, count;
    while (rs->received < total) {
        switch (rnd(&r) % 6) {
        case 0: /* anything, blocking */
        any:
            OK(MPI_Recv(big, (int)c->max, MPI_BYTE, MPI_ANY_SOURCE, MPI_ANY_TAG, MPI_COMM_WORLD,
                        &st));
            handle(rs, big, &st);
            break;
        case 1: /* probe anything, then receive exactly it */
            OK(MPI_Probe(MPI_ANY_SOURCE, MPI_ANY_TAG, MPI_COMM_WORLD, &pst));
            recv_probed(rs, &pst, 0);
            break;
        case 2: { /* look for a given source and tag; else anything */
            int src = (int)(rnd(&r) % (uint64_t)c->size), tag = (int)(rnd(&r) % NTAGS);
            OK(MPI_Iprobe(src, tag, MPI_COMM_WORLD, &flag, &pst));
            if (!flag)
                goto any;
            CHECK_INT(pst.MPI_SOURCE, src);
            CHECK_INT(pst.MPI_TAG, tag);
            recv_probed(rs, &pst, 1);
            break;
        }
        case 3: /* matched probe */
            OK(MPI_Mprobe(MPI_ANY_SOURCE, MPI_ANY_TAG, MPI_COMM_WORLD, &msg, &pst));
            OK(MPI_Get_count(&pst, MPI_BYTE, &count));
            {
                unsigned char *buf = p2p_malloc((size_t)count);
                OK(MPI_Mrecv(buf, count, MPI_BYTE, &msg, &st));
                CHECK_INT(st.MPI_SOURCE, pst.MPI_SOURCE);
                handle(rs, buf, &st);
                free(buf);
            }
            break;
        case 4: /* nonblocking matched probe, else anything */
            OK(MPI_Improbe(MPI_ANY_SOURCE, MPI_ANY_TAG, MPI_COMM_WORLD, &flag, &msg, &pst));
            if (!flag)
                goto any;
            OK(MPI_Imrecv(big, (int)c->max, MPI_BYTE, &msg, &req));
            do
                OK(MPI_Test(&req, &flag, &st));
            while (!flag);
            handle(rs, big, &st);
            break;
        default: { /* a posted ANY_SOURCE receive for a tag still expected, polled; other
                    * messages are probed and received meanwhile */
            int tag = (int)(rnd(&r) % NTAGS);
            while (rs->left_by_tag[tag] == 0)
                tag = (tag + 1) % NTAGS;
            OK(MPI_Irecv(big2, (int)c->max, MPI_BYTE, MPI_ANY_SOURCE, tag, MPI_COMM_WORLD,
                         &req));
            for (;;) {
                OK(MPI_Test(&req, &flag, &st));
                if (flag) {
                    handle(rs, big2, &st);
                    break;
                }
                OK(MPI_Iprobe(MPI_ANY_SOURCE, MPI_ANY_TAG, MPI_COMM_WORLD, &flag, &pst));
                if (!flag)
                    continue;
                if (pst.MPI_TAG == tag) {
                    /* a message of our tag waits unmatched: the posted receive took an
                     * earlier one (it matches first); finish it first to keep the order */
                    OK(MPI_Wait(&req, &st));
                    handle(rs, big2, &st);
                    recv_probed(rs, &pst, 0);
                    break;
                }
                recv_probed(rs, &pst, 0);
            }
        }
        }
    }
    free(big);
    free(big2);
}

int main(int argc, char **argv)
{
    int provided;
    OK(MPI_Init_thread(&argc, &argv, MPI_THREAD_MULTIPLE, &provided));
    CHECK_INT(provided, MPI_THREAD_MULTIPLE);
    /* errors come back as codes (every call is checked): a Bsend that finds the buffer full
     * falls back to a plain send */
    OK(MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_RETURN));
    struct cfg c = {25, 3000000, 12345, p2p_rank(), p2p_size()};
    if (argc > 1)
        c.msgs = atoi(argv[1]);
    if (argc > 2)
        c.max = (size_t)strtoull(argv[2], NULL, 0);
    if (argc > 3)
        c.seed = strtoull(argv[3], NULL, 0);
    CHECK(c.msgs >= 0 && c.max >= 64 && c.max <= (size_t)1 << 30);

    /* what each source will send me, per tag */
    struct recv_state rs = {&c, calloc((size_t)c.size, sizeof(struct expect)), {0}, 0, 0};
    struct msg *pl = p2p_malloc(sizeof *pl * (size_t)c.msgs);
    CHECK(rs.from != NULL);
    long total = 0, want_bytes = 0;
    for (int s = 0; s < c.size; s++) {
        if (s == c.rank && c.size > 1)
            continue;
        plan(&c, s, c.rank, pl);
        struct expect *e = &rs.from[s];
        for (int t = 0; t < NTAGS; t++)
            e->len[t] = p2p_malloc(sizeof(size_t) * (size_t)c.msgs);
        for (int k = 0; k < c.msgs; k++) {
            int t = pl[k].tag;
            e->len[t][e->count[t]++] = pl[k].len;
            rs.left_by_tag[t]++;
            total++;
            want_bytes += (long)pl[k].len;
        }
    }
    free(pl);

    pthread_t th;
    CHECK_INT(pthread_create(&th, NULL, sender, &c), 0);
    receive_all(&rs, total);
    CHECK_INT(pthread_join(th, NULL), 0);

    CHECK_INT(rs.received, total);
    CHECK_INT(rs.bytes, want_bytes);
    for (int s = 0; s < c.size; s++)
        for (int t = 0; t < NTAGS; t++) {
            CHECK_INT(rs.from[s].next[t], rs.from[s].count[t]);
            free(rs.from[s].len[t]);
        }
    free(rs.from);
    /* exactly once: nothing left anywhere */
    int flag;
    OK(MPI_Barrier(MPI_COMM_WORLD));
    OK(MPI_Iprobe(MPI_ANY_SOURCE, MPI_ANY_TAG, MPI_COMM_WORLD, &flag, MPI_STATUS_IGNORE));
    CHECK_INT(flag, 0);
    OK(MPI_Barrier(MPI_COMM_WORLD));
    if (c.rank == 0)
        printf("p2p_stress: %d ranks, %d messages per pair, up to %zu bytes: ok (rank 0 got "
               "%ld messages, %ld bytes)\n",
               c.size, c.msgs, c.max, rs.received, rs.bytes);
    OK(MPI_Finalize());
    return 0;
}
