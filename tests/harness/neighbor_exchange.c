/* tests/harness/neighbor_exchange.c — neighbourhood collectives as an application uses them:
 * MPI_Neighbor_alltoall and MPI_Ineighbor_allgatherv on a Cartesian communicator (periodic in
 * one dimension, not in the other, so edge ranks have MPI_PROC_NULL neighbours) and on a
 * distributed graph made with MPI_Dist_graph_create_adjacent. */
#include <stdlib.h>
#include "mtest_lite.h"

#define SENTINEL (-7)

static int count_of(int rank)
{
    return rank % 3 + 1;
}

/* Sends count_of(me) values me*10+i to every neighbour with MPI_Ineighbor_allgatherv and
 * checks what came from each of the n sources (MPI_PROC_NULL: nothing, its part untouched).
 * Parts are 4 apart in the receive buffer, so the displacements matter. */
static int allgatherv_check(MPI_Comm comm, int me, int n, const int *sources)
{
    int errs = 0;
    int send[3], *counts = malloc(sizeof(int) * (n + 1)), *displs = malloc(sizeof(int) * (n + 1));
    int *recv = malloc(sizeof(int) * (4 * n + 1));
    for (int i = 0; i < count_of(me); i++)
        send[i] = me * 10 + i;
    for (int k = 0; k < 4 * n; k++)
        recv[k] = SENTINEL;
    for (int k = 0; k < n; k++) {
        counts[k] = sources[k] == MPI_PROC_NULL ? 0 : count_of(sources[k]);
        displs[k] = 4 * (n - 1 - k); /* the last neighbour's part first */
    }
    MPI_Request req;
    MPI_Ineighbor_allgatherv(send, count_of(me), MPI_INT, recv, counts, displs, MPI_INT, comm,
                             &req);
    MPI_Wait(&req, MPI_STATUS_IGNORE);
    for (int k = 0; k < n; k++)
        for (int i = 0; i < 4; i++) {
            int want = SENTINEL;
            if (sources[k] != MPI_PROC_NULL && i < count_of(sources[k]))
                want = sources[k] * 10 + i;
            MTEST_CHECK(errs, recv[displs[k] + i] == want);
        }
    free(counts);
    free(displs);
    free(recv);
    return errs;
}

static int cartesian(void)
{
    int errs = 0, size, rank;
    MPI_Comm_size(MPI_COMM_WORLD, &size);
    int dims[2] = {0, 0}, periods[2] = {1, 0};
    MPI_Dims_create(size, 2, dims);
    MPI_Comm cart;
    MPI_Cart_create(MPI_COMM_WORLD, 2, dims, periods, 0, &cart);
    MPI_Comm_rank(cart, &rank);

    /* Neighbour k: dimension k/2, displacement -1 (even k) or +1 (odd k). */
    int nbr[4];
    MPI_Cart_shift(cart, 0, 1, &nbr[0], &nbr[1]);
    MPI_Cart_shift(cart, 1, 1, &nbr[2], &nbr[3]);
    int coords[2];
    MPI_Cart_coords(cart, rank, 2, coords);
    MTEST_CHECK(errs, (nbr[2] == MPI_PROC_NULL) == (coords[1] == 0));
    MTEST_CHECK(errs, (nbr[3] == MPI_PROC_NULL) == (coords[1] == dims[1] - 1));

    /* Block k goes to neighbour k, so what arrives from neighbour k (at -1) is the block it
     * sent to its +1 neighbour, and the other way round. */
    int send[4], recv[4];
    for (int k = 0; k < 4; k++) {
        send[k] = rank * 100 + k;
        recv[k] = SENTINEL;
    }
    MPI_Neighbor_alltoall(send, 1, MPI_INT, recv, 1, MPI_INT, cart);
    for (int k = 0; k < 4; k++) {
        int want = nbr[k] == MPI_PROC_NULL ? SENTINEL : nbr[k] * 100 + (k ^ 1);
        MTEST_CHECK(errs, recv[k] == want);
    }
    errs += allgatherv_check(cart, rank, 4, nbr);
    MPI_Comm_free(&cart);
    return errs;
}

static int graph(void)
{
    int errs = 0, size, rank;
    MPI_Comm_size(MPI_COMM_WORLD, &size);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    /* Each rank hears from rank-1 and (with 4 ranks or more) rank+2; so it talks to rank+1
     * and rank-2. No edge twice. */
    int n = size >= 4 ? 2 : 1;
    int sources[2] = {(rank - 1 + size) % size, (rank + 2) % size};
    int dests[2] = {(rank + 1) % size, (rank - 2 + size) % size};
    MPI_Comm g;
    MPI_Dist_graph_create_adjacent(MPI_COMM_WORLD, n, sources, MPI_UNWEIGHTED, n, dests,
                                   MPI_UNWEIGHTED, MPI_INFO_NULL, 0, &g);
    int indeg, outdeg, weighted, topo;
    MPI_Topo_test(g, &topo);
    MTEST_CHECK(errs, topo == MPI_DIST_GRAPH);
    MPI_Dist_graph_neighbors_count(g, &indeg, &outdeg, &weighted);
    MTEST_CHECK(errs, indeg == n && outdeg == n && !weighted);
    int s[2] = {-1, -1}, d[2] = {-1, -1};
    MPI_Dist_graph_neighbors(g, n, s, MPI_UNWEIGHTED, n, d, MPI_UNWEIGHTED);
    for (int k = 0; k < n; k++)
        MTEST_CHECK(errs, s[k] == sources[k] && d[k] == dests[k]);

    /* Source 0 (rank-1) sent me its block 0 (to its rank+1); source 1 (rank+2) its block 1. */
    int send[2] = {rank * 100, rank * 100 + 1}, recv[2] = {SENTINEL, SENTINEL};
    MPI_Neighbor_alltoall(send, 1, MPI_INT, recv, 1, MPI_INT, g);
    for (int k = 0; k < n; k++)
        MTEST_CHECK(errs, recv[k] == sources[k] * 100 + k);
    errs += allgatherv_check(g, rank, n, sources);
    MPI_Comm_free(&g);
    return errs;
}

int main(int argc, char **argv)
{
    int errs = 0;
    MTest_Init(&argc, &argv);
    for (int round = 0; round < 3; round++) {
        errs += cartesian();
        errs += graph();
    }
    MTest_Finalize(errs);
    return MTestReturnValue(errs);
}
