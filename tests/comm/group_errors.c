/* Bad input to the group calls, under MPI_ERRORS_RETURN: MPI_ERR_GROUP for null or freed
 * groups, MPI_ERR_RANK for bad or repeated ranks, MPI_ERR_ARG for bad counts and strides. */
#include "comm_check.h"

int main(int argc, char **argv)
{
    MPI_Init(&argc, &argv);
    int size = world_size(), n, r, cmp;
    MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_RETURN);
    MPI_Group gw, g, stale, out;
    OK(MPI_Comm_group(MPI_COMM_WORLD, &gw));

    CHECK_INT(MPI_Group_size(MPI_GROUP_NULL, &n), MPI_ERR_GROUP);
    CHECK_INT(MPI_Group_size(gw, NULL), MPI_ERR_ARG);
    CHECK_INT(MPI_Group_rank(MPI_GROUP_NULL, &r), MPI_ERR_GROUP);
    CHECK_INT(MPI_Group_compare(gw, MPI_GROUP_NULL, &cmp), MPI_ERR_GROUP);
    CHECK_INT(MPI_Group_free(NULL), MPI_ERR_ARG);
    g = MPI_GROUP_NULL;
    CHECK_INT(MPI_Group_free(&g), MPI_ERR_GROUP);

    /* a freed group (made by incl: this handle held its only reference) */
    int zero = 0;
    OK(MPI_Group_incl(gw, 1, &zero, &g));
    stale = g;
    OK(MPI_Group_free(&g));
    CHECK(g == MPI_GROUP_NULL);
    CHECK_INT(MPI_Group_size(stale, &n), MPI_ERR_GROUP);
    CHECK_INT(MPI_Group_union(stale, gw, &out), MPI_ERR_GROUP);
    CHECK_INT(MPI_Group_free(&stale), MPI_ERR_GROUP);
    MPI_Comm c;
    CHECK_INT(MPI_Comm_create(MPI_COMM_WORLD, stale, &c), MPI_ERR_GROUP);

    /* incl / excl */
    int bad[2] = {size, 0};
    CHECK_INT(MPI_Group_incl(gw, 1, bad, &out), MPI_ERR_RANK);
    int neg = -1;
    CHECK_INT(MPI_Group_incl(gw, 1, &neg, &out), MPI_ERR_RANK);
    int dup[2] = {0, 0};
    if (size > 1)
        CHECK_INT(MPI_Group_incl(gw, 2, dup, &out), MPI_ERR_RANK);
    CHECK_INT(MPI_Group_incl(gw, -1, dup, &out), MPI_ERR_ARG);
    CHECK_INT(MPI_Group_incl(gw, size + 1, dup, &out), MPI_ERR_ARG);
    CHECK_INT(MPI_Group_incl(gw, 1, NULL, &out), MPI_ERR_ARG);
    CHECK_INT(MPI_Group_incl(gw, 1, dup, NULL), MPI_ERR_ARG);
    CHECK_INT(MPI_Group_excl(gw, 1, bad, &out), MPI_ERR_RANK);
    if (size > 1)
        CHECK_INT(MPI_Group_excl(gw, 2, dup, &out), MPI_ERR_RANK);

    /* ranges */
    int r0[1][3] = {{0, size - 1, 0}};
    CHECK_INT(MPI_Group_range_incl(gw, 1, r0, &out), MPI_ERR_ARG);
    int r1[1][3] = {{0, size, 1}};
    CHECK_INT(MPI_Group_range_incl(gw, 1, r1, &out), MPI_ERR_RANK);
    int r2[2][3] = {{0, size - 1, 1}, {0, 0, 1}}; /* rank 0 twice */
    CHECK_INT(MPI_Group_range_incl(gw, 2, r2, &out), MPI_ERR_RANK);
    CHECK_INT(MPI_Group_range_excl(gw, 2, r2, &out), MPI_ERR_RANK);
    if (size > 1) {
        int r3[1][3] = {{0, size - 1, -1}}; /* goes away from last */
        CHECK_INT(MPI_Group_range_incl(gw, 1, r3, &out), MPI_ERR_ARG);
    }
    CHECK_INT(MPI_Group_range_incl(gw, -2, r0, &out), MPI_ERR_ARG);

    /* translate */
    int in[1] = {size}, o[1];
    CHECK_INT(MPI_Group_translate_ranks(gw, 1, in, gw, o), MPI_ERR_RANK);
    CHECK_INT(MPI_Group_translate_ranks(gw, -1, in, gw, o), MPI_ERR_ARG);
    CHECK_INT(MPI_Group_translate_ranks(gw, 1, in, MPI_GROUP_NULL, o), MPI_ERR_GROUP);

    /* MPI_GROUP_EMPTY may be freed (a no-op), as in MPICH */
    g = MPI_GROUP_EMPTY;
    OK(MPI_Group_free(&g));
    OK(MPI_Group_size(MPI_GROUP_EMPTY, &n));
    OK(MPI_Group_free(&gw));
    MPI_Finalize();
    return 0;
}
