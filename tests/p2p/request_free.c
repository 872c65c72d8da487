/* MPI_Request_free on requests still in flight: the operation goes on and its data still
 * arrives. Freed receives (posted before the message), freed sends (eager, rendezvous and
 * synchronous, matched later), and a request freed after it completed. The receiver learns
 * that a freed receive is done from a later message of the same sender, sent once the first
 * send completed (in loom a send completes only after its data is in the receive buffer). */
#include "p2p_check.h"

#define BIG 200000

int main(int argc, char **argv)
{
    OK(MPI_Init(&argc, &argv));
    int rank = p2p_rank(), size = p2p_size(), peer = p2p_partner(rank, size);
    unsigned char *sbuf = p2p_malloc(BIG), *rbuf = p2p_malloc(BIG);
    MPI_Request req, sreq[3];
    MPI_Status st;
    int token = 0;

    /* freed receive: posted, freed, then the peer sends the data and, after it, a token */
    for (int k = 0; k < 2; k++) {
        size_t n = k ? BIG : 100;
        memset(rbuf, 0, n);
        OK(MPI_Irecv(rbuf, (int)n, MPI_BYTE, peer, 1, MPI_COMM_WORLD, &req));
        OK(MPI_Request_free(&req));
        CHECK(req == MPI_REQUEST_NULL);
        OK(MPI_Barrier(MPI_COMM_WORLD));
        p2p_fill(sbuf, n, (unsigned)(rank * 10 + k));
        OK(MPI_Isend(sbuf, (int)n, MPI_BYTE, peer, 1, MPI_COMM_WORLD, &sreq[0]));
        OK(MPI_Wait(&sreq[0], MPI_STATUS_IGNORE)); /* matched and delivered */
        OK(MPI_Sendrecv_replace(&token, 1, MPI_INT, peer, 2, peer, 2, MPI_COMM_WORLD,
                                MPI_STATUS_IGNORE));
        CHECK_FILL(rbuf, n, (unsigned)(peer * 10 + k));
        OK(MPI_Barrier(MPI_COMM_WORLD));
    }

    /* freed sends: eager, rendezvous, synchronous; received after a barrier. The send
     * buffers stay untouched until the peer says it has everything. */
    const size_t lens[3] = {64, BIG, 64};
    unsigned char *bufs[3];
    for (int i = 0; i < 3; i++) {
        bufs[i] = p2p_malloc(lens[i]);
        p2p_fill(bufs[i], lens[i], (unsigned)(rank * 10 + 5 + i));
    }
    OK(MPI_Isend(bufs[0], (int)lens[0], MPI_BYTE, peer, 3, MPI_COMM_WORLD, &sreq[0]));
    OK(MPI_Isend(bufs[1], (int)lens[1], MPI_BYTE, peer, 4, MPI_COMM_WORLD, &sreq[1]));
    OK(MPI_Issend(bufs[2], (int)lens[2], MPI_BYTE, peer, 5, MPI_COMM_WORLD, &sreq[2]));
    for (int i = 0; i < 3; i++) {
        OK(MPI_Request_free(&sreq[i]));
        CHECK(sreq[i] == MPI_REQUEST_NULL);
    }
    OK(MPI_Barrier(MPI_COMM_WORLD));
    for (int i = 2; i >= 0; i--) {
        OK(MPI_Recv(rbuf, BIG, MPI_BYTE, peer, 3 + i, MPI_COMM_WORLD, &st));
        CHECK_STATUS(st, peer, 3 + i, lens[i]);
        CHECK_FILL(rbuf, lens[i], (unsigned)(peer * 10 + 5 + i));
    }
    OK(MPI_Barrier(MPI_COMM_WORLD)); /* everyone received: send buffers may go */
    for (int i = 0; i < 3; i++)
        free(bufs[i]);

    /* freed once complete (the receive matched, the handle still held) */
    int in = -1, out = rank;
    OK(MPI_Irecv(&in, 1, MPI_INT, peer, 6, MPI_COMM_WORLD, &req));
    OK(MPI_Send(&out, 1, MPI_INT, peer, 6, MPI_COMM_WORLD));
    int flag = 0;
    while (!flag)
        OK(MPI_Request_get_status(req, &flag, MPI_STATUS_IGNORE));
    OK(MPI_Request_free(&req));
    CHECK_INT(in, peer);

    /* many freed receives at once, filled in reverse order. The senders' Waitall followed by
     * a barrier tells every receiver that its freed receives are done: loom matches what its
     * rings hold when a barrier returns (api/barrier.c), as MPICH makes progress in it. */
    enum { M = 50 };
    int ins[M], outs[M];
    MPI_Request sends[M];
    for (int i = 0; i < M; i++) {
        ins[i] = -1;
        outs[i] = rank * 1000 + i;
        OK(MPI_Irecv(&ins[i], 1, MPI_INT, peer, 100 + i, MPI_COMM_WORLD, &req));
        OK(MPI_Request_free(&req));
    }
    OK(MPI_Barrier(MPI_COMM_WORLD));
    for (int i = M - 1; i >= 0; i--)
        OK(MPI_Isend(&outs[i], 1, MPI_INT, peer, 100 + i, MPI_COMM_WORLD, &sends[i]));
    OK(MPI_Waitall(M, sends, MPI_STATUSES_IGNORE));
    OK(MPI_Barrier(MPI_COMM_WORLD));
    for (int i = 0; i < M; i++)
        CHECK_INT(ins[i], peer * 1000 + i);

    free(sbuf);
    free(rbuf);
    OK(MPI_Finalize());
    return 0;
}
