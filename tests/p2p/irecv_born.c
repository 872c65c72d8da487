/* Receives complete at birth. An MPI_Irecv from a given source whose message already waits at
 * the head of the ring of cells from that source takes it inside the call and returns a
 * request that is already complete (api/p2p_recv.c; p2p/match.c loom__p2p_recv_cell without
 * its wait); it may do so only when that message is the one the receive must get. Each
 * section sets up a case in which taking the head cell would be wrong or right, with the
 * sender's messages in the ring before the receive starts (the pair syncs through flags in
 * the receiver's memory, not through MPI, which would move the cells elsewhere):
 *  A. rounds of small messages (0 - 220 bytes, several tags) received with MPI_Irecv by tag
 *     or MPI_ANY_TAG, out of tag order, into bytes, ints and a strided vector type: each
 *     receive is complete at once (MPI_Test), with its status, its bytes, and the gaps of
 *     the vector untouched;
 *  B. an older posted receive: rank 1 posts a receive, then rank 0 sends two messages that
 *     match it; a second receive started once both wait in the ring must get the second
 *     message, the posted one the first;
 *  C. an older queued message: a probe moves the first message out of the ring into the
 *     queue, the second stays in the ring; a receive must get the first;
 *  D. a message longer than the receive: MPI_ERR_TRUNCATE from the wait, the bytes that fit;
 *  E. the handle of such a receive: MPI_Cancel leaves it received (Test_cancelled false),
 *     MPI_Request_get_status reports it complete with its status and keeps the handle,
 *     MPI_Request_free lets it go with the data in place;
 *  F. MPI_THREAD_MULTIPLE: NT threads of rank 1 receive at once, each its own tag, from one
 *     sender that interleaves the tags; each thread must see its messages in order (under
 *     ThreadSanitizer in CI: the ring's head is taken by one thread at a time).
 * Pairs (2k, 2k+1); a last rank without a partner only joins the barriers. No writable
 * globals (ranks are threads of one process). */
#include <pthread.h>
#include <sched.h>
#include <stdatomic.h>
#include <stdint.h>
#include "p2p_check.h"

#define ROUNDS 40
#define PER_ROUND 6
#define MAXB 220 /* fits in cells whatever the ring's size (p2p/inbox.h) */
#define NT 3
#define NMSG 200

/* Flags in the receiver's memory: `sent` counts what the sender has put in the ring,
 * `posted` what the receiver has posted. */
struct sync {
    _Atomic int sent;
    _Atomic int posted;
};

static void raise_flag(_Atomic int *f)
{
    atomic_fetch_add_explicit(f, 1, memory_order_release);
}

static void await_flag(_Atomic int *f, int v)
{
    while (atomic_load_explicit(f, memory_order_acquire) < v)
        sched_yield();
}

/* The sender's messages are published (an MPI call of another kind ends a batch of
 * nonblocking sends, p2p/batch.h) and then the receiver is told; sends too large for cells
 * would wait for their receive, so they are completed only after that. */
static void publish_then_raise(MPI_Request *req, int n, _Atomic int *f)
{
    int done = 0;
    OK(MPI_Testall(n, req, &done, MPI_STATUSES_IGNORE));
    raise_flag(f);
    if (!done)
        OK(MPI_Waitall(n, req, MPI_STATUSES_IGNORE));
}

static size_t len_of(int q, int i)
{
    static const size_t lens[] = {0, 1, 8, 40, 41, 100, 160, 220};
    return lens[(q * PER_ROUND + i) % 8];
}

static unsigned id_of(int q, int i)
{
    return (unsigned)(1000 + q * PER_ROUND + i);
}

static void a_send(int peer, struct sync *s)
{
    unsigned char buf[PER_ROUND][MAXB];
    MPI_Request req[PER_ROUND];
    for (int q = 0; q < ROUNDS; q++) {
        for (int i = 0; i < PER_ROUND; i++) {
            p2p_fill(buf[i], len_of(q, i), id_of(q, i));
            OK(MPI_Isend(buf[i], (int)len_of(q, i), MPI_BYTE, peer, i, MPI_COMM_WORLD, &req[i]));
        }
        publish_then_raise(req, PER_ROUND, &s->sent);
        await_flag(&s->posted, q + 1); /* the next round once these are received */
    }
}

/* The messages of round q, received by rank 1 with their tags, or MPI_ANY_TAG for the
 * message at the ring's head on odd rounds; as bytes, or as ints when the size is a multiple
 * of 4, or (one round in four) through a vector type of ints spaced by one. */
static void a_recv(int peer, struct sync *s)
{
    unsigned char buf[PER_ROUND][2 * MAXB + 8];
    MPI_Datatype every_other;
    OK(MPI_Type_vector(MAXB / 4, 1, 2, MPI_INT, &every_other));
    OK(MPI_Type_commit(&every_other));
    for (int q = 0; q < ROUNDS; q++) {
        await_flag(&s->sent, q + 1);
        MPI_Request req[PER_ROUND];
        int order[PER_ROUND];
        for (int k = 0; k < PER_ROUND; k++) {
            /* in the order sent; or, one round in three, the head first and then the rest
             * newest first; the head by MPI_ANY_TAG on odd rounds */
            int i = q % 3 ? k : k == 0 ? 0 : PER_ROUND - k;
            int tag = k == 0 && q % 2 ? MPI_ANY_TAG : i;
            size_t n = len_of(q, i);
            order[k] = i;
            memset(buf[k], 0xee, sizeof buf[k]);
            if (q % 4 == 3 && n % 4 == 0)
                OK(MPI_Irecv(buf[k], 1, every_other, peer, tag, MPI_COMM_WORLD, &req[k]));
            else if (n % 4 == 0)
                OK(MPI_Irecv(buf[k], MAXB / 4, MPI_INT, peer, tag, MPI_COMM_WORLD, &req[k]));
            else
                OK(MPI_Irecv(buf[k], MAXB, MPI_BYTE, peer, tag, MPI_COMM_WORLD, &req[k]));
            int flag = 0;
            MPI_Status st;
            OK(MPI_Request_get_status(req[k], &flag, &st));
            CHECK(flag); /* its message is there: received at once */
        }
        MPI_Status st[PER_ROUND];
        OK(MPI_Waitall(PER_ROUND, req, st));
        for (int k = 0; k < PER_ROUND; k++) {
            int i = order[k];
            size_t n = len_of(q, i);
            CHECK_STATUS(st[k], peer, i, (int)n);
            if (q % 4 == 3 && n % 4 == 0) {
                /* int j of the message lies at int 2j of the buffer; odd ints untouched */
                unsigned char want[MAXB];
                p2p_fill(want, n, id_of(q, i));
                for (size_t j = 0; j < n / 4; j++) {
                    CHECK(memcmp(buf[k] + 8 * j, want + 4 * j, 4) == 0);
                    CHECK_BYTES(buf[k] + 8 * j + 4, 4, 0xee);
                }
            } else {
                CHECK_FILL(buf[k], n, id_of(q, i));
                CHECK_BYTES(buf[k] + n, sizeof buf[k] - n, 0xee);
            }
        }
        raise_flag(&s->posted);
    }
    OK(MPI_Type_free(&every_other));
}

/* B and C: two messages of tag 9, ids 1 and 2. */
static void bc_send(int peer, struct sync *s, int *sent, int *posted)
{
    uint64_t m[2] = {1, 2};
    MPI_Request req[2];
    /* B: after rank 1's receive is posted */
    await_flag(&s->posted, ++*posted);
    OK(MPI_Isend(&m[0], 1, MPI_UINT64_T, peer, 9, MPI_COMM_WORLD, &req[0]));
    OK(MPI_Isend(&m[1], 1, MPI_UINT64_T, peer, 9, MPI_COMM_WORLD, &req[1]));
    publish_then_raise(req, 2, &s->sent);
    ++*sent;
    /* C: the first, then (once rank 1 has probed it) the second */
    await_flag(&s->posted, ++*posted);
    OK(MPI_Isend(&m[0], 1, MPI_UINT64_T, peer, 9, MPI_COMM_WORLD, &req[0]));
    publish_then_raise(req, 1, &s->sent);
    ++*sent;
    await_flag(&s->posted, ++*posted);
    OK(MPI_Isend(&m[1], 1, MPI_UINT64_T, peer, 9, MPI_COMM_WORLD, &req[1]));
    publish_then_raise(&req[1], 1, &s->sent);
    ++*sent;
}

static void bc_recv(int peer, struct sync *s, int *sent, int *posted, int any_tag)
{
    uint64_t a = 0, b = 0;
    MPI_Request req[2];
    MPI_Status st[2];
    int tag = any_tag ? MPI_ANY_TAG : 9;
    /* B */
    OK(MPI_Irecv(&a, 1, MPI_UINT64_T, peer, tag, MPI_COMM_WORLD, &req[0]));
    raise_flag(&s->posted);
    ++*posted;
    await_flag(&s->sent, ++*sent);
    OK(MPI_Irecv(&b, 1, MPI_UINT64_T, peer, 9, MPI_COMM_WORLD, &req[1]));
    OK(MPI_Waitall(2, req, st));
    CHECK_INT(a, 1); /* the posted receive is older: it gets the first */
    CHECK_INT(b, 2);
    CHECK_STATUS(st[0], peer, 9, 8);
    CHECK_STATUS(st[1], peer, 9, 8);
    /* C */
    a = b = 0;
    raise_flag(&s->posted);
    ++*posted;
    await_flag(&s->sent, ++*sent);
    int flag = 0;
    while (!flag) /* the probe moves the cell to the queue */
        OK(MPI_Iprobe(peer, 9, MPI_COMM_WORLD, &flag, MPI_STATUS_IGNORE));
    raise_flag(&s->posted);
    ++*posted;
    await_flag(&s->sent, ++*sent);
    OK(MPI_Irecv(&a, 1, MPI_UINT64_T, peer, tag, MPI_COMM_WORLD, &req[0]));
    OK(MPI_Irecv(&b, 1, MPI_UINT64_T, peer, tag, MPI_COMM_WORLD, &req[1]));
    OK(MPI_Waitall(2, req, MPI_STATUSES_IGNORE));
    CHECK_INT(a, 1); /* the queued message is older than the cell */
    CHECK_INT(b, 2);
}

/* D and E: five messages of tag 11, sent at once. */
static void de_send(int peer, struct sync *s)
{
    unsigned char m[5][16];
    MPI_Request req[5];
    for (int i = 0; i < 5; i++) {
        p2p_fill(m[i], 16, 50u + (unsigned)i);
        OK(MPI_Isend(m[i], 16, MPI_BYTE, peer, 11, MPI_COMM_WORLD, &req[i]));
    }
    publish_then_raise(req, 5, &s->sent);
}

static void de_recv(int peer, struct sync *s, int sent)
{
    unsigned char r[5][16];
    MPI_Request req;
    MPI_Status st;
    memset(r, 0xee, sizeof r);
    await_flag(&s->sent, sent);
    /* D: 8 bytes of 16 */
    OK(MPI_Irecv(r[0], 8, MPI_BYTE, peer, 11, MPI_COMM_WORLD, &req));
    FAILS(MPI_Wait(&req, &st), MPI_ERR_TRUNCATE);
    CHECK(req == MPI_REQUEST_NULL);
    CHECK_FILL(r[0], 8, 50u);
    CHECK_BYTES(r[0] + 8, 8, 0xee);
    /* E: cancel */
    OK(MPI_Irecv(r[1], 16, MPI_BYTE, peer, 11, MPI_COMM_WORLD, &req));
    OK(MPI_Cancel(&req));
    OK(MPI_Wait(&req, &st));
    int cancelled = 1;
    OK(MPI_Test_cancelled(&st, &cancelled));
    CHECK(!cancelled);
    CHECK_STATUS(st, peer, 11, 16);
    CHECK_FILL(r[1], 16, 51u);
    /* get_status keeps the handle */
    OK(MPI_Irecv(r[2], 16, MPI_BYTE, peer, 11, MPI_COMM_WORLD, &req));
    int flag = 0;
    OK(MPI_Request_get_status(req, &flag, &st));
    CHECK(flag);
    CHECK(req != MPI_REQUEST_NULL);
    CHECK_STATUS(st, peer, 11, 16);
    OK(MPI_Wait(&req, &st));
    CHECK_STATUS(st, peer, 11, 16);
    CHECK_FILL(r[2], 16, 52u);
    /* free: the data is in place, and the next receive gets the next message */
    OK(MPI_Irecv(r[3], 16, MPI_BYTE, peer, 11, MPI_COMM_WORLD, &req));
    OK(MPI_Request_free(&req));
    CHECK(req == MPI_REQUEST_NULL);
    OK(MPI_Recv(r[4], 16, MPI_BYTE, peer, 11, MPI_COMM_WORLD, &st));
    CHECK_FILL(r[4], 16, 54u);
    CHECK_FILL(r[3], 16, 53u);
}

/* F: the sender interleaves NT tags; thread t of the receiver takes tag t. */
static unsigned f_id(int t, int k)
{
    return (unsigned)(7000 + t * NMSG + k);
}

static void f_send(int peer)
{
    unsigned char m[NT][24];
    MPI_Request req[NT];
    for (int k = 0; k < NMSG; k++) {
        for (int t = 0; t < NT; t++) {
            p2p_fill(m[t], 24, f_id(t, k));
            OK(MPI_Isend(m[t], 24, MPI_BYTE, peer, t, MPI_COMM_WORLD, &req[t]));
        }
        OK(MPI_Waitall(NT, req, MPI_STATUSES_IGNORE));
    }
}

struct f_arg {
    int peer, tag;
};

static void *f_thread(void *p)
{
    const struct f_arg *a = p;
    unsigned char r[24];
    for (int k = 0; k < NMSG; k++) {
        MPI_Request req;
        MPI_Status st;
        OK(MPI_Irecv(r, 24, MPI_BYTE, a->peer, a->tag, MPI_COMM_WORLD, &req));
        OK(MPI_Wait(&req, &st));
        CHECK_STATUS(st, a->peer, a->tag, 24);
        CHECK_FILL(r, 24, f_id(a->tag, k));
    }
    return NULL;
}

static void f_recv(int peer)
{
    pthread_t th[NT];
    struct f_arg a[NT];
    for (int t = 0; t < NT; t++) {
        a[t] = (struct f_arg){peer, t};
        CHECK(pthread_create(&th[t], NULL, f_thread, &a[t]) == 0);
    }
    for (int t = 0; t < NT; t++)
        CHECK(pthread_join(th[t], NULL) == 0);
}

int main(int argc, char **argv)
{
    int provided = 0;
    OK(MPI_Init_thread(&argc, &argv, MPI_THREAD_MULTIPLE, &provided));
    CHECK_INT(provided, MPI_THREAD_MULTIPLE);
    OK(MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_RETURN));
    int rank = p2p_rank(), size = p2p_size();
    int peer = p2p_partner(rank, size), sender = rank % 2 == 0;
    struct sync *s = NULL;
    if (peer != rank) { /* the receiver's flags; the sender learns their address */
        uintptr_t at = 0;
        if (!sender) {
            s = p2p_malloc(sizeof *s);
            atomic_init(&s->sent, 0);
            atomic_init(&s->posted, 0);
            at = (uintptr_t)s;
            OK(MPI_Send(&at, sizeof at, MPI_BYTE, peer, 0, MPI_COMM_WORLD));
        } else {
            OK(MPI_Recv(&at, sizeof at, MPI_BYTE, peer, 0, MPI_COMM_WORLD, MPI_STATUS_IGNORE));
            s = (struct sync *)at;
        }
    }
    OK(MPI_Barrier(MPI_COMM_WORLD));
    if (peer != rank) {
        int sent = ROUNDS, posted = ROUNDS; /* the flags' values after section A */
        if (sender) {
            a_send(peer, s);
            bc_send(peer, s, &sent, &posted);
            bc_send(peer, s, &sent, &posted);
            de_send(peer, s);
        } else {
            a_recv(peer, s);
            bc_recv(peer, s, &sent, &posted, 0);
            bc_recv(peer, s, &sent, &posted, 1);
            de_recv(peer, s, sent + 1);
        }
    }
    OK(MPI_Barrier(MPI_COMM_WORLD));
    if (peer != rank) {
        if (sender)
            f_send(peer);
        else
            f_recv(peer);
    }
    OK(MPI_Barrier(MPI_COMM_WORLD));
    if (s && !sender)
        free(s);
    if (rank == 0)
        printf("p2p_irecv_born: %d ranks: ok\n", size);
    OK(MPI_Finalize());
    return 0;
}
