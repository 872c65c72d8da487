/* The root's view (coll/shm.h, entry.view): a reader of a rooted shm collective too large to
 * go inline finds the root's buffer, count and type on the root's entry, which keeps them
 * from one call to the next, instead of in the root's arguments. Here the view must change
 * under the readers, and a v form must not be read through the view of the plain call
 * before it: the root rotates, each root's buffer moves between two allocations, the type
 * alternates between MPI_INT and a pair of ints, and plain and v forms of gather and scatter
 * alternate on the same root, the v forms with blocks of different sizes in reverse rank
 * order (a block placed as the plain form would place it lands in the wrong spot). Blocks
 * are above the inline limit, so every call goes through the view or the arguments. */
#include "coll_check.h"

#define ROUNDS 60
#define BLK 1100 /* ints per block: 4400 bytes, above the inline limit */

static _Thread_local int me, n; /* ranks are threads: globals are shared */

/* The v forms' layout: rank r's block of BLK - r ints at the far end for rank 0. */
static void v_layout(int *counts, int *displs)
{
    int at = 0;
    for (int r = n - 1; r >= 0; r--) {
        counts[r] = BLK - r;
        displs[r] = at;
        at += BLK;
    }
}

static void expect(const int *got, int count, int who, long salt, const char *what, int round)
{
    for (int i = 0; i < count; i++)
        if (got[i] != val(who, salt + i)) {
            fprintf(stderr, "rank %d: %s, round %d: element %d of rank %d's block is %d, "
                            "expected %d\n", me, what, round, i, who, got[i],
                    val(who, salt + i));
            MPI_Abort(MPI_COMM_WORLD, 1);
        }
}

int main(int argc, char **argv)
{
    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &me);
    MPI_Comm_size(MPI_COMM_WORLD, &n);
    MPI_Datatype pair;
    OK(MPI_Type_contiguous(2, MPI_INT, &pair));
    OK(MPI_Type_commit(&pair));
    size_t all = (size_t)n * BLK;
    int *big[2] = {malloc(all * sizeof(int)), malloc(all * sizeof(int))};
    int *mine = malloc(BLK * sizeof(int));
    int *counts = malloc((size_t)n * sizeof(int)), *displs = malloc((size_t)n * sizeof(int));
    CHECK(big[0] && big[1] && mine && counts && displs);
    v_layout(counts, displs);
    for (int round = 0; round < ROUNDS; round++) {
        int root = round % n, vform = (round / n) % 2, typed = (round / 2) % 2;
        int *buf = big[(round / 3) % 2]; /* the root's buffer moves now and then */
        /* a plain block as BLK ints, or as BLK / 2 pairs */
        MPI_Datatype t = typed ? pair : MPI_INT;
        int cnt = typed ? BLK / 2 : BLK;

        /* bcast of the root's whole buffer */
        for (size_t i = 0; i < all; i++)
            buf[i] = me == root ? val(root, round + (long)i) : -1;
        OK(MPI_Bcast(buf, typed ? (int)all / 2 : (int)all, t, root, MPI_COMM_WORLD));
        expect(buf, (int)all, root, round, "bcast", round);

        /* gather, plain or v */
        for (int i = 0; i < BLK; i++)
            mine[i] = val(me, 7 * round + i);
        if (me == root)
            for (size_t i = 0; i < all; i++)
                buf[i] = -1;
        if (vform) {
            OK(MPI_Gatherv(mine, counts[me], MPI_INT, buf, counts, displs, MPI_INT, root,
                           MPI_COMM_WORLD));
        } else {
            OK(MPI_Gather(mine, cnt, t, buf, cnt, t, root, MPI_COMM_WORLD));
        }
        if (me == root)
            for (int r = 0; r < n; r++)
                expect(buf + (vform ? displs[r] : r * BLK), vform ? counts[r] : BLK, r,
                       7 * round, vform ? "gatherv" : "gather", round);

        /* scatter, plain or v: block r holds rank r's values */
        if (me == root)
            for (int r = 0; r < n; r++)
                for (int i = 0; i < BLK; i++)
                    buf[(vform ? displs[r] : r * BLK) + i] = val(r, 3 * round + i);
        for (int i = 0; i < BLK; i++)
            mine[i] = -1;
        if (vform) {
            OK(MPI_Scatterv(buf, counts, displs, MPI_INT, mine, counts[me], MPI_INT, root,
                            MPI_COMM_WORLD));
        } else {
            OK(MPI_Scatter(buf, cnt, t, mine, cnt, t, root, MPI_COMM_WORLD));
        }
        expect(mine, vform ? counts[me] : BLK, me, 3 * round,
               vform ? "scatterv" : "scatter", round);
    }
    OK(MPI_Type_free(&pair));
    free(big[0]);
    free(big[1]);
    free(mine);
    free(counts);
    free(displs);
    if (me == 0)
        printf("shm_view: %d rounds of bcast, gather(v), scatter(v) on %d ranks: ok\n", ROUNDS,
               n);
    MPI_Finalize();
    return 0;
}
