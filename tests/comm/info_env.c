/* MPI_INFO_ENV: readable by every rank; "maxprocs" is the number of ranks; "command" is the
 * program. It can be duplicated, and the copy changed. */
#include "comm_check.h"

int main(int argc, char **argv)
{
    MPI_Init(&argc, &argv);
    int size = world_size(), n, flag;
    char v[MPI_MAX_INFO_VAL + 1], want[32];
    OK(MPI_Info_get(MPI_INFO_ENV, "maxprocs", MPI_MAX_INFO_VAL, v, &flag));
    CHECK_INT(flag, 1);
    snprintf(want, sizeof want, "%d", size);
    CHECK_STR(v, want);
    OK(MPI_Info_get(MPI_INFO_ENV, "command", MPI_MAX_INFO_VAL, v, &flag));
    CHECK_INT(flag, 1);
    CHECK(strstr(v, "comm_info_env") != NULL);
    MPI_Info d;
    OK(MPI_Info_dup(MPI_INFO_ENV, &d));
    OK(MPI_Info_set(d, "mine", "yes"));
    int nenv;
    OK(MPI_Info_get_nkeys(MPI_INFO_ENV, &nenv));
    OK(MPI_Info_get_nkeys(d, &n));
    CHECK_INT(n, nenv + 1);
    OK(MPI_Info_free(&d));
    MPI_Finalize();
    return 0;
}
