/* MPI_Comm_set_info / MPI_Comm_get_info: hints are kept per handle, merged on set, returned
 * as a new info object the caller frees. */
#include "comm_check.h"

int main(int argc, char **argv)
{
    MPI_Init(&argc, &argv);
    world_rank();
    MPI_Info info, got;
    int n, flag;
    char v[MPI_MAX_INFO_VAL + 1];

    OK(MPI_Comm_get_info(MPI_COMM_WORLD, &got));
    OK(MPI_Info_get_nkeys(got, &n));
    CHECK_INT(n, 0);
    OK(MPI_Info_free(&got));

    MPI_Comm c;
    OK(MPI_Comm_dup(MPI_COMM_WORLD, &c));
    OK(MPI_Info_create(&info));
    OK(MPI_Info_set(info, "a", "1"));
    OK(MPI_Info_set(info, "b", "2"));
    OK(MPI_Comm_set_info(c, info));
    OK(MPI_Info_free(&info)); /* the communicator keeps its own copy */
    OK(MPI_Info_create(&info));
    OK(MPI_Info_set(info, "b", "3"));
    OK(MPI_Comm_set_info(c, info));
    OK(MPI_Info_set(info, "c", "changed after set: not seen"));
    OK(MPI_Comm_get_info(c, &got));
    OK(MPI_Info_get_nkeys(got, &n));
    CHECK_INT(n, 2);
    OK(MPI_Info_get(got, "a", MPI_MAX_INFO_VAL, v, &flag));
    CHECK(flag);
    CHECK_STR(v, "1");
    OK(MPI_Info_get(got, "b", MPI_MAX_INFO_VAL, v, &flag));
    CHECK(flag);
    CHECK_STR(v, "3");
    OK(MPI_Info_free(&got));
    OK(MPI_Info_free(&info));
    OK(MPI_Comm_set_info(c, MPI_INFO_NULL));
    OK(MPI_Comm_free(&c));
    MPI_Finalize();
    return 0;
}
