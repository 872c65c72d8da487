/* Graph topologies: the standard's example (MPI 4.1 §8.5.3, four nodes) when there are four
 * ranks or more, and a ring with self-loops on every rank count; every query against the
 * arrays given, nodes fewer than ranks (the others get MPI_COMM_NULL), MPI_Graph_map, and
 * MPI_Topo_test on every kind of communicator. With reorder (reorder.c checks the map). */
#include "comm_check.h"

static void check_graph(MPI_Comm g, int nnodes, const int *index, const int *edges)
{
    int st, nn, ne, n;
    OK(MPI_Topo_test(g, &st));
    CHECK_INT(st, MPI_GRAPH);
    OK(MPI_Comm_size(g, &n));
    CHECK_INT(n, nnodes);
    OK(MPI_Graphdims_get(g, &nn, &ne));
    CHECK_INT(nn, nnodes);
    CHECK_INT(ne, index[nnodes - 1]);
    int gi[64], ge[64];
    OK(MPI_Graph_get(g, 64, 64, gi, ge));
    for (int i = 0; i < nnodes; i++)
        CHECK_INT(gi[i], index[i]);
    for (int e = 0; e < ne; e++)
        CHECK_INT(ge[e], edges[e]);
    for (int r = 0; r < nnodes; r++) {
        int first = r > 0 ? index[r - 1] : 0, cnt, nb[64];
        OK(MPI_Graph_neighbors_count(g, r, &cnt));
        CHECK_INT(cnt, index[r] - first);
        OK(MPI_Graph_neighbors(g, r, cnt, nb));
        for (int i = 0; i < cnt; i++)
            CHECK_INT(nb[i], edges[first + i]);
    }
}

static void make(int nnodes, const int *index, const int *edges)
{
    int me = world_rank(), mapped;
    MPI_Comm g;
    OK(MPI_Graph_create(MPI_COMM_WORLD, nnodes, index, edges, 1, &g));
    OK(MPI_Graph_map(MPI_COMM_WORLD, nnodes, index, edges, &mapped));
    if (me >= nnodes) {
        CHECK(g == MPI_COMM_NULL);
        CHECK_INT(mapped, MPI_UNDEFINED);
        return;
    }
    int r;
    OK(MPI_Comm_rank(g, &r));
    CHECK_INT(mapped, r); /* Graph_map says what reorder gives */
    CHECK(r >= 0 && r < nnodes);
    check_graph(g, nnodes, index, edges);
    MPI_Comm dup;
    OK(MPI_Comm_dup(g, &dup));
    OK(MPI_Comm_free(&g));
    check_graph(dup, nnodes, index, edges);
    OK(MPI_Comm_free(&dup));
}

int main(int argc, char **argv)
{
    MPI_Init(&argc, &argv);
    int size = world_size(), st;
    OK(MPI_Topo_test(MPI_COMM_WORLD, &st));
    CHECK_INT(st, MPI_UNDEFINED);
    OK(MPI_Topo_test(MPI_COMM_SELF, &st));
    CHECK_INT(st, MPI_UNDEFINED);

    if (size >= 4) { /* the standard's example: 0-1, 0-3, 2-3 */
        int index[] = {2, 3, 4, 6}, edges[] = {1, 3, 0, 3, 0, 2};
        make(4, index, edges);
    }
    /* a ring on every rank, each node also its own neighbour */
    int index[8], edges[24];
    for (int r = 0, e = 0; r < size; r++) {
        edges[e++] = (r + 1) % size;
        edges[e++] = r;
        edges[e++] = (r + size - 1) % size;
        index[r] = e;
    }
    make(size, index, edges);
    if (size > 1)
        make(size - 1, (int[]){0, 0, 0, 0, 0, 0, 0}, NULL); /* no edges at all */
    MPI_Finalize();
    return 0;
}
