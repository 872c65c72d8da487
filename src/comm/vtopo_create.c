/* comm/vtopo_create.c — communicators with a process topology: Cartesian, graph and
 * distributed graph, and MPI_Cart_sub.
 *
 * Each is a split of the parent (comm/create.c: the members' order is their parent rank, so
 * nobody is reordered; docs/topology.md says why) followed by attaching the calling rank's
 * topology object to its new handle. The topology is made before the split so that every
 * rank goes through the split's rendezvous whatever happens; a rank that could not make it
 * frees its new handle and returns LOOM_ERR_NOMEM. MPI_Dist_graph_create first gathers
 * every member's edge list through an exchange session on the parent (comm/rendezvous.c). */
#include <stdlib.h>
#include "comm/comm.h"
#include "comm/vtopo.h"
#include "core/error.h"

/* Split parent keeping ranks [0, n) in order, and attach t (whose reference the new handle
 * takes; t may be NULL after ENOMEM, then the rank drops out with the error). */
static int split_attach(struct loom_comm *parent, int n, struct loom_vtopo *t, int trc,
                        struct loom_comm **out)
{
    int member = parent->rank < n;
    struct loom_comm *c = NULL;
    int rc = loom__comm_split(parent, member ? 0 : MPI_UNDEFINED, parent->rank, &c);
    *out = NULL;
    if (rc == 0 && trc != 0)
        rc = trc;
    if (rc != 0 || c == NULL) {
        if (c != NULL)
            loom__comm_handle_free(c);
        loom__vtopo_release(t);
        return rc;
    }
    c->topo = t;
    *out = c;
    return 0;
}

int loom__vtopo_cart_create(struct loom_comm *parent, int ndims, const int *dims,
                            const int *periods, struct loom_comm **out)
{
    int n = (int)loom__vtopo_grid_size(ndims, dims);
    struct loom_vtopo *t = NULL;
    int trc = parent->rank < n ? loom__vtopo_cart_new(ndims, dims, periods, parent->rank, &t)
                               : 0;
    return split_attach(parent, n, t, trc, out);
}

int loom__vtopo_graph_create(struct loom_comm *parent, int nnodes, const int *index,
                             const int *edges, struct loom_comm **out)
{
    struct loom_vtopo *t = NULL;
    int trc = parent->rank < nnodes ? loom__vtopo_graph_new(nnodes, index, edges, &t) : 0;
    return split_attach(parent, nnodes, t, trc, out);
}

/* malloc'd copy of a[n] (at least one element, so NULL means ENOMEM). */
static int *copy_or_ones(const int *a, int n)
{
    int *b = malloc((size_t)(n > 0 ? n : 1) * sizeof *b); /* adopted by the topology */
    for (int i = 0; b != NULL && i < n; i++)
        b[i] = a ? a[i] : 1;
    return b;
}

int loom__vtopo_dist_create_adjacent(struct loom_comm *parent, int indeg, const int *sources,
                                     const int *sourceweights, int outdeg,
                                     const int *destinations, const int *destweights,
                                     int weighted, struct loom_comm **out)
{
    int *in = copy_or_ones(sources, indeg), *inw = copy_or_ones(sourceweights, indeg);
    int *o = copy_or_ones(destinations, outdeg), *ow = copy_or_ones(destweights, outdeg);
    struct loom_vtopo *t = NULL;
    int trc = LOOM_ERR_NOMEM;
    if (in && inw && o && ow)
        trc = loom__vtopo_dist_new(indeg, in, inw, outdeg, o, ow, weighted, &t);
    else
        free(in), free(inw), free(o), free(ow);
    return split_attach(parent, parent->sh->size, t, trc, out);
}

/* ---- MPI_Dist_graph_create: everyone's edges, then each rank keeps its own ---- */

struct edges_pub {
    int n;
    const int *sources, *degrees, *destinations, *weights;
};

/* Walk every member's edges in (member, edge) order — the same order on every rank, so the
 * k-th edge from a to b in a's out list is the k-th edge from a in b's in list — adding to
 * in/out those that touch `me`. With NULL arrays, only count. */
static void collect(struct loom_comm *parent, int me, int *nin, int *in, int *inw, int *nout,
                    int *out, int *outw)
{
    *nin = *nout = 0;
    for (int r = 0; r < parent->sh->size; r++) {
        const struct edges_pub *p = loom__comm_xslot(parent, r);
        int e = 0;
        for (int i = 0; i < p->n; i++) {
            for (int k = 0; k < p->degrees[i]; k++, e++) {
                int s = p->sources[i], d = p->destinations[e];
                int w = p->weights ? p->weights[e] : 1;
                if (s == me) {
                    if (out)
                        out[*nout] = d, outw[*nout] = w;
                    ++*nout;
                }
                if (d == me) {
                    if (in)
                        in[*nin] = s, inw[*nin] = w;
                    ++*nin;
                }
            }
        }
    }
}

int loom__vtopo_dist_create(struct loom_comm *parent, int n, const int *sources,
                            const int *degrees, const int *destinations, const int *weights,
                            struct loom_comm **out)
{
    struct edges_pub mine = {n, sources, degrees, destinations, weights};
    int nin, nout;
    loom__comm_xbegin(parent, &mine);
    collect(parent, parent->rank, &nin, NULL, NULL, &nout, NULL, NULL);
    int *in = copy_or_ones(NULL, nin), *inw = copy_or_ones(NULL, nin);
    int *o = copy_or_ones(NULL, nout), *ow = copy_or_ones(NULL, nout);
    struct loom_vtopo *t = NULL;
    int trc = LOOM_ERR_NOMEM;
    if (in && inw && o && ow) {
        collect(parent, parent->rank, &nin, in, inw, &nout, o, ow);
        trc = loom__vtopo_dist_new(nin, in, inw, nout, o, ow, weights != NULL, &t);
    } else {
        free(in), free(inw), free(o), free(ow);
    }
    loom__comm_xend(parent); /* nobody reads our arrays after this */
    return split_attach(parent, parent->sh->size, t, trc, out);
}

/* ---- MPI_Cart_sub ---- */

int loom__vtopo_cart_sub(struct loom_comm *c, const int *remain, struct loom_comm **out)
{
    const struct loom_vtopo *t = c->topo;
    int nd = 0, color = 0;
    int *dims = malloc((size_t)(t->ndims + 1) * sizeof *dims);      /* freed below */
    int *periods = malloc((size_t)(t->ndims + 1) * sizeof *periods); /* freed below */
    int rc = LOOM_ERR_NOMEM;
    for (int i = 0; dims && periods && i < t->ndims; i++) {
        if (remain[i]) {
            dims[nd] = t->dims[i];
            periods[nd++] = t->periods[i];
        } else {
            color = color * t->dims[i] + t->coords[i]; /* the dropped coordinates */
        }
    }
    /* The members of one colour keep the order of their ranks in c, which is row-major in
     * the kept coordinates: so the new rank is the rank in the sub-grid. */
    struct loom_comm *nc = NULL;
    int src = loom__comm_split(c, color, c->rank, &nc);
    *out = NULL;
    if (src != 0) {
        rc = src;
        goto out_with_arrays;
    }
    struct loom_vtopo *nt;
    if (dims && periods && (rc = loom__vtopo_cart_new(nd, dims, periods, nc->rank, &nt)) == 0) {
        nc->topo = nt;
        *out = nc;
    } else {
        loom__comm_handle_free(nc);
    }
out_with_arrays:
    free(dims), free(periods);
    return rc;
}
