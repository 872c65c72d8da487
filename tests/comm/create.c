/* MPI_Comm_create: members of the group get a communicator ordered as the group, the others
 * MPI_COMM_NULL; disjoint groups in one call (MPI 2.2) each get their own; empty group. */
#include "comm_check.h"

int main(int argc, char **argv)
{
    MPI_Init(&argc, &argv);
    int rank = world_rank(), size = world_size(), r, n;
    MPI_Group gw, evens, odds, rev;
    OK(MPI_Comm_group(MPI_COMM_WORLD, &gw));
    int range[1][3] = {{0, size - 1, 2}};
    OK(MPI_Group_range_incl(gw, 1, range, &evens));
    OK(MPI_Group_difference(gw, evens, &odds));

    /* one group for everybody: evens */
    MPI_Comm c;
    OK(MPI_Comm_create(MPI_COMM_WORLD, evens, &c));
    if (rank % 2) {
        CHECK(c == MPI_COMM_NULL);
    } else {
        OK(MPI_Comm_size(c, &n));
        CHECK_INT(n, (size + 1) / 2);
        OK(MPI_Comm_rank(c, &r));
        CHECK_INT(r, rank / 2);
        OK(MPI_Barrier(c));
        OK(MPI_Comm_free(&c));
    }

    /* disjoint groups: each rank passes its own parity's group */
    OK(MPI_Comm_create(MPI_COMM_WORLD, rank % 2 ? odds : evens, &c));
    OK(MPI_Comm_rank(c, &r));
    CHECK_INT(r, rank / 2);
    OK(MPI_Comm_size(c, &n));
    CHECK_INT(n, rank % 2 ? size / 2 : (size + 1) / 2);
    OK(MPI_Barrier(c));

    /* the group may order ranks as it likes: reversed world; its rank 0 leads */
    int ranks[64];
    for (int i = 0; i < size; i++)
        ranks[i] = size - 1 - i;
    OK(MPI_Group_incl(gw, size, ranks, &rev));
    MPI_Comm cr;
    OK(MPI_Comm_create(MPI_COMM_WORLD, rev, &cr));
    OK(MPI_Comm_rank(cr, &r));
    CHECK_INT(r, size - 1 - rank);
    OK(MPI_Barrier(cr));
    /* the group may be freed while the communicator lives */
    OK(MPI_Group_free(&rev));
    MPI_Group g2;
    OK(MPI_Comm_group(cr, &g2));
    OK(MPI_Group_rank(g2, &r));
    CHECK_INT(r, size - 1 - rank);
    OK(MPI_Group_free(&g2));
    OK(MPI_Comm_free(&cr));

    /* from a sub-communicator, with a group of it */
    MPI_Group gc, first;
    OK(MPI_Comm_group(c, &gc));
    int zero = 0;
    OK(MPI_Group_incl(gc, 1, &zero, &first));
    MPI_Comm c1;
    OK(MPI_Comm_create(c, first, &c1));
    if (rank / 2 == 0) {
        OK(MPI_Comm_size(c1, &n));
        CHECK_INT(n, 1);
        OK(MPI_Comm_free(&c1));
    } else {
        CHECK(c1 == MPI_COMM_NULL);
    }
    /* a group that is not a subset of the communicator's is refused (when there is one) */
    MPI_Comm_set_errhandler(c, MPI_ERRORS_RETURN);
    if (size > 1)
        CHECK_INT(MPI_Comm_create(c, gw, &c1), MPI_ERR_GROUP);
    OK(MPI_Group_free(&gc));
    OK(MPI_Group_free(&first));
    OK(MPI_Comm_free(&c));

    /* the empty group: nobody is a member */
    OK(MPI_Comm_create(MPI_COMM_WORLD, MPI_GROUP_EMPTY, &c));
    CHECK(c == MPI_COMM_NULL);

    OK(MPI_Group_free(&evens));
    OK(MPI_Group_free(&odds));
    OK(MPI_Group_free(&gw));
    MPI_Finalize();
    return 0;
}
