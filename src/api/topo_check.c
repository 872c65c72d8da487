/* api/topo_check.c — argument checks shared by the process-topology calls (api/topo.h). */
#include "api/api.h"
#include "api/topo.h"
#include "comm/comm.h"
#include "comm/vtopo.h"

static const char *kind_name(int kind)
{
    return kind == MPI_CART ? "Cartesian" : kind == MPI_GRAPH ? "graph" : "distributed graph";
}

int loom__topo_comm(const char *fn, MPI_Comm comm, struct loom_comm **out)
{
    struct loom_comm *c = loom__comm_resolve(comm);
    if (c == NULL)
        return loom__api_error(comm, fn, MPI_ERR_COMM, "%s", loom__comm_invalid_reason(comm));
    *out = c;
    return MPI_SUCCESS;
}

int loom__topo_get(const char *fn, MPI_Comm comm, int kind, struct loom_comm **out)
{
    int rc = loom__topo_comm(fn, comm, out);
    if (rc != MPI_SUCCESS)
        return rc;
    const struct loom_vtopo *t = (*out)->topo;
    if (t == NULL)
        return loom__api_error(comm, fn, MPI_ERR_TOPOLOGY, "the communicator has no %s "
                               "topology", kind ? kind_name(kind) : "process");
    if (kind != 0 && t->kind != kind)
        return loom__api_error(comm, fn, MPI_ERR_TOPOLOGY, "the communicator has a %s "
                               "topology, not a %s one", kind_name(t->kind), kind_name(kind));
    return MPI_SUCCESS;
}

int loom__topo_nonnull(const char *fn, MPI_Comm comm, const char *what, const void *p)
{
    if (p == NULL)
        return loom__api_error(comm, fn, MPI_ERR_ARG, "%s is NULL", what);
    return MPI_SUCCESS;
}

int loom__topo_check_grid(const char *fn, MPI_Comm comm, int ndims, const int dims[],
                          const int periods[], int size)
{
    if (ndims < 0)
        return loom__api_error(comm, fn, MPI_ERR_DIMS, "ndims %d is negative", ndims);
    if (ndims > 0 && dims == NULL)
        return loom__api_error(comm, fn, MPI_ERR_ARG, "dims is NULL");
    if (ndims > 0 && periods == NULL)
        return loom__api_error(comm, fn, MPI_ERR_ARG, "periods is NULL");
    for (int i = 0; i < ndims; i++)
        if (dims[i] <= 0)
            return loom__api_error(comm, fn, MPI_ERR_DIMS, "dims[%d] is %d, not positive", i,
                                   dims[i]);
    long long n = loom__vtopo_grid_size(ndims, dims);
    if (n < 0 || n > size)
        return loom__api_error(comm, fn, MPI_ERR_ARG, "the grid has more points than the "
                               "communicator's %d ranks", size);
    return MPI_SUCCESS;
}

int loom__topo_check_graph(const char *fn, MPI_Comm comm, int nnodes, const int index[],
                           const int edges[], int size)
{
    if (nnodes < 0)
        return loom__api_error(comm, fn, MPI_ERR_ARG, "nnodes %d is negative", nnodes);
    if (nnodes > size)
        return loom__api_error(comm, fn, MPI_ERR_ARG, "nnodes %d is more than the "
                               "communicator's %d ranks", nnodes, size);
    if (nnodes == 0)
        return MPI_SUCCESS;
    if (index == NULL)
        return loom__api_error(comm, fn, MPI_ERR_ARG, "index is NULL");
    for (int i = 0; i < nnodes; i++)
        if (index[i] < (i > 0 ? index[i - 1] : 0))
            return loom__api_error(comm, fn, MPI_ERR_ARG, "index[%d] is %d, less than the "
                                   "entry before (index is cumulative degrees)", i, index[i]);
    int nedges = index[nnodes - 1];
    if (nedges > 0 && edges == NULL)
        return loom__api_error(comm, fn, MPI_ERR_ARG, "edges is NULL");
    for (int e = 0; e < nedges; e++)
        if (edges[e] < 0 || edges[e] >= nnodes)
            return loom__api_error(comm, fn, MPI_ERR_RANK, "edges[%d] is %d, not a node "
                                   "(nnodes %d)", e, edges[e], nnodes);
    return MPI_SUCCESS;
}
