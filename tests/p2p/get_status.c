/* MPI_Request_get_status: false while the operation is pending, true with the status once
 * complete, and the request stays alive (a later Wait returns the same status and frees
 * it); MPI_REQUEST_NULL gives true with an empty status. */
#include "p2p_check.h"

int main(int argc, char **argv)
{
    OK(MPI_Init(&argc, &argv));
    int rank = p2p_rank(), size = p2p_size(), peer = p2p_partner(rank, size);
    int in[3] = {-1, -1, -1}, out[3] = {rank, rank + 1, rank + 2}, flag, count;
    MPI_Request req, sreq;
    MPI_Status st;

    OK(MPI_Irecv(in, 3, MPI_INT, peer, 4, MPI_COMM_WORLD, &req));
    for (int i = 0; i < 10; i++) {
        flag = -1;
        OK(MPI_Request_get_status(req, &flag, &st));
        CHECK_INT(flag, 0);
    }
    OK(MPI_Barrier(MPI_COMM_WORLD)); /* nobody sent before this */
    OK(MPI_Isend(out, 3, MPI_INT, peer, 4, MPI_COMM_WORLD, &sreq));
    do
        OK(MPI_Request_get_status(req, &flag, &st));
    while (!flag);
    CHECK(req != MPI_REQUEST_NULL);
    CHECK_STATUS(st, peer, 4, 3 * sizeof(int));
    CHECK(in[0] == peer && in[2] == peer + 2);
    /* again: still there, same answer */
    memset(&st, 0, sizeof st);
    OK(MPI_Request_get_status(req, &flag, &st));
    CHECK_INT(flag, 1);
    CHECK_STATUS(st, peer, 4, 3 * sizeof(int));
    OK(MPI_Request_get_status(req, &flag, MPI_STATUS_IGNORE));
    CHECK_INT(flag, 1);
    memset(&st, 0, sizeof st);
    OK(MPI_Wait(&req, &st));
    CHECK(req == MPI_REQUEST_NULL);
    CHECK_STATUS(st, peer, 4, 3 * sizeof(int));
    do
        OK(MPI_Request_get_status(sreq, &flag, MPI_STATUS_IGNORE));
    while (!flag);
    OK(MPI_Test(&sreq, &flag, MPI_STATUS_IGNORE));
    CHECK_INT(flag, 1);
    CHECK(sreq == MPI_REQUEST_NULL);

    /* MPI_REQUEST_NULL */
    memset(&st, 0x55, sizeof st);
    flag = 0;
    OK(MPI_Request_get_status(MPI_REQUEST_NULL, &flag, &st));
    CHECK_INT(flag, 1);
    CHECK_INT(st.MPI_SOURCE, MPI_ANY_SOURCE);
    CHECK_INT(st.MPI_TAG, MPI_ANY_TAG);
    OK(MPI_Get_count(&st, MPI_INT, &count));
    CHECK_INT(count, 0);
    OK(MPI_Finalize());
    return 0;
}
