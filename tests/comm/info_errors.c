/* Bad input to the info calls, under MPI_ERRORS_RETURN: MPI_ERR_INFO_KEY / _VALUE for bad
 * lengths, MPI_ERR_INFO_NOKEY for deleting a missing key, MPI_ERR_INFO for null or freed
 * objects and for changing MPI_INFO_ENV, MPI_ERR_ARG for bad indexes and outputs. */
#include "comm_check.h"

int main(int argc, char **argv)
{
    MPI_Init(&argc, &argv);
    world_rank();
    MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_RETURN);
    MPI_Info info, stale, env = MPI_INFO_ENV;
    int n, flag, len;
    char v[16], k[MPI_MAX_INFO_KEY + 1];
    char longkey[MPI_MAX_INFO_KEY + 2], longval[MPI_MAX_INFO_VAL + 2];
    memset(longkey, 'k', sizeof longkey - 1);
    longkey[sizeof longkey - 1] = '\0';
    memset(longval, 'v', sizeof longval - 1);
    longval[sizeof longval - 1] = '\0';

    OK(MPI_Info_create(&info));
    CHECK_INT(MPI_Info_set(info, longkey, "x"), MPI_ERR_INFO_KEY);
    CHECK_INT(MPI_Info_set(info, "", "x"), MPI_ERR_INFO_KEY);
    CHECK_INT(MPI_Info_set(info, NULL, "x"), MPI_ERR_INFO_KEY);
    CHECK_INT(MPI_Info_set(info, "k", longval), MPI_ERR_INFO_VALUE);
    CHECK_INT(MPI_Info_set(info, "k", NULL), MPI_ERR_INFO_VALUE);
    CHECK_INT(MPI_Info_get(info, longkey, 5, v, &flag), MPI_ERR_INFO_KEY);
    CHECK_INT(MPI_Info_get_valuelen(info, longkey, &len, &flag), MPI_ERR_INFO_KEY);
    CHECK_INT(MPI_Info_delete(info, longkey), MPI_ERR_INFO_KEY);
    CHECK_INT(MPI_Info_delete(info, "missing"), MPI_ERR_INFO_NOKEY);
    CHECK_INT(MPI_Info_get(info, "k", -1, v, &flag), MPI_ERR_ARG);
    CHECK_INT(MPI_Info_get(info, "k", 5, v, NULL), MPI_ERR_ARG);
    CHECK_INT(MPI_Info_get_nthkey(info, 0, k), MPI_ERR_ARG);
    OK(MPI_Info_set(info, "k", "v"));
    CHECK_INT(MPI_Info_get_nthkey(info, 1, k), MPI_ERR_ARG);
    CHECK_INT(MPI_Info_get_nthkey(info, -1, k), MPI_ERR_ARG);
    CHECK_INT(MPI_Info_get_nkeys(info, NULL), MPI_ERR_ARG);
    CHECK_INT(MPI_Info_create(NULL), MPI_ERR_ARG);
    CHECK_INT(MPI_Info_dup(info, NULL), MPI_ERR_ARG);
    CHECK_INT(MPI_Info_free(NULL), MPI_ERR_ARG);

    CHECK_INT(MPI_Info_get_nkeys(MPI_INFO_NULL, &n), MPI_ERR_INFO);
    CHECK_INT(MPI_Info_set(MPI_INFO_NULL, "k", "v"), MPI_ERR_INFO);
    stale = info;
    OK(MPI_Info_free(&info));
    CHECK_INT(MPI_Info_get_nkeys(stale, &n), MPI_ERR_INFO);
    CHECK_INT(MPI_Info_set(stale, "k", "v"), MPI_ERR_INFO);
    CHECK_INT(MPI_Info_free(&stale), MPI_ERR_INFO);

    CHECK_INT(MPI_Info_set(MPI_INFO_ENV, "k", "v"), MPI_ERR_INFO);
    CHECK_INT(MPI_Info_delete(MPI_INFO_ENV, "maxprocs"), MPI_ERR_INFO);
    CHECK_INT(MPI_Info_free(&env), MPI_ERR_INFO);
    MPI_Finalize();
    return 0;
}
