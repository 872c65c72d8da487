/* MPI_Cancel: a posted receive that nothing matched is cancelled (the wait returns, status
 * says cancelled, buffer untouched, a later message is not swallowed by it); a receive that
 * already completed is not; a send may refuse, and then the message still arrives whole and
 * MPI_Test_cancelled says false. Also a cancelled wildcard receive, cancel then
 * Request_free, and a cancelled persistent receive that is started again. */
#include "p2p_check.h"

#define BIG 100000

int main(int argc, char **argv)
{
    OK(MPI_Init(&argc, &argv));
    int rank = p2p_rank(), size = p2p_size(), peer = p2p_partner(rank, size);
    int in = -1, out = rank, flag;
    MPI_Request req, sreq;
    MPI_Status st;

    /* cancel a receive nothing will match; then a message with that tag goes to a new
     * receive */
    OK(MPI_Irecv(&in, 1, MPI_INT, peer, 1, MPI_COMM_WORLD, &req));
    OK(MPI_Cancel(&req));
    CHECK(req != MPI_REQUEST_NULL);
    OK(MPI_Wait(&req, &st));
    CHECK(req == MPI_REQUEST_NULL);
    flag = 0;
    OK(MPI_Test_cancelled(&st, &flag));
    CHECK_INT(flag, 1);
    CHECK_INT(in, -1);
    OK(MPI_Barrier(MPI_COMM_WORLD));
    OK(MPI_Sendrecv(&out, 1, MPI_INT, peer, 1, &in, 1, MPI_INT, peer, 1, MPI_COMM_WORLD,
                    &st));
    CHECK_INT(in, peer);
    OK(MPI_Test_cancelled(&st, &flag));
    CHECK_INT(flag, 0);

    /* wildcard receive, cancelled, completed by Test */
    OK(MPI_Irecv(&in, 1, MPI_INT, MPI_ANY_SOURCE, MPI_ANY_TAG, MPI_COMM_WORLD, &req));
    OK(MPI_Cancel(&req));
    do
        OK(MPI_Test(&req, &flag, &st));
    while (!flag);
    OK(MPI_Test_cancelled(&st, &flag));
    CHECK_INT(flag, 1);

    /* cancel, then free without waiting */
    OK(MPI_Irecv(&in, 1, MPI_INT, peer, 2, MPI_COMM_WORLD, &req));
    OK(MPI_Cancel(&req));
    OK(MPI_Request_free(&req));
    CHECK(req == MPI_REQUEST_NULL);

    /* a receive already complete: cancel has no effect */
    OK(MPI_Barrier(MPI_COMM_WORLD));
    in = -1;
    OK(MPI_Irecv(&in, 1, MPI_INT, peer, 3, MPI_COMM_WORLD, &req));
    OK(MPI_Send(&out, 1, MPI_INT, peer, 3, MPI_COMM_WORLD));
    do
        OK(MPI_Request_get_status(req, &flag, MPI_STATUS_IGNORE));
    while (!flag);
    OK(MPI_Cancel(&req));
    OK(MPI_Wait(&req, &st));
    OK(MPI_Test_cancelled(&st, &flag));
    CHECK_INT(flag, 0);
    CHECK_INT(in, peer);

    /* sends: standard small, standard large, synchronous. Cancel may refuse; if it does
     * the message arrives. If it succeeds, nothing arrives. */
    const size_t lens[3] = {16, BIG, 16};
    unsigned char *sbuf = p2p_malloc(BIG), *rbuf = p2p_malloc(BIG);
    for (int k = 0; k < 3; k++) {
        OK(MPI_Barrier(MPI_COMM_WORLD));
        p2p_fill(sbuf, lens[k], (unsigned)(rank * 10 + k));
        if (k == 2)
            OK(MPI_Issend(sbuf, (int)lens[k], MPI_BYTE, peer, 10 + k, MPI_COMM_WORLD, &sreq));
        else
            OK(MPI_Isend(sbuf, (int)lens[k], MPI_BYTE, peer, 10 + k, MPI_COMM_WORLD, &sreq));
        OK(MPI_Cancel(&sreq));
        /* tell the peer whether it will get the message (wait for the send only after the
         * peer's receive is posted: a refused synchronous send completes when matched) */
        int cancelled, peer_cancelled;
        OK(MPI_Request_get_status(sreq, &flag, &st));
        cancelled = 0;
        if (flag)
            OK(MPI_Test_cancelled(&st, &cancelled));
        OK(MPI_Sendrecv(&cancelled, 1, MPI_INT, peer, 99, &peer_cancelled, 1, MPI_INT, peer, 99,
                        MPI_COMM_WORLD, MPI_STATUS_IGNORE));
        if (!peer_cancelled) {
            OK(MPI_Recv(rbuf, BIG, MPI_BYTE, peer, 10 + k, MPI_COMM_WORLD, &st));
            CHECK_STATUS(st, peer, 10 + k, lens[k]);
            CHECK_FILL(rbuf, lens[k], (unsigned)(peer * 10 + k));
            OK(MPI_Test_cancelled(&st, &flag));
            CHECK_INT(flag, 0);
        }
        OK(MPI_Wait(&sreq, &st));
        OK(MPI_Test_cancelled(&st, &flag));
        CHECK_INT(flag, cancelled);
    }
    OK(MPI_Barrier(MPI_COMM_WORLD));
    OK(MPI_Iprobe(MPI_ANY_SOURCE, MPI_ANY_TAG, MPI_COMM_WORLD, &flag, MPI_STATUS_IGNORE));
    CHECK_INT(flag, 0);

    /* persistent receive: started, cancelled, started again and completed */
    OK(MPI_Recv_init(&in, 1, MPI_INT, peer, 20, MPI_COMM_WORLD, &req));
    OK(MPI_Start(&req));
    OK(MPI_Cancel(&req));
    OK(MPI_Wait(&req, &st));
    CHECK(req != MPI_REQUEST_NULL);
    OK(MPI_Test_cancelled(&st, &flag));
    CHECK_INT(flag, 1);
    in = -1;
    OK(MPI_Start(&req));
    OK(MPI_Barrier(MPI_COMM_WORLD));
    OK(MPI_Send(&out, 1, MPI_INT, peer, 20, MPI_COMM_WORLD));
    OK(MPI_Wait(&req, &st));
    OK(MPI_Test_cancelled(&st, &flag));
    CHECK_INT(flag, 0);
    CHECK_INT(in, peer);
    OK(MPI_Request_free(&req));

    free(sbuf);
    free(rbuf);
    OK(MPI_Finalize());
    return 0;
}
