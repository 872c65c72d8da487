/* Distributed graph topologies with asymmetric edges: rank r sends to r+1 and r+3 and
 * receives from r-3 and r-1 (mod size: duplicates and self edges on small counts), given
 * adjacent (weighted and not, MPI_WEIGHTS_EMPTY on ranks without edges) and as a list of
 * edges spread over the ranks (MPI_Dist_graph_create, where each edge is given by one rank
 * that is neither end in general). Every query is checked against these lists. */
#include <stdlib.h>
#include "comm_check.h"

static _Thread_local int rank, size; /* ranks are threads: globals are shared */

static int mod(int a)
{
    return ((a % size) + size) % size;
}

/* The lists of node q: the calling rank's new rank (with reorder, it took node q's edges). */
static void check_adjacent(MPI_Comm g, int weighted)
{
    int st, in, out, w, q;
    OK(MPI_Comm_rank(g, &q));
    OK(MPI_Topo_test(g, &st));
    CHECK_INT(st, MPI_DIST_GRAPH);
    OK(MPI_Dist_graph_neighbors_count(g, &in, &out, &w));
    CHECK_INT(in, 2);
    CHECK_INT(out, 2);
    CHECK_INT(w, weighted);
    int src[2], sw[2], dst[2], dw[2];
    OK(MPI_Dist_graph_neighbors(g, 2, src, weighted ? sw : MPI_UNWEIGHTED, 2, dst,
                                weighted ? dw : MPI_UNWEIGHTED));
    CHECK_INT(src[0], mod(q - 3));
    CHECK_INT(src[1], mod(q - 1));
    CHECK_INT(dst[0], mod(q + 1));
    CHECK_INT(dst[1], mod(q + 3));
    if (weighted) {
        CHECK_INT(sw[0], 30 + mod(q - 3));
        CHECK_INT(sw[1], 10 + mod(q - 1));
        CHECK_INT(dw[0], 10 + q);
        CHECK_INT(dw[1], 30 + q);
    }
}

static void adjacent(int weighted)
{
    int src[2] = {mod(rank - 3), mod(rank - 1)}, dst[2] = {mod(rank + 1), mod(rank + 3)};
    int sw[2] = {30 + src[0], 10 + src[1]}, dw[2] = {10 + rank, 30 + rank};
    MPI_Comm g, dup;
    OK(MPI_Dist_graph_create_adjacent(MPI_COMM_WORLD, 2, src, weighted ? sw : MPI_UNWEIGHTED,
                                      2, dst, weighted ? dw : MPI_UNWEIGHTED, MPI_INFO_NULL,
                                      weighted, &g));
    int r, n;
    OK(MPI_Comm_rank(g, &r));
    if (!weighted) /* weighted ones are made with reorder */
        CHECK_INT(r, rank);
    OK(MPI_Comm_size(g, &n));
    CHECK_INT(n, size);
    check_adjacent(g, weighted);
    OK(MPI_Comm_dup(g, &dup));
    OK(MPI_Comm_free(&g));
    check_adjacent(dup, weighted);
    OK(MPI_Comm_free(&dup));
}

/* Only rank 0 has edges (0 -> 1 when there is a rank 1); the others say MPI_WEIGHTS_EMPTY. */
static void empty_weights(void)
{
    int one = size > 1;
    int src[1] = {0}, dst[1] = {1}, w[1] = {7};
    int nin = rank == 1 ? 1 : 0, nout = rank == 0 && one ? 1 : 0;
    MPI_Comm g;
    OK(MPI_Dist_graph_create_adjacent(MPI_COMM_WORLD, nin, src, nin ? w : MPI_WEIGHTS_EMPTY,
                                      nout, dst, nout ? w : MPI_WEIGHTS_EMPTY, MPI_INFO_NULL,
                                      0, &g));
    int in, out, weighted;
    OK(MPI_Dist_graph_neighbors_count(g, &in, &out, &weighted));
    CHECK_INT(in, nin);
    CHECK_INT(out, nout);
    CHECK_INT(weighted, 1);
    int s = -1, sw = -1, d = -1, dw = -1;
    OK(MPI_Dist_graph_neighbors(g, 1, &s, &sw, 1, &d, &dw));
    CHECK_INT(s, nin ? 0 : -1);
    CHECK_INT(sw, nin ? 7 : -1);
    CHECK_INT(d, nout ? 1 : -1);
    CHECK_INT(dw, nout ? 7 : -1);
    OK(MPI_Comm_free(&g));
}

static int cmp_pair(const void *a, const void *b)
{
    const int *x = a, *y = b;
    return x[0] != y[0] ? x[0] - y[0] : x[1] - y[1];
}

/* The same graph as edges: rank k gives the edges of sources k+2 (to s+1) and k+5 (to s+3),
 * weights 10+s and 30+s. The order of neighbours is the implementation's: compare as sorted
 * (neighbour, weight) pairs. */
static void spread(void)
{
    int sources[2] = {mod(rank + 2), mod(rank + 5)}, degrees[2] = {1, 1};
    int dests[2] = {mod(sources[0] + 1), mod(sources[1] + 3)};
    int weights[2] = {10 + sources[0], 30 + sources[1]};
    MPI_Comm g;
    OK(MPI_Dist_graph_create(MPI_COMM_WORLD, 2, sources, degrees, dests, weights,
                             MPI_INFO_NULL, 0, &g));
    int in, out, w;
    OK(MPI_Dist_graph_neighbors_count(g, &in, &out, &w));
    CHECK_INT(in, 2);
    CHECK_INT(out, 2);
    CHECK_INT(w, 1);
    int src[2], sw[2], dst[2], dw[2];
    OK(MPI_Dist_graph_neighbors(g, 2, src, sw, 2, dst, dw));
    int gin[2][2] = {{src[0], sw[0]}, {src[1], sw[1]}};
    int gout[2][2] = {{dst[0], dw[0]}, {dst[1], dw[1]}};
    int win[2][2] = {{mod(rank - 1), 10 + mod(rank - 1)}, {mod(rank - 3), 30 + mod(rank - 3)}};
    int wout[2][2] = {{mod(rank + 1), 10 + rank}, {mod(rank + 3), 30 + rank}};
    qsort(gin, 2, sizeof gin[0], cmp_pair);
    qsort(gout, 2, sizeof gout[0], cmp_pair);
    qsort(win, 2, sizeof win[0], cmp_pair);
    qsort(wout, 2, sizeof wout[0], cmp_pair);
    for (int i = 0; i < 2; i++)
        for (int j = 0; j < 2; j++) {
            CHECK_INT(gin[i][j], win[i][j]);
            CHECK_INT(gout[i][j], wout[i][j]);
        }
    OK(MPI_Comm_free(&g));

    /* unweighted, and only rank 0 gives edges: the ring r -> r+1 */
    int *all = malloc((size_t)size * sizeof *all), *ones = malloc((size_t)size * sizeof *ones);
    int *to = malloc((size_t)size * sizeof *to);
    CHECK(all && ones && to);
    for (int i = 0; i < size; i++)
        all[i] = i, ones[i] = 1, to[i] = mod(i + 1);
    OK(MPI_Dist_graph_create(MPI_COMM_WORLD, rank == 0 ? size : 0, all, ones, to,
                             MPI_UNWEIGHTED, MPI_INFO_NULL, 1, &g));
    OK(MPI_Dist_graph_neighbors_count(g, &in, &out, &w));
    CHECK_INT(in, 1);
    CHECK_INT(out, 1);
    CHECK_INT(w, 0);
    int q; /* reordered: this rank took node q's edges */
    OK(MPI_Comm_rank(g, &q));
    OK(MPI_Dist_graph_neighbors(g, 1, src, MPI_UNWEIGHTED, 1, dst, MPI_UNWEIGHTED));
    CHECK_INT(src[0], mod(q - 1));
    CHECK_INT(dst[0], mod(q + 1));
    OK(MPI_Comm_free(&g));
    free(all), free(ones), free(to);
}

int main(int argc, char **argv)
{
    MPI_Init(&argc, &argv);
    rank = world_rank();
    size = world_size();
    adjacent(0);
    adjacent(1);
    empty_weights();
    spread();
    MPI_Finalize();
    return 0;
}
