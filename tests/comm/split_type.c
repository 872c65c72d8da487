/* MPI_Comm_split_type: SHARED takes every rank (one process); MPI_UNDEFINED gives
 * MPI_COMM_NULL; the hardware types are refused for now; unknown types are MPI_ERR_ARG. */
#include "comm_check.h"

int main(int argc, char **argv)
{
    MPI_Init(&argc, &argv);
    int rank = world_rank(), size = world_size(), r, n, cmp;
    MPI_Comm c;

    OK(MPI_Comm_split_type(MPI_COMM_WORLD, MPI_COMM_TYPE_SHARED, 0, MPI_INFO_NULL, &c));
    OK(MPI_Comm_size(c, &n));
    CHECK_INT(n, size);
    OK(MPI_Comm_compare(c, MPI_COMM_WORLD, &cmp));
    CHECK_INT(cmp, MPI_CONGRUENT);
    OK(MPI_Comm_free(&c));

    /* the key orders ranks */
    OK(MPI_Comm_split_type(MPI_COMM_WORLD, MPI_COMM_TYPE_SHARED, -rank, MPI_INFO_NULL, &c));
    OK(MPI_Comm_rank(c, &r));
    CHECK_INT(r, size - 1 - rank);
    OK(MPI_Comm_free(&c));

    /* on a sub-communicator: the sub-communicator's ranks only */
    MPI_Comm par;
    OK(MPI_Comm_split(MPI_COMM_WORLD, rank % 2, rank, &par));
    OK(MPI_Comm_split_type(par, MPI_COMM_TYPE_SHARED, 0, MPI_INFO_NULL, &c));
    OK(MPI_Comm_compare(c, par, &cmp));
    CHECK_INT(cmp, MPI_CONGRUENT);
    OK(MPI_Comm_free(&c));
    OK(MPI_Comm_free(&par));

    /* some ranks opt out */
    OK(MPI_Comm_split_type(MPI_COMM_WORLD, rank % 2 ? MPI_UNDEFINED : MPI_COMM_TYPE_SHARED, 0,
                           MPI_INFO_NULL, &c));
    if (rank % 2) {
        CHECK(c == MPI_COMM_NULL);
    } else {
        OK(MPI_Comm_size(c, &n));
        CHECK_INT(n, (size + 1) / 2);
        OK(MPI_Comm_free(&c));
    }

    MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_RETURN);
    c = MPI_COMM_WORLD;
    /* the hardware split types are tested in tests/hier */
    CHECK_INT(MPI_Comm_split_type(MPI_COMM_WORLD, 99, 0, MPI_INFO_NULL, &c), MPI_ERR_ARG);
    CHECK_INT(MPI_Comm_split_type(MPI_COMM_NULL, MPI_COMM_TYPE_SHARED, 0, MPI_INFO_NULL, &c),
              MPI_ERR_COMM);
    CHECK_INT(MPI_Comm_split_type(MPI_COMM_WORLD, MPI_COMM_TYPE_SHARED, 0, MPI_INFO_NULL, NULL),
              MPI_ERR_ARG);
    MPI_Finalize();
    return 0;
}
