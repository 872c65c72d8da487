/* MPI_TAG_UB: the attribute exists on MPI_COMM_WORLD, is at least 2^30 and the same on
 * every rank (compared around a ring); a message with tag MPI_TAG_UB travels (specific and
 * ANY_TAG receives). */
#include "p2p_check.h"

int main(int argc, char **argv)
{
    OK(MPI_Init(&argc, &argv));
    int rank = p2p_rank(), size = p2p_size(), peer = p2p_partner(rank, size);
    int *ub = NULL, flag = 0;
    OK(MPI_Comm_get_attr(MPI_COMM_WORLD, MPI_TAG_UB, &ub, &flag));
    CHECK_INT(flag, 1);
    CHECK(ub != NULL);
    CHECK(*ub >= (1 << 30));
    int mine = *ub, theirs = -1;
    OK(MPI_Sendrecv(&mine, 1, MPI_INT, (rank + 1) % size, 0, &theirs, 1, MPI_INT,
                    (rank + size - 1) % size, 0, MPI_COMM_WORLD, MPI_STATUS_IGNORE));
    CHECK_INT(theirs, mine);

    int out = rank, in = -1;
    MPI_Request req;
    MPI_Status st;
    OK(MPI_Isend(&out, 1, MPI_INT, peer, mine, MPI_COMM_WORLD, &req));
    OK(MPI_Recv(&in, 1, MPI_INT, peer, mine, MPI_COMM_WORLD, &st));
    CHECK_INT(in, peer);
    CHECK_INT(st.MPI_TAG, mine);
    OK(MPI_Wait(&req, MPI_STATUS_IGNORE));
    OK(MPI_Isend(&out, 1, MPI_INT, peer, mine, MPI_COMM_WORLD, &req));
    OK(MPI_Recv(&in, 1, MPI_INT, MPI_ANY_SOURCE, MPI_ANY_TAG, MPI_COMM_WORLD, &st));
    CHECK_INT(st.MPI_TAG, mine);
    OK(MPI_Wait(&req, MPI_STATUS_IGNORE));
    OK(MPI_Finalize());
    return 0;
}
