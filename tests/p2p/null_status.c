/* A NULL status where the call takes a status (or an array of statuses) is MPI_ERR_ARG, as in
 * MPICH, never a crash: MPI_STATUS_IGNORE / MPI_STATUSES_IGNORE are the way to ignore them.
 * Each refused call has no effect: the requests it was given are still pending and complete
 * afterwards with the right data. Before the fix, MPI_Waitall(.., NULL) wrote through
 * NULL + i (a segmentation fault) and the single-status calls ignored the NULL silently. */
#include "p2p_check.h"

int main(int argc, char **argv)
{
    OK(MPI_Init(&argc, &argv));
    OK(MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_RETURN));
    int rank = p2p_rank(), size = p2p_size(), peer = p2p_partner(rank, size);
    const MPI_Comm W = MPI_COMM_WORLD;
    int out[2] = {rank * 10 + 1, rank * 10 + 2}, in[2] = {-1, -1}, flag = -1, index = -1, n = -1;
    int indices[2];
    MPI_Request reqs[4];
    MPI_Message msg;

    /* array calls: the two receives stay pending through every refused call */
    OK(MPI_Irecv(&in[0], 1, MPI_INT, peer, 1, W, &reqs[0]));
    OK(MPI_Irecv(&in[1], 1, MPI_INT, peer, 2, W, &reqs[1]));
    OK(MPI_Isend(&out[0], 1, MPI_INT, peer, 1, W, &reqs[2]));
    OK(MPI_Isend(&out[1], 1, MPI_INT, peer, 2, W, &reqs[3]));
    FAILS(MPI_Waitall(4, reqs, NULL), MPI_ERR_ARG);
    FAILS(MPI_Testall(4, reqs, &flag, NULL), MPI_ERR_ARG);
    FAILS(MPI_Waitsome(4, reqs, &n, indices, NULL), MPI_ERR_ARG);
    FAILS(MPI_Testsome(4, reqs, &n, indices, NULL), MPI_ERR_ARG);
    FAILS(MPI_Waitany(4, reqs, &index, NULL), MPI_ERR_ARG);
    FAILS(MPI_Testany(4, reqs, &index, &flag, NULL), MPI_ERR_ARG);
    FAILS(MPI_Wait(&reqs[0], NULL), MPI_ERR_ARG);
    FAILS(MPI_Test(&reqs[0], &flag, NULL), MPI_ERR_ARG);
    FAILS(MPI_Request_get_status(reqs[0], &flag, NULL), MPI_ERR_ARG);
    for (int i = 0; i < 4; i++)
        CHECK(reqs[i] != MPI_REQUEST_NULL); /* nothing was completed or freed */
    CHECK_INT(n, -1);
    CHECK_INT(index, -1);
    /* count 0 reads no status: NULL is fine there, as in MPICH */
    OK(MPI_Waitall(0, NULL, NULL));
    MPI_Status st[4];
    OK(MPI_Waitall(4, reqs, st));
    CHECK_INT(in[0], peer * 10 + 1);
    CHECK_INT(in[1], peer * 10 + 2);
    CHECK_INT(st[1].MPI_TAG, 2);

    /* single-status calls with a message waiting for them */
    OK(MPI_Send(&out[0], 1, MPI_INT, peer, 3, W));
    FAILS(MPI_Probe(peer, 3, W, NULL), MPI_ERR_ARG);
    FAILS(MPI_Iprobe(peer, 3, W, &flag, NULL), MPI_ERR_ARG);
    FAILS(MPI_Mprobe(peer, 3, W, &msg, NULL), MPI_ERR_ARG);
    FAILS(MPI_Improbe(peer, 3, W, &flag, &msg, NULL), MPI_ERR_ARG);
    FAILS(MPI_Recv(&in[0], 1, MPI_INT, peer, 3, W, NULL), MPI_ERR_ARG);
    in[0] = -1;
    OK(MPI_Mprobe(peer, 3, W, &msg, MPI_STATUS_IGNORE));
    FAILS(MPI_Mrecv(&in[0], 1, MPI_INT, &msg, NULL), MPI_ERR_ARG);
    CHECK(msg != MPI_MESSAGE_NULL); /* the refused Mrecv did not take the message */
    OK(MPI_Mrecv(&in[0], 1, MPI_INT, &msg, MPI_STATUS_IGNORE));
    CHECK_INT(in[0], peer * 10 + 1);
    FAILS(MPI_Sendrecv(&out[0], 1, MPI_INT, peer, 4, &in[0], 1, MPI_INT, peer, 4, W, NULL),
          MPI_ERR_ARG);
    FAILS(MPI_Sendrecv_replace(in, 1, MPI_INT, peer, 4, peer, 4, W, NULL), MPI_ERR_ARG);
    /* a refused Sendrecv sent nothing: the next message from peer on tag 4 is this one */
    out[0] = rank * 10 + 7;
    OK(MPI_Sendrecv(&out[0], 1, MPI_INT, peer, 4, &in[0], 1, MPI_INT, peer, 4, W,
                    MPI_STATUS_IGNORE));
    CHECK_INT(in[0], peer * 10 + 7);
    OK(MPI_Iprobe(peer, MPI_ANY_TAG, W, &flag, MPI_STATUS_IGNORE));
    CHECK_INT(flag, 0);
    OK(MPI_Finalize());
    return 0;
}
