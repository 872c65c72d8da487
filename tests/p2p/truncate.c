/* MPI_ERR_TRUNCATE (under MPI_ERRORS_RETURN): a message longer than the receive buffer
 * fills the buffer, leaves what lies after it alone, and the call returns MPI_ERR_TRUNCATE
 * with the status telling source, tag and the count that fit; through every path (posted,
 * unexpected eager, unexpected rendezvous) and completion call (Recv, Wait, Waitall with
 * MPI_ERR_IN_STATUS, Test, Mrecv). The send side completes normally. */
#include "p2p_check.h"

#define LONG 100000
#define FIT 1000

/* (ranks are threads of one process: buffers are per rank, never globals) */
static void check_cut(unsigned char *rbuf, MPI_Status *st, int peer, int tag, size_t full,
                      unsigned id)
{
    size_t fit = full < FIT ? full : FIT;
    CHECK_STATUS(*st, peer, tag, fit);
    CHECK_FILL(rbuf, fit, id);
    CHECK_BYTES(rbuf + fit, 64, 0xcc);
}

int main(int argc, char **argv)
{
    OK(MPI_Init(&argc, &argv));
    OK(MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_RETURN));
    int rank = p2p_rank(), size = p2p_size(), peer = p2p_partner(rank, size);
    const size_t lens[] = {FIT + 1, 16385, LONG};
    unsigned char *sbuf = p2p_malloc(LONG), *rbuf = p2p_malloc(LONG);
    MPI_Request sreq, rreq, reqs[2];
    MPI_Status st, sts[2];
    int flag;

    for (int k = 0; k < 3; k++) {
        size_t n = lens[k];
        unsigned id = (unsigned)(rank * 10 + k), pid = (unsigned)(peer * 10 + k);
        p2p_fill(sbuf, n, id);

        /* unexpected: Isend, barrier, Recv */
        memset(rbuf, 0xcc, LONG);
        OK(MPI_Isend(sbuf, (int)n, MPI_BYTE, peer, k, MPI_COMM_WORLD, &sreq));
        OK(MPI_Barrier(MPI_COMM_WORLD));
        memset(&st, 0, sizeof st);
        FAILS(MPI_Recv(rbuf, FIT, MPI_BYTE, peer, k, MPI_COMM_WORLD, &st), MPI_ERR_TRUNCATE);
        check_cut(rbuf, &st, peer, k, n, pid);
        OK(MPI_Wait(&sreq, MPI_STATUS_IGNORE));
        OK(MPI_Barrier(MPI_COMM_WORLD));

        /* posted: Irecv, barrier, Send, Wait */
        memset(rbuf, 0xcc, LONG);
        OK(MPI_Irecv(rbuf, FIT, MPI_BYTE, peer, k, MPI_COMM_WORLD, &rreq));
        OK(MPI_Barrier(MPI_COMM_WORLD));
        if (peer == rank)
            OK(MPI_Isend(sbuf, (int)n, MPI_BYTE, peer, k, MPI_COMM_WORLD, &sreq));
        else
            OK(MPI_Send(sbuf, (int)n, MPI_BYTE, peer, k, MPI_COMM_WORLD));
        memset(&st, 0, sizeof st);
        FAILS(MPI_Wait(&rreq, &st), MPI_ERR_TRUNCATE);
        CHECK(rreq == MPI_REQUEST_NULL);
        check_cut(rbuf, &st, peer, k, n, pid);
        if (peer == rank)
            OK(MPI_Wait(&sreq, MPI_STATUS_IGNORE));
        OK(MPI_Barrier(MPI_COMM_WORLD));

        /* Waitall: MPI_ERR_IN_STATUS, the failed one says MPI_ERR_TRUNCATE, the other
         * MPI_SUCCESS */
        memset(rbuf, 0xcc, LONG);
        int small_in = 0, small_out = 42 + rank;
        OK(MPI_Irecv(rbuf, FIT, MPI_BYTE, peer, k, MPI_COMM_WORLD, &reqs[0]));
        OK(MPI_Irecv(&small_in, 1, MPI_INT, peer, 100 + k, MPI_COMM_WORLD, &reqs[1]));
        OK(MPI_Barrier(MPI_COMM_WORLD));
        OK(MPI_Isend(sbuf, (int)n, MPI_BYTE, peer, k, MPI_COMM_WORLD, &sreq));
        OK(MPI_Send(&small_out, 1, MPI_INT, peer, 100 + k, MPI_COMM_WORLD));
        memset(sts, 0x55, sizeof sts);
        FAILS(MPI_Waitall(2, reqs, sts), MPI_ERR_IN_STATUS);
        CHECK_INT(sts[0].MPI_ERROR, MPI_ERR_TRUNCATE);
        CHECK_INT(sts[1].MPI_ERROR, MPI_SUCCESS);
        check_cut(rbuf, &sts[0], peer, k, n, pid);
        CHECK_STATUS(sts[1], peer, 100 + k, sizeof(int));
        CHECK_INT(small_in, 42 + peer);
        OK(MPI_Wait(&sreq, MPI_STATUS_IGNORE));
        OK(MPI_Barrier(MPI_COMM_WORLD));

        /* Test on an unexpected one */
        memset(rbuf, 0xcc, LONG);
        OK(MPI_Isend(sbuf, (int)n, MPI_BYTE, peer, k, MPI_COMM_WORLD, &sreq));
        OK(MPI_Barrier(MPI_COMM_WORLD));
        OK(MPI_Irecv(rbuf, FIT, MPI_BYTE, peer, k, MPI_COMM_WORLD, &rreq));
        int rc;
        do {
            flag = 0;
            rc = MPI_Test(&rreq, &flag, &st);
        } while (!flag && rc == MPI_SUCCESS);
        CHECK_INT(rc, MPI_ERR_TRUNCATE);
        check_cut(rbuf, &st, peer, k, n, pid);
        OK(MPI_Wait(&sreq, MPI_STATUS_IGNORE));
        OK(MPI_Barrier(MPI_COMM_WORLD));

        /* matched probe, then Mrecv into a short buffer */
        memset(rbuf, 0xcc, LONG);
        OK(MPI_Isend(sbuf, (int)n, MPI_BYTE, peer, k, MPI_COMM_WORLD, &sreq));
        MPI_Message msg;
        OK(MPI_Mprobe(peer, k, MPI_COMM_WORLD, &msg, &st));
        CHECK_STATUS(st, peer, k, n);
        FAILS(MPI_Mrecv(rbuf, FIT, MPI_BYTE, &msg, &st), MPI_ERR_TRUNCATE);
        check_cut(rbuf, &st, peer, k, n, pid);
        OK(MPI_Wait(&sreq, MPI_STATUS_IGNORE));
        OK(MPI_Barrier(MPI_COMM_WORLD));
    }

    /* typed: 3 ints into room for 2 */
    int three[3] = {7, 8, 9}, two[3] = {0, 0, -1}, count;
    OK(MPI_Isend(three, 3, MPI_INT, peer, 50, MPI_COMM_WORLD, &sreq));
    FAILS(MPI_Recv(two, 2, MPI_INT, peer, 50, MPI_COMM_WORLD, &st), MPI_ERR_TRUNCATE);
    OK(MPI_Get_count(&st, MPI_INT, &count));
    CHECK_INT(count, 2);
    CHECK(two[0] == 7 && two[1] == 8 && two[2] == -1);
    OK(MPI_Wait(&sreq, MPI_STATUS_IGNORE));
    free(sbuf);
    free(rbuf);
    OK(MPI_Finalize());
    return 0;
}
