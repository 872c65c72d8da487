/* MPI_Comm_split: colours pick the members, keys (then parent ranks) their order;
 * MPI_UNDEFINED gives MPI_COMM_NULL; splits of splits work. */
#include "comm_check.h"

/* World ranks of c's members, in c's rank order. */
static void world_ranks_of(MPI_Comm c, int n, int *out)
{
    MPI_Group g, gw;
    int ranks[64];
    for (int i = 0; i < n; i++)
        ranks[i] = i;
    OK(MPI_Comm_group(c, &g));
    OK(MPI_Comm_group(MPI_COMM_WORLD, &gw));
    OK(MPI_Group_translate_ranks(g, n, ranks, gw, out));
    OK(MPI_Group_free(&g));
    OK(MPI_Group_free(&gw));
}

int main(int argc, char **argv)
{
    MPI_Init(&argc, &argv);
    int rank = world_rank(), size = world_size(), r, n, cmp;
    int w[64];

    /* parity, reversed: key -rank */
    MPI_Comm par;
    OK(MPI_Comm_split(MPI_COMM_WORLD, rank % 2, -rank, &par));
    int expect_size = 0, expect_rank = 0;
    for (int i = 0; i < size; i++)
        if (i % 2 == rank % 2) {
            expect_size++;
            if (i > rank)
                expect_rank++;
        }
    OK(MPI_Comm_size(par, &n));
    CHECK_INT(n, expect_size);
    OK(MPI_Comm_rank(par, &r));
    CHECK_INT(r, expect_rank);
    world_ranks_of(par, n, w);
    for (int i = 0; i < n; i++) /* the largest world rank of the parity first */
        CHECK_INT(w[i], (size - 1 - ((size - 1) % 2 != rank % 2)) - 2 * i);
    OK(MPI_Barrier(par));

    /* a split of the split: halves by new rank, equal keys (order by parent rank) */
    MPI_Comm half;
    OK(MPI_Comm_split(par, r < n / 2, 0, &half));
    int hn, hr;
    OK(MPI_Comm_size(half, &hn));
    OK(MPI_Comm_rank(half, &hr));
    CHECK_INT(hn, r < n / 2 ? n / 2 : n - n / 2);
    CHECK_INT(hr, r < n / 2 ? r : r - n / 2);
    OK(MPI_Barrier(half));
    OK(MPI_Comm_free(&half));

    /* one colour for all, equal keys: congruent to the parent */
    MPI_Comm all;
    OK(MPI_Comm_split(MPI_COMM_WORLD, 7, 0, &all));
    OK(MPI_Comm_compare(all, MPI_COMM_WORLD, &cmp));
    CHECK_INT(cmp, MPI_CONGRUENT);
    OK(MPI_Comm_free(&all));
    /* one colour, keys reversed: similar (unless one rank) */
    OK(MPI_Comm_split(MPI_COMM_WORLD, 0, size - rank, &all));
    OK(MPI_Comm_compare(all, MPI_COMM_WORLD, &cmp));
    CHECK_INT(cmp, size == 1 ? MPI_CONGRUENT : MPI_SIMILAR);
    OK(MPI_Comm_rank(all, &r));
    CHECK_INT(r, size - 1 - rank);
    OK(MPI_Comm_free(&all));

    /* every rank alone */
    MPI_Comm alone;
    OK(MPI_Comm_split(MPI_COMM_WORLD, rank, 0, &alone));
    OK(MPI_Comm_size(alone, &n));
    CHECK_INT(n, 1);
    OK(MPI_Comm_compare(alone, MPI_COMM_SELF, &cmp));
    CHECK_INT(cmp, MPI_CONGRUENT);
    OK(MPI_Comm_free(&alone));

    /* rank 0 opts out */
    MPI_Comm rest;
    OK(MPI_Comm_split(MPI_COMM_WORLD, rank == 0 ? MPI_UNDEFINED : 1, rank, &rest));
    if (rank == 0) {
        CHECK(rest == MPI_COMM_NULL);
    } else {
        OK(MPI_Comm_size(rest, &n));
        CHECK_INT(n, size - 1);
        OK(MPI_Comm_rank(rest, &r));
        CHECK_INT(r, rank - 1);
        OK(MPI_Comm_free(&rest));
    }
    /* everyone opts out */
    OK(MPI_Comm_split(MPI_COMM_WORLD, MPI_UNDEFINED, 0, &rest));
    CHECK(rest == MPI_COMM_NULL);

    /* many splits in a row, freed at once: each is a fresh, working communicator */
    for (int i = 0; i < 50; i++) {
        MPI_Comm c;
        OK(MPI_Comm_split(par, i % 3, rank, &c));
        OK(MPI_Barrier(c));
        OK(MPI_Comm_free(&c));
    }
    OK(MPI_Comm_free(&par));
    MPI_Finalize();
    return 0;
}
