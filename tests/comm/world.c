/* MPI_COMM_WORLD and MPI_COMM_SELF: rank, size, names, groups, compare, test_inter. */
#include "comm_check.h"

int main(int argc, char **argv)
{
    MPI_Init(&argc, &argv);
    int rank = world_rank(), size = world_size(), r, n, flag, len, cmp;
    char name[MPI_MAX_OBJECT_NAME];
    CHECK(rank >= 0 && rank < size);

    OK(MPI_Comm_rank(MPI_COMM_SELF, &r));
    CHECK_INT(r, 0);
    OK(MPI_Comm_size(MPI_COMM_SELF, &n));
    CHECK_INT(n, 1);

    OK(MPI_Comm_get_name(MPI_COMM_WORLD, name, &len));
    CHECK_STR(name, "MPI_COMM_WORLD");
    CHECK_INT(len, 14);
    OK(MPI_Comm_get_name(MPI_COMM_SELF, name, &len));
    CHECK_STR(name, "MPI_COMM_SELF");
    /* renaming is per rank: each rank names its world after itself */
    char mine[32];
    snprintf(mine, sizeof mine, "world of %d", rank);
    OK(MPI_Comm_set_name(MPI_COMM_WORLD, mine));
    OK(MPI_Barrier(MPI_COMM_WORLD));
    OK(MPI_Comm_get_name(MPI_COMM_WORLD, name, &len));
    CHECK_STR(name, mine);
    /* too long: truncated to MPI_MAX_OBJECT_NAME - 1 */
    char longname[300];
    memset(longname, 'x', sizeof longname - 1);
    longname[sizeof longname - 1] = '\0';
    OK(MPI_Comm_set_name(MPI_COMM_WORLD, longname));
    OK(MPI_Comm_get_name(MPI_COMM_WORLD, name, &len));
    CHECK_INT(len, MPI_MAX_OBJECT_NAME - 1);

    OK(MPI_Comm_test_inter(MPI_COMM_WORLD, &flag));
    CHECK_INT(flag, 0);

    OK(MPI_Comm_compare(MPI_COMM_WORLD, MPI_COMM_WORLD, &cmp));
    CHECK_INT(cmp, MPI_IDENT);
    OK(MPI_Comm_compare(MPI_COMM_WORLD, MPI_COMM_SELF, &cmp));
    CHECK_INT(cmp, size == 1 ? MPI_CONGRUENT : MPI_UNEQUAL);

    MPI_Group gw, gs;
    OK(MPI_Comm_group(MPI_COMM_WORLD, &gw));
    OK(MPI_Group_size(gw, &n));
    CHECK_INT(n, size);
    OK(MPI_Group_rank(gw, &r));
    CHECK_INT(r, rank);
    OK(MPI_Comm_group(MPI_COMM_SELF, &gs));
    OK(MPI_Group_size(gs, &n));
    CHECK_INT(n, 1);
    int zero = 0, t;
    OK(MPI_Group_translate_ranks(gs, 1, &zero, gw, &t));
    CHECK_INT(t, rank);
    OK(MPI_Group_free(&gw));
    OK(MPI_Group_free(&gs));
    CHECK(gw == MPI_GROUP_NULL && gs == MPI_GROUP_NULL);
    /* the communicator still holds its group */
    OK(MPI_Comm_group(MPI_COMM_WORLD, &gw));
    OK(MPI_Group_size(gw, &n));
    CHECK_INT(n, size);
    OK(MPI_Group_free(&gw));
    MPI_Finalize();
    return 0;
}
