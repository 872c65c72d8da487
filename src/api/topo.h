/* api/topo.h — checks shared by the process-topology and neighbor-collective entry points
 * (api/topo_*.c, api/neighbor.c; defined in api/topo_check.c). Each returns MPI_SUCCESS, or
 * the error class already reported through the communicator's error handler. */
#ifndef LOOM_API_TOPO_H
#define LOOM_API_TOPO_H
#include "mpi.h"

struct loom_comm;

/* The calling rank's handle on comm into *out (MPI_ERR_COMM), which must carry a topology of
 * `kind` (MPI_CART, MPI_GRAPH, MPI_DIST_GRAPH), or any topology when kind is 0
 * (MPI_ERR_TOPOLOGY). */
int loom__topo_get(const char *fn, MPI_Comm comm, int kind, struct loom_comm **out);
/* The calling rank's handle on comm, topology or not (MPI_ERR_COMM). */
int loom__topo_comm(const char *fn, MPI_Comm comm, struct loom_comm **out);
/* A non-NULL pointer argument named what (MPI_ERR_ARG). */
int loom__topo_nonnull(const char *fn, MPI_Comm comm, const char *what, const void *p);
/* ndims, dims[] and periods[] of a grid for a communicator of `size` ranks (Cart_create,
 * Cart_map): ndims >= 0 and dims[i] > 0 (MPI_ERR_DIMS), arrays present, grid no larger
 * than size (MPI_ERR_ARG). */
int loom__topo_check_grid(const char *fn, MPI_Comm comm, int ndims, const int dims[],
                          const int periods[], int size);
/* nnodes, index[] and edges[] of a graph for a communicator of `size` ranks (Graph_create,
 * Graph_map): 0 <= nnodes <= size, index non-decreasing from >= 0 (MPI_ERR_ARG), edges name
 * nodes (MPI_ERR_RANK). */
int loom__topo_check_graph(const char *fn, MPI_Comm comm, int nnodes, const int index[],
                           const int edges[], int size);
#endif
