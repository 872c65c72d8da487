/* MPI_Comm_create_group: collective over the group only. Evens and odds build theirs at the
 * same time with the same tag, over and over (successive calls with one key must not mix);
 * a reversed group is led by its rank 0; a non-member gets MPI_COMM_NULL without waiting. */
#include "comm_check.h"

int main(int argc, char **argv)
{
    MPI_Init(&argc, &argv);
    int rank = world_rank(), size = world_size(), r, n, cmp;
    MPI_Group gw, mine, rev;
    OK(MPI_Comm_group(MPI_COMM_WORLD, &gw));
    int range[1][3] = {{rank % 2, size - 1 - ((size - 1) % 2 != rank % 2), 2}};
    OK(MPI_Group_range_incl(gw, 1, range, &mine));
    int expect_n = rank % 2 ? size / 2 : (size + 1) / 2;

    for (int i = 0; i < 40; i++) {
        MPI_Comm c;
        OK(MPI_Comm_create_group(MPI_COMM_WORLD, mine, 5, &c));
        OK(MPI_Comm_size(c, &n));
        CHECK_INT(n, expect_n);
        OK(MPI_Comm_rank(c, &r));
        CHECK_INT(r, rank / 2);
        OK(MPI_Barrier(c));
        if (i % 2)
            OK(MPI_Comm_free(&c));
        else { /* use it to build another, then free both */
            MPI_Comm d;
            OK(MPI_Comm_create_group(c, mine, i, &d));
            OK(MPI_Comm_compare(c, d, &cmp));
            CHECK_INT(cmp, MPI_CONGRUENT);
            OK(MPI_Comm_free(&c));
            OK(MPI_Barrier(d));
            OK(MPI_Comm_free(&d));
        }
    }

    /* the whole world, reversed: led by the highest world rank */
    int ranks[64];
    for (int i = 0; i < size; i++)
        ranks[i] = size - 1 - i;
    OK(MPI_Group_incl(gw, size, ranks, &rev));
    MPI_Comm c;
    OK(MPI_Comm_create_group(MPI_COMM_WORLD, rev, 0, &c));
    OK(MPI_Comm_rank(c, &r));
    CHECK_INT(r, size - 1 - rank);
    OK(MPI_Comm_compare(c, MPI_COMM_WORLD, &cmp));
    CHECK_INT(cmp, size == 1 ? MPI_CONGRUENT : MPI_SIMILAR);
    OK(MPI_Comm_free(&c));

    /* only rank 0 takes part: a group of one, nobody else calls */
    if (rank == 0) {
        int zero = 0;
        MPI_Group g0;
        OK(MPI_Group_incl(gw, 1, &zero, &g0));
        OK(MPI_Comm_create_group(MPI_COMM_WORLD, g0, 9, &c));
        OK(MPI_Comm_size(c, &n));
        CHECK_INT(n, 1);
        OK(MPI_Comm_free(&c));
        OK(MPI_Group_free(&g0));
    }
    /* not a member: a local call */
    OK(MPI_Comm_create_group(MPI_COMM_WORLD, MPI_GROUP_EMPTY, 3, &c));
    CHECK(c == MPI_COMM_NULL);

    MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_RETURN);
    CHECK_INT(MPI_Comm_create_group(MPI_COMM_WORLD, mine, -1, &c), MPI_ERR_TAG);
    CHECK_INT(MPI_Comm_create_group(MPI_COMM_WORLD, MPI_GROUP_NULL, 0, &c), MPI_ERR_GROUP);
    CHECK_INT(MPI_Comm_create_group(MPI_COMM_NULL, mine, 0, &c), MPI_ERR_COMM);

    OK(MPI_Group_free(&rev));
    OK(MPI_Group_free(&mine));
    OK(MPI_Group_free(&gw));
    MPI_Finalize();
    return 0;
}
