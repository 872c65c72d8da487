/* Bad input to the communicator calls, under MPI_ERRORS_RETURN: each returns its class. */
#include "comm_check.h"

int main(int argc, char **argv)
{
    MPI_Init(&argc, &argv);
    world_rank();
    MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_RETURN);
    int n = 0, flag, len;
    char name[MPI_MAX_OBJECT_NAME];
    MPI_Comm c;
    MPI_Group g;
    MPI_Comm not_a_comm = (MPI_Comm)&n; /* memory that is no loom object */

    CHECK_INT(MPI_Comm_rank(MPI_COMM_NULL, &n), MPI_ERR_COMM);
    CHECK_INT(MPI_Comm_size(not_a_comm, &n), MPI_ERR_COMM);
    CHECK_INT(MPI_Comm_size(MPI_COMM_WORLD, NULL), MPI_ERR_ARG);
    CHECK_INT(MPI_Comm_dup(MPI_COMM_NULL, &c), MPI_ERR_COMM);
    CHECK_INT(MPI_Comm_dup(MPI_COMM_WORLD, NULL), MPI_ERR_ARG);
    MPI_Info bad_info = (MPI_Info)&n;
    CHECK_INT(MPI_Comm_dup_with_info(MPI_COMM_WORLD, bad_info, &c), MPI_ERR_INFO);
    CHECK_INT(MPI_Comm_split(MPI_COMM_NULL, 0, 0, &c), MPI_ERR_COMM);
    CHECK_INT(MPI_Comm_split(MPI_COMM_WORLD, -5, 0, &c), MPI_ERR_ARG);
    CHECK_INT(MPI_Comm_split(MPI_COMM_WORLD, 0, 0, NULL), MPI_ERR_ARG);
    CHECK_INT(MPI_Comm_create(MPI_COMM_WORLD, MPI_GROUP_NULL, &c), MPI_ERR_GROUP);
    CHECK_INT(MPI_Comm_create(MPI_COMM_NULL, MPI_GROUP_EMPTY, &c), MPI_ERR_COMM);
    CHECK_INT(MPI_Comm_compare(MPI_COMM_WORLD, MPI_COMM_NULL, &n), MPI_ERR_COMM);
    CHECK_INT(MPI_Comm_compare(MPI_COMM_WORLD, MPI_COMM_SELF, NULL), MPI_ERR_ARG);
    CHECK_INT(MPI_Comm_group(MPI_COMM_NULL, &g), MPI_ERR_COMM);
    CHECK_INT(MPI_Comm_group(MPI_COMM_WORLD, NULL), MPI_ERR_ARG);
    CHECK_INT(MPI_Comm_test_inter(MPI_COMM_NULL, &flag), MPI_ERR_COMM);
    CHECK_INT(MPI_Comm_test_inter(MPI_COMM_WORLD, NULL), MPI_ERR_ARG);
    CHECK_INT(MPI_Comm_set_name(MPI_COMM_NULL, "x"), MPI_ERR_COMM);
    CHECK_INT(MPI_Comm_set_name(MPI_COMM_WORLD, NULL), MPI_ERR_ARG);
    CHECK_INT(MPI_Comm_get_name(MPI_COMM_WORLD, NULL, &len), MPI_ERR_ARG);
    CHECK_INT(MPI_Comm_get_name(MPI_COMM_WORLD, name, NULL), MPI_ERR_ARG);
    CHECK_INT(MPI_Comm_set_info(MPI_COMM_NULL, MPI_INFO_NULL), MPI_ERR_COMM);
    CHECK_INT(MPI_Comm_set_info(MPI_COMM_WORLD, bad_info), MPI_ERR_INFO);
    CHECK_INT(MPI_Comm_get_info(MPI_COMM_WORLD, NULL), MPI_ERR_ARG);
    CHECK_INT(MPI_Barrier(MPI_COMM_NULL), MPI_ERR_COMM);

    /* a handle of another rank is not this rank's to use */
    static MPI_Comm shared_handle; /* globals are shared by the ranks of a loom job */
    int rank = world_rank(), size = world_size();
    MPI_Comm mine;
    OK(MPI_Comm_dup(MPI_COMM_WORLD, &mine));
    if (rank == 0)
        shared_handle = mine;
    OK(MPI_Barrier(MPI_COMM_WORLD));
    if (rank == size - 1 && size > 1)
        CHECK_INT(MPI_Comm_size(shared_handle, &n), MPI_ERR_COMM);
    OK(MPI_Barrier(MPI_COMM_WORLD));
    OK(MPI_Comm_free(&mine));
    MPI_Finalize();
    return 0;
}
