/* A buffer attached to a session (MPI 4.1 section 3.6), around the ring (under
 * MPI_ERRORS_RETURN; messages of BIG bytes stay in the buffer until their receiver takes
 * them). The communicators made from a group of the session's process set "mpi://WORLD" (and
 * from a group derived from it with MPI_Group_incl, and a duplicate of one of them) derive
 * from the session:
 *  - with nothing attached to the session and the rank's buffer too small, a buffered send
 *    of BIG on them fails; once a big enough buffer is attached to the session it succeeds,
 *    while the same send on MPI_COMM_WORLD (not derived from the session) still fails;
 *  - a buffer attached to one of those communicators comes first: too small, the send fails
 *    there though the session's has room, and the other communicators still use the
 *    session's;
 *  - MPI_Session_iflush_buffer is not complete before the receivers post their receives (a
 *    barrier holds them back) and completes once they have; MPI_Session_flush_buffer returns
 *    once they have;
 *  - MPI_Session_detach_buffer gives back the address and size attached; after it the sends
 *    on the derived communicators use the rank's buffer again;
 *  - MPI_Session_finalize with a buffer attached detaches it and waits for its message: the
 *    buffer is overwritten after it, and the receiver, which may take the message only
 *    then, still gets it. */
#include "p2p_check.h"

#define BIG (2 * 1024 * 1024 + 3)

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
    int pack;
    OK(MPI_Pack_size(BIG, MPI_BYTE, MPI_COMM_WORLD, &pack));
    const int one = pack + MPI_BSEND_OVERHEAD, two = 2 * one, tiny = 64 + MPI_BSEND_OVERHEAD;
    char *rank_small = p2p_malloc((size_t)tiny), *ses_buf = p2p_malloc((size_t)two);
    char *comm_small = p2p_malloc((size_t)tiny);
    void *got;
    int got_size, flag;
    MPI_Request req, rreq;

    MPI_Session ses;
    OK(MPI_Session_init(MPI_INFO_NULL, MPI_ERRORS_RETURN, &ses));
    MPI_Group g, g2;
    OK(MPI_Group_from_session_pset(ses, "mpi://WORLD", &g));
    MPI_Comm sc, dsc, ic;
    OK(MPI_Comm_create_from_group(g, "loom.test.attach", MPI_INFO_NULL, MPI_ERRORS_RETURN, &sc));
    OK(MPI_Comm_dup(sc, &dsc));
    int all[64];
    CHECK(size <= 64);
    for (int i = 0; i < size; i++)
        all[i] = i;
    OK(MPI_Group_incl(g, size, all, &g2));
    OK(MPI_Comm_create_from_group(g2, "loom.test.attach2", MPI_INFO_NULL, MPI_ERRORS_RETURN,
                                  &ic));
    const MPI_Comm derived[3] = {sc, dsc, ic};

    /* nothing attached to the session: the rank's, too small */
    OK(MPI_Buffer_attach(rank_small, tiny));
    for (int i = 0; i < 3; i++)
        FAILS(MPI_Bsend(sbuf, BIG, MPI_BYTE, next, 1, derived[i]), MPI_ERR_BUFFER);

    /* the session's buffer: every derived communicator, not MPI_COMM_WORLD */
    OK(MPI_Session_attach_buffer(ses, ses_buf, two));
    FAILS(MPI_Session_attach_buffer(ses, ses_buf, two), MPI_ERR_BUFFER);
    FAILS(MPI_Bsend(sbuf, BIG, MPI_BYTE, next, 1, MPI_COMM_WORLD), MPI_ERR_BUFFER);
    for (int i = 0; i < 3; i++) {
        p2p_fill(sbuf, BIG, msg_id(rank, i));
        OK(MPI_Irecv(rbuf, BIG, MPI_BYTE, prev, 1, derived[i], &rreq));
        OK(MPI_Bsend(sbuf, BIG, MPI_BYTE, next, 1, derived[i]));
        OK(MPI_Wait(&rreq, MPI_STATUS_IGNORE));
        CHECK_FILL(rbuf, BIG, msg_id(prev, i));
        OK(MPI_Session_flush_buffer(ses)); /* ours has left it too */
    }

    /* a communicator's own buffer comes first */
    OK(MPI_Comm_attach_buffer(sc, comm_small, tiny));
    FAILS(MPI_Bsend(sbuf, BIG, MPI_BYTE, next, 2, sc), MPI_ERR_BUFFER);
    p2p_fill(sbuf, BIG, msg_id(rank, 3));
    OK(MPI_Bsend(sbuf, BIG, MPI_BYTE, next, 2, dsc)); /* the session's */
    OK(MPI_Recv(rbuf, BIG, MPI_BYTE, prev, 2, dsc, MPI_STATUS_IGNORE));
    CHECK_FILL(rbuf, BIG, msg_id(prev, 3));
    OK(MPI_Comm_detach_buffer(sc, &got, &got_size));
    CHECK(got == comm_small);

    /* iflush and flush of the session's buffer */
    OK(MPI_Session_flush_buffer(ses));
    p2p_fill(sbuf, BIG, msg_id(rank, 4));
    OK(MPI_Bsend(sbuf, BIG, MPI_BYTE, next, 4, ic));
    OK(MPI_Session_iflush_buffer(ses, &req));
    for (int k = 0; k < 10; k++) {
        OK(MPI_Test(&req, &flag, MPI_STATUS_IGNORE));
        CHECK_INT(flag, 0);
    }
    OK(MPI_Barrier(MPI_COMM_WORLD));
    OK(MPI_Recv(rbuf, BIG, MPI_BYTE, prev, 4, ic, MPI_STATUS_IGNORE));
    CHECK_FILL(rbuf, BIG, msg_id(prev, 4));
    OK(MPI_Wait(&req, MPI_STATUS_IGNORE));
    CHECK(req == MPI_REQUEST_NULL);

    /* detached: the rank's again */
    OK(MPI_Session_detach_buffer(ses, &got, &got_size));
    CHECK(got == ses_buf);
    CHECK_INT(got_size, two);
    FAILS(MPI_Session_detach_buffer(ses, &got, &got_size), MPI_ERR_BUFFER);
    FAILS(MPI_Bsend(sbuf, BIG, MPI_BYTE, next, 5, dsc), MPI_ERR_BUFFER);

    /* finalize detaches and waits */
    OK(MPI_Session_attach_buffer(ses, ses_buf, two));
    p2p_fill(sbuf, BIG, msg_id(rank, 6));
    OK(MPI_Bsend(sbuf, BIG, MPI_BYTE, next, 6, dsc));
    OK(MPI_Recv(rbuf, BIG, MPI_BYTE, prev, 6, dsc, MPI_STATUS_IGNORE));
    CHECK_FILL(rbuf, BIG, msg_id(prev, 6)); /* ours may still be in the buffer */
    OK(MPI_Comm_free(&sc));
    OK(MPI_Comm_free(&dsc));
    OK(MPI_Comm_free(&ic));
    OK(MPI_Group_free(&g));
    OK(MPI_Group_free(&g2));
    OK(MPI_Session_finalize(&ses));
    memset(ses_buf, 0xEE, (size_t)two); /* ours again: next has its copy (it checks it) */

    OK(MPI_Buffer_detach(&got, &got_size));
    free(rank_small);
    free(ses_buf);
    free(comm_small);
    free(sbuf);
    free(rbuf);
    OK(MPI_Finalize());
    return 0;
}
