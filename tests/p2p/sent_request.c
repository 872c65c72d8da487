/* Requests of sends complete at birth. A small MPI_Isend or MPI_Irsend whose message goes into
 * a cell returns one predefined, complete request (p2p/request.h, loom__req_sent) rather than a
 * request of its own; every call that takes a request must treat it as the complete send it
 * is, and none may free it or write into it, since every such send of every rank and thread
 * holds it. Checked, with small sends beside larger ones (rendezvous, unexpected) in the same
 * arrays, the partner checking every message's bytes and order:
 *  A. a window of sends completed by each completion call (Wait, Test, Waitall, Testall,
 *     Waitany, Testany, Waitsome, Testsome): handles become MPI_REQUEST_NULL, indices are right,
 *     and the buffers, overwritten at once, must not change what the partner receives;
 *  B. MPI_Request_free, MPI_Cancel (a complete send is not cancelled: Test_cancelled false,
 *     the message arrives), MPI_Request_get_status (complete, the handle kept), MPI_Start
 *     (MPI_ERR_REQUEST: not persistent), a Fortran handle round trip, and sends made after each
 *     of them still complete;
 *  C. MPI_Waitall with a truncated receive among small sends: MPI_ERR_IN_STATUS, MPI_SUCCESS
 *     in the sends' statuses;
 *  D. with MPI_THREAD_MULTIPLE, NT threads of each rank sending, freeing, testing and waiting
 *     on small sends at once, each on its own tag (under ThreadSanitizer in CI: a write into
 *     the shared request is a race).
 * The partner is rank^1, or the rank itself when alone. No writable globals (ranks are
 * threads of one process). */
#include <pthread.h>
#include "p2p_check.h"

#define WIN 48
#define BIG 100000
#define NT 4
#define NMSG 300

/* Message i of a window: small (8 - 40 bytes) except every 16th, which is BIG. */
static size_t len_of(int i)
{
    return i % 16 == 15 ? BIG : (size_t)(8 + (i * 5) % 33);
}

/* The partner's side of one window of WIN messages with tag `tag`: received in order. */
static void recv_window(int peer, int tag, unsigned id0, unsigned char *buf)
{
    for (int i = 0; i < WIN; i++) {
        MPI_Status st;
        OK(MPI_Recv(buf, BIG, MPI_BYTE, peer, tag, MPI_COMM_WORLD, &st));
        CHECK_STATUS(st, peer, tag, (int)len_of(i));
        CHECK_FILL(buf, len_of(i), id0 + (unsigned)i);
    }
}

/* Post a window of WIN sends (standard, and ready for the small ones the partner has not yet
 * posted for: a ready send needs a posted receive, so only standard here). */
static void send_window(int peer, int tag, unsigned id0, unsigned char **bufs, MPI_Request *req)
{
    for (int i = 0; i < WIN; i++) {
        p2p_fill(bufs[i], len_of(i), id0 + (unsigned)i);
        OK(MPI_Isend(bufs[i], (int)len_of(i), MPI_BYTE, peer, tag, MPI_COMM_WORLD, &req[i]));
        CHECK(req[i] != MPI_REQUEST_NULL);
    }
}

static void all_null(const MPI_Request *req, int n)
{
    for (int i = 0; i < n; i++)
        CHECK(req[i] == MPI_REQUEST_NULL);
}

/* A: each completion call in turn on a window (mode m), while the partner receives. */
static void complete_window(int m, int rank, int peer, unsigned char **bufs, unsigned char *rbuf)
{
    MPI_Request req[WIN];
    MPI_Status st[WIN];
    unsigned id = (unsigned)(1000 * m + 100 * rank), pid = (unsigned)(1000 * m + 100 * peer);
    send_window(peer, 10 + m, id, bufs, req);
    recv_window(peer, 10 + m, pid, rbuf);
    int flag = 0, index = -1, n = -1, idx[WIN];
    switch (m) {
    case 0:
        for (int i = 0; i < WIN; i++)
            OK(MPI_Wait(&req[i], &st[i]));
        break;
    case 1:
        for (int i = 0; i < WIN; i++) {
            do
                OK(MPI_Test(&req[i], &flag, MPI_STATUS_IGNORE));
            while (!flag);
        }
        break;
    case 2:
        OK(MPI_Waitall(WIN, req, st));
        break;
    case 3:
        do
            OK(MPI_Testall(WIN, req, &flag, MPI_STATUSES_IGNORE));
        while (!flag);
        break;
    case 4:
        for (int done = 0; done < WIN; done++) {
            OK(MPI_Waitany(WIN, req, &index, MPI_STATUS_IGNORE));
            CHECK(index >= 0 && index < WIN && req[index] == MPI_REQUEST_NULL);
        }
        OK(MPI_Waitany(WIN, req, &index, MPI_STATUS_IGNORE));
        CHECK_INT(index, MPI_UNDEFINED);
        break;
    case 5:
        for (int done = 0; done < WIN;) {
            OK(MPI_Testany(WIN, req, &index, &flag, MPI_STATUS_IGNORE));
            if (flag) {
                CHECK(index >= 0 && index < WIN && req[index] == MPI_REQUEST_NULL);
                done++;
            }
        }
        break;
    case 6:
        for (int done = 0; done < WIN; done += n) {
            OK(MPI_Waitsome(WIN, req, &n, idx, st));
            CHECK(n >= 1 && n <= WIN - done);
            for (int k = 0; k < n; k++)
                CHECK(req[idx[k]] == MPI_REQUEST_NULL);
        }
        break;
    default:
        for (int done = 0; done < WIN; done += n) {
            OK(MPI_Testsome(WIN, req, &n, idx, MPI_STATUSES_IGNORE));
            CHECK(n >= 0 && n <= WIN - done);
        }
        break;
    }
    all_null(req, WIN);
    /* complete means the buffers are free: a send that said so too early (a rendezvous one
     * handed the request of sends already sent) shows as wrong bytes on the partner */
    for (int i = 0; i < WIN; i++)
        memset(bufs[i], 0xee, len_of(i));
}

/* B: the calls that hold a request without completing it, each followed by more sends. */
static void hold_calls(int rank, int peer, unsigned char *sbuf, unsigned char *rbuf)
{
    MPI_Request r;
    MPI_Status st;
    int flag = -1, x = 0;
    for (int step = 0; step < 4; step++) {
        unsigned id = (unsigned)(9000 + 10 * rank + step);
        unsigned pid = (unsigned)(9000 + 10 * peer + step);
        p2p_fill(sbuf, 24, id);
        OK(MPI_Isend(sbuf, 24, MPI_BYTE, peer, 30, MPI_COMM_WORLD, &r));
        switch (step) {
        case 0:
            OK(MPI_Request_free(&r));
            CHECK(r == MPI_REQUEST_NULL);
            break;
        case 1:
            OK(MPI_Cancel(&r));
            OK(MPI_Wait(&r, &st));
            OK(MPI_Test_cancelled(&st, &x));
            CHECK_INT(x, 0); /* a complete send is not cancelled: its message arrives */
            break;
        case 2:
            do
                OK(MPI_Request_get_status(r, &flag, &st));
            while (!flag);
            CHECK(r != MPI_REQUEST_NULL); /* get_status keeps the handle */
            FAILS(MPI_Start(&r), MPI_ERR_REQUEST); /* not persistent: reported, no harm */
            OK(MPI_Request_get_status(r, &flag, MPI_STATUS_IGNORE));
            CHECK_INT(flag, 1);
            OK(MPI_Wait(&r, MPI_STATUS_IGNORE));
            break;
        default: {
            MPI_Fint f = MPI_Request_c2f(r);
            CHECK(f != MPI_Request_c2f(MPI_REQUEST_NULL));
            MPI_Request back = MPI_Request_f2c(f);
            CHECK(back == r);
            OK(MPI_Wait(&back, MPI_STATUS_IGNORE));
            CHECK(back == MPI_REQUEST_NULL);
            break;
        }
        }
        CHECK(r == MPI_REQUEST_NULL || step == 3);
        OK(MPI_Recv(rbuf, 64, MPI_BYTE, peer, 30, MPI_COMM_WORLD, &st));
        CHECK_STATUS(st, peer, 30, 24);
        CHECK_FILL(rbuf, 24, pid);
    }
}

/* C: a truncated receive among small sends in one MPI_Waitall (the receives are in the same
 * array, so that sends that wait for their receive, when none goes into a cell, complete). */
static void truncated_among_sends(int rank, int peer, unsigned char *sbuf, unsigned char *rbuf)
{
    MPI_Request req[4];
    MPI_Status st[4];
    p2p_fill(sbuf, 32, (unsigned)(7000 + rank));
    OK(MPI_Irecv(rbuf, 4, MPI_BYTE, peer, 40, MPI_COMM_WORLD, &req[1])); /* 32 arrive */
    OK(MPI_Irecv(rbuf + 64, 16, MPI_BYTE, peer, 41, MPI_COMM_WORLD, &req[3]));
    OK(MPI_Isend(sbuf, 16, MPI_BYTE, peer, 41, MPI_COMM_WORLD, &req[0]));
    OK(MPI_Isend(sbuf, 32, MPI_BYTE, peer, 40, MPI_COMM_WORLD, &req[2]));
    for (int i = 0; i < 4; i++)
        st[i].MPI_ERROR = -12345;
    FAILS(MPI_Waitall(4, req, st), MPI_ERR_IN_STATUS);
    CHECK_INT(st[0].MPI_ERROR, MPI_SUCCESS);
    CHECK_INT(st[2].MPI_ERROR, MPI_SUCCESS);
    CHECK_INT(st[3].MPI_ERROR, MPI_SUCCESS);
    CHECK_STATUS(st[3], peer, 41, 16);
    CHECK_FILL(rbuf + 64, 16, (unsigned)(7000 + peer));
    int cls = -1;
    MPI_Error_class(st[1].MPI_ERROR, &cls);
    CHECK_INT(cls, MPI_ERR_TRUNCATE);
    all_null(req, 4);
}

struct targ {
    int t, rank, peer;
};

/* D: thread t sends NMSG small messages on tag 100 + t, completing them in turn by wait,
 * test, free and a two-request waitall; its twin on the partner receives them in order. */
static void *sender(void *p)
{
    const struct targ *a = p;
    unsigned char buf[40];
    MPI_Request r[2];
    int flag = 0;
    for (int i = 0; i < NMSG; i++) {
        size_t n = (size_t)(8 + (i + a->t) % 33);
        p2p_fill(buf, n, (unsigned)(a->rank * 100000 + a->t * 1000 + i));
        OK(MPI_Isend(buf, (int)n, MPI_BYTE, a->peer, 100 + a->t, MPI_COMM_WORLD, &r[0]));
        switch (i % 4) {
        case 0:
            OK(MPI_Wait(&r[0], MPI_STATUS_IGNORE));
            break;
        case 1:
            do
                OK(MPI_Test(&r[0], &flag, MPI_STATUS_IGNORE));
            while (!flag);
            break;
        case 2:
            /* Freed once complete, since buf is written again next: a send may not be complete
             * at birth (with LOOM_EAGER_MAX=0, a rank's message to itself that finds another
             * thread's receive posted goes by rendezvous), and after freeing it nothing says
             * when its buffer is free. */
            OK(MPI_Request_get_status(r[0], &flag, MPI_STATUS_IGNORE));
            if (flag)
                OK(MPI_Request_free(&r[0]));
            else
                OK(MPI_Wait(&r[0], MPI_STATUS_IGNORE));
            break;
        default:
            OK(MPI_Isend(buf, (int)n, MPI_BYTE, a->peer, 200 + a->t, MPI_COMM_WORLD, &r[1]));
            OK(MPI_Waitall(2, r, MPI_STATUSES_IGNORE));
            break;
        }
        CHECK(r[0] == MPI_REQUEST_NULL);
    }
    return NULL;
}

static void *receiver(void *p)
{
    const struct targ *a = p;
    unsigned char buf[64];
    MPI_Status st;
    for (int i = 0; i < NMSG; i++) {
        size_t n = (size_t)(8 + (i + a->t) % 33);
        unsigned id = (unsigned)(a->peer * 100000 + a->t * 1000 + i);
        OK(MPI_Recv(buf, 64, MPI_BYTE, a->peer, 100 + a->t, MPI_COMM_WORLD, &st));
        CHECK_STATUS(st, a->peer, 100 + a->t, (int)n);
        CHECK_FILL(buf, n, id);
        if (i % 4 == 3) {
            OK(MPI_Recv(buf, 64, MPI_BYTE, a->peer, 200 + a->t, MPI_COMM_WORLD, &st));
            CHECK_STATUS(st, a->peer, 200 + a->t, (int)n);
            CHECK_FILL(buf, n, id);
        }
    }
    return NULL;
}

static void threads(int rank, int peer)
{
    pthread_t th[2 * NT];
    struct targ a[NT];
    for (int t = 0; t < NT; t++) {
        a[t] = (struct targ){t, rank, peer};
        CHECK(pthread_create(&th[2 * t], NULL, sender, &a[t]) == 0);
        CHECK(pthread_create(&th[2 * t + 1], NULL, receiver, &a[t]) == 0);
    }
    for (int t = 0; t < 2 * NT; t++)
        CHECK(pthread_join(th[t], NULL) == 0);
}

int main(int argc, char **argv)
{
    int provided = 0;
    OK(MPI_Init_thread(&argc, &argv, MPI_THREAD_MULTIPLE, &provided));
    OK(MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_RETURN));
    int rank = p2p_rank(), size = p2p_size(), peer = p2p_partner(rank, size);
    unsigned char *bufs[WIN], *rbuf = p2p_malloc(BIG);
    for (int i = 0; i < WIN; i++)
        bufs[i] = p2p_malloc(len_of(i) < 64 ? 64 : len_of(i)); /* B and C use 64 */
    for (int m = 0; m < 8; m++)
        complete_window(m, rank, peer, bufs, rbuf);
    hold_calls(rank, peer, bufs[0], rbuf);
    truncated_among_sends(rank, peer, bufs[1], rbuf);
    OK(MPI_Barrier(MPI_COMM_WORLD));
    if (provided == MPI_THREAD_MULTIPLE)
        threads(rank, peer);
    OK(MPI_Barrier(MPI_COMM_WORLD));
    for (int i = 0; i < WIN; i++)
        free(bufs[i]);
    free(rbuf);
    if (rank == 0)
        printf("p2p_sent_request: %d ranks: ok\n", size);
    OK(MPI_Finalize());
    return 0;
}
