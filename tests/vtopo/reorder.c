/* Reordering (comm/vtopo_map.c) on a known machine, 8 ranks: CMakeLists.txt runs it on
 * `package:2 numa:2 core:2 pu:1` with the ranks placed out of order (LOOM_BIND=user:0,4,1,
 * 5,2,6,3,7: world rank w on core 2w for w < 4, else 2(w-4)+1), so the hardware order of
 * the world ranks is 0 2 4 6 1 3 5 7; and with LOOM_BIND=none (argument "identity"), where
 * the placement says nothing and the map must be the identity.
 * Expected, by hand (docs/topology.md's rules):
 *   grid 8 (1-D) or 4x2: cuts at the package boundary, then the NUMA boundaries, so the
 *     k-th rank in hardware order gets grid point k.
 *   pair graph 0-7, 1-6, 2-5, 3-4: slot 0 takes node 0, slot 1 its partner 7, slot 2 the
 *     lowest unplaced node 1, slot 3 its partner 6, and so on: 0 7 1 6 2 5 3 4.
 * Also checks that every pair of graph partners shares a NUMA node afterwards. */
#include <string.h>
#include "comm_check.h"

static const int hw_order[8] = {0, 2, 4, 6, 1, 3, 5, 7};
static const int pair_nodes[8] = {0, 7, 1, 6, 2, 5, 3, 4};
static const int partner[8] = {7, 6, 5, 4, 3, 2, 1, 0};

/* The new rank of world rank w under the identity or the scrambled placement. */
static int want_grid(int w, int ident)
{
    for (int k = 0; !ident && k < 8; k++)
        if (hw_order[k] == w)
            return k;
    return w;
}

static int want_pairs(int w, int ident)
{
    for (int k = 0; !ident && k < 8; k++)
        if (hw_order[k] == w)
            return pair_nodes[k];
    return w;
}

/* Partners (new ranks q and partner[q]) run on the same NUMA node. */
static void partners_share_numa(MPI_Comm g)
{
    int numa, q, all[8];
    OK(loom_rank_placement(NULL, &numa, NULL, 0, NULL));
    OK(MPI_Comm_rank(g, &q));
    OK(MPI_Allgather(&numa, 1, MPI_INT, all, 1, MPI_INT, g));
    CHECK_INT(all[partner[q]], numa);
}

int main(int argc, char **argv)
{
    MPI_Init(&argc, &argv);
    CHECK_INT(world_size(), 8);
    int me = world_rank(), ident = argc > 1 && strcmp(argv[1], "identity") == 0;
    int r, mapped;
    MPI_Comm c;

    int d1[1] = {8}, p1[1] = {0};
    OK(MPI_Cart_map(MPI_COMM_WORLD, 1, d1, p1, &mapped));
    CHECK_INT(mapped, want_grid(me, ident));
    OK(MPI_Cart_create(MPI_COMM_WORLD, 1, d1, p1, 1, &c));
    OK(MPI_Comm_rank(c, &r));
    CHECK_INT(r, mapped);
    int coords[2];
    OK(MPI_Cart_coords(c, r, 1, coords));
    CHECK_INT(coords[0], r);
    OK(MPI_Comm_free(&c));

    int d2[2] = {4, 2}, p2[2] = {1, 1};
    OK(MPI_Cart_map(MPI_COMM_WORLD, 2, d2, p2, &mapped));
    CHECK_INT(mapped, want_grid(me, ident));
    OK(MPI_Cart_create(MPI_COMM_WORLD, 2, d2, p2, 1, &c));
    OK(MPI_Comm_rank(c, &r));
    CHECK_INT(r, mapped);
    OK(MPI_Comm_free(&c));

    /* without reorder nothing moves */
    OK(MPI_Cart_create(MPI_COMM_WORLD, 2, d2, p2, 0, &c));
    OK(MPI_Comm_rank(c, &r));
    CHECK_INT(r, me);
    OK(MPI_Comm_free(&c));

    int index[8], edges[8];
    for (int v = 0; v < 8; v++)
        index[v] = v + 1, edges[v] = partner[v];
    OK(MPI_Graph_map(MPI_COMM_WORLD, 8, index, edges, &mapped));
    CHECK_INT(mapped, want_pairs(me, ident));
    OK(MPI_Graph_create(MPI_COMM_WORLD, 8, index, edges, 1, &c));
    OK(MPI_Comm_rank(c, &r));
    CHECK_INT(r, mapped);
    if (!ident)
        partners_share_numa(c);
    OK(MPI_Comm_free(&c));

    /* the same graph, distributed, weighted: each rank gives its node's edge */
    int w = 5, peer = partner[me];
    OK(MPI_Dist_graph_create_adjacent(MPI_COMM_WORLD, 1, &peer, &w, 1, &peer, &w,
                                      MPI_INFO_NULL, 1, &c));
    OK(MPI_Comm_rank(c, &r));
    CHECK_INT(r, want_pairs(me, ident));
    int src, sw, dst, dw;
    OK(MPI_Dist_graph_neighbors(c, 1, &src, &sw, 1, &dst, &dw));
    CHECK_INT(src, partner[r]); /* node r's edges, in new ranks */
    CHECK_INT(dst, partner[r]);
    CHECK_INT(sw, 5);
    if (!ident)
        partners_share_numa(c);
    OK(MPI_Comm_free(&c));

    /* and given by rank 0 alone */
    int one[8] = {1, 1, 1, 1, 1, 1, 1, 1}, all[8];
    for (int v = 0; v < 8; v++)
        all[v] = v;
    OK(MPI_Dist_graph_create(MPI_COMM_WORLD, me == 0 ? 8 : 0, all, one, partner,
                             MPI_UNWEIGHTED, MPI_INFO_NULL, 1, &c));
    OK(MPI_Comm_rank(c, &r));
    CHECK_INT(r, want_pairs(me, ident));
    OK(MPI_Dist_graph_neighbors(c, 1, &src, MPI_UNWEIGHTED, 1, &dst, MPI_UNWEIGHTED));
    CHECK_INT(src, partner[r]);
    CHECK_INT(dst, partner[r]);
    OK(MPI_Comm_free(&c));
    MPI_Finalize();
    return 0;
}
