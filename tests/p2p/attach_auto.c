/* MPI_BUFFER_AUTOMATIC (MPI 4.1 section 3.6), around the ring, under MPI_ERRORS_RETURN: with
 * automatic buffering attached to the rank, to a communicator and to a session, M buffered
 * sends of mixed sizes (empty, a few bytes, eager, rendezvous, some larger than 2 MiB: far
 * more than any fixed buffer sized for one of them) are all outstanding at once — nobody has
 * posted a receive yet (a barrier holds the receives back) — through MPI_Bsend, MPI_Ibsend
 * and MPI_Bsend_init/MPI_Start; the user's buffer is overwritten after each; the receiver
 * then gets every one intact and in order. Attach ignores the size (even a negative one);
 * a second attach fails with MPI_ERR_BUFFER; detach gives MPI_BUFFER_AUTOMATIC and size 0,
 * after waiting for the messages (the flush calls wait for them too). */
#include "p2p_check.h"

enum { M = 48 };

/* The size of message k: mixed, a few of them above 2 MiB. */
static size_t msg_size(int k)
{
    static const size_t sizes[] = {0, 1, 40, 41, 1000, 8192, 65536 + 7, 300000};
    if (k % 16 == 15)
        return 2 * 1024 * 1024 + 3 + (size_t)k;
    return sizes[k % 8] + (size_t)k;
}

static unsigned msg_id(int r, int round, int k)
{
    return (unsigned)(r * 10000 + round * 100 + k);
}

/* One round on c: M outstanding buffered sends to next, then the receives from prev once
 * every rank has sent (the barrier). flush: how this round waits until its messages have left
 * the buffer (0: the rank's, 1: c's, 2: the session's), before the caller detaches. */
static void round_on(MPI_Comm c, int round, int rank, int next, int prev, unsigned char *sbuf,
                     unsigned char *rbuf, MPI_Session ses, int flush)
{
    MPI_Request reqs[M];
    for (int k = 0; k < M; k++) {
        size_t n = msg_size(k);
        p2p_fill(sbuf, n, msg_id(rank, round, k));
        switch (k % 3) {
        case 0:
            OK(MPI_Bsend(sbuf, (int)n, MPI_BYTE, next, k, c));
            break;
        case 1:
            OK(MPI_Ibsend(sbuf, (int)n, MPI_BYTE, next, k, c, &reqs[k]));
            OK(MPI_Wait(&reqs[k], MPI_STATUS_IGNORE)); /* complete at once */
            break;
        default:
            OK(MPI_Bsend_init(sbuf, (int)n, MPI_BYTE, next, k, c, &reqs[k]));
            OK(MPI_Start(&reqs[k]));
            OK(MPI_Wait(&reqs[k], MPI_STATUS_IGNORE));
            OK(MPI_Request_free(&reqs[k]));
            break;
        }
        memset(sbuf, 0, n); /* the message has its own copy */
    }
    OK(MPI_Barrier(MPI_COMM_WORLD)); /* every message of every rank is outstanding now */
    size_t off = 0;
    for (int k = 0; k < M; k++) {
        OK(MPI_Irecv(rbuf + off, (int)msg_size(k), MPI_BYTE, prev, k, c, &reqs[k]));
        off += msg_size(k);
    }
    if (flush == 0)
        OK(MPI_Buffer_flush());
    else if (flush == 1)
        OK(MPI_Comm_flush_buffer(c));
    else
        OK(MPI_Session_flush_buffer(ses));
    OK(MPI_Waitall(M, reqs, MPI_STATUSES_IGNORE));
    off = 0;
    for (int k = 0; k < M; k++) {
        CHECK_FILL(rbuf + off, msg_size(k), msg_id(prev, round, k));
        off += msg_size(k);
    }
}

int main(int argc, char **argv)
{
    OK(MPI_Init(&argc, &argv));
    OK(MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_RETURN));
    int rank = p2p_rank(), size = p2p_size();
    int next = (rank + 1) % size, prev = (rank + size - 1) % size;
    size_t total = 0;
    for (int k = 0; k < M; k++)
        total += msg_size(k);
    unsigned char *sbuf = p2p_malloc(msg_size(M - 1) + 4 * 1024 * 1024);
    unsigned char *rbuf = p2p_malloc(total);
    void *got;
    int got_size;
    char fixed[256];

    /* the rank's */
    OK(MPI_Buffer_attach(MPI_BUFFER_AUTOMATIC, -5)); /* the size is ignored */
    FAILS(MPI_Buffer_attach(fixed, (int)sizeof fixed), MPI_ERR_BUFFER);
    FAILS(MPI_Buffer_attach(MPI_BUFFER_AUTOMATIC, 0), MPI_ERR_BUFFER);
    round_on(MPI_COMM_WORLD, 0, rank, next, prev, sbuf, rbuf, MPI_SESSION_NULL, 0);
    got = fixed;
    got_size = -1;
    OK(MPI_Buffer_detach(&got, &got_size));
    CHECK(got == MPI_BUFFER_AUTOMATIC);
    CHECK_INT(got_size, 0);

    /* a communicator's (the rank's has a fixed buffer too small for most messages) */
    OK(MPI_Buffer_attach(fixed, (int)sizeof fixed));
    MPI_Comm dup;
    OK(MPI_Comm_dup(MPI_COMM_WORLD, &dup));
    OK(MPI_Comm_set_errhandler(dup, MPI_ERRORS_RETURN));
    OK(MPI_Comm_attach_buffer(dup, MPI_BUFFER_AUTOMATIC, 0));
    FAILS(MPI_Comm_attach_buffer(dup, MPI_BUFFER_AUTOMATIC, 0), MPI_ERR_BUFFER);
    round_on(dup, 1, rank, next, prev, sbuf, rbuf, MPI_SESSION_NULL, 1);
    OK(MPI_Comm_detach_buffer(dup, &got, &got_size));
    CHECK(got == MPI_BUFFER_AUTOMATIC);
    CHECK_INT(got_size, 0);

    /* a session's */
    MPI_Session ses;
    OK(MPI_Session_init(MPI_INFO_NULL, MPI_ERRORS_RETURN, &ses));
    MPI_Group g;
    OK(MPI_Group_from_session_pset(ses, "mpi://WORLD", &g));
    MPI_Comm sc;
    OK(MPI_Comm_create_from_group(g, "loom.test.auto", MPI_INFO_NULL, MPI_ERRORS_RETURN, &sc));
    OK(MPI_Session_attach_buffer(ses, MPI_BUFFER_AUTOMATIC, 12345));
    round_on(sc, 2, rank, next, prev, sbuf, rbuf, ses, 2);
    MPI_Count cgot = -1;
    OK(MPI_Session_detach_buffer_c(ses, &got, &cgot));
    CHECK(got == MPI_BUFFER_AUTOMATIC);
    CHECK(cgot == 0);
    /* the detach waits: outstanding messages at detach time, nobody receiving yet */
    OK(MPI_Session_attach_buffer(ses, MPI_BUFFER_AUTOMATIC, 0));
    size_t n = msg_size(8);
    p2p_fill(sbuf, n, msg_id(rank, 3, 0));
    OK(MPI_Bsend(sbuf, (int)n, MPI_BYTE, next, 99, sc));
    MPI_Request rreq;
    OK(MPI_Irecv(rbuf, (int)n, MPI_BYTE, prev, 99, sc, &rreq));
    OK(MPI_Session_detach_buffer(ses, &got, &got_size));
    OK(MPI_Wait(&rreq, MPI_STATUS_IGNORE));
    CHECK_FILL(rbuf, n, msg_id(prev, 3, 0));

    OK(MPI_Comm_free(&sc));
    OK(MPI_Group_free(&g));
    OK(MPI_Session_finalize(&ses));
    OK(MPI_Comm_free(&dup));
    OK(MPI_Buffer_detach(&got, &got_size));
    CHECK(got == fixed);
    free(sbuf);
    free(rbuf);
    OK(MPI_Finalize());
    return 0;
}
