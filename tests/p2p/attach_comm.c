/* Buffers attached to a communicator (MPI 4.1 section 3.6), around the ring (under
 * MPI_ERRORS_RETURN; messages of BIG bytes stay in the buffer until their receiver takes
 * them, also under LOOM_EAGER_MAX=1M):
 *  - a buffered send on a communicator with a buffer uses that buffer, not the rank's: with
 *    the rank's buffer too small for the message and the communicator's big enough it
 *    succeeds, while the same send on MPI_COMM_WORLD fails; and the reverse (the
 *    communicator's too small, the rank's big enough) fails with MPI_ERR_BUFFER;
 *  - MPI_Comm_detach_buffer gives back the address and size attached and waits until the
 *    message has left the buffer (the buffer is overwritten right after; the receiver still
 *    gets the message);
 *  - MPI_Comm_iflush_buffer is not complete before any receiver posted its receive (a
 *    barrier holds them back), while the rank's MPI_Buffer_iflush, whose buffer holds
 *    nothing, is; it completes once the message is received; MPI_Comm_flush_buffer returns
 *    once it is;
 *  - a persistent buffered send uses the buffer attached when it starts: the communicator's,
 *    then, once detached, the rank's;
 *  - MPI_Comm_free with a buffer attached detaches it and waits for its messages: the buffer
 *    is overwritten after the free and the receiver gets the message. */
#include "p2p_check.h"

#define BIG (2 * 1024 * 1024 + 3)

/* Receive the BIG message `id` from prev on c with tag into rbuf, and check it. (No globals:
 * every rank is a thread of one process, and this test is not built by loomcc.) */
static void recv_check_(unsigned char *rbuf, int prev, MPI_Comm c, int tag, unsigned id)
{
    MPI_Status st;
    OK(MPI_Recv(rbuf, BIG, MPI_BYTE, prev, tag, c, &st));
    CHECK_FILL(rbuf, BIG, id);
}

/* The id of rank r's message number k. */
static unsigned msg_id(int r, int k)
{
    return (unsigned)(r * 100 + k);
}

int main(int argc, char **argv)
{
    OK(MPI_Init(&argc, &argv));
    OK(MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_RETURN));
    int rank = p2p_rank(), size = p2p_size();
    int next = (rank + 1) % size, prev = (rank + size - 1) % size;
    unsigned char *sbuf = p2p_malloc(BIG), *rbuf = p2p_malloc(BIG);
#define recv_check(c, tag, id) recv_check_(rbuf, prev, c, tag, id)
    int pack;
    OK(MPI_Pack_size(BIG, MPI_BYTE, MPI_COMM_WORLD, &pack));
    const int one = pack + MPI_BSEND_OVERHEAD; /* room for one BIG message */
    const int tiny = 64 + MPI_BSEND_OVERHEAD;  /* room for no BIG message */
    char *rank_small = p2p_malloc((size_t)tiny), *rank_big = p2p_malloc((size_t)one);
    char *comm_small = p2p_malloc((size_t)tiny), *comm_big = p2p_malloc((size_t)one);
    MPI_Comm dup;
    OK(MPI_Comm_dup(MPI_COMM_WORLD, &dup));
    OK(MPI_Comm_set_errhandler(dup, MPI_ERRORS_RETURN));
    void *got;
    int got_size;
    MPI_Request req, rreq;
    int flag;

    /* the communicator's buffer before the rank's */
    OK(MPI_Buffer_attach(rank_small, tiny));
    OK(MPI_Comm_attach_buffer(dup, comm_big, one));
    p2p_fill(sbuf, BIG, msg_id(rank, 1));
    FAILS(MPI_Bsend(sbuf, BIG, MPI_BYTE, next, 1, MPI_COMM_WORLD), MPI_ERR_BUFFER);
    OK(MPI_Bsend(sbuf, BIG, MPI_BYTE, next, 1, dup));
    memset(sbuf, 0, BIG); /* the buffer holds its own copy */
    recv_check(dup, 1, msg_id(prev, 1));
    OK(MPI_Comm_flush_buffer(dup));
    OK(MPI_Comm_detach_buffer(dup, &got, &got_size));
    CHECK(got == comm_big);
    CHECK_INT(got_size, one);
    OK(MPI_Buffer_detach(&got, &got_size));
    CHECK(got == rank_small);
    CHECK_INT(got_size, tiny);

    /* the reverse: the communicator's too small fails though the rank's has room */
    OK(MPI_Buffer_attach(rank_big, one));
    OK(MPI_Comm_attach_buffer(dup, comm_small, tiny));
    p2p_fill(sbuf, BIG, msg_id(rank, 2));
    FAILS(MPI_Bsend(sbuf, BIG, MPI_BYTE, next, 2, dup), MPI_ERR_BUFFER);
    FAILS(MPI_Ibsend(sbuf, BIG, MPI_BYTE, next, 2, dup, &req), MPI_ERR_BUFFER);
    OK(MPI_Bsend(sbuf, BIG, MPI_BYTE, next, 2, MPI_COMM_WORLD));
    recv_check(MPI_COMM_WORLD, 2, msg_id(prev, 2));
    OK(MPI_Comm_detach_buffer(dup, &got, &got_size));
    CHECK(got == comm_small);
    CHECK_INT(got_size, tiny);

    /* detach waits until the message has left the buffer */
    OK(MPI_Comm_attach_buffer(dup, comm_big, one));
    p2p_fill(sbuf, BIG, msg_id(rank, 3));
    OK(MPI_Bsend(sbuf, BIG, MPI_BYTE, next, 3, dup));
    OK(MPI_Irecv(rbuf, BIG, MPI_BYTE, prev, 3, dup, &rreq));
    OK(MPI_Comm_detach_buffer(dup, &got, &got_size));
    CHECK(got == comm_big);
    memset(comm_big, 0xEE, (size_t)one); /* ours again: the receiver already has its copy */
    OK(MPI_Wait(&rreq, MPI_STATUS_IGNORE));
    CHECK_FILL(rbuf, BIG, msg_id(prev, 3));

    /* iflush: pending until the receiver takes the message; the rank's holds nothing */
    OK(MPI_Comm_attach_buffer(dup, comm_big, one));
    p2p_fill(sbuf, BIG, msg_id(rank, 4));
    OK(MPI_Bsend(sbuf, BIG, MPI_BYTE, next, 4, dup));
    OK(MPI_Comm_iflush_buffer(dup, &req));
    for (int k = 0; k < 10; k++) {
        OK(MPI_Test(&req, &flag, MPI_STATUS_IGNORE));
        CHECK_INT(flag, 0);
    }
    MPI_Request rank_flush;
    OK(MPI_Buffer_iflush(&rank_flush));
    OK(MPI_Test(&rank_flush, &flag, MPI_STATUS_IGNORE));
    CHECK_INT(flag, 1);
    OK(MPI_Barrier(MPI_COMM_WORLD));
    recv_check(dup, 4, msg_id(prev, 4));
    OK(MPI_Wait(&req, MPI_STATUS_IGNORE));
    CHECK(req == MPI_REQUEST_NULL);
    /* blocking flush: the receiver posted its receive first */
    OK(MPI_Irecv(rbuf, BIG, MPI_BYTE, prev, 5, dup, &rreq));
    p2p_fill(sbuf, BIG, msg_id(rank, 5));
    OK(MPI_Bsend(sbuf, BIG, MPI_BYTE, next, 5, dup));
    OK(MPI_Comm_flush_buffer(dup));
    OK(MPI_Wait(&rreq, MPI_STATUS_IGNORE));
    CHECK_FILL(rbuf, BIG, msg_id(prev, 5));
    /* and the buffer has room for one again */
    OK(MPI_Irecv(rbuf, BIG, MPI_BYTE, prev, 6, dup, &rreq));
    p2p_fill(sbuf, BIG, msg_id(rank, 6));
    OK(MPI_Bsend(sbuf, BIG, MPI_BYTE, next, 6, dup));
    OK(MPI_Wait(&rreq, MPI_STATUS_IGNORE));
    CHECK_FILL(rbuf, BIG, msg_id(prev, 6));

    /* a persistent buffered send takes the buffer attached at each start */
    OK(MPI_Bsend_init(sbuf, BIG, MPI_BYTE, next, 7, dup, &req));
    p2p_fill(sbuf, BIG, msg_id(rank, 7));
    OK(MPI_Comm_flush_buffer(dup)); /* message 6 has left it */
    OK(MPI_Start(&req)); /* the communicator's */
    OK(MPI_Wait(&req, MPI_STATUS_IGNORE));
    recv_check(dup, 7, msg_id(prev, 7));
    OK(MPI_Comm_detach_buffer(dup, &got, &got_size));
    OK(MPI_Buffer_flush()); /* message 2 has left the rank's buffer: room for one again */
    p2p_fill(sbuf, BIG, msg_id(rank, 8));
    OK(MPI_Start(&req)); /* now the rank's */
    OK(MPI_Wait(&req, MPI_STATUS_IGNORE));
    recv_check(dup, 7, msg_id(prev, 8));
    OK(MPI_Request_free(&req));

    /* MPI_Comm_free detaches and waits */
    MPI_Comm dup2;
    OK(MPI_Comm_dup(dup, &dup2));
    OK(MPI_Comm_attach_buffer(dup2, comm_big, one));
    p2p_fill(sbuf, BIG, msg_id(rank, 9));
    OK(MPI_Bsend(sbuf, BIG, MPI_BYTE, next, 9, dup2));
    OK(MPI_Irecv(rbuf, BIG, MPI_BYTE, prev, 9, dup2, &rreq));
    OK(MPI_Comm_free(&dup2)); /* the receive goes on; our message has left the buffer */
    memset(comm_big, 0xEE, (size_t)one);
    OK(MPI_Wait(&rreq, MPI_STATUS_IGNORE));
    CHECK_FILL(rbuf, BIG, msg_id(prev, 9));

    OK(MPI_Buffer_detach(&got, &got_size));
    CHECK(got == rank_big);
    OK(MPI_Comm_free(&dup));
    free(rank_small);
    free(rank_big);
    free(comm_small);
    free(comm_big);
    free(sbuf);
    free(rbuf);
    OK(MPI_Finalize());
    return 0;
}
