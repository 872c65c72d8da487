/* A group handle freed by MPI_Group_free is MPI_ERR_GROUP in every group call, even when a
 * communicator still has the same members: MPI_Comm_group's group, and a group a
 * communicator was created from. Before the fix the handle named the communicator's own
 * group object, still alive, and MPI_Group_rank on it returned MPI_SUCCESS. */
#include "comm_check.h"

#define FAILS_GROUP(call) CHECK_INT((call), MPI_ERR_GROUP)

static void check_stale(MPI_Group stale, MPI_Group live)
{
    int n = -1, r = -1, cmp = -1, zero = 0, out_rank = -1;
    int ranges[1][3] = {{0, 0, 1}};
    MPI_Group out = MPI_GROUP_NULL;
    MPI_Comm c = MPI_COMM_NULL;
    FAILS_GROUP(MPI_Group_rank(stale, &r));
    FAILS_GROUP(MPI_Group_size(stale, &n));
    FAILS_GROUP(MPI_Group_compare(stale, live, &cmp));
    FAILS_GROUP(MPI_Group_compare(live, stale, &cmp));
    FAILS_GROUP(MPI_Group_translate_ranks(stale, 1, &zero, live, &out_rank));
    FAILS_GROUP(MPI_Group_translate_ranks(live, 1, &zero, stale, &out_rank));
    FAILS_GROUP(MPI_Group_incl(stale, 1, &zero, &out));
    FAILS_GROUP(MPI_Group_excl(stale, 1, &zero, &out));
    FAILS_GROUP(MPI_Group_range_incl(stale, 1, ranges, &out));
    FAILS_GROUP(MPI_Group_range_excl(stale, 1, ranges, &out));
    FAILS_GROUP(MPI_Group_union(stale, live, &out));
    FAILS_GROUP(MPI_Group_intersection(live, stale, &out));
    FAILS_GROUP(MPI_Group_difference(stale, live, &out));
    FAILS_GROUP(MPI_Comm_create(MPI_COMM_WORLD, stale, &c));
    FAILS_GROUP(MPI_Comm_create_group(MPI_COMM_WORLD, stale, 0, &c));
    MPI_Group copy = stale;
    FAILS_GROUP(MPI_Group_free(&copy));
    CHECK_INT(n, -1);
    CHECK_INT(r, -1);
    CHECK_INT(cmp, -1);
    CHECK_INT(out_rank, -1);
    CHECK(out == MPI_GROUP_NULL);
    CHECK(c == MPI_COMM_NULL);
}

int main(int argc, char **argv)
{
    MPI_Init(&argc, &argv);
    MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_RETURN);
    int rank = world_rank(), size = world_size(), r, cmp;
    MPI_Group live, g, stale;
    OK(MPI_Comm_group(MPI_COMM_WORLD, &live));

    /* MPI_Comm_group's group, freed while MPI_COMM_WORLD lives on */
    OK(MPI_Comm_group(MPI_COMM_WORLD, &g));
    OK(MPI_Group_rank(g, &r));
    CHECK_INT(r, rank);
    stale = g;
    OK(MPI_Group_free(&g));
    CHECK(g == MPI_GROUP_NULL);
    check_stale(stale, live);

    /* a group a communicator was created from, freed while the communicator lives on */
    MPI_Comm dup, made;
    OK(MPI_Comm_dup(MPI_COMM_WORLD, &dup));
    OK(MPI_Comm_group(dup, &g));
    OK(MPI_Comm_create(dup, g, &made));
    stale = g;
    OK(MPI_Group_free(&g));
    check_stale(stale, live);
    /* the communicator still has its members */
    OK(MPI_Comm_group(made, &g));
    OK(MPI_Group_compare(g, live, &cmp));
    CHECK_INT(cmp, MPI_IDENT);
    OK(MPI_Group_free(&g));
    int sum = 0;
    OK(MPI_Allreduce(&rank, &sum, 1, MPI_INT, MPI_SUM, made));
    CHECK_INT(sum, size * (size - 1) / 2);
    OK(MPI_Comm_free(&made));
    OK(MPI_Comm_free(&dup));

    /* two groups of one communicator are two handles: freeing one leaves the other */
    MPI_Group a, b;
    OK(MPI_Comm_group(MPI_COMM_WORLD, &a));
    OK(MPI_Comm_group(MPI_COMM_WORLD, &b));
    stale = a;
    OK(MPI_Group_free(&a));
    FAILS_GROUP(MPI_Group_rank(stale, &r));
    OK(MPI_Group_rank(b, &r));
    CHECK_INT(r, rank);
    OK(MPI_Group_free(&b));
    OK(MPI_Group_free(&live));
    MPI_Finalize();
    return 0;
}
