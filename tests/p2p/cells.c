/* Small messages through the rings of cells (p2p/inbox.h): a standard send of at most 940
 * bytes (16 cells, with rings of 64 cells: up to 62 ranks) to a receiver with no posted
 * receive goes into a cell of the ring (sender, receiver), or several consecutive ones above
 * 40 bytes, and is matched by the receiver. Each section checks what would break if a cell
 * were lost,
 * seen twice, overtaken or overtaking, matched on the wrong communicator or unpacked wrong:
 *  1. order across paths (cells, eager, rendezvous, synchronous, buffered, persistent sends)
 *     from one sender,
 *     same and mixed tags, received after a barrier, after a marker, with no sync at all, by
 *     specific / ANY_TAG / ANY_SOURCE, blocking, nonblocking, persistent, probed receives,
 *     and with every receive posted first;
 *  2. more unreceived small messages of one cell and of several than a ring holds (100: the
 *     ring fills, its sender waits or drains it), with
 *     MPI_ERR_TRUNCATE on some receives (status filled, nothing written past the buffer),
 *     a marker on another communicator, and many senders to one receiver;
 *  3. probes (Iprobe, Probe, Improbe+Mrecv, Mprobe+Imrecv) see cells with their count; a
 *     probe on a dup never sees the parent's messages; a receiver blocked in Recv, Probe,
 *     Mprobe or a Test loop gets the cell sent after it started waiting (ping-pong; the
 *     sender sometimes pauses so that the receiver falls asleep first);
 *  4. derived datatypes in a cell (vector, indexed, resized, hindexed with a true lb, struct,
 *     MPI_BOTTOM with absolute addresses) unpacked into other layouts, Get_count and
 *     Get_elements, through the blocking fast path (certainly so with oneself) and through a
 *     drained cell;
 *  5. communicators freed with cells never received (dup, reordered split, pair split),
 *     50 rounds, some freed while their cells are still in the rings (ASan sees a cell
 *     matched into a freed queue); messages on a dup never match the parent; world
 *     traffic afterwards;
 *  6. messages to oneself (world and MPI_COMM_SELF, ring full on the self ring, a truncated
 *     blocking receive of the cell at the head of the ring, posted first, Sendrecv,
 *     Request_free, Issend);
 *  7. receives posted first (Send, Rsend), then racing rounds completed by every wait/test
 *     call, a posted receive then a blocking one (each gets its own message), Sendrecv
 *     with the partner, and a cancelled cell send that must still be delivered.
 * Each message's bytes are p2p_fill(id) with an id naming section, round, source and index;
 * GUARD bytes after every receive buffer must stay untouched.
 * Ranks are threads of one process: all state lives in locals. */
#define _POSIX_C_SOURCE 200809L /* nanosleep */
#include <stddef.h>
#include <time.h>
#include "p2p_check.h"

#define BIG 200000 /* rendezvous */
#define MOST 940    /* the most a message may take in cells: 16 cells (rings of 64 cells) */
#define GUARD 64
#define MARK 99 /* tag of the marker message sent after a batch */

struct env {
    int rank, size, peer;
    MPI_Comm ret;          /* a dup of MPI_COMM_WORLD under MPI_ERRORS_RETURN */
    unsigned char *rbuf;   /* BIG + GUARD bytes */
    unsigned char *sbuf;   /* BIG bytes */
};

static unsigned mid(int sec, int round, int src, int i)
{
    return (unsigned)((((sec * 64 + round) * 16 + src) * 1024) + i);
}

/* Fail with context: which message, what came, what was expected. */
static void expect(const struct env *e, const char *what, int i, const unsigned char *buf,
                   const MPI_Status *st, int src, int tag, size_t len, unsigned id)
{
    int cnt = -1;
    OK(MPI_Get_count(st, MPI_BYTE, &cnt));
    const char *bad = NULL;
    size_t k = 0;
    if (st->MPI_SOURCE != src || st->MPI_TAG != tag || cnt != (int)len)
        bad = "envelope";
    for (; !bad && k < len; k++)
        if (buf[k] != p2p_byte(id, k))
            bad = "data";
    for (k = 0; !bad && k < GUARD; k++)
        if (buf[len + k] != 0xcc)
            bad = "bytes past the message written";
    if (bad) {
        fprintf(stderr,
                "rank %d: %s, message %d: wrong %s: got source %d tag %d count %d, expected "
                "source %d tag %d count %zu\n",
                e->rank, what, i, bad, st->MPI_SOURCE, st->MPI_TAG, cnt, src, tag, len);
        fflush(NULL);
        _exit(99);
    }
}

static void prep(unsigned char *buf, size_t len)
{
    memset(buf, 0xcc, len + GUARD);
}

/* ---------------------------------------------------------------------------------------- */
/* 1. order across paths */

#define NORD 60
enum { M_SEND, M_ISEND, M_ISSEND, M_BSEND, M_PSEND /* persistent: Send_init + Start */ };

static size_t ord_len(int i)
{
    /* 41 - 940: several cells (940 is the most a message may take, 941 one more) */
    static const size_t l[] = {0, 1, 8, 40, 41, 1000, 16384, 20000, BIG, 100, MOST, MOST + 1,
                               220, 500};
    return l[(i * 5 + i / 14) % 14];
}

/* Mark all 8 ints of a receive buffer as not written (-1). */
static void unset8(int *r8)
{
    for (int k = 0; k < 8; k++)
        r8[k] = -1;
}

static int ord_tag(int i)
{
    return (i * 5 + i / 3) % 3;
}

static int ord_mode(int i)
{
    size_t len = ord_len(i);
    int m = (i * 3 + i / 4) % 5;
    if (len > 1000 && (m == M_SEND || m == M_BSEND))
        m = m == M_SEND ? M_ISEND : M_ISSEND; /* blocking only where it cannot block */
    return m;
}

static void check_ord(const struct env *e, const char *what, int round, int i,
                      const unsigned char *buf, const MPI_Status *st)
{
    expect(e, what, i, buf, st, e->peer, ord_tag(i), ord_len(i), mid(1, round, e->peer, i));
}

/* v: 0 barrier, then specific tags in reverse tag order; 1 marker, ANY_TAG in order;
 * 2 barrier, ANY_SOURCE/ANY_TAG by Irecv and a persistent receive; 3 marker, all posted at
 * once; 4 no sync, probes of every kind; 5 every receive posted first (Rsend allowed). */
static void sec_order(const struct env *e, int round, int v)
{
    int peer = e->peer, rank = e->rank;
    unsigned char *sb[NORD], *rb[NORD];
    MPI_Request sreq[NORD], rreq[NORD];
    MPI_Status st, sts[NORD];
    unsigned char *rbuf = e->rbuf;
    const int cap = BIG + GUARD;
    int flag;

    if (v == 5) {
        for (int i = 0; i < NORD; i++) {
            size_t len = ord_len(i);
            rb[i] = p2p_malloc(len + GUARD);
            prep(rb[i], len);
            int src = i % 3 == 2 ? MPI_ANY_SOURCE : peer;
            int tag = i % 3 == 0 ? ord_tag(i) : MPI_ANY_TAG;
            OK(MPI_Irecv(rb[i], (int)(len + GUARD), MPI_BYTE, src, tag, MPI_COMM_WORLD,
                         &rreq[i]));
        }
        OK(MPI_Barrier(MPI_COMM_WORLD));
    }
    for (int i = 0; i < NORD; i++) {
        size_t len = ord_len(i);
        int n = (int)len, tag = ord_tag(i);
        sb[i] = p2p_malloc(len);
        p2p_fill(sb[i], len, mid(1, round, rank, i));
        sreq[i] = MPI_REQUEST_NULL;
        switch (ord_mode(i)) {
        case M_SEND:
            if (v == 5)
                OK(MPI_Rsend(sb[i], n, MPI_BYTE, peer, tag, MPI_COMM_WORLD));
            else
                OK(MPI_Send(sb[i], n, MPI_BYTE, peer, tag, MPI_COMM_WORLD));
            break;
        case M_ISEND:
            OK(MPI_Isend(sb[i], n, MPI_BYTE, peer, tag, MPI_COMM_WORLD, &sreq[i]));
            break;
        case M_ISSEND:
            OK(MPI_Issend(sb[i], n, MPI_BYTE, peer, tag, MPI_COMM_WORLD, &sreq[i]));
            break;
        case M_PSEND:
            OK(MPI_Send_init(sb[i], n, MPI_BYTE, peer, tag, MPI_COMM_WORLD, &sreq[i]));
            OK(MPI_Start(&sreq[i]));
            break;
        default:
            OK(MPI_Bsend(sb[i], n, MPI_BYTE, peer, tag, MPI_COMM_WORLD));
        }
    }
    if (v == 1 || v == 3) {
        OK(MPI_Send(NULL, 0, MPI_BYTE, peer, MARK, MPI_COMM_WORLD));
        OK(MPI_Recv(NULL, 0, MPI_BYTE, peer, MARK, MPI_COMM_WORLD, &st));
        CHECK_STATUS(st, peer, MARK, 0);
    }
    if (v == 0 || v == 2)
        OK(MPI_Barrier(MPI_COMM_WORLD));

    switch (v) {
    case 0:
        for (int t = 2; t >= 0; t--)
            for (int i = 0; i < NORD; i++) {
                if (ord_tag(i) != t)
                    continue;
                prep(rbuf, ord_len(i));
                OK(MPI_Recv(rbuf, cap, MPI_BYTE, peer, t, MPI_COMM_WORLD, &st));
                check_ord(e, "order/specific tags", round, i, rbuf, &st);
            }
        break;
    case 1:
        for (int i = 0; i < NORD; i++) {
            prep(rbuf, ord_len(i));
            OK(MPI_Recv(rbuf, cap, MPI_BYTE, peer, MPI_ANY_TAG, MPI_COMM_WORLD, &st));
            check_ord(e, "order/ANY_TAG", round, i, rbuf, &st);
        }
        break;
    case 2: {
        MPI_Request pr;
        OK(MPI_Recv_init(rbuf, cap, MPI_BYTE, MPI_ANY_SOURCE, MPI_ANY_TAG, MPI_COMM_WORLD, &pr));
        for (int i = 0; i < NORD; i++) {
            prep(rbuf, ord_len(i));
            if (i % 2) {
                OK(MPI_Start(&pr));
                OK(MPI_Wait(&pr, &st));
            } else {
                MPI_Request r;
                OK(MPI_Irecv(rbuf, cap, MPI_BYTE, MPI_ANY_SOURCE, MPI_ANY_TAG, MPI_COMM_WORLD,
                             &r));
                OK(MPI_Wait(&r, &st));
            }
            check_ord(e, "order/ANY_SOURCE", round, i, rbuf, &st);
        }
        OK(MPI_Request_free(&pr));
        break;
    }
    case 3:
        for (int i = 0; i < NORD; i++) {
            size_t len = ord_len(i);
            rb[i] = p2p_malloc(len + GUARD);
            prep(rb[i], len);
            OK(MPI_Irecv(rb[i], (int)(len + GUARD), MPI_BYTE, peer,
                         i % 2 ? MPI_ANY_TAG : ord_tag(i), MPI_COMM_WORLD, &rreq[i]));
        }
        OK(MPI_Waitall(NORD, rreq, sts));
        for (int i = 0; i < NORD; i++) {
            check_ord(e, "order/posted after marker", round, i, rb[i], &sts[i]);
            free(rb[i]);
        }
        break;
    case 4:
        for (int i = 0; i < NORD; i++) {
            size_t len = ord_len(i);
            int tag = ord_tag(i);
            prep(rbuf, len);
            switch (i % 5) {
            case 0:
                OK(MPI_Probe(peer, tag, MPI_COMM_WORLD, &st));
                CHECK_STATUS(st, peer, tag, len);
                OK(MPI_Recv(rbuf, cap, MPI_BYTE, peer, tag, MPI_COMM_WORLD, &st));
                break;
            case 1: {
                MPI_Message msg;
                do
                    OK(MPI_Improbe(peer, MPI_ANY_TAG, MPI_COMM_WORLD, &flag, &msg, &st));
                while (!flag);
                CHECK_STATUS(st, peer, tag, len);
                OK(MPI_Mrecv(rbuf, cap, MPI_BYTE, &msg, &st));
                CHECK(msg == MPI_MESSAGE_NULL);
                break;
            }
            case 2:
                OK(MPI_Recv(rbuf, cap, MPI_BYTE, peer, tag, MPI_COMM_WORLD, &st));
                break;
            case 3: {
                MPI_Request r;
                do
                    OK(MPI_Iprobe(MPI_ANY_SOURCE, tag, MPI_COMM_WORLD, &flag, &st));
                while (!flag);
                CHECK_STATUS(st, peer, tag, len);
                OK(MPI_Irecv(rbuf, cap, MPI_BYTE, st.MPI_SOURCE, st.MPI_TAG, MPI_COMM_WORLD,
                             &r));
                OK(MPI_Wait(&r, &st));
                break;
            }
            default: {
                MPI_Message msg;
                MPI_Request r;
                OK(MPI_Mprobe(MPI_ANY_SOURCE, MPI_ANY_TAG, MPI_COMM_WORLD, &msg, &st));
                CHECK_STATUS(st, peer, tag, len);
                OK(MPI_Imrecv(rbuf, cap, MPI_BYTE, &msg, &r));
                OK(MPI_Wait(&r, &st));
            }
            }
            check_ord(e, "order/no sync, probes", round, i, rbuf, &st);
        }
        break;
    default:
        OK(MPI_Waitall(NORD, rreq, sts));
        for (int i = 0; i < NORD; i++) {
            check_ord(e, "order/posted first", round, i, rb[i], &sts[i]);
            free(rb[i]);
        }
    }
    OK(MPI_Waitall(NORD, sreq, MPI_STATUSES_IGNORE));
    for (int i = 0; i < NORD; i++) {
        if (ord_mode(i) == M_PSEND)
            OK(MPI_Request_free(&sreq[i]));
        free(sb[i]);
    }
    if (v != 1 && v != 4)
        OK(MPI_Barrier(MPI_COMM_WORLD));
}

/* ---------------------------------------------------------------------------------------- */
/* 2. the ring fills; truncation; many senders to one receiver */

#define NFULL 100
#define NFAN 30

/* One cell (0 - 40 bytes) for even i, several (41 - 940) for odd i: the ring fills sooner,
 * and a message of several cells may find only some free. */
static size_t full_len(int phase, int i)
{
    if (i % 2 == 0)
        return (size_t)((i * 13 + phase * 5) % 41);
    return 41 + (size_t)((i * 97 + phase * 31) % (MOST - 40));
}

/* Truncated receive of message i (len > 0) into len - 1 bytes. */
static void check_cut(const struct env *e, int i, const unsigned char *buf, const MPI_Status *st,
                      int src, int tag, size_t len, unsigned id)
{
    int cnt = -1;
    CHECK_INT(st->MPI_SOURCE, src);
    CHECK_INT(st->MPI_TAG, tag);
    OK(MPI_Get_count(st, MPI_BYTE, &cnt));
    CHECK_INT(cnt, (int)len - 1);
    CHECK_FILL(buf, len - 1, id);
    CHECK_BYTES(buf + len - 1, GUARD, 0xcc);
    (void)e;
    (void)i;
}

/* phase 0: barrier before receiving; 1: receive at once; 2: marker on MPI_COMM_WORLD */
static void sec_full(const struct env *e, int phase)
{
    int peer = e->peer;
    MPI_Comm comm = e->ret;
    unsigned char sbuf[MOST], *rbuf = e->rbuf;
    MPI_Status st;
    MPI_Request r;
    int flag;
    for (int i = 0; i < NFULL; i++) {
        size_t len = full_len(phase, i);
        p2p_fill(sbuf, len, mid(2, phase, e->rank, i));
        OK(MPI_Send(sbuf, (int)len, MPI_BYTE, peer, i % 3, comm));
        memset(sbuf, 0x5a, sizeof sbuf); /* the send is complete: the buffer is ours again */
    }
    if (phase == 0)
        OK(MPI_Barrier(comm));
    if (phase == 2) {
        OK(MPI_Send(NULL, 0, MPI_BYTE, peer, MARK, MPI_COMM_WORLD));
        OK(MPI_Recv(NULL, 0, MPI_BYTE, peer, MARK, MPI_COMM_WORLD, &st));
        CHECK_STATUS(st, peer, MARK, 0);
    }
    for (int i = 0; i < NFULL; i++) {
        size_t len = full_len(phase, i);
        int tag = i % 3, rtag = i % 2 ? MPI_ANY_TAG : tag;
        unsigned id = mid(2, phase, peer, i);
        prep(rbuf, MOST);
        memset(&st, 0, sizeof st);
        if (len > 0 && i % 7 == 3) {
            FAILS(MPI_Recv(rbuf, (int)len - 1, MPI_BYTE, peer, rtag, comm, &st),
                  MPI_ERR_TRUNCATE);
            check_cut(e, i, rbuf, &st, peer, tag, len, id);
        } else if (len > 0 && i % 7 == 5) {
            OK(MPI_Irecv(rbuf, (int)len - 1, MPI_BYTE, MPI_ANY_SOURCE, rtag, comm, &r));
            FAILS(MPI_Wait(&r, &st), MPI_ERR_TRUNCATE);
            CHECK(r == MPI_REQUEST_NULL);
            check_cut(e, i, rbuf, &st, peer, tag, len, id);
        } else if (i % 7 == 6) {
            OK(MPI_Irecv(rbuf, MOST, MPI_BYTE, MPI_ANY_SOURCE, MPI_ANY_TAG, comm, &r));
            do
                OK(MPI_Test(&r, &flag, &st));
            while (!flag);
            expect(e, "ring full/Test", i, rbuf, &st, peer, tag, len, id);
        } else {
            OK(MPI_Recv(rbuf, MOST, MPI_BYTE, peer, rtag, comm, &st));
            expect(e, "ring full/Recv", i, rbuf, &st, peer, tag, len, id);
        }
    }
    OK(MPI_Barrier(comm));
}

/* Every rank sends NFAN small messages to rank 0, which takes them in any order of sources
 * but in order per source. */
static void sec_fan_in(const struct env *e)
{
    unsigned char sbuf[48], *rbuf = e->rbuf;
    MPI_Status st;
    int size = e->size;
    for (int i = 0; i < NFAN; i++) {
        size_t len = (size_t)((i * 7 + e->rank) % 41);
        p2p_fill(sbuf, len, mid(2, 9, e->rank, i));
        OK(MPI_Send(sbuf, (int)len, MPI_BYTE, 0, i % 2, MPI_COMM_WORLD));
    }
    if (e->rank == 0) {
        int *next = calloc((size_t)size, sizeof *next);
        CHECK(next != NULL);
        for (int k = 0; k < size * NFAN; k++) {
            prep(rbuf, 40);
            if (k % 3 == 0) {
                OK(MPI_Recv(rbuf, 40, MPI_BYTE, MPI_ANY_SOURCE, MPI_ANY_TAG, MPI_COMM_WORLD,
                            &st));
            } else if (k % 3 == 1) {
                MPI_Request r;
                OK(MPI_Irecv(rbuf, 40, MPI_BYTE, MPI_ANY_SOURCE, MPI_ANY_TAG, MPI_COMM_WORLD,
                             &r));
                OK(MPI_Wait(&r, &st));
            } else {
                int c0, c1;
                OK(MPI_Probe(MPI_ANY_SOURCE, MPI_ANY_TAG, MPI_COMM_WORLD, &st));
                OK(MPI_Get_count(&st, MPI_BYTE, &c0));
                int src = st.MPI_SOURCE, tag = st.MPI_TAG;
                OK(MPI_Recv(rbuf, 40, MPI_BYTE, src, tag, MPI_COMM_WORLD, &st));
                OK(MPI_Get_count(&st, MPI_BYTE, &c1));
                CHECK_INT(st.MPI_SOURCE, src);
                CHECK_INT(c1, c0); /* the probed message, not a later one */
            }
            int src = st.MPI_SOURCE;
            CHECK(src >= 0 && src < size);
            int i = next[src]++;
            CHECK(i < NFAN);
            expect(e, "fan-in", i, rbuf, &st, src, i % 2, (size_t)((i * 7 + src) % 41),
                   mid(2, 9, src, i));
        }
        free(next);
    }
    OK(MPI_Barrier(MPI_COMM_WORLD));
}

/* ---------------------------------------------------------------------------------------- */
/* 3. probes */

static void sec_probe(const struct env *e)
{
    int peer = e->peer, rank = e->rank, flag, n;
    MPI_Comm dup;
    MPI_Status st;
    MPI_Message msg;
    MPI_Request r;
    unsigned char sbuf[48], *rbuf = e->rbuf;
    int ints[3] = {rank * 10 + 1, rank * 10 + 2, rank * 10 + 3}, got[4];
    OK(MPI_Comm_dup(MPI_COMM_WORLD, &dup));

    /* world 20 (8 B), dup 20 (5 B), world 21 (0 B), 22 (40 B), 23 (13 B), 24 (3 ints) */
    p2p_fill(sbuf, 8, mid(3, 0, rank, 0));
    OK(MPI_Send(sbuf, 8, MPI_BYTE, peer, 20, MPI_COMM_WORLD));
    p2p_fill(sbuf, 5, mid(3, 0, rank, 1));
    OK(MPI_Send(sbuf, 5, MPI_BYTE, peer, 20, dup));
    OK(MPI_Send(sbuf, 0, MPI_BYTE, peer, 21, MPI_COMM_WORLD));
    p2p_fill(sbuf, 40, mid(3, 0, rank, 3));
    OK(MPI_Send(sbuf, 40, MPI_BYTE, peer, 22, MPI_COMM_WORLD));
    p2p_fill(sbuf, 13, mid(3, 0, rank, 4));
    OK(MPI_Send(sbuf, 13, MPI_BYTE, peer, 23, MPI_COMM_WORLD));
    OK(MPI_Send(ints, 3, MPI_INT, peer, 24, MPI_COMM_WORLD));

    /* the last one there: all are there */
    OK(MPI_Probe(peer, 24, MPI_COMM_WORLD, &st));
    CHECK_STATUS(st, peer, 24, 12);
    OK(MPI_Get_count(&st, MPI_INT, &n));
    CHECK_INT(n, 3);
    /* the dup sees its own message only */
    OK(MPI_Probe(peer, 20, dup, &st));
    CHECK_STATUS(st, peer, 20, 5);
    for (int t = 21; t <= 24; t++) {
        OK(MPI_Iprobe(peer, t, dup, &flag, &st));
        CHECK_INT(flag, 0);
        OK(MPI_Iprobe(MPI_ANY_SOURCE, t, dup, &flag, &st));
        CHECK_INT(flag, 0);
    }
    OK(MPI_Iprobe(MPI_ANY_SOURCE, MPI_ANY_TAG, dup, &flag, &st));
    CHECK_INT(flag, 1);
    CHECK_STATUS(st, peer, 20, 5);
    /* world: the first one, not consumed by probing */
    do
        OK(MPI_Iprobe(peer, MPI_ANY_TAG, MPI_COMM_WORLD, &flag, &st));
    while (!flag);
    CHECK_STATUS(st, peer, 20, 8);
    OK(MPI_Probe(MPI_ANY_SOURCE, MPI_ANY_TAG, MPI_COMM_WORLD, &st));
    CHECK_STATUS(st, peer, 20, 8);
    prep(rbuf, 8);
    OK(MPI_Recv(rbuf, 40, MPI_BYTE, peer, 20, MPI_COMM_WORLD, &st));
    expect(e, "probe/Recv", 0, rbuf, &st, peer, 20, 8, mid(3, 0, peer, 0));
    /* matched probes, out of order */
    do
        OK(MPI_Improbe(MPI_ANY_SOURCE, 22, MPI_COMM_WORLD, &flag, &msg, &st));
    while (!flag);
    CHECK_STATUS(st, peer, 22, 40);
    prep(rbuf, 40);
    OK(MPI_Mrecv(rbuf, 40, MPI_BYTE, &msg, &st));
    expect(e, "probe/Improbe+Mrecv", 3, rbuf, &st, peer, 22, 40, mid(3, 0, peer, 3));
    OK(MPI_Mprobe(peer, 21, MPI_COMM_WORLD, &msg, &st));
    CHECK_STATUS(st, peer, 21, 0);
    prep(rbuf, 0);
    OK(MPI_Imrecv(rbuf, 40, MPI_BYTE, &msg, &r));
    OK(MPI_Wait(&r, &st));
    expect(e, "probe/Mprobe+Imrecv", 2, rbuf, &st, peer, 21, 0, 0);
    OK(MPI_Iprobe(MPI_ANY_SOURCE, MPI_ANY_TAG, MPI_COMM_WORLD, &flag, &st));
    CHECK_INT(flag, 1);
    CHECK_STATUS(st, peer, 23, 13);
    OK(MPI_Get_count(&st, MPI_INT, &n));
    CHECK_INT(n, MPI_UNDEFINED);
    prep(rbuf, 13);
    OK(MPI_Recv(rbuf, 40, MPI_BYTE, MPI_ANY_SOURCE, MPI_ANY_TAG, MPI_COMM_WORLD, &st));
    expect(e, "probe/ANY", 4, rbuf, &st, peer, 23, 13, mid(3, 0, peer, 4));
    got[3] = -7;
    OK(MPI_Recv(got, 3, MPI_INT, peer, 24, MPI_COMM_WORLD, &st));
    OK(MPI_Get_count(&st, MPI_INT, &n));
    CHECK_INT(n, 3);
    for (int k = 0; k < 3; k++)
        CHECK_INT(got[k], peer * 10 + k + 1);
    CHECK_INT(got[3], -7);
    OK(MPI_Iprobe(MPI_ANY_SOURCE, MPI_ANY_TAG, MPI_COMM_WORLD, &flag, &st));
    CHECK_INT(flag, 0);
    prep(rbuf, 5);
    OK(MPI_Recv(rbuf, 40, MPI_BYTE, MPI_ANY_SOURCE, MPI_ANY_TAG, dup, &st));
    expect(e, "probe/dup", 1, rbuf, &st, peer, 20, 5, mid(3, 0, peer, 1));
    OK(MPI_Iprobe(MPI_ANY_SOURCE, MPI_ANY_TAG, dup, &flag, &st));
    CHECK_INT(flag, 0);
    OK(MPI_Barrier(MPI_COMM_WORLD));
    OK(MPI_Comm_free(&dup));
}

/* Ping-pong: one side waits (Recv, Probe, Iprobe loop, Mprobe, Test loop) before the cell it
 * waits for is sent, so a waiting receiver must be woken by a cell. */
#define NPING 60
static void sec_pingpong(const struct env *e)
{
    int peer = e->peer, rank = e->rank, flag;
    int starts = rank <= peer; /* sends first (alone: to itself) */
    unsigned char sbuf[48], *rbuf = e->rbuf;
    MPI_Status st;
    MPI_Request r;
    MPI_Message msg;
    for (int i = 0; i < NPING; i++) {
        size_t len = (size_t)((i * 11) % 41);
        int tag = 60 + i % 2;
        for (int step = 0; step < 2; step++) {
            if ((step == 0) == starts) {
                /* now and then the receiver, blocked in a probe, has time to fall asleep:
                 * the cell must wake it (the outcome does not depend on the delay) */
                if (i < 24 && (i % 6 == 2 || i % 6 == 4) && peer != rank)
                    nanosleep(&(struct timespec){0, 10000000}, NULL);
                p2p_fill(sbuf, len, mid(3, 1, rank, i));
                OK(MPI_Send(sbuf, (int)len, MPI_BYTE, peer, tag, MPI_COMM_WORLD));
                continue;
            }
            prep(rbuf, len);
            switch (i % 6) {
            case 0:
                OK(MPI_Recv(rbuf, 40, MPI_BYTE, peer, tag, MPI_COMM_WORLD, &st));
                break;
            case 1:
                OK(MPI_Irecv(rbuf, 40, MPI_BYTE, peer, MPI_ANY_TAG, MPI_COMM_WORLD, &r));
                OK(MPI_Wait(&r, &st));
                break;
            case 2:
                OK(MPI_Probe(MPI_ANY_SOURCE, tag, MPI_COMM_WORLD, &st));
                CHECK_STATUS(st, peer, tag, len);
                OK(MPI_Recv(rbuf, 40, MPI_BYTE, peer, tag, MPI_COMM_WORLD, &st));
                break;
            case 3:
                do
                    OK(MPI_Iprobe(peer, tag, MPI_COMM_WORLD, &flag, &st));
                while (!flag);
                CHECK_STATUS(st, peer, tag, len);
                OK(MPI_Recv(rbuf, 40, MPI_BYTE, MPI_ANY_SOURCE, tag, MPI_COMM_WORLD, &st));
                break;
            case 4:
                OK(MPI_Mprobe(peer, MPI_ANY_TAG, MPI_COMM_WORLD, &msg, &st));
                CHECK_STATUS(st, peer, tag, len);
                OK(MPI_Mrecv(rbuf, 40, MPI_BYTE, &msg, &st));
                break;
            default:
                OK(MPI_Irecv(rbuf, 40, MPI_BYTE, MPI_ANY_SOURCE, MPI_ANY_TAG, MPI_COMM_WORLD,
                             &r));
                do
                    OK(MPI_Test(&r, &flag, &st));
                while (!flag);
            }
            expect(e, "ping-pong", i, rbuf, &st, peer, tag, len, mid(3, 1, peer, i));
        }
    }
    OK(MPI_Barrier(MPI_COMM_WORLD));
}

/* ---------------------------------------------------------------------------------------- */
/* 4. derived datatypes in cells */

struct cd {
    char c;
    double d;
};

/* mode 0: from the partner, blocking receives; 1: from the partner, Irecv (the cell is drained
 * and unpacked by the engine); 2: from oneself, blocking (the cell is at the head of the self
 * ring: unpacked by the fast path). */
static void sec_types(const struct env *e, int mode)
{
    int peer = mode == 2 ? e->rank : e->peer, rank = e->rank, n, nonblocking = mode == 1;
    MPI_Status st;
    MPI_Datatype vec, idx, vec10, dvec, dvec3, sty, hidx8, hidx4, res, dupint, abs_s, abs_r;
    OK(MPI_Type_vector(3, 1, 2, MPI_INT, &vec));
    int bl[3] = {1, 1, 1}, disp[3] = {4, 0, 2};
    OK(MPI_Type_indexed(3, bl, disp, MPI_INT, &idx));
    OK(MPI_Type_vector(10, 1, 2, MPI_INT, &vec10));
    OK(MPI_Type_vector(5, 1, 100, MPI_DOUBLE, &dvec)); /* 40 bytes over 3208 */
    OK(MPI_Type_vector(5, 1, 3, MPI_DOUBLE, &dvec3));
    {
        int sbl[2] = {1, 1};
        MPI_Aint sdisp[2] = {offsetof(struct cd, c), offsetof(struct cd, d)};
        MPI_Datatype st2[2] = {MPI_CHAR, MPI_DOUBLE}, tmp;
        OK(MPI_Type_create_struct(2, sbl, sdisp, st2, &tmp));
        OK(MPI_Type_create_resized(tmp, 0, (MPI_Aint)sizeof(struct cd), &sty));
        OK(MPI_Type_free(&tmp));
    }
    int one = 3;
    MPI_Aint d8 = 8, d4 = 4;
    OK(MPI_Type_create_hindexed(1, &one, &d8, MPI_INT, &hidx8)); /* true lb 8 */
    OK(MPI_Type_create_hindexed(1, &one, &d4, MPI_INT, &hidx4));
    OK(MPI_Type_create_resized(MPI_INT, 0, 8, &res)); /* one int every 8 bytes */
    OK(MPI_Type_dup(MPI_INT, &dupint));
    int abs_src[3] = {rank + 500, rank + 600, rank + 700}, abs_dst[4] = {-1, -1, -1, -1};
    {
        MPI_Aint a;
        int three = 3;
        MPI_Datatype tint = MPI_INT;
        OK(MPI_Get_address(abs_src, &a));
        OK(MPI_Type_create_struct(1, &three, &a, &tint, &abs_s));
        OK(MPI_Get_address(&abs_dst[1], &a));
        OK(MPI_Type_create_struct(1, &three, &a, &tint, &abs_r));
    }
    MPI_Datatype all[] = {vec, idx, vec10, dvec, dvec3, sty, hidx8, hidx4, res, dupint, abs_s,
                          abs_r};
    for (size_t k = 0; k < sizeof all / sizeof all[0]; k++)
        OK(MPI_Type_commit(&all[k]));

    int s6[6], s20[20];
    double sd[1000];
    struct cd scd[4];
    for (int k = 0; k < 6; k++)
        s6[k] = rank * 100 + k;
    for (int k = 0; k < 20; k++)
        s20[k] = rank * 100 + k;
    for (int k = 0; k < 1000; k++)
        sd[k] = rank * 10000.0 + k;
    memset(scd, 0, sizeof scd);
    for (int k = 0; k < 4; k++) {
        scd[k].c = (char)('a' + rank + k);
        scd[k].d = rank + k / 4.0;
    }
    int base = 70 + 20 * mode;
    OK(MPI_Send(s6, 1, vec, peer, base + 0, MPI_COMM_WORLD));      /* 12 B */
    OK(MPI_Send(s6, 1, vec, peer, base + 1, MPI_COMM_WORLD));      /* 12 B */
    OK(MPI_Send(s6 + 1, 2, MPI_INT, peer, base + 2, MPI_COMM_WORLD)); /* 8 B */
    OK(MPI_Send(s20, 10, dupint, peer, base + 3, MPI_COMM_WORLD)); /* 40 B */
    OK(MPI_Send(sd, 1, dvec, peer, base + 4, MPI_COMM_WORLD));     /* 40 B */
    OK(MPI_Send(scd, 2, sty, peer, base + 5, MPI_COMM_WORLD));     /* 18 B */
    OK(MPI_Send(s20, 1, hidx8, peer, base + 6, MPI_COMM_WORLD));   /* s20[2..4] */
    OK(MPI_Send(s20, 4, res, peer, base + 7, MPI_COMM_WORLD));     /* s20[0,2,4,6] */
    OK(MPI_Send(MPI_BOTTOM, 1, abs_s, peer, base + 8, MPI_COMM_WORLD));
    OK(MPI_Send(s6, 0, vec, peer, base + 9, MPI_COMM_WORLD)); /* 0 B */

/* receive with the blocking fast path, or by Irecv (the cell is drained and unpacked) */
#define RECV(buf, count, type, tag)                                                            \
    do {                                                                                       \
        if (nonblocking) {                                                                     \
            MPI_Request r_;                                                                    \
            OK(MPI_Irecv(buf, count, type, peer, tag, MPI_COMM_WORLD, &r_));                   \
            OK(MPI_Wait(&r_, &st));                                                            \
        } else                                                                                 \
            OK(MPI_Recv(buf, count, type, peer, tag, MPI_COMM_WORLD, &st));                    \
        CHECK_INT(st.MPI_SOURCE, peer);                                                        \
        CHECK_INT(st.MPI_TAG, tag);                                                            \
    } while (0)

    int r8[8];
    /* vector -> 3 contiguous ints */
    unset8(r8);
    RECV(r8, 3, MPI_INT, base + 0);
    for (int k = 0; k < 3; k++)
        CHECK_INT(r8[k], peer * 100 + 2 * k);
    CHECK_INT(r8[3], -1);
    OK(MPI_Get_count(&st, MPI_INT, &n));
    CHECK_INT(n, 3);
    OK(MPI_Get_count(&st, vec, &n));
    CHECK_INT(n, 1);
    OK(MPI_Get_elements(&st, vec, &n));
    CHECK_INT(n, 3);
    /* vector -> indexed {4, 0, 2}: element k of the message lands at disp[k] */
    unset8(r8);
    RECV(r8, 1, idx, base + 1);
    CHECK_INT(r8[4], peer * 100 + 0);
    CHECK_INT(r8[0], peer * 100 + 2);
    CHECK_INT(r8[2], peer * 100 + 4);
    CHECK_INT(r8[1], -1);
    CHECK_INT(r8[3], -1);
    CHECK_INT(r8[5], -1);
    OK(MPI_Get_count(&st, idx, &n));
    CHECK_INT(n, 1);
    OK(MPI_Get_elements(&st, MPI_INT, &n));
    CHECK_INT(n, 3);
    /* 2 ints into a vector of 3: a partial element */
    unset8(r8);
    RECV(r8, 1, vec, base + 2);
    CHECK_INT(r8[0], peer * 100 + 1);
    CHECK_INT(r8[2], peer * 100 + 2);
    CHECK_INT(r8[1], -1);
    CHECK_INT(r8[4], -1);
    OK(MPI_Get_count(&st, vec, &n));
    CHECK_INT(n, MPI_UNDEFINED);
    OK(MPI_Get_elements(&st, vec, &n));
    CHECK_INT(n, 2);
    /* 10 ints (a dup of MPI_INT) into a strided vector */
    int r21[21];
    for (int k = 0; k < 21; k++)
        r21[k] = -1;
    RECV(r21, 1, vec10, base + 3);
    for (int k = 0; k < 10; k++) {
        CHECK_INT(r21[2 * k], peer * 100 + k);
        CHECK_INT(r21[2 * k + 1], -1);
    }
    OK(MPI_Get_elements(&st, MPI_INT, &n));
    CHECK_INT(n, 10);
    OK(MPI_Get_count(&st, dupint, &n));
    CHECK_INT(n, 10);
    /* 5 doubles 100 apart into 5 doubles 3 apart */
    double rd[16];
    for (int k = 0; k < 16; k++)
        rd[k] = -1;
    RECV(rd, 1, dvec3, base + 4);
    for (int k = 0; k < 5; k++)
        CHECK(rd[3 * k] == peer * 10000.0 + 100 * k);
    CHECK(rd[1] == -1 && rd[2] == -1 && rd[13] == -1);
    OK(MPI_Get_elements(&st, dvec3, &n));
    CHECK_INT(n, 5);
    /* struct {char, double}: 2 elements, 4 basic elements, padding untouched */
    struct cd rcd[4];
    memset(rcd, 0x77, sizeof rcd);
    RECV(rcd, 4, sty, base + 5);
    for (int k = 0; k < 2; k++) {
        CHECK_INT(rcd[k].c, 'a' + peer + k);
        CHECK(rcd[k].d == peer + k / 4.0);
    }
    CHECK_BYTES(&rcd[2], sizeof rcd[2], 0x77);
    CHECK_BYTES((char *)&rcd[0] + 1, offsetof(struct cd, d) - 1, 0x77);
    OK(MPI_Get_count(&st, sty, &n));
    CHECK_INT(n, 2);
    OK(MPI_Get_elements(&st, sty, &n));
    CHECK_INT(n, 4);
    /* a type whose data starts 8 bytes in, into one whose data starts 4 bytes in */
    unset8(r8);
    RECV(r8, 1, hidx4, base + 6);
    CHECK_INT(r8[0], -1);
    for (int k = 0; k < 3; k++)
        CHECK_INT(r8[1 + k], peer * 100 + 2 + k);
    CHECK_INT(r8[4], -1);
    OK(MPI_Get_count(&st, hidx4, &n));
    CHECK_INT(n, 1);
    /* ints 8 bytes apart into contiguous ints */
    unset8(r8);
    RECV(r8, 8, MPI_INT, base + 7);
    for (int k = 0; k < 4; k++)
        CHECK_INT(r8[k], peer * 100 + 2 * k);
    CHECK_INT(r8[4], -1);
    OK(MPI_Get_count(&st, res, &n));
    CHECK_INT(n, 4);
    /* MPI_BOTTOM and absolute addresses on both sides */
    RECV(MPI_BOTTOM, 1, abs_r, base + 8);
    CHECK_INT(abs_dst[0], -1);
    for (int k = 0; k < 3; k++)
        CHECK_INT(abs_dst[1 + k], peer + 500 + 100 * k);
    OK(MPI_Get_count(&st, abs_r, &n));
    CHECK_INT(n, 1);
    /* count 0 of a derived type */
    r8[0] = -1;
    RECV(r8, 2, vec, base + 9);
    CHECK_INT(r8[0], -1);
    OK(MPI_Get_count(&st, vec, &n));
    CHECK_INT(n, 0);
    OK(MPI_Get_elements(&st, vec, &n));
    CHECK_INT(n, 0);
    /* the same layout, 80 bytes: two cells, packed and unpacked piece by piece */
    OK(MPI_Send(sd, 2, dvec, peer, base + 10, MPI_COMM_WORLD)); /* 80 B */
    for (int k = 0; k < 16; k++)
        rd[k] = -1;
    RECV(rd, 10, MPI_DOUBLE, base + 10);
    for (int k = 0; k < 10; k++) /* the second element starts one extent (401 doubles) on */
        CHECK(rd[k] == peer * 10000.0 + (k < 5 ? 100 * k : 401 + 100 * (k - 5)));
    CHECK(rd[10] == -1);
#undef RECV
    /* types freed while a receive and a send that use them are in flight */
    {
        MPI_Datatype tv, tr;
        MPI_Request rq, sq;
        int r9[10];
        OK(MPI_Type_vector(3, 1, 2, MPI_INT, &tv));
        OK(MPI_Type_vector(3, 1, 3, MPI_INT, &tr));
        OK(MPI_Type_commit(&tv));
        OK(MPI_Type_commit(&tr));
        for (int k = 0; k < 10; k++)
            r9[k] = -1;
        OK(MPI_Irecv(r9, 1, tr, peer, base + 11, MPI_COMM_WORLD, &rq));
        OK(MPI_Type_free(&tr));
        OK(MPI_Isend(s6, 1, tv, peer, base + 11, MPI_COMM_WORLD, &sq));
        OK(MPI_Type_free(&tv));
        OK(MPI_Wait(&sq, MPI_STATUS_IGNORE));
        OK(MPI_Wait(&rq, &st));
        CHECK_STATUS(st, peer, base + 11, 12);
        for (int k = 0; k < 10; k++)
            CHECK_INT(r9[k], k % 3 == 0 && k < 9 ? peer * 100 + 2 * (k / 3) : -1);
    }
    for (size_t k = 0; k < sizeof all / sizeof all[0]; k++)
        OK(MPI_Type_free(&all[k]));
    OK(MPI_Barrier(MPI_COMM_WORLD));
}

/* ---------------------------------------------------------------------------------------- */
/* 5. communicators freed with cells in flight */

#define NCOMM_ROUNDS 50

static void sec_comm_free(const struct env *e)
{
    int peer = e->peer, rank = e->rank, size = e->size, flag;
    unsigned char sbuf[48], *rbuf = e->rbuf;
    MPI_Status st;
    for (int round = 0; round < NCOMM_ROUNDS; round++) {
        MPI_Comm d;
        int drank, dpeer, dsize;
        int kind = round % 7; /* 3: split, every rank numbered backwards; 6: pairs; else dup */
        if (kind == 3) {
            OK(MPI_Comm_split(MPI_COMM_WORLD, 0, size - rank, &d));
        } else if (kind == 6) { /* the pair only, numbered backwards */
            OK(MPI_Comm_split(MPI_COMM_WORLD, rank / 2, -rank, &d));
        } else {
            OK(MPI_Comm_dup(MPI_COMM_WORLD, &d));
        }
        OK(MPI_Comm_rank(d, &drank));
        OK(MPI_Comm_size(d, &dsize));
        if (kind == 3) {
            CHECK_INT(drank, size - 1 - rank);
            dpeer = size - 1 - peer;
        } else if (kind == 6) {
            CHECK_INT(dsize, peer == rank ? 1 : 2);
            dpeer = peer == rank ? drank : 1 - drank;
        } else {
            dpeer = peer;
        }
        /* mode 0: d's messages never received; 1: one of three received; 2: one side sends
         * and frees d at once, the other receives them all; 3: a world receive is posted
         * first; 4: both free d right after sending (its cells are still in the rings) */
        int mode = round % 5;
        MPI_Request wr = MPI_REQUEST_NULL;
        if (mode == 3) { /* world receive posted before anything is sent */
            prep(rbuf, 4);
            OK(MPI_Irecv(rbuf, 40, MPI_BYTE, peer, 5, MPI_COMM_WORLD, &wr));
            OK(MPI_Barrier(MPI_COMM_WORLD));
        }
        /* in mode 2 only the lower rank of the pair sends on d, and frees d at once */
        int sends_d = mode != 2 || rank <= peer;
        for (int i = 0; sends_d && i < 3; i++) {
            size_t len = (size_t)((round + i * 17) % 41);
            p2p_fill(sbuf, len, mid(5, round, drank, i));
            OK(MPI_Send(sbuf, (int)len, MPI_BYTE, dpeer, 5, d));
        }
        if ((mode == 2 && peer != rank && rank < peer) || mode == 4)
            OK(MPI_Comm_free(&d));
        /* then one on MPI_COMM_WORLD, same tag */
        p2p_fill(sbuf, 4, mid(5, round, rank, 9));
        OK(MPI_Send(sbuf, 4, MPI_BYTE, peer, 5, MPI_COMM_WORLD));
        if (mode == 3) {
            OK(MPI_Wait(&wr, &st));
        } else {
            prep(rbuf, 4);
            if (mode == 1)
                OK(MPI_Recv(rbuf, 40, MPI_BYTE, MPI_ANY_SOURCE, MPI_ANY_TAG, MPI_COMM_WORLD,
                            &st));
            else
                OK(MPI_Recv(rbuf, 40, MPI_BYTE, peer, 5, MPI_COMM_WORLD, &st));
        }
        expect(e, "comm free/world message", round, rbuf, &st, peer, 5, 4, mid(5, round, peer, 9));
        /* nothing sent on d ever shows on the parent */
        OK(MPI_Iprobe(MPI_ANY_SOURCE, MPI_ANY_TAG, MPI_COMM_WORLD, &flag, &st));
        CHECK_INT(flag, 0);
        int receives = mode == 1 ? 1 : mode == 2 && (rank > peer || peer == rank) ? 3 : 0;
        for (int i = 0; i < receives; i++) {
            size_t len = (size_t)((round + i * 17) % 41);
            prep(rbuf, len);
            if (i == 1)
                OK(MPI_Recv(rbuf, 40, MPI_BYTE, dpeer, 5, d, &st));
            else
                OK(MPI_Recv(rbuf, 40, MPI_BYTE, MPI_ANY_SOURCE, MPI_ANY_TAG, d, &st));
            expect(e, "comm free/dup message", i, rbuf, &st, dpeer, 5, len,
                   mid(5, round, dpeer, i));
        }
        if (d != MPI_COMM_NULL)
            OK(MPI_Comm_free(&d));
    }
    /* the world still works: a full ring each way (100 messages: more than 64 cells) */
    OK(MPI_Barrier(MPI_COMM_WORLD));
    for (int i = 0; i < 100; i++) {
        p2p_fill(sbuf, (size_t)(i % 41), mid(5, 63, rank, i));
        OK(MPI_Send(sbuf, i % 41, MPI_BYTE, peer, 6, MPI_COMM_WORLD));
    }
    for (int i = 0; i < 100; i++) {
        prep(rbuf, (size_t)(i % 41));
        OK(MPI_Recv(rbuf, 40, MPI_BYTE, peer, 6, MPI_COMM_WORLD, &st));
        expect(e, "after comm free", i, rbuf, &st, peer, 6, (size_t)(i % 41),
               mid(5, 63, peer, i));
    }
    OK(MPI_Iprobe(MPI_ANY_SOURCE, MPI_ANY_TAG, MPI_COMM_WORLD, &flag, &st));
    CHECK_INT(flag, 0);
    OK(MPI_Barrier(MPI_COMM_WORLD));
}

/* ---------------------------------------------------------------------------------------- */
/* 6. messages to oneself */

#define NSELF 150

static void sec_self(const struct env *e)
{
    int rank = e->rank, flag;
    unsigned char sbuf[48], *rbuf = e->rbuf, *big = e->sbuf;
    MPI_Status st;
    MPI_Request r, r2;

    /* NSELF small ones, alternately on MPI_COMM_WORLD and MPI_COMM_SELF: more than the largest
     * ring holds (64 cells), so the self ring fills */
    for (int i = 0; i < NSELF; i++) {
        size_t len = (size_t)((i * 3) % 41);
        p2p_fill(sbuf, len, mid(6, 0, rank, i));
        if (i % 2)
            OK(MPI_Send(sbuf, (int)len, MPI_BYTE, 0, i % 3, MPI_COMM_SELF));
        else
            OK(MPI_Send(sbuf, (int)len, MPI_BYTE, rank, i % 3, MPI_COMM_WORLD));
    }
    for (int i = 0; i < NSELF; i += 2) { /* world ones first */
        size_t len = (size_t)((i * 3) % 41);
        prep(rbuf, len);
        if (i % 4)
            OK(MPI_Recv(rbuf, 40, MPI_BYTE, rank, MPI_ANY_TAG, MPI_COMM_WORLD, &st));
        else {
            OK(MPI_Irecv(rbuf, 40, MPI_BYTE, MPI_ANY_SOURCE, i % 3, MPI_COMM_WORLD, &r));
            OK(MPI_Wait(&r, &st));
        }
        expect(e, "self/world", i, rbuf, &st, rank, i % 3, len, mid(6, 0, rank, i));
    }
    OK(MPI_Iprobe(MPI_ANY_SOURCE, MPI_ANY_TAG, MPI_COMM_WORLD, &flag, &st));
    CHECK_INT(flag, 0);
    for (int i = 1; i < NSELF; i += 2) {
        size_t len = (size_t)((i * 3) % 41);
        prep(rbuf, len);
        if (i % 4 == 1)
            OK(MPI_Recv(rbuf, 40, MPI_BYTE, 0, i % 3, MPI_COMM_SELF, &st));
        else {
            OK(MPI_Irecv(rbuf, 40, MPI_BYTE, MPI_ANY_SOURCE, MPI_ANY_TAG, MPI_COMM_SELF, &r));
            OK(MPI_Wait(&r, &st));
        }
        expect(e, "self/COMM_SELF", i, rbuf, &st, 0, i % 3, len, mid(6, 0, rank, i));
    }

    /* a cell at the head of the self ring, too long for the blocking receive: truncated,
     * the rest of the buffer untouched, the next message intact */
    p2p_fill(sbuf, 20, mid(6, 4, rank, 0));
    OK(MPI_Send(sbuf, 20, MPI_BYTE, rank, 5, e->ret));
    p2p_fill(sbuf, 6, mid(6, 4, rank, 1));
    OK(MPI_Send(sbuf, 6, MPI_BYTE, rank, 5, e->ret));
    prep(rbuf, 20);
    memset(&st, 0, sizeof st);
    FAILS(MPI_Recv(rbuf, 10, MPI_BYTE, rank, 5, e->ret, &st), MPI_ERR_TRUNCATE);
    CHECK_STATUS(st, rank, 5, 10);
    CHECK_FILL(rbuf, 10, mid(6, 4, rank, 0));
    CHECK_BYTES(rbuf + 10, GUARD, 0xcc);
    prep(rbuf, 6);
    OK(MPI_Recv(rbuf, 6, MPI_BYTE, rank, 5, e->ret, &st));
    expect(e, "self/after truncation", 1, rbuf, &st, rank, 5, 6, mid(6, 4, rank, 1));
    /* the fast path with MPI_STATUS_IGNORE */
    p2p_fill(sbuf, 7, mid(6, 4, rank, 2));
    OK(MPI_Send(sbuf, 7, MPI_BYTE, rank, 5, e->ret));
    prep(rbuf, 7);
    OK(MPI_Recv(rbuf, 40, MPI_BYTE, rank, 5, e->ret, MPI_STATUS_IGNORE));
    CHECK_FILL(rbuf, 7, mid(6, 4, rank, 2));
    CHECK_BYTES(rbuf + 7, GUARD, 0xcc);

    /* posted first, then a blocking self send */
    prep(rbuf, 24);
    OK(MPI_Irecv(rbuf, 40, MPI_BYTE, rank, 7, MPI_COMM_WORLD, &r));
    p2p_fill(sbuf, 24, mid(6, 1, rank, 0));
    OK(MPI_Send(sbuf, 24, MPI_BYTE, rank, 7, MPI_COMM_WORLD));
    OK(MPI_Wait(&r, &st));
    expect(e, "self/posted first", 0, rbuf, &st, rank, 7, 24, mid(6, 1, rank, 0));
    /* a receive posted for another tag: the self send takes another path, still in order */
    OK(MPI_Irecv(rbuf, 40, MPI_BYTE, rank, 8, MPI_COMM_WORLD, &r));
    p2p_fill(sbuf, 16, mid(6, 1, rank, 1));
    OK(MPI_Send(sbuf, 16, MPI_BYTE, rank, 9, MPI_COMM_WORLD));
    p2p_fill(sbuf, 17, mid(6, 1, rank, 2));
    OK(MPI_Send(sbuf, 17, MPI_BYTE, rank, 9, MPI_COMM_WORLD));
    p2p_fill(sbuf, 3, mid(6, 1, rank, 3));
    OK(MPI_Send(sbuf, 3, MPI_BYTE, rank, 8, MPI_COMM_WORLD));
    OK(MPI_Wait(&r, &st));
    CHECK_STATUS(st, rank, 8, 3);
    CHECK_FILL(rbuf, 3, mid(6, 1, rank, 3));
    for (int i = 1; i <= 2; i++) {
        prep(rbuf, (size_t)(15 + i));
        OK(MPI_Recv(rbuf, 40, MPI_BYTE, rank, 9, MPI_COMM_WORLD, &st));
        expect(e, "self/other tag posted", i, rbuf, &st, rank, 9, (size_t)(15 + i),
               mid(6, 1, rank, i));
    }

    /* cell, eager, rendezvous, cell, synchronous cell-sized, freed request: in order */
    static const size_t lens[] = {40, 5000, BIG, 1, 12, 0, 39};
    MPI_Request sreq[7];
    unsigned char *mb[7];
    for (int i = 0; i < 7; i++) {
        mb[i] = p2p_malloc(lens[i]);
        p2p_fill(mb[i], lens[i], mid(6, 2, rank, i));
        if (i == 4)
            OK(MPI_Issend(mb[i], (int)lens[i], MPI_BYTE, rank, 3, MPI_COMM_WORLD, &sreq[i]));
        else
            OK(MPI_Isend(mb[i], (int)lens[i], MPI_BYTE, rank, 3, MPI_COMM_WORLD, &sreq[i]));
        if (i == 6) {
            OK(MPI_Request_free(&sreq[i]));
            CHECK(sreq[i] == MPI_REQUEST_NULL);
        }
    }
    for (int i = 0; i < 7; i++) {
        prep(rbuf, lens[i]);
        OK(MPI_Recv(rbuf, BIG, MPI_BYTE, MPI_ANY_SOURCE, MPI_ANY_TAG, MPI_COMM_WORLD, &st));
        expect(e, "self/mixed paths", i, rbuf, &st, rank, 3, lens[i], mid(6, 2, rank, i));
    }
    OK(MPI_Waitall(7, sreq, MPI_STATUSES_IGNORE));
    for (int i = 0; i < 7; i++)
        free(mb[i]);

    /* Sendrecv and Sendrecv_replace with oneself */
    p2p_fill(sbuf, 33, mid(6, 3, rank, 0));
    prep(rbuf, 33);
    OK(MPI_Sendrecv(sbuf, 33, MPI_BYTE, rank, 4, rbuf, 40, MPI_BYTE, rank, 4, MPI_COMM_WORLD,
                    &st));
    expect(e, "self/Sendrecv", 0, rbuf, &st, rank, 4, 33, mid(6, 3, rank, 0));
    int v[5] = {rank, 1, 2, 3, 4};
    OK(MPI_Sendrecv_replace(v, 5, MPI_INT, rank, 4, rank, 4, MPI_COMM_WORLD, &st));
    CHECK_INT(v[0], rank);
    CHECK_INT(v[4], 4);
    CHECK_STATUS(st, rank, 4, 20);
    /* an earlier self cell must be received before the Sendrecv's own message */
    p2p_fill(sbuf, 9, mid(6, 3, rank, 1));
    OK(MPI_Send(sbuf, 9, MPI_BYTE, rank, 4, MPI_COMM_WORLD));
    p2p_fill(big, 30, mid(6, 3, rank, 2));
    prep(rbuf, 9);
    OK(MPI_Sendrecv(big, 30, MPI_BYTE, rank, 4, rbuf, 40, MPI_BYTE, rank, 4, MPI_COMM_WORLD,
                    &st));
    expect(e, "self/Sendrecv after a cell", 1, rbuf, &st, rank, 4, 9, mid(6, 3, rank, 1));
    prep(rbuf, 30);
    OK(MPI_Irecv(rbuf, 40, MPI_BYTE, rank, 4, MPI_COMM_WORLD, &r2));
    OK(MPI_Wait(&r2, &st));
    expect(e, "self/Sendrecv's message", 2, rbuf, &st, rank, 4, 30, mid(6, 3, rank, 2));
    OK(MPI_Iprobe(MPI_ANY_SOURCE, MPI_ANY_TAG, MPI_COMM_WORLD, &flag, &st));
    CHECK_INT(flag, 0);
    OK(MPI_Iprobe(MPI_ANY_SOURCE, MPI_ANY_TAG, MPI_COMM_SELF, &flag, &st));
    CHECK_INT(flag, 0);
    OK(MPI_Barrier(MPI_COMM_WORLD));
}

/* ---------------------------------------------------------------------------------------- */
/* 7. receives posted first; racing rounds; a cell send cannot be cancelled away */

#define NRACE 160
#define NSHORT 6

/* Receives posted one byte short of messages of several cells, which their receiver then
 * drains out of the ring straight into them: MPI_ERR_TRUNCATE, every byte that fits, and
 * nothing past the buffer (the copy stops inside a cell). */
static void posted_short(const struct env *e)
{
    static const size_t len[NSHORT] = {41, 100, 101, 160, 500, MOST};
    unsigned char *rb = e->rbuf, sbuf[MOST];
    MPI_Request rq[NSHORT];
    MPI_Status st;
    size_t at[NSHORT], end = 0;
    for (int i = 0; i < NSHORT; i++) {
        at[i] = end;
        end += len[i] + GUARD;
        prep(rb + at[i], len[i] - 1);
        OK(MPI_Irecv(rb + at[i], (int)len[i] - 1, MPI_BYTE, e->peer, 60 + i, e->ret, &rq[i]));
    }
    OK(MPI_Barrier(e->ret));
    for (int i = 0; i < NSHORT; i++) {
        p2p_fill(sbuf, len[i], mid(7, 2, e->rank, i));
        OK(MPI_Send(sbuf, (int)len[i], MPI_BYTE, e->peer, 60 + i, e->ret));
    }
    for (int i = 0; i < NSHORT; i++) {
        FAILS(MPI_Wait(&rq[i], &st), MPI_ERR_TRUNCATE);
        check_cut(e, i, rb + at[i], &st, e->peer, 60 + i, len[i], mid(7, 2, e->peer, i));
    }
    OK(MPI_Barrier(e->ret));
}

static void sec_posted(const struct env *e)
{
    int peer = e->peer, rank = e->rank, flag, idx, outcount, indices[2];
    unsigned char sbuf[48], r1[40 + GUARD], r2[40 + GUARD];
    MPI_Status st, sts[2];
    MPI_Request rq[2];

    /* posted, barrier, sends */
    prep(r1, 8);
    prep(r2, 40);
    OK(MPI_Irecv(r1, 40, MPI_BYTE, peer, 40, MPI_COMM_WORLD, &rq[0]));
    OK(MPI_Irecv(r2, 40, MPI_BYTE, MPI_ANY_SOURCE, MPI_ANY_TAG, MPI_COMM_WORLD, &rq[1]));
    OK(MPI_Barrier(MPI_COMM_WORLD));
    p2p_fill(sbuf, 8, mid(7, 0, rank, 0));
    OK(MPI_Send(sbuf, 8, MPI_BYTE, peer, 40, MPI_COMM_WORLD));
    p2p_fill(sbuf, 40, mid(7, 0, rank, 1));
    OK(MPI_Rsend(sbuf, 40, MPI_BYTE, peer, 41, MPI_COMM_WORLD));
    OK(MPI_Wait(&rq[0], &st));
    expect(e, "posted/Wait", 0, r1, &st, peer, 40, 8, mid(7, 0, peer, 0));
    do
        OK(MPI_Test(&rq[1], &flag, &st));
    while (!flag);
    expect(e, "posted/Test", 1, r2, &st, peer, 41, 40, mid(7, 0, peer, 1));
    OK(MPI_Barrier(MPI_COMM_WORLD));
    posted_short(e);

    /* racing rounds: post, send, complete. A partner is at most one round ahead, so its next
     * message may come as a cell before this side posts, or after. */
    for (int round = 0; round < NRACE; round++) {
        size_t len = (size_t)(round % 41);
        int tag = round % 4;
        MPI_Request r;
        prep(r1, len);
        OK(MPI_Irecv(r1, 40, MPI_BYTE, round % 3 ? peer : MPI_ANY_SOURCE,
                     round % 5 ? tag : MPI_ANY_TAG, MPI_COMM_WORLD, &r));
        p2p_fill(sbuf, len, mid(7, 1, rank, round));
        OK(MPI_Send(sbuf, (int)len, MPI_BYTE, peer, tag, MPI_COMM_WORLD));
        switch (round % 8) {
        case 0:
            OK(MPI_Wait(&r, &st));
            break;
        case 1:
            do
                OK(MPI_Test(&r, &flag, &st));
            while (!flag);
            break;
        case 2:
            do
                OK(MPI_Testany(1, &r, &idx, &flag, &st));
            while (!flag);
            CHECK_INT(idx, 0);
            break;
        case 3:
            do
                OK(MPI_Testall(1, &r, &flag, &st));
            while (!flag);
            break;
        case 4:
            do
                OK(MPI_Testsome(1, &r, &outcount, indices, &st));
            while (outcount == 0);
            CHECK_INT(outcount, 1);
            CHECK_INT(indices[0], 0);
            break;
        case 5:
            OK(MPI_Waitany(1, &r, &idx, &st));
            CHECK_INT(idx, 0);
            break;
        case 6:
            OK(MPI_Waitsome(1, &r, &outcount, indices, &st));
            CHECK_INT(outcount, 1);
            break;
        default: {
            MPI_Status st2;
            do
                OK(MPI_Request_get_status(r, &flag, &st2));
            while (!flag);
            OK(MPI_Wait(&r, &st));
            CHECK_INT(st2.MPI_SOURCE, st.MPI_SOURCE);
            CHECK_INT(st2.MPI_TAG, st.MPI_TAG);
        }
        }
        CHECK(r == MPI_REQUEST_NULL);
        expect(e, "posted/race", round, r1, &st, peer, tag, len, mid(7, 1, peer, round));
    }
    OK(MPI_Barrier(MPI_COMM_WORLD));

    /* a receive posted, then two messages, then a blocking receive: the posted one gets the
     * first (even when it came as a cell while that receive was posted), the blocking one the
     * second */
    for (int round = 0; round < NRACE / 2; round++) {
        size_t la = (size_t)(round % 41), lb = (size_t)((round * 7 + 3) % 41);
        MPI_Request r;
        prep(r1, la);
        prep(r2, lb);
        OK(MPI_Irecv(r1, 40, MPI_BYTE, peer, 45, MPI_COMM_WORLD, &r));
        p2p_fill(sbuf, la, mid(7, 3, rank, 2 * round));
        OK(MPI_Send(sbuf, (int)la, MPI_BYTE, peer, 45, MPI_COMM_WORLD));
        p2p_fill(sbuf, lb, mid(7, 3, rank, 2 * round + 1));
        OK(MPI_Send(sbuf, (int)lb, MPI_BYTE, peer, 45, MPI_COMM_WORLD));
        OK(MPI_Recv(r2, 40, MPI_BYTE, peer, 45, MPI_COMM_WORLD, &sts[1]));
        OK(MPI_Wait(&r, &sts[0]));
        expect(e, "posted then blocking/first", round, r1, &sts[0], peer, 45, la,
               mid(7, 3, peer, 2 * round));
        expect(e, "posted then blocking/second", round, r2, &sts[1], peer, 45, lb,
               mid(7, 3, peer, 2 * round + 1));
    }
    /* Sendrecv with the partner */
    for (int round = 0; round < 40; round++) {
        size_t len = (size_t)((round * 3) % 41);
        p2p_fill(sbuf, len, mid(7, 4, rank, round));
        prep(r1, len);
        OK(MPI_Sendrecv(sbuf, (int)len, MPI_BYTE, peer, 44, r1, 40, MPI_BYTE,
                        round % 2 ? peer : MPI_ANY_SOURCE, 44, MPI_COMM_WORLD, &st));
        expect(e, "Sendrecv", round, r1, &st, peer, 44, len, mid(7, 4, peer, round));
    }
    OK(MPI_Barrier(MPI_COMM_WORLD));

    /* cancelling a small send: either it is cancelled and never arrives, or it arrives */
    MPI_Request sr;
    p2p_fill(sbuf, 20, mid(7, 2, rank, 0));
    OK(MPI_Isend(sbuf, 20, MPI_BYTE, peer, 42, MPI_COMM_WORLD, &sr));
    OK(MPI_Cancel(&sr));
    OK(MPI_Wait(&sr, &st));
    int cancelled = -1;
    OK(MPI_Test_cancelled(&st, &cancelled));
    p2p_fill(sbuf, 21, mid(7, 2, rank, 1));
    OK(MPI_Send(sbuf, 21, MPI_BYTE, peer, 42, MPI_COMM_WORLD));
    OK(MPI_Send(&cancelled, 1, MPI_INT, peer, 43, MPI_COMM_WORLD));
    int peer_cancelled = -1;
    OK(MPI_Recv(&peer_cancelled, 1, MPI_INT, peer, 43, MPI_COMM_WORLD, &st));
    if (!peer_cancelled) {
        prep(r1, 20);
        OK(MPI_Recv(r1, 40, MPI_BYTE, peer, 42, MPI_COMM_WORLD, &st));
        expect(e, "cancelled send", 0, r1, &st, peer, 42, 20, mid(7, 2, peer, 0));
    }
    prep(r1, 21);
    OK(MPI_Recv(r1, 40, MPI_BYTE, peer, 42, MPI_COMM_WORLD, &st));
    expect(e, "after a cancelled send", 1, r1, &st, peer, 42, 21, mid(7, 2, peer, 1));
    OK(MPI_Barrier(MPI_COMM_WORLD));
}

/* ---------------------------------------------------------------------------------------- */

int main(int argc, char **argv)
{
    OK(MPI_Init(&argc, &argv));
    struct env e;
    e.rank = p2p_rank();
    e.size = p2p_size();
    e.peer = p2p_partner(e.rank, e.size);
    e.rbuf = p2p_malloc(BIG + GUARD);
    e.sbuf = p2p_malloc(BIG);
    OK(MPI_Comm_dup(MPI_COMM_WORLD, &e.ret));
    OK(MPI_Comm_set_errhandler(e.ret, MPI_ERRORS_RETURN));
    int bsize = NORD * (1000 + MPI_BSEND_OVERHEAD + 64);
    char *battach = p2p_malloc((size_t)bsize);
    OK(MPI_Buffer_attach(battach, bsize));

    for (int round = 0; round < 12; round++)
        sec_order(&e, round, round % 6);
    for (int phase = 0; phase < 3; phase++)
        sec_full(&e, phase);
    sec_fan_in(&e);
    sec_probe(&e);
    sec_pingpong(&e);
    for (int mode = 0; mode < 3; mode++)
        sec_types(&e, mode);
    sec_comm_free(&e);
    sec_self(&e);
    sec_posted(&e);

    void *got;
    int got_size;
    OK(MPI_Buffer_detach(&got, &got_size));
    CHECK(got == battach);
    free(battach);
    int flag;
    OK(MPI_Barrier(MPI_COMM_WORLD));
    OK(MPI_Iprobe(MPI_ANY_SOURCE, MPI_ANY_TAG, MPI_COMM_WORLD, &flag, MPI_STATUS_IGNORE));
    CHECK_INT(flag, 0);
    OK(MPI_Iprobe(MPI_ANY_SOURCE, MPI_ANY_TAG, e.ret, &flag, MPI_STATUS_IGNORE));
    CHECK_INT(flag, 0);
    OK(MPI_Comm_free(&e.ret));
    free(e.rbuf);
    free(e.sbuf);
    if (e.rank == 0)
        printf("p2p_cells: %d ranks: ok\n", e.size);
    OK(MPI_Finalize());
    return 0;
}
