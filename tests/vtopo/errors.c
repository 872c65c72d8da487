/* Bad input to every process-topology call and neighbor collective, under
 * MPI_ERRORS_RETURN: each bad argument gives its class (MPI_ERR_COMM, MPI_ERR_TOPOLOGY for a
 * communicator without the right topology, MPI_ERR_DIMS, MPI_ERR_ARG, MPI_ERR_RANK,
 * MPI_ERR_COUNT, MPI_ERR_TYPE, MPI_ERR_BUFFER, MPI_ERR_INFO), the same on every rank, so no
 * call goes on to communicate. */
#include "comm_check.h"

#define ERR(call, cls) CHECK_INT((call), (cls))

static void dims_and_cart(MPI_Comm plain, MPI_Comm cart, MPI_Comm graph, int size)
{
    int d[2] = {0, 0}, p[2] = {0, 0}, c[2] = {0, 0}, k, r, s, t;
    MPI_Comm nc;
    ERR(MPI_Dims_create(0, 2, d), MPI_ERR_ARG);
    ERR(MPI_Dims_create(4, -1, d), MPI_ERR_DIMS);
    ERR(MPI_Dims_create(4, 2, NULL), MPI_ERR_ARG);
    ERR(MPI_Dims_create(4, 2, (int[]){-1, 0}), MPI_ERR_DIMS);
    ERR(MPI_Dims_create(5, 2, (int[]){2, 0}), MPI_ERR_DIMS);

    int one[1] = {size}, per[1] = {0};
    ERR(MPI_Cart_create(MPI_COMM_NULL, 1, one, per, 0, &nc), MPI_ERR_COMM);
    ERR(MPI_Cart_create(MPI_COMM_WORLD, -1, one, per, 0, &nc), MPI_ERR_DIMS);
    ERR(MPI_Cart_create(MPI_COMM_WORLD, 1, NULL, per, 0, &nc), MPI_ERR_ARG);
    ERR(MPI_Cart_create(MPI_COMM_WORLD, 1, one, NULL, 0, &nc), MPI_ERR_ARG);
    ERR(MPI_Cart_create(MPI_COMM_WORLD, 1, (int[]){0}, per, 0, &nc), MPI_ERR_DIMS);
    ERR(MPI_Cart_create(MPI_COMM_WORLD, 1, (int[]){size + 1}, per, 0, &nc), MPI_ERR_ARG);
    ERR(MPI_Cart_create(MPI_COMM_WORLD, 2, (int[]){65536, 65536}, p, 0, &nc), MPI_ERR_ARG);
    ERR(MPI_Cart_create(MPI_COMM_WORLD, 1, one, per, 0, NULL), MPI_ERR_ARG);

    ERR(MPI_Cartdim_get(MPI_COMM_NULL, &k), MPI_ERR_COMM);
    ERR(MPI_Cartdim_get(plain, &k), MPI_ERR_TOPOLOGY);
    ERR(MPI_Cartdim_get(graph, &k), MPI_ERR_TOPOLOGY);
    ERR(MPI_Cartdim_get(cart, NULL), MPI_ERR_ARG);

    ERR(MPI_Cart_get(MPI_COMM_NULL, 1, d, p, c), MPI_ERR_COMM);
    ERR(MPI_Cart_get(plain, 1, d, p, c), MPI_ERR_TOPOLOGY);
    ERR(MPI_Cart_get(cart, 0, d, p, c), MPI_ERR_ARG);
    ERR(MPI_Cart_get(cart, 1, NULL, p, c), MPI_ERR_ARG);
    ERR(MPI_Cart_get(cart, 1, d, NULL, c), MPI_ERR_ARG);
    ERR(MPI_Cart_get(cart, 1, d, p, NULL), MPI_ERR_ARG);

    ERR(MPI_Cart_rank(MPI_COMM_NULL, c, &r), MPI_ERR_COMM);
    ERR(MPI_Cart_rank(graph, c, &r), MPI_ERR_TOPOLOGY);
    ERR(MPI_Cart_rank(cart, NULL, &r), MPI_ERR_ARG);
    ERR(MPI_Cart_rank(cart, c, NULL), MPI_ERR_ARG);
    ERR(MPI_Cart_rank(cart, (int[]){size}, &r), MPI_ERR_ARG);
    ERR(MPI_Cart_rank(cart, (int[]){-1}, &r), MPI_ERR_ARG);

    ERR(MPI_Cart_coords(MPI_COMM_NULL, 0, 1, c), MPI_ERR_COMM);
    ERR(MPI_Cart_coords(plain, 0, 1, c), MPI_ERR_TOPOLOGY);
    ERR(MPI_Cart_coords(cart, -1, 1, c), MPI_ERR_RANK);
    ERR(MPI_Cart_coords(cart, size, 1, c), MPI_ERR_RANK);
    ERR(MPI_Cart_coords(cart, 0, 0, c), MPI_ERR_ARG);
    ERR(MPI_Cart_coords(cart, 0, 1, NULL), MPI_ERR_ARG);

    ERR(MPI_Cart_shift(MPI_COMM_NULL, 0, 1, &s, &t), MPI_ERR_COMM);
    ERR(MPI_Cart_shift(plain, 0, 1, &s, &t), MPI_ERR_TOPOLOGY);
    ERR(MPI_Cart_shift(cart, -1, 1, &s, &t), MPI_ERR_DIMS);
    ERR(MPI_Cart_shift(cart, 1, 1, &s, &t), MPI_ERR_DIMS);
    ERR(MPI_Cart_shift(cart, 0, 1, NULL, &t), MPI_ERR_ARG);
    ERR(MPI_Cart_shift(cart, 0, 1, &s, NULL), MPI_ERR_ARG);

    ERR(MPI_Cart_sub(MPI_COMM_NULL, (int[]){1}, &nc), MPI_ERR_COMM);
    ERR(MPI_Cart_sub(plain, (int[]){1}, &nc), MPI_ERR_TOPOLOGY);
    ERR(MPI_Cart_sub(cart, NULL, &nc), MPI_ERR_ARG);
    ERR(MPI_Cart_sub(cart, (int[]){1}, NULL), MPI_ERR_ARG);

    ERR(MPI_Cart_map(MPI_COMM_NULL, 1, one, per, &r), MPI_ERR_COMM);
    ERR(MPI_Cart_map(plain, -1, one, per, &r), MPI_ERR_DIMS);
    ERR(MPI_Cart_map(plain, 1, NULL, per, &r), MPI_ERR_ARG);
    ERR(MPI_Cart_map(plain, 1, one, NULL, &r), MPI_ERR_ARG);
    ERR(MPI_Cart_map(plain, 1, (int[]){-2}, per, &r), MPI_ERR_DIMS);
    ERR(MPI_Cart_map(plain, 1, (int[]){size + 1}, per, &r), MPI_ERR_ARG);
    ERR(MPI_Cart_map(plain, 1, one, per, NULL), MPI_ERR_ARG);
}

static void graph_calls(MPI_Comm plain, MPI_Comm cart, MPI_Comm graph, MPI_Comm dist, int size)
{
    int idx[1] = {1}, edg[1] = {0}, a, b, nb[4];
    MPI_Comm nc;
    ERR(MPI_Graph_create(MPI_COMM_NULL, 1, idx, edg, 0, &nc), MPI_ERR_COMM);
    ERR(MPI_Graph_create(MPI_COMM_WORLD, -1, idx, edg, 0, &nc), MPI_ERR_ARG);
    ERR(MPI_Graph_create(MPI_COMM_WORLD, size + 1, idx, edg, 0, &nc), MPI_ERR_ARG);
    ERR(MPI_Graph_create(MPI_COMM_WORLD, 1, NULL, edg, 0, &nc), MPI_ERR_ARG);
    ERR(MPI_Graph_create(MPI_COMM_WORLD, 1, (int[]){-1}, edg, 0, &nc), MPI_ERR_ARG);
    ERR(MPI_Graph_create(MPI_COMM_WORLD, 1, idx, NULL, 0, &nc), MPI_ERR_ARG);
    ERR(MPI_Graph_create(MPI_COMM_WORLD, 1, idx, (int[]){1}, 0, &nc), MPI_ERR_RANK);
    ERR(MPI_Graph_create(MPI_COMM_WORLD, 1, idx, (int[]){-1}, 0, &nc), MPI_ERR_RANK);
    ERR(MPI_Graph_create(MPI_COMM_WORLD, 1, idx, edg, 0, NULL), MPI_ERR_ARG);

    ERR(MPI_Graphdims_get(MPI_COMM_NULL, &a, &b), MPI_ERR_COMM);
    ERR(MPI_Graphdims_get(cart, &a, &b), MPI_ERR_TOPOLOGY);
    ERR(MPI_Graphdims_get(graph, NULL, &b), MPI_ERR_ARG);
    ERR(MPI_Graphdims_get(graph, &a, NULL), MPI_ERR_ARG);

    ERR(MPI_Graph_get(MPI_COMM_NULL, 4, 4, nb, nb), MPI_ERR_COMM);
    ERR(MPI_Graph_get(plain, 4, 4, nb, nb), MPI_ERR_TOPOLOGY);
    ERR(MPI_Graph_get(graph, 0, 4, nb, nb), MPI_ERR_ARG);
    ERR(MPI_Graph_get(graph, 4, 0, nb, nb), MPI_ERR_ARG);
    ERR(MPI_Graph_get(graph, 4, 4, NULL, nb), MPI_ERR_ARG);
    ERR(MPI_Graph_get(graph, 4, 4, nb, NULL), MPI_ERR_ARG);

    ERR(MPI_Graph_neighbors_count(MPI_COMM_NULL, 0, &a), MPI_ERR_COMM);
    ERR(MPI_Graph_neighbors_count(dist, 0, &a), MPI_ERR_TOPOLOGY);
    ERR(MPI_Graph_neighbors_count(graph, -1, &a), MPI_ERR_RANK);
    ERR(MPI_Graph_neighbors_count(graph, 1, &a), MPI_ERR_RANK);
    ERR(MPI_Graph_neighbors_count(graph, 0, NULL), MPI_ERR_ARG);

    ERR(MPI_Graph_neighbors(MPI_COMM_NULL, 0, 4, nb), MPI_ERR_COMM);
    ERR(MPI_Graph_neighbors(cart, 0, 4, nb), MPI_ERR_TOPOLOGY);
    ERR(MPI_Graph_neighbors(graph, 1, 4, nb), MPI_ERR_RANK);
    ERR(MPI_Graph_neighbors(graph, 0, 0, nb), MPI_ERR_ARG);
    ERR(MPI_Graph_neighbors(graph, 0, 4, NULL), MPI_ERR_ARG);

    ERR(MPI_Graph_map(MPI_COMM_NULL, 1, idx, edg, &a), MPI_ERR_COMM);
    ERR(MPI_Graph_map(plain, -1, idx, edg, &a), MPI_ERR_ARG);
    ERR(MPI_Graph_map(plain, size + 1, idx, edg, &a), MPI_ERR_ARG);
    ERR(MPI_Graph_map(plain, 1, NULL, edg, &a), MPI_ERR_ARG);
    ERR(MPI_Graph_map(plain, 1, (int[]){-1}, edg, &a), MPI_ERR_ARG);
    ERR(MPI_Graph_map(plain, 1, idx, NULL, &a), MPI_ERR_ARG);
    ERR(MPI_Graph_map(plain, 1, idx, (int[]){5}, &a), MPI_ERR_RANK);
    ERR(MPI_Graph_map(plain, 1, idx, edg, NULL), MPI_ERR_ARG);

    ERR(MPI_Topo_test(MPI_COMM_NULL, &a), MPI_ERR_COMM);
    ERR(MPI_Topo_test(plain, NULL), MPI_ERR_ARG);
}

static void dist_calls(MPI_Comm cart, MPI_Comm graph, MPI_Comm dist, int size)
{
    int one[1] = {0}, w[1] = {1}, neg[1] = {-1}, big[1] = {size}, a, b, c, nb[4];
    MPI_Comm nc;
    MPI_Info bad_info = (MPI_Info)&a;
    MPI_Comm W = MPI_COMM_WORLD;
    ERR(MPI_Dist_graph_create_adjacent(MPI_COMM_NULL, 1, one, w, 1, one, w, MPI_INFO_NULL, 0,
                                       &nc), MPI_ERR_COMM);
    ERR(MPI_Dist_graph_create_adjacent(W, -1, one, w, 1, one, w, MPI_INFO_NULL, 0, &nc),
        MPI_ERR_ARG);
    ERR(MPI_Dist_graph_create_adjacent(W, 1, one, w, -1, one, w, MPI_INFO_NULL, 0, &nc),
        MPI_ERR_ARG);
    ERR(MPI_Dist_graph_create_adjacent(W, 1, NULL, w, 1, one, w, MPI_INFO_NULL, 0, &nc),
        MPI_ERR_ARG);
    ERR(MPI_Dist_graph_create_adjacent(W, 1, big, w, 1, one, w, MPI_INFO_NULL, 0, &nc),
        MPI_ERR_RANK);
    ERR(MPI_Dist_graph_create_adjacent(W, 1, one, w, 1, neg, w, MPI_INFO_NULL, 0, &nc),
        MPI_ERR_RANK);
    ERR(MPI_Dist_graph_create_adjacent(W, 1, one, NULL, 1, one, w, MPI_INFO_NULL, 0, &nc),
        MPI_ERR_ARG);
    ERR(MPI_Dist_graph_create_adjacent(W, 1, one, MPI_WEIGHTS_EMPTY, 1, one, w, MPI_INFO_NULL,
                                       0, &nc), MPI_ERR_ARG);
    ERR(MPI_Dist_graph_create_adjacent(W, 1, one, w, 1, one, neg, MPI_INFO_NULL, 0, &nc),
        MPI_ERR_ARG);
    ERR(MPI_Dist_graph_create_adjacent(W, 1, one, MPI_UNWEIGHTED, 1, one, w, MPI_INFO_NULL, 0,
                                       &nc), MPI_ERR_ARG);
    ERR(MPI_Dist_graph_create_adjacent(W, 1, one, w, 1, one, w, bad_info, 0, &nc),
        MPI_ERR_INFO);
    ERR(MPI_Dist_graph_create_adjacent(W, 1, one, w, 1, one, w, MPI_INFO_NULL, 0, NULL),
        MPI_ERR_ARG);

    ERR(MPI_Dist_graph_create(MPI_COMM_NULL, 1, one, w, one, w, MPI_INFO_NULL, 0, &nc),
        MPI_ERR_COMM);
    ERR(MPI_Dist_graph_create(W, -1, one, w, one, w, MPI_INFO_NULL, 0, &nc), MPI_ERR_ARG);
    ERR(MPI_Dist_graph_create(W, 1, NULL, w, one, w, MPI_INFO_NULL, 0, &nc), MPI_ERR_ARG);
    ERR(MPI_Dist_graph_create(W, 1, big, w, one, w, MPI_INFO_NULL, 0, &nc), MPI_ERR_RANK);
    ERR(MPI_Dist_graph_create(W, 1, one, NULL, one, w, MPI_INFO_NULL, 0, &nc), MPI_ERR_ARG);
    ERR(MPI_Dist_graph_create(W, 1, one, neg, one, w, MPI_INFO_NULL, 0, &nc), MPI_ERR_ARG);
    ERR(MPI_Dist_graph_create(W, 1, one, w, NULL, w, MPI_INFO_NULL, 0, &nc), MPI_ERR_ARG);
    ERR(MPI_Dist_graph_create(W, 1, one, w, big, w, MPI_INFO_NULL, 0, &nc), MPI_ERR_RANK);
    ERR(MPI_Dist_graph_create(W, 1, one, w, one, NULL, MPI_INFO_NULL, 0, &nc), MPI_ERR_ARG);
    ERR(MPI_Dist_graph_create(W, 1, one, w, one, neg, MPI_INFO_NULL, 0, &nc), MPI_ERR_ARG);
    ERR(MPI_Dist_graph_create(W, 1, one, w, one, w, bad_info, 0, &nc), MPI_ERR_INFO);
    ERR(MPI_Dist_graph_create(W, 1, one, w, one, w, MPI_INFO_NULL, 0, NULL), MPI_ERR_ARG);

    ERR(MPI_Dist_graph_neighbors_count(MPI_COMM_NULL, &a, &b, &c), MPI_ERR_COMM);
    ERR(MPI_Dist_graph_neighbors_count(cart, &a, &b, &c), MPI_ERR_TOPOLOGY);
    ERR(MPI_Dist_graph_neighbors_count(graph, &a, &b, &c), MPI_ERR_TOPOLOGY);
    ERR(MPI_Dist_graph_neighbors_count(dist, NULL, &b, &c), MPI_ERR_ARG);
    ERR(MPI_Dist_graph_neighbors_count(dist, &a, NULL, &c), MPI_ERR_ARG);
    ERR(MPI_Dist_graph_neighbors_count(dist, &a, &b, NULL), MPI_ERR_ARG);

    ERR(MPI_Dist_graph_neighbors(MPI_COMM_NULL, 4, nb, nb, 4, nb, nb), MPI_ERR_COMM);
    ERR(MPI_Dist_graph_neighbors(graph, 4, nb, nb, 4, nb, nb), MPI_ERR_TOPOLOGY);
    ERR(MPI_Dist_graph_neighbors(dist, 0, nb, nb, 4, nb, nb), MPI_ERR_ARG);
    ERR(MPI_Dist_graph_neighbors(dist, 4, nb, nb, 0, nb, nb), MPI_ERR_ARG);
    ERR(MPI_Dist_graph_neighbors(dist, 4, NULL, nb, 4, nb, nb), MPI_ERR_ARG);
    ERR(MPI_Dist_graph_neighbors(dist, 4, nb, NULL, 4, nb, nb), MPI_ERR_ARG);
    ERR(MPI_Dist_graph_neighbors(dist, 4, nb, nb, 4, NULL, nb), MPI_ERR_ARG);
    ERR(MPI_Dist_graph_neighbors(dist, 4, nb, nb, 4, nb, NULL), MPI_ERR_ARG);
}

/* The neighbor collectives on `dist`, whose every rank has one source and one destination. */
static void neighbor_calls(MPI_Comm plain, MPI_Comm dist)
{
    int s[4] = {0}, r[4] = {0}, cnt[1] = {1}, ncnt[1] = {-1}, dsp[1] = {0};
    MPI_Aint adsp[1] = {0};
    MPI_Datatype ty[1] = {MPI_INT}, nty[1] = {MPI_DATATYPE_NULL};
    MPI_Request q;
    MPI_Datatype I = MPI_INT, N = MPI_DATATYPE_NULL;
    MPI_Comm C0 = MPI_COMM_NULL;

    /* allgather and alltoall: same arguments */
    for (int f = 0; f < 2; f++) {
        int (*blk)(const void *, int, MPI_Datatype, void *, int, MPI_Datatype, MPI_Comm) =
            f ? MPI_Neighbor_alltoall : MPI_Neighbor_allgather;
        int (*nb)(const void *, int, MPI_Datatype, void *, int, MPI_Datatype, MPI_Comm,
                  MPI_Request *) = f ? MPI_Ineighbor_alltoall : MPI_Ineighbor_allgather;
        ERR(blk(s, 1, I, r, 1, I, C0), MPI_ERR_COMM);
        ERR(blk(s, 1, I, r, 1, I, plain), MPI_ERR_TOPOLOGY);
        ERR(blk(s, -1, I, r, 1, I, dist), MPI_ERR_COUNT);
        ERR(blk(s, 1, I, r, -1, I, dist), MPI_ERR_COUNT);
        ERR(blk(s, 1, N, r, 1, I, dist), MPI_ERR_TYPE);
        ERR(blk(s, 1, I, r, 1, N, dist), MPI_ERR_TYPE);
        ERR(blk(NULL, 1, I, r, 1, I, dist), MPI_ERR_BUFFER);
        ERR(blk(s, 1, I, NULL, 1, I, dist), MPI_ERR_BUFFER);
        ERR(blk(MPI_IN_PLACE, 1, I, r, 1, I, dist), MPI_ERR_BUFFER);
        ERR(nb(s, 1, I, r, 1, I, C0, &q), MPI_ERR_COMM);
        ERR(nb(s, 1, I, r, 1, I, plain, &q), MPI_ERR_TOPOLOGY);
        ERR(nb(s, -1, I, r, 1, I, dist, &q), MPI_ERR_COUNT);
        ERR(nb(s, 1, I, r, 1, N, dist, &q), MPI_ERR_TYPE);
        ERR(nb(s, 1, I, MPI_IN_PLACE, 1, I, dist, &q), MPI_ERR_BUFFER);
        ERR(nb(s, 1, I, r, 1, I, dist, NULL), MPI_ERR_ARG);
    }

    ERR(MPI_Neighbor_allgatherv(s, 1, I, r, cnt, dsp, I, C0), MPI_ERR_COMM);
    ERR(MPI_Neighbor_allgatherv(s, 1, I, r, cnt, dsp, I, plain), MPI_ERR_TOPOLOGY);
    ERR(MPI_Neighbor_allgatherv(s, -1, I, r, cnt, dsp, I, dist), MPI_ERR_COUNT);
    ERR(MPI_Neighbor_allgatherv(s, 1, I, r, NULL, dsp, I, dist), MPI_ERR_ARG);
    ERR(MPI_Neighbor_allgatherv(s, 1, I, r, cnt, NULL, I, dist), MPI_ERR_ARG);
    ERR(MPI_Neighbor_allgatherv(s, 1, I, r, ncnt, dsp, I, dist), MPI_ERR_COUNT);
    ERR(MPI_Neighbor_allgatherv(s, 1, I, r, cnt, dsp, N, dist), MPI_ERR_TYPE);
    ERR(MPI_Neighbor_allgatherv(s, 1, I, NULL, cnt, dsp, I, dist), MPI_ERR_BUFFER);
    ERR(MPI_Ineighbor_allgatherv(s, 1, I, r, cnt, dsp, I, plain, &q), MPI_ERR_TOPOLOGY);
    ERR(MPI_Ineighbor_allgatherv(s, 1, I, r, NULL, dsp, I, dist, &q), MPI_ERR_ARG);
    ERR(MPI_Ineighbor_allgatherv(s, 1, I, r, cnt, dsp, I, dist, NULL), MPI_ERR_ARG);

    ERR(MPI_Neighbor_alltoallv(s, cnt, dsp, I, r, cnt, dsp, I, C0), MPI_ERR_COMM);
    ERR(MPI_Neighbor_alltoallv(s, cnt, dsp, I, r, cnt, dsp, I, plain), MPI_ERR_TOPOLOGY);
    ERR(MPI_Neighbor_alltoallv(s, NULL, dsp, I, r, cnt, dsp, I, dist), MPI_ERR_ARG);
    ERR(MPI_Neighbor_alltoallv(s, cnt, NULL, I, r, cnt, dsp, I, dist), MPI_ERR_ARG);
    ERR(MPI_Neighbor_alltoallv(s, ncnt, dsp, I, r, cnt, dsp, I, dist), MPI_ERR_COUNT);
    ERR(MPI_Neighbor_alltoallv(s, cnt, dsp, N, r, cnt, dsp, I, dist), MPI_ERR_TYPE);
    ERR(MPI_Neighbor_alltoallv(s, cnt, dsp, I, r, NULL, dsp, I, dist), MPI_ERR_ARG);
    ERR(MPI_Neighbor_alltoallv(s, cnt, dsp, I, r, cnt, NULL, I, dist), MPI_ERR_ARG);
    ERR(MPI_Neighbor_alltoallv(s, cnt, dsp, I, r, ncnt, dsp, I, dist), MPI_ERR_COUNT);
    ERR(MPI_Neighbor_alltoallv(s, cnt, dsp, I, r, cnt, dsp, N, dist), MPI_ERR_TYPE);
    ERR(MPI_Neighbor_alltoallv(NULL, cnt, dsp, I, r, cnt, dsp, I, dist), MPI_ERR_BUFFER);
    ERR(MPI_Neighbor_alltoallv(MPI_IN_PLACE, cnt, dsp, I, r, cnt, dsp, I, dist),
        MPI_ERR_BUFFER);
    ERR(MPI_Ineighbor_alltoallv(s, cnt, dsp, I, r, cnt, dsp, I, plain, &q), MPI_ERR_TOPOLOGY);
    ERR(MPI_Ineighbor_alltoallv(s, cnt, dsp, I, r, ncnt, dsp, I, dist, &q), MPI_ERR_COUNT);
    ERR(MPI_Ineighbor_alltoallv(s, cnt, dsp, I, r, cnt, dsp, I, dist, NULL), MPI_ERR_ARG);

    ERR(MPI_Neighbor_alltoallw(s, cnt, adsp, ty, r, cnt, adsp, ty, C0), MPI_ERR_COMM);
    ERR(MPI_Neighbor_alltoallw(s, cnt, adsp, ty, r, cnt, adsp, ty, plain), MPI_ERR_TOPOLOGY);
    ERR(MPI_Neighbor_alltoallw(s, NULL, adsp, ty, r, cnt, adsp, ty, dist), MPI_ERR_ARG);
    ERR(MPI_Neighbor_alltoallw(s, cnt, NULL, ty, r, cnt, adsp, ty, dist), MPI_ERR_ARG);
    ERR(MPI_Neighbor_alltoallw(s, cnt, adsp, NULL, r, cnt, adsp, ty, dist), MPI_ERR_ARG);
    ERR(MPI_Neighbor_alltoallw(s, ncnt, adsp, ty, r, cnt, adsp, ty, dist), MPI_ERR_COUNT);
    ERR(MPI_Neighbor_alltoallw(s, cnt, adsp, nty, r, cnt, adsp, ty, dist), MPI_ERR_TYPE);
    ERR(MPI_Neighbor_alltoallw(s, cnt, adsp, ty, r, NULL, adsp, ty, dist), MPI_ERR_ARG);
    ERR(MPI_Neighbor_alltoallw(s, cnt, adsp, ty, r, cnt, NULL, ty, dist), MPI_ERR_ARG);
    ERR(MPI_Neighbor_alltoallw(s, cnt, adsp, ty, r, cnt, adsp, NULL, dist), MPI_ERR_ARG);
    ERR(MPI_Neighbor_alltoallw(s, cnt, adsp, ty, r, ncnt, adsp, ty, dist), MPI_ERR_COUNT);
    ERR(MPI_Neighbor_alltoallw(s, cnt, adsp, ty, r, cnt, adsp, nty, dist), MPI_ERR_TYPE);
    ERR(MPI_Neighbor_alltoallw(MPI_IN_PLACE, cnt, adsp, ty, r, cnt, adsp, ty, dist),
        MPI_ERR_BUFFER);
    ERR(MPI_Ineighbor_alltoallw(s, cnt, adsp, ty, r, cnt, adsp, ty, plain, &q),
        MPI_ERR_TOPOLOGY);
    ERR(MPI_Ineighbor_alltoallw(s, cnt, adsp, nty, r, cnt, adsp, ty, dist, &q), MPI_ERR_TYPE);
    ERR(MPI_Ineighbor_alltoallw(s, cnt, adsp, ty, r, cnt, adsp, ty, dist, NULL), MPI_ERR_ARG);
}

int main(int argc, char **argv)
{
    MPI_Init(&argc, &argv);
    MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_RETURN);
    int size = world_size(), me = world_rank();
    MPI_Comm plain, cart, graph, dist, single;
    OK(MPI_Comm_dup(MPI_COMM_WORLD, &plain));
    OK(MPI_Cart_create(MPI_COMM_WORLD, 1, (int[]){size}, (int[]){0}, 0, &cart));
    /* one node with a self-loop, on each rank: a split of world by rank */
    OK(MPI_Comm_split(MPI_COMM_WORLD, me, 0, &single));
    OK(MPI_Graph_create(single, 1, (int[]){1}, (int[]){0}, 0, &graph));
    int to = (me + 1) % size, from = (me + size - 1) % size;
    int wt = 5; /* weighted: the weight arrays of MPI_Dist_graph_neighbors are written */
    OK(MPI_Dist_graph_create_adjacent(MPI_COMM_WORLD, 1, &from, &wt, 1, &to, &wt,
                                      MPI_INFO_NULL, 0, &dist));
    dims_and_cart(plain, cart, graph, size);
    graph_calls(plain, cart, graph, dist, size);
    dist_calls(cart, graph, dist, size);
    neighbor_calls(plain, dist);
    /* still usable afterwards */
    int x = me, y = -1;
    OK(MPI_Neighbor_allgather(&x, 1, MPI_INT, &y, 1, MPI_INT, dist));
    CHECK_INT(y, from);
    OK(MPI_Comm_free(&dist));
    OK(MPI_Comm_free(&graph));
    OK(MPI_Comm_free(&single));
    OK(MPI_Comm_free(&cart));
    OK(MPI_Comm_free(&plain));
    MPI_Finalize();
    return 0;
}
