/* comm/vtopo.h — process topologies (MPI 4.1 chapter 8): the virtual Cartesian, graph and
 * distributed-graph structure attached to a communicator. Not the machine: that is topo/.
 *
 * A struct loom_vtopo belongs to one rank. It is made for the rank's handle on a new
 * communicator (MPI_Cart_create, MPI_Graph_create, MPI_Dist_graph_create(_adjacent),
 * MPI_Cart_sub) and shared by reference with every MPI_Comm_dup of that handle, which keeps
 * the topology (MPI 4.1 §7.4.2). Immutable once attached; `refs` is the only field written
 * afterwards (atomically: handles of one rank may be freed by several of its threads at once),
 * and the last release frees it. */
#ifndef LOOM_COMM_VTOPO_H
#define LOOM_COMM_VTOPO_H
#include <stdatomic.h>
#include "mpi.h"

struct loom_comm;

struct loom_vtopo {
    _Atomic int refs;  /* handles pointing to it; freed at 0 */
    int kind;          /* MPI_CART, MPI_GRAPH or MPI_DIST_GRAPH */
    /* MPI_CART: the grid, row-major (the last dimension varies fastest), and this rank's
     * coordinates in it */
    int ndims;
    int *dims, *periods, *coords;  /* [ndims] each; NULL when ndims == 0 */
    /* MPI_GRAPH: the whole graph as given (every member holds the same copy) */
    int nnodes;
    int *index, *edges;            /* [nnodes], [index[nnodes-1]] */
    /* MPI_DIST_GRAPH: this rank's edges, in the order the neighbor collectives use */
    int indeg, outdeg, weighted;
    int *in, *inw, *out, *outw;    /* [indeg], [indeg], [outdeg], [outdeg]; weights 1 when
                                      unweighted */
};

/* ---- objects (comm/vtopo.c) ---- */
/* New topologies with refs 1 (arrays copied). 0 or LOOM_ERR_NOMEM. */
int loom__vtopo_cart_new(int ndims, const int *dims, const int *periods, int rank,
                         struct loom_vtopo **out);
int loom__vtopo_graph_new(int nnodes, const int *index, const int *edges,
                          struct loom_vtopo **out);
/* in/out (and inw/outw when non-NULL) are adopted, not copied: malloc'd by the caller. */
int loom__vtopo_dist_new(int indeg, int *in, int *inw, int outdeg, int *out, int *outw,
                         int weighted, struct loom_vtopo **out_topo);
void loom__vtopo_retain(struct loom_vtopo *t);
void loom__vtopo_release(struct loom_vtopo *t);

/* ---- Cartesian arithmetic (comm/vtopo.c) ---- */
/* Number of grid points (1 for ndims == 0); -1 if it overflows an int. */
long long loom__vtopo_grid_size(int ndims, const int *dims);
/* The coordinates of rank in t's grid. */
void loom__vtopo_cart_coords(const struct loom_vtopo *t, int rank, int *coords);
/* The rank at coords (periodic dimensions wrap; caller checked the others are in range). */
int loom__vtopo_cart_rank(const struct loom_vtopo *t, const int *coords);
/* MPI_Cart_shift for rank: the source and destination of a shift by disp along dim. */
void loom__vtopo_cart_shift(const struct loom_vtopo *t, int rank, int dim, int disp,
                            int *source, int *dest);

/* ---- neighbours, as the neighbor collectives see them (comm/vtopo.c) ----
 * Cartesian: 2*ndims each, per dimension the -1 then the +1 neighbour (MPI_PROC_NULL off
 * a non-periodic edge); graph: the node's edges, for both; distributed graph: its lists. */
void loom__vtopo_degrees(const struct loom_vtopo *t, int rank, int *indeg, int *outdeg);
/* Fill in[indeg] and out[outdeg] (as loom__vtopo_degrees counts them). */
void loom__vtopo_neighbors(const struct loom_vtopo *t, int rank, int *in, int *out);

/* ---- MPI_Dims_create (comm/vtopo_dims.c) ----
 * Fill the zero entries of dims[ndims] so that the product is nnodes, as close to each other
 * as possible, non-increasing. Caller checked: nnodes > 0, dims[i] >= 0, and the product of
 * the non-zero ones divides nnodes. 0 or LOOM_ERR_NOMEM. */
int loom__vtopo_dims_create(int nnodes, int ndims, int *dims);

/* ---- reordering (comm/vtopo_map.c; docs/topology.md) ----
 * rank_of[p]: the new rank of parent rank p, for p in [0, n) (n the grid's size or the
 * graph's number of nodes; caller checked n <= parent's size): a permutation of [0, n),
 * the same on every member, the identity when the placement says nothing. Local: no
 * communication. 0 or LOOM_ERR_NOMEM. */
int loom__vtopo_map_grid(struct loom_comm *parent, int ndims, const int *dims, int *rank_of);
/* The graph as a symmetric adjacency (xadj[n+1], adj[], w[]: each edge listed at both ends,
 * duplicates adding up). */
int loom__vtopo_map_graph(struct loom_comm *parent, int n, const int *xadj, const int *adj,
                          const int *w, int *rank_of);
/* That adjacency from m directed edges src[e] -> dst[e] of weight w[e] (1 when w is NULL);
 * the three arrays are malloc'd for the caller. 0 or LOOM_ERR_NOMEM. */
int loom__vtopo_sym_graph(int n, int m, const int *src, const int *dst, const int *w,
                          int **xadj, int **adj, int **wadj);

/* ---- communicators with a topology (comm/vtopo_create.c) ----
 * Collective over parent. Each sets *out to the calling rank's new handle with topology
 * attached, or NULL when it is not a member. reorder = 0: a member keeps its rank in parent;
 * 1: ranks as comm/vtopo_map.c maps them. 0 or a negative loom code. */
int loom__vtopo_cart_create(struct loom_comm *parent, int ndims, const int *dims,
                            const int *periods, int reorder, struct loom_comm **out);
int loom__vtopo_graph_create(struct loom_comm *parent, int nnodes, const int *index,
                             const int *edges, int reorder, struct loom_comm **out);
/* sourceweights / destweights: NULL when unweighted or without edges (weights of 1);
 * weighted: what MPI_Dist_graph_neighbors_count will say. With reorder, the caller's lists
 * may end up at another member: the one that takes its node. */
int loom__vtopo_dist_create_adjacent(struct loom_comm *parent, int indeg, const int *sources,
                                     const int *sourceweights, int outdeg,
                                     const int *destinations, const int *destweights,
                                     int weighted, int reorder, struct loom_comm **out);
/* The edges of every member, each a (source, destination) pair listed by some member:
 * n sources, degrees[n], destinations[sum of degrees], weights (NULL when unweighted). */
int loom__vtopo_dist_create(struct loom_comm *parent, int n, const int *sources,
                            const int *degrees, const int *destinations, const int *weights,
                            int reorder, struct loom_comm **out);
/* One member's contribution to MPI_Dist_graph_create. */
struct loom_edges {
    int n;
    const int *sources, *degrees, *destinations, *weights; /* weights NULL: unweighted */
};
/* Every member's edges, over a parent of several node processes (comm/vtopo_dist_net.c):
 * all[size] on return, pointing into *buf; the caller frees both. Collective over parent
 * (an allgather of sizes, then of the edge lists); the job ends if memory runs out, since
 * the other members would wait. */
void loom__vtopo_edges_gather(struct loom_comm *parent, const struct loom_edges *mine,
                              struct loom_edges **all, int **buf);
/* The rank the calling member of parent would get in MPI_Cart_create / MPI_Graph_create with
 * reorder (MPI_Cart_map, MPI_Graph_map); only for parent ranks below the grid's size / the
 * number of nodes. Local. 0 or LOOM_ERR_NOMEM. */
int loom__vtopo_grid_rank(struct loom_comm *parent, int ndims, const int *dims, int *q);
int loom__vtopo_graph_rank(struct loom_comm *parent, int nnodes, const int *index,
                           const int *edges, int *q);
/* MPI_Cart_sub of a Cartesian handle c: remain[ndims] says which dimensions stay. */
int loom__vtopo_cart_sub(struct loom_comm *c, const int *remain, struct loom_comm **out);
#endif
