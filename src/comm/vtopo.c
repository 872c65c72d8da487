/* comm/vtopo.c — process topology objects (comm/vtopo.h): making, sharing and freeing them,
 * Cartesian arithmetic, and the neighbour lists the neighbor collectives walk. */
#include <stdlib.h>
#include <string.h>
#include "comm/vtopo.h"
#include "core/atomic.h"
#include "core/error.h"

/* MPI_UNWEIGHTED and MPI_WEIGHTS_EMPTY: distinct addresses no program array can have, as in
 * MPICH (mpi.h). Read-only; only their addresses matter. */
static int unweighted_mark, weights_empty_mark;
LOOM_API int *const MPI_UNWEIGHTED = &unweighted_mark;
LOOM_API int *const MPI_WEIGHTS_EMPTY = &weights_empty_mark;

static int *dup_ints(const int *a, int n)
{
    int *b = malloc((size_t)(n > 0 ? n : 1) * sizeof *b); /* freed by loom__vtopo_release */
    if (b != NULL && n > 0)
        memcpy(b, a, (size_t)n * sizeof *b);
    return b;
}

static struct loom_vtopo *vtopo_alloc(int kind)
{
    struct loom_vtopo *t = calloc(1, sizeof *t); /* freed by loom__vtopo_release */
    if (t != NULL) {
        atomic_init(&t->refs, 1);
        t->kind = kind;
    }
    return t;
}

int loom__vtopo_cart_new(int ndims, const int *dims, const int *periods, int rank,
                         struct loom_vtopo **out)
{
    struct loom_vtopo *t = vtopo_alloc(MPI_CART);
    if (t == NULL)
        return LOOM_ERR_NOMEM;
    t->ndims = ndims;
    t->dims = dup_ints(dims, ndims);
    t->periods = malloc((size_t)(ndims > 0 ? ndims : 1) * sizeof *t->periods);
    t->coords = malloc((size_t)(ndims > 0 ? ndims : 1) * sizeof *t->coords);
    if (t->dims == NULL || t->periods == NULL || t->coords == NULL) {
        loom__vtopo_release(t);
        return LOOM_ERR_NOMEM;
    }
    for (int i = 0; i < ndims; i++)
        t->periods[i] = periods[i] != 0; /* a C "true" may be any non-zero value */
    loom__vtopo_cart_coords(t, rank, t->coords);
    *out = t;
    return 0;
}

int loom__vtopo_graph_new(int nnodes, const int *index, const int *edges,
                          struct loom_vtopo **out)
{
    struct loom_vtopo *t = vtopo_alloc(MPI_GRAPH);
    if (t == NULL)
        return LOOM_ERR_NOMEM;
    t->nnodes = nnodes;
    t->index = dup_ints(index, nnodes);
    t->edges = dup_ints(edges, nnodes > 0 ? index[nnodes - 1] : 0);
    if (t->index == NULL || t->edges == NULL) {
        loom__vtopo_release(t);
        return LOOM_ERR_NOMEM;
    }
    *out = t;
    return 0;
}

int loom__vtopo_dist_new(int indeg, int *in, int *inw, int outdeg, int *out, int *outw,
                         int weighted, struct loom_vtopo **out_topo)
{
    struct loom_vtopo *t = vtopo_alloc(MPI_DIST_GRAPH);
    if (t == NULL) {
        free(in), free(inw), free(out), free(outw);
        return LOOM_ERR_NOMEM;
    }
    t->indeg = indeg, t->outdeg = outdeg, t->weighted = weighted;
    t->in = in, t->inw = inw, t->out = out, t->outw = outw;
    *out_topo = t;
    return 0;
}

void loom__vtopo_retain(struct loom_vtopo *t)
{
    loom__fetch_add_relaxed(&t->refs, 1);
}

void loom__vtopo_release(struct loom_vtopo *t)
{
    /* acq_rel: the last releaser sees every other handle's use of t finished */
    if (t == NULL || loom__fetch_sub_acq_rel(&t->refs, 1) != 1)
        return;
    free(t->dims), free(t->periods), free(t->coords);
    free(t->index), free(t->edges);
    free(t->in), free(t->inw), free(t->out), free(t->outw);
    free(t);
}

/* ---- Cartesian arithmetic ---- */

long long loom__vtopo_grid_size(int ndims, const int *dims)
{
    long long n = 1;
    for (int i = 0; i < ndims; i++) {
        n *= dims[i];
        if (n > 0x7fffffff || n < 0)
            return -1;
    }
    return n;
}

void loom__vtopo_cart_coords(const struct loom_vtopo *t, int rank, int *coords)
{
    for (int i = t->ndims - 1; i >= 0; i--) {
        coords[i] = rank % t->dims[i];
        rank /= t->dims[i];
    }
}

static int wrap(int c, int n)
{
    c %= n;
    return c < 0 ? c + n : c;
}

int loom__vtopo_cart_rank(const struct loom_vtopo *t, const int *coords)
{
    int r = 0;
    for (int i = 0; i < t->ndims; i++)
        r = r * t->dims[i] + (t->periods[i] ? wrap(coords[i], t->dims[i]) : coords[i]);
    return r;
}

/* The rank `disp` steps from rank along dim, or MPI_PROC_NULL off a non-periodic edge
 * (long long: the caller negates an int that may be INT_MIN). */
static int step(const struct loom_vtopo *t, int rank, int dim, long long disp)
{
    int n = t->dims[dim];
    int stride = 1;
    for (int i = dim + 1; i < t->ndims; i++)
        stride *= t->dims[i];
    int c = rank / stride % n;
    long long to = c + disp;
    if (to < 0 || to >= n) {
        if (!t->periods[dim])
            return MPI_PROC_NULL;
        to = wrap((int)(to % n), n);
    }
    return rank + (int)(to - c) * stride;
}

void loom__vtopo_cart_shift(const struct loom_vtopo *t, int rank, int dim, int disp,
                            int *source, int *dest)
{
    *dest = step(t, rank, dim, disp);
    *source = step(t, rank, dim, -(long long)disp);
}

/* ---- neighbours ---- */

void loom__vtopo_degrees(const struct loom_vtopo *t, int rank, int *indeg, int *outdeg)
{
    switch (t->kind) {
    case MPI_CART:
        *indeg = *outdeg = 2 * t->ndims;
        break;
    case MPI_GRAPH:
        *indeg = *outdeg = t->index[rank] - (rank > 0 ? t->index[rank - 1] : 0);
        break;
    default:
        *indeg = t->indeg;
        *outdeg = t->outdeg;
    }
}

void loom__vtopo_neighbors(const struct loom_vtopo *t, int rank, int *in, int *out)
{
    switch (t->kind) {
    case MPI_CART:
        for (int d = 0; d < t->ndims; d++) {
            loom__vtopo_cart_shift(t, rank, d, 1, &in[2 * d], &in[2 * d + 1]);
            out[2 * d] = in[2 * d];
            out[2 * d + 1] = in[2 * d + 1];
        }
        break;
    case MPI_GRAPH: {
        int first = rank > 0 ? t->index[rank - 1] : 0;
        for (int i = first; i < t->index[rank]; i++)
            in[i - first] = out[i - first] = t->edges[i];
        break;
    }
    default:
        if (t->indeg > 0)
            memcpy(in, t->in, (size_t)t->indeg * sizeof *in);
        if (t->outdeg > 0)
            memcpy(out, t->out, (size_t)t->outdeg * sizeof *out);
    }
}
