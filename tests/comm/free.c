/* MPI_Comm_free: the handle becomes MPI_COMM_NULL; a stale copy of it is refused with
 * MPI_ERR_COMM by every call; predefined communicators cannot be freed; a communicator freed
 * by some members still works for the others until they free it too. */
#include "comm_check.h"

int main(int argc, char **argv)
{
    MPI_Init(&argc, &argv);
    int rank = world_rank(), size = world_size(), n;
    MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_RETURN);

    MPI_Comm c, stale;
    OK(MPI_Comm_dup(MPI_COMM_WORLD, &c));
    stale = c;
    OK(MPI_Comm_free(&c));
    CHECK(c == MPI_COMM_NULL);
    CHECK_INT(MPI_Comm_size(stale, &n), MPI_ERR_COMM);
    CHECK_INT(MPI_Comm_rank(stale, &n), MPI_ERR_COMM);
    CHECK_INT(MPI_Barrier(stale), MPI_ERR_COMM);
    MPI_Comm d;
    CHECK_INT(MPI_Comm_dup(stale, &d), MPI_ERR_COMM);
    CHECK_INT(MPI_Comm_free(&stale), MPI_ERR_COMM);
    CHECK_INT(MPI_Comm_free(&c), MPI_ERR_COMM); /* MPI_COMM_NULL */
    CHECK_INT(MPI_Comm_free(NULL), MPI_ERR_ARG);

    MPI_Comm w = MPI_COMM_WORLD, s = MPI_COMM_SELF;
    MPI_Comm_set_errhandler(MPI_COMM_SELF, MPI_ERRORS_RETURN); /* errors on self go there */
    CHECK_INT(MPI_Comm_free(&w), MPI_ERR_COMM);
    CHECK_INT(MPI_Comm_free(&s), MPI_ERR_COMM);
    CHECK(w == MPI_COMM_WORLD && s == MPI_COMM_SELF);

    /* uneven frees: rank 0 frees early, the others keep using theirs */
    OK(MPI_Comm_dup(MPI_COMM_WORLD, &c));
    MPI_Comm sub;
    OK(MPI_Comm_split(c, rank == 0, 0, &sub));
    if (rank == 0)
        OK(MPI_Comm_free(&c));
    OK(MPI_Comm_size(sub, &n));
    CHECK_INT(n, rank == 0 ? 1 : size - 1);
    OK(MPI_Barrier(sub));
    if (rank != 0)
        OK(MPI_Comm_free(&c));
    OK(MPI_Comm_free(&sub));
    MPI_Finalize();
    return 0;
}
