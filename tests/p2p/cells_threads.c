/* Small messages through the rings of cells (p2p/inbox.h) under MPI_THREAD_MULTIPLE: several
 * threads of a rank fill the one ring to the partner at once, and several threads of the
 * partner drain it at once (blocking fast path, receives started while other threads drain,
 * probes, polls in waits and tests, the sender draining a full ring). Thread t only uses tag
 * t (or its own communicator), so per thread every message must arrive exactly once, in the
 * order sent, with its size and bytes:
 *  A. NT sending threads and NT receiving threads per rank, NMSG messages each, 0..40 bytes;
 *  B. NT threads each post a receive, send, wait, NROUND times (receives posted by one
 *     thread while cells of another are in the ring);
 *  C. NT threads each on a communicator of its own (dups share the ring), same tag;
 *  D. one thread sends NT * NMSG messages, tags in turn; NT threads receive one tag each.
 * The partner is rank^1, or the rank itself when alone. Ranks are threads of one process:
 * all state is per rank (no writable globals). */
#include <pthread.h>
#include "p2p_check.h"

#define NT 4
#define NMSG 200
#define NROUND 100
#define GUARD 16

struct arg {
    int t, tag, rank, peer, phase; /* t names the thread's messages; tag is what they carry */
    MPI_Comm comm;
    long done; /* messages received, read after the join */
};

static size_t len_of(int t, int i)
{
    return (size_t)((i * 7 + t * 5) % 41);
}

static unsigned id_of(int phase, int t, int src, int i)
{
    return (unsigned)(((phase * 16 + t) * 16 + src) * 4096 + i);
}

static void check_msg(const struct arg *a, int i, const unsigned char *buf, const MPI_Status *st,
                      int tag)
{
    size_t len = len_of(a->t, i);
    unsigned id = id_of(a->phase, a->t, a->peer, i);
    int cnt = -1;
    OK(MPI_Get_count(st, MPI_BYTE, &cnt));
    int bad = st->MPI_SOURCE != a->peer || st->MPI_TAG != tag || cnt != (int)len;
    for (size_t k = 0; !bad && k < len; k++)
        bad = buf[k] != p2p_byte(id, k);
    for (size_t k = 0; !bad && k < GUARD; k++)
        bad = buf[len + k] != 0xcc;
    if (bad) {
        fprintf(stderr,
                "rank %d thread %d phase %d: message %d: got source %d tag %d count %d, "
                "expected source %d tag %d count %zu (or wrong bytes)\n",
                a->rank, a->t, a->phase, i, st->MPI_SOURCE, st->MPI_TAG, cnt, a->peer, tag, len);
        fflush(NULL);
        _exit(99);
    }
}

/* A: send NMSG messages with tag t */
static void *sender(void *p)
{
    struct arg *a = p;
    unsigned char buf[48], *pend[NMSG];
    MPI_Request reqs[NMSG];
    int nreq = 0;
    for (int i = 0; i < NMSG; i++) {
        size_t len = len_of(a->t, i);
        unsigned char *b = buf;
        if (i % 3 == 2) /* left pending until the end: a buffer of its own */
            b = pend[nreq] = p2p_malloc(len);
        p2p_fill(b, len, id_of(a->phase, a->t, a->rank, i));
        switch (i % 3) {
        case 0:
            OK(MPI_Send(b, (int)len, MPI_BYTE, a->peer, a->tag, a->comm));
            break;
        case 1: {
            MPI_Request r;
            OK(MPI_Isend(b, (int)len, MPI_BYTE, a->peer, a->tag, a->comm, &r));
            OK(MPI_Wait(&r, MPI_STATUS_IGNORE));
            break;
        }
        default:
            OK(MPI_Isend(b, (int)len, MPI_BYTE, a->peer, a->tag, a->comm, &reqs[nreq]));
            nreq++;
        }
    }
    OK(MPI_Waitall(nreq, reqs, MPI_STATUSES_IGNORE));
    for (int k = 0; k < nreq; k++)
        free(pend[k]);
    return NULL;
}

/* A, C: receive NMSG messages with tag t, in order, by every kind of receive */
static void *receiver(void *p)
{
    struct arg *a = p;
    unsigned char buf[40 + GUARD];
    MPI_Status st;
    MPI_Request r;
    MPI_Message msg;
    int flag, tag = a->tag;
    for (int i = 0; i < NMSG; i++) {
        size_t len = len_of(a->t, i);
        memset(buf, 0xcc, sizeof buf);
        switch (i % 5) {
        case 0:
            OK(MPI_Recv(buf, 40, MPI_BYTE, a->peer, tag, a->comm, &st));
            break;
        case 1:
            OK(MPI_Irecv(buf, 40, MPI_BYTE, MPI_ANY_SOURCE, tag, a->comm, &r));
            OK(MPI_Wait(&r, &st));
            break;
        case 2:
            do
                OK(MPI_Iprobe(a->peer, tag, a->comm, &flag, &st));
            while (!flag);
            CHECK_INT(st.MPI_TAG, tag);
            OK(MPI_Recv(buf, 40, MPI_BYTE, st.MPI_SOURCE, tag, a->comm, &st));
            break;
        case 3:
            OK(MPI_Mprobe(a->peer, tag, a->comm, &msg, &st));
            OK(MPI_Mrecv(buf, 40, MPI_BYTE, &msg, &st));
            break;
        default:
            OK(MPI_Irecv(buf, 40, MPI_BYTE, a->peer, tag, a->comm, &r));
            do
                OK(MPI_Test(&r, &flag, &st));
            while (!flag);
        }
        (void)len;
        check_msg(a, i, buf, &st, tag);
        a->done++;
    }
    return NULL;
}

/* C: one thread sends and receives on its own communicator */
static void *own_comm(void *p)
{
    struct arg *a = p;
    unsigned char sbuf[48];
    for (int i = 0; i < NMSG; i++) {
        size_t len = len_of(a->t, i);
        p2p_fill(sbuf, len, id_of(a->phase, a->t, a->rank, i));
        OK(MPI_Send(sbuf, (int)len, MPI_BYTE, a->peer, a->tag, a->comm));
    }
    return receiver(p);
}

/* D: one thread sends NT * NMSG messages, tags round robin, so the ring holds every tag in
 * turn; the NT receiving threads each take their tag. A receive that drains the ring queues
 * the other tags' cells and stops at its own: another thread's receive must still take the
 * oldest of its tag (from the queue) before a newer one left in the ring. */
static void *round_robin_sender(void *p)
{
    struct arg *a = p;
    unsigned char sbuf[48];
    int next[NT] = {0};
    for (int k = 0; k < NT * NMSG; k++) {
        int t = k % NT, i = next[t]++;
        size_t len = len_of(t, i);
        p2p_fill(sbuf, len, id_of(a->phase, t, a->rank, i));
        OK(MPI_Send(sbuf, (int)len, MPI_BYTE, a->peer, t, a->comm));
    }
    return NULL;
}

static void *drainer(void *p)
{
    struct arg *a = p;
    unsigned char buf[40 + GUARD];
    MPI_Status st;
    for (int i = 0; i < NMSG; i++) {
        memset(buf, 0xcc, sizeof buf);
        if (i % 3 == 0) {
            OK(MPI_Recv(buf, 40, MPI_BYTE, a->peer, a->tag, a->comm, &st));
        } else {
            MPI_Request r;
            OK(MPI_Irecv(buf, 40, MPI_BYTE, i % 3 == 1 ? a->peer : MPI_ANY_SOURCE, a->tag,
                         a->comm, &r));
            OK(MPI_Wait(&r, &st));
        }
        check_msg(a, i, buf, &st, a->tag);
        a->done++;
    }
    return NULL;
}

/* B: post, send, wait */
static void *racer(void *p)
{
    struct arg *a = p;
    unsigned char sbuf[48], buf[40 + GUARD];
    MPI_Status st;
    int tag = a->tag, flag;
    for (int i = 0; i < NROUND; i++) {
        size_t len = len_of(a->t, i);
        MPI_Request r;
        memset(buf, 0xcc, sizeof buf);
        OK(MPI_Irecv(buf, 40, MPI_BYTE, i % 2 ? a->peer : MPI_ANY_SOURCE, tag, a->comm, &r));
        p2p_fill(sbuf, len, id_of(a->phase, a->t, a->rank, i));
        OK(MPI_Send(sbuf, (int)len, MPI_BYTE, a->peer, tag, a->comm));
        if (i % 3 == 0) {
            do
                OK(MPI_Test(&r, &flag, &st));
            while (!flag);
        } else {
            OK(MPI_Wait(&r, &st));
        }
        check_msg(a, i, buf, &st, tag);
        a->done++;
    }
    return NULL;
}

/* Nothing is left for this rank on comm once every rank is done with a phase (the second
 * barrier keeps the next phase's messages out of the probe). */
static void nothing_left(MPI_Comm comm)
{
    int flag;
    MPI_Status st;
    OK(MPI_Barrier(MPI_COMM_WORLD));
    OK(MPI_Iprobe(MPI_ANY_SOURCE, MPI_ANY_TAG, comm, &flag, &st));
    if (flag) {
        int cnt = -1;
        MPI_Get_count(&st, MPI_BYTE, &cnt);
        fprintf(stderr, "rank %d: a message is left: source %d tag %d count %d\n", p2p_rank(),
                st.MPI_SOURCE, st.MPI_TAG, cnt);
        fflush(NULL);
        _exit(99);
    }
    OK(MPI_Barrier(MPI_COMM_WORLD));
}

int main(int argc, char **argv)
{
    int provided = -1;
    OK(MPI_Init_thread(&argc, &argv, MPI_THREAD_MULTIPLE, &provided));
    CHECK_INT(provided, MPI_THREAD_MULTIPLE);
    int rank = p2p_rank(), size = p2p_size(), peer = p2p_partner(rank, size);
    pthread_t th[2 * NT];
    struct arg args[2 * NT];

    /* A: NT senders and NT receivers */
    for (int k = 0; k < 2 * NT; k++) {
        args[k] = (struct arg){k % NT, k % NT, rank, peer, 0, MPI_COMM_WORLD, 0};
        CHECK_INT(pthread_create(&th[k], NULL, k < NT ? sender : receiver, &args[k]), 0);
    }
    for (int k = 0; k < 2 * NT; k++)
        CHECK_INT(pthread_join(th[k], NULL), 0);
    for (int k = NT; k < 2 * NT; k++)
        CHECK_INT(args[k].done, NMSG);
    nothing_left(MPI_COMM_WORLD);

    /* B: post, send, wait, by NT threads at once */
    for (int k = 0; k < NT; k++) {
        args[k] = (struct arg){k, 10 + k, rank, peer, 1, MPI_COMM_WORLD, 0};
        CHECK_INT(pthread_create(&th[k], NULL, racer, &args[k]), 0);
    }
    for (int k = 0; k < NT; k++)
        CHECK_INT(pthread_join(th[k], NULL), 0);
    for (int k = 0; k < NT; k++)
        CHECK_INT(args[k].done, NROUND);
    nothing_left(MPI_COMM_WORLD);

    /* D: one sender, NT receivers */
    for (int k = 0; k <= NT; k++) {
        args[k] = (struct arg){k, k, rank, peer, 3, MPI_COMM_WORLD, 0};
        CHECK_INT(pthread_create(&th[k], NULL, k == NT ? round_robin_sender : drainer, &args[k]),
                  0);
    }
    for (int k = 0; k <= NT; k++)
        CHECK_INT(pthread_join(th[k], NULL), 0);
    for (int k = 0; k < NT; k++)
        CHECK_INT(args[k].done, NMSG);
    nothing_left(MPI_COMM_WORLD);

    /* C: a communicator per thread, all with the same tag */
    for (int k = 0; k < NT; k++) {
        args[k] = (struct arg){k, 0, rank, peer, 2, MPI_COMM_NULL, 0};
        OK(MPI_Comm_dup(MPI_COMM_WORLD, &args[k].comm));
    }
    for (int k = 0; k < NT; k++) {
        CHECK_INT(pthread_create(&th[k], NULL, own_comm, &args[k]), 0);
    }
    for (int k = 0; k < NT; k++)
        CHECK_INT(pthread_join(th[k], NULL), 0);
    for (int k = 0; k < NT; k++) {
        CHECK_INT(args[k].done, NMSG);
        nothing_left(args[k].comm);
        OK(MPI_Comm_free(&args[k].comm));
    }
    nothing_left(MPI_COMM_WORLD);
    if (rank == 0)
        printf("p2p_cells_threads: %d ranks: ok\n", size);
    OK(MPI_Finalize());
    return 0;
}
