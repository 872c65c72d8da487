/* api/topo_cart.c — Cartesian topologies: Dims_create, Cart_create, Cart_get, Cartdim_get,
 * Cart_rank, Cart_coords, Cart_shift, Cart_sub, Cart_map. The grid and its arithmetic are in
 * comm/vtopo*.c; this file checks arguments and turns results into MPI errors. */
#include "api/api.h"
#include "api/topo.h"
#include "comm/comm.h"
#include "comm/vtopo.h"

int loom__mpi_dims_create(int nnodes, int ndims, int dims[])
{
    LOOM_API_ENTER("MPI_Dims_create");
    const char *fn = "MPI_Dims_create";
    MPI_Comm w = MPI_COMM_WORLD; /* no communicator: errors go to MPI_COMM_WORLD's handler */
    if (nnodes <= 0)
        return loom__api_error(w, fn, MPI_ERR_ARG, "nnodes %d is not positive", nnodes);
    if (ndims < 0)
        return loom__api_error(w, fn, MPI_ERR_DIMS, "ndims %d is negative", ndims);
    if (ndims > 0 && dims == NULL)
        return loom__api_error(w, fn, MPI_ERR_ARG, "dims is NULL");
    long long fixed = 1;
    int nfree = 0;
    for (int i = 0; i < ndims; i++) {
        if (dims[i] < 0)
            return loom__api_error(w, fn, MPI_ERR_DIMS, "dims[%d] is %d, negative", i,
                                   dims[i]);
        if (dims[i] > 0 && fixed <= nnodes)
            fixed *= dims[i];
        nfree += dims[i] == 0;
    }
    if (fixed > nnodes || nnodes % fixed != 0)
        return loom__api_error(w, fn, MPI_ERR_DIMS, "nnodes %d is not a multiple of the "
                               "product of the non-zero entries of dims", nnodes);
    if (nfree == 0 && fixed != nnodes)
        return loom__api_error(w, fn, MPI_ERR_DIMS, "dims has no free entry and its product "
                               "is not nnodes %d", nnodes);
    int rc = loom__vtopo_dims_create(nnodes, ndims, dims);
    return rc == 0 ? MPI_SUCCESS : loom__api_error_code(w, fn, rc);
}

int loom__mpi_cart_create(MPI_Comm comm_old, int ndims, const int dims[], const int periods[],
                          int reorder, MPI_Comm *comm_cart)
{
    LOOM_API_ENTER("MPI_Cart_create");
    const char *fn = "MPI_Cart_create";
    struct loom_comm *c;
    int rc = loom__topo_comm(fn, comm_old, &c);
    if (rc == MPI_SUCCESS)
        rc = loom__topo_check_grid(fn, comm_old, ndims, dims, periods, c->sh->size);
    if (rc == MPI_SUCCESS)
        rc = loom__topo_nonnull(fn, comm_old, "comm_cart", comm_cart);
    if (rc != MPI_SUCCESS)
        return rc;
    struct loom_comm *nc;
    rc = loom__vtopo_cart_create(c, ndims, dims, periods, reorder != 0, &nc);
    if (rc != 0) {
        *comm_cart = MPI_COMM_NULL;
        return loom__api_error_code(comm_old, fn, rc);
    }
    *comm_cart = nc ? nc : MPI_COMM_NULL;
    return MPI_SUCCESS;
}

int loom__mpi_cartdim_get(MPI_Comm comm, int *ndims)
{
    LOOM_API_ENTER("MPI_Cartdim_get");
    struct loom_comm *c;
    int rc = loom__topo_get("MPI_Cartdim_get", comm, MPI_CART, &c);
    if (rc == MPI_SUCCESS)
        rc = loom__topo_nonnull("MPI_Cartdim_get", comm, "ndims", ndims);
    if (rc == MPI_SUCCESS)
        *ndims = c->topo->ndims;
    return rc;
}

/* maxdims and an output array of it (when the grid has dimensions). */
static int check_max(const char *fn, MPI_Comm comm, int maxdims, int ndims)
{
    if (maxdims < ndims)
        return loom__api_error(comm, fn, MPI_ERR_ARG, "maxdims %d is less than the grid's %d "
                               "dimensions", maxdims, ndims);
    return MPI_SUCCESS;
}

int loom__mpi_cart_get(MPI_Comm comm, int maxdims, int dims[], int periods[], int coords[])
{
    LOOM_API_ENTER("MPI_Cart_get");
    const char *fn = "MPI_Cart_get";
    struct loom_comm *c;
    int rc = loom__topo_get(fn, comm, MPI_CART, &c);
    if (rc != MPI_SUCCESS)
        return rc;
    const struct loom_vtopo *t = c->topo;
    if ((rc = check_max(fn, comm, maxdims, t->ndims)) != MPI_SUCCESS)
        return rc;
    if (t->ndims > 0 && ((rc = loom__topo_nonnull(fn, comm, "dims", dims)) != MPI_SUCCESS ||
                         (rc = loom__topo_nonnull(fn, comm, "periods", periods)) !=
                             MPI_SUCCESS ||
                         (rc = loom__topo_nonnull(fn, comm, "coords", coords)) != MPI_SUCCESS))
        return rc;
    for (int i = 0; i < t->ndims; i++) {
        dims[i] = t->dims[i];
        periods[i] = t->periods[i];
        coords[i] = t->coords[i];
    }
    return MPI_SUCCESS;
}

int loom__mpi_cart_rank(MPI_Comm comm, const int coords[], int *rank)
{
    LOOM_API_ENTER("MPI_Cart_rank");
    const char *fn = "MPI_Cart_rank";
    struct loom_comm *c;
    int rc = loom__topo_get(fn, comm, MPI_CART, &c);
    if (rc != MPI_SUCCESS)
        return rc;
    const struct loom_vtopo *t = c->topo;
    if (t->ndims > 0 && (rc = loom__topo_nonnull(fn, comm, "coords", coords)) != MPI_SUCCESS)
        return rc;
    if ((rc = loom__topo_nonnull(fn, comm, "rank", rank)) != MPI_SUCCESS)
        return rc;
    for (int i = 0; i < t->ndims; i++)
        if (!t->periods[i] && (coords[i] < 0 || coords[i] >= t->dims[i]))
            return loom__api_error(comm, fn, MPI_ERR_ARG, "coords[%d] is %d, outside the "
                                   "non-periodic dimension [0, %d)", i, coords[i],
                                   t->dims[i]);
    *rank = loom__vtopo_cart_rank(t, coords);
    return MPI_SUCCESS;
}

int loom__mpi_cart_coords(MPI_Comm comm, int rank, int maxdims, int coords[])
{
    LOOM_API_ENTER("MPI_Cart_coords");
    const char *fn = "MPI_Cart_coords";
    struct loom_comm *c;
    int rc = loom__topo_get(fn, comm, MPI_CART, &c);
    if (rc != MPI_SUCCESS)
        return rc;
    const struct loom_vtopo *t = c->topo;
    if (rank < 0 || rank >= c->sh->size)
        return loom__api_error(comm, fn, MPI_ERR_RANK, "rank %d out of range (size %d)", rank,
                               c->sh->size);
    if ((rc = check_max(fn, comm, maxdims, t->ndims)) != MPI_SUCCESS)
        return rc;
    if (t->ndims > 0 && (rc = loom__topo_nonnull(fn, comm, "coords", coords)) != MPI_SUCCESS)
        return rc;
    loom__vtopo_cart_coords(t, rank, coords);
    return MPI_SUCCESS;
}

int loom__mpi_cart_shift(MPI_Comm comm, int direction, int disp, int *rank_source, int *rank_dest)
{
    LOOM_API_ENTER("MPI_Cart_shift");
    const char *fn = "MPI_Cart_shift";
    struct loom_comm *c;
    int rc = loom__topo_get(fn, comm, MPI_CART, &c);
    if (rc != MPI_SUCCESS)
        return rc;
    const struct loom_vtopo *t = c->topo;
    if (direction < 0 || direction >= t->ndims)
        return loom__api_error(comm, fn, MPI_ERR_DIMS, "direction %d is not a dimension of "
                               "the grid (ndims %d)", direction, t->ndims);
    if ((rc = loom__topo_nonnull(fn, comm, "rank_source", rank_source)) != MPI_SUCCESS ||
        (rc = loom__topo_nonnull(fn, comm, "rank_dest", rank_dest)) != MPI_SUCCESS)
        return rc;
    loom__vtopo_cart_shift(t, c->rank, direction, disp, rank_source, rank_dest);
    return MPI_SUCCESS;
}

int loom__mpi_cart_sub(MPI_Comm comm, const int remain_dims[], MPI_Comm *newcomm)
{
    LOOM_API_ENTER("MPI_Cart_sub");
    const char *fn = "MPI_Cart_sub";
    struct loom_comm *c;
    int rc = loom__topo_get(fn, comm, MPI_CART, &c);
    if (rc != MPI_SUCCESS)
        return rc;
    if (c->topo->ndims > 0 &&
        (rc = loom__topo_nonnull(fn, comm, "remain_dims", remain_dims)) != MPI_SUCCESS)
        return rc;
    if ((rc = loom__topo_nonnull(fn, comm, "newcomm", newcomm)) != MPI_SUCCESS)
        return rc;
    struct loom_comm *nc;
    rc = loom__vtopo_cart_sub(c, remain_dims, &nc);
    if (rc != 0) {
        *newcomm = MPI_COMM_NULL;
        return loom__api_error_code(comm, fn, rc);
    }
    *newcomm = nc;
    return MPI_SUCCESS;
}

int loom__mpi_cart_map(MPI_Comm comm, int ndims, const int dims[], const int periods[],
                       int *newrank)
{
    LOOM_API_ENTER("MPI_Cart_map");
    const char *fn = "MPI_Cart_map";
    struct loom_comm *c;
    int rc = loom__topo_comm(fn, comm, &c);
    if (rc == MPI_SUCCESS)
        rc = loom__topo_check_grid(fn, comm, ndims, dims, periods, c->sh->size);
    if (rc == MPI_SUCCESS)
        rc = loom__topo_nonnull(fn, comm, "newrank", newrank);
    if (rc != MPI_SUCCESS)
        return rc;
    /* The rank MPI_Cart_create with reorder would give (docs/topology.md). */
    *newrank = MPI_UNDEFINED;
    if (c->rank < loom__vtopo_grid_size(ndims, dims) &&
        (rc = loom__vtopo_grid_rank(c, ndims, dims, newrank)) != 0)
        return loom__api_error_code(comm, fn, rc);
    return MPI_SUCCESS;
}
