/* Info objects: set, get (with truncation), get_valuelen, nkeys, nthkey in insertion order,
 * overwrite in place, delete, dup (independent copies), free. */
#include "comm_check.h"

int main(int argc, char **argv)
{
    MPI_Init(&argc, &argv);
    world_rank();
    MPI_Info info, copy;
    int n, flag, len;
    char v[MPI_MAX_INFO_VAL + 1], k[MPI_MAX_INFO_KEY + 1];

    OK(MPI_Info_create(&info));
    OK(MPI_Info_get_nkeys(info, &n));
    CHECK_INT(n, 0);
    OK(MPI_Info_get(info, "absent", 10, v, &flag));
    CHECK_INT(flag, 0);
    OK(MPI_Info_get_valuelen(info, "absent", &len, &flag));
    CHECK_INT(flag, 0);

    OK(MPI_Info_set(info, "alpha", "one"));
    OK(MPI_Info_set(info, "beta", "two two"));
    OK(MPI_Info_set(info, "gamma", ""));
    OK(MPI_Info_set(info, "alpha", "uno")); /* overwrite keeps its place */
    OK(MPI_Info_get_nkeys(info, &n));
    CHECK_INT(n, 3);
    OK(MPI_Info_get_nthkey(info, 0, k));
    CHECK_STR(k, "alpha");
    OK(MPI_Info_get_nthkey(info, 1, k));
    CHECK_STR(k, "beta");
    OK(MPI_Info_get_nthkey(info, 2, k));
    CHECK_STR(k, "gamma");
    OK(MPI_Info_get(info, "alpha", MPI_MAX_INFO_VAL, v, &flag));
    CHECK_INT(flag, 1);
    CHECK_STR(v, "uno");
    OK(MPI_Info_get_valuelen(info, "beta", &len, &flag));
    CHECK_INT(flag, 1);
    CHECK_INT(len, 7);
    /* valuelen 3: at most 3 characters and the NUL */
    memset(v, '#', sizeof v);
    OK(MPI_Info_get(info, "beta", 3, v, &flag));
    CHECK_INT(flag, 1);
    CHECK_STR(v, "two");
    OK(MPI_Info_get(info, "gamma", 0, v, &flag));
    CHECK_INT(flag, 1);
    CHECK_STR(v, "");

    /* limits: a key of MPI_MAX_INFO_KEY characters and a value of MPI_MAX_INFO_VAL */
    char longkey[MPI_MAX_INFO_KEY + 1], longval[MPI_MAX_INFO_VAL + 1];
    memset(longkey, 'k', MPI_MAX_INFO_KEY);
    longkey[MPI_MAX_INFO_KEY] = '\0';
    memset(longval, 'v', MPI_MAX_INFO_VAL);
    longval[MPI_MAX_INFO_VAL] = '\0';
    OK(MPI_Info_set(info, longkey, longval));
    OK(MPI_Info_get_valuelen(info, longkey, &len, &flag));
    CHECK_INT(len, MPI_MAX_INFO_VAL);
    OK(MPI_Info_get_nthkey(info, 3, k));
    CHECK_STR(k, longkey);

    OK(MPI_Info_dup(info, &copy));
    OK(MPI_Info_delete(info, "beta"));
    OK(MPI_Info_get_nkeys(info, &n));
    CHECK_INT(n, 3);
    OK(MPI_Info_get_nthkey(info, 1, k));
    CHECK_STR(k, "gamma");
    OK(MPI_Info_get(copy, "beta", MPI_MAX_INFO_VAL, v, &flag)); /* the copy keeps it */
    CHECK_INT(flag, 1);
    CHECK_STR(v, "two two");
    OK(MPI_Info_set(copy, "delta", "4"));
    OK(MPI_Info_get(info, "delta", MPI_MAX_INFO_VAL, v, &flag));
    CHECK_INT(flag, 0);

    OK(MPI_Info_free(&info));
    CHECK(info == MPI_INFO_NULL);
    OK(MPI_Info_get_nkeys(copy, &n));
    CHECK_INT(n, 5);
    OK(MPI_Info_free(&copy));
    MPI_Finalize();
    return 0;
}
