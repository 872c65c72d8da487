/* comm/vtopo_create.c — communicators with a process topology: Cartesian, graph and
 * distributed graph, and MPI_Cart_sub.
 *
 * Each is a split of the parent (comm/create.c) keyed by the new rank — the parent rank, or
 * with reorder = true the one comm/vtopo_map.c computes (the same on every member) — then
 * the calling rank's topology object is attached to its new handle. The topology is made
 * before the split so that every rank goes through the split's rendezvous whatever happens;
 * a rank that could not make it frees its new handle and returns LOOM_ERR_NOMEM. The
 * distributed graphs read every member's edges through an exchange session on the parent
 * (comm/rendezvous.c) when they need them: always for MPI_Dist_graph_create, and for the
 * adjacent form when reordering (the map needs the whole graph). Over several node processes
 * MPI_Dist_graph_create gathers them (comm/vtopo_dist_net.c) and the adjacent form reads
 * nothing (the map is the identity there). */
#include <stdlib.h>
#include "comm/comm.h"
#include "comm/vtopo.h"
#include "core/error.h"

/* Split parent keeping ranks [0, n), ranked by key, and attach t (whose reference the new
 * handle takes; t may be NULL after ENOMEM, then the rank drops out with the error trc). */
static int split_attach(struct loom_comm *parent, int n, int key, struct loom_vtopo *t,
                        int trc, struct loom_comm **out)
{
    int member = parent->rank < n;
    struct loom_comm *c = NULL;
    int rc = loom__comm_split(parent, member ? 0 : MPI_UNDEFINED, key, &c);
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

/* The calling member's new rank among parent ranks [0, n) under map_grid or map_graph. */
static int my_grid_rank(struct loom_comm *parent, int ndims, const int *dims, int n, int *q)
{
    int *rank_of = malloc((size_t)n * sizeof *rank_of); /* freed below */
    if (rank_of == NULL)
        return LOOM_ERR_NOMEM;
    int rc = loom__vtopo_map_grid(parent, ndims, dims, rank_of);
    if (rc == 0)
        *q = rank_of[parent->rank];
    free(rank_of);
    return rc;
}

/* The same for a graph of n nodes given as m directed edges. */
static int my_graph_rank(struct loom_comm *parent, int n, int m, const int *src,
                         const int *dst, const int *w, int *q)
{
    int *xadj, *adj, *wadj;
    int *rank_of = malloc((size_t)(n > 0 ? n : 1) * sizeof *rank_of); /* freed below */
    int rc = rank_of ? loom__vtopo_sym_graph(n, m, src, dst, w, &xadj, &adj, &wadj)
                     : LOOM_ERR_NOMEM;
    if (rc == 0) {
        rc = loom__vtopo_map_graph(parent, n, xadj, adj, wadj, rank_of);
        if (rc == 0)
            *q = rank_of[parent->rank];
        free(xadj), free(adj), free(wadj);
    }
    free(rank_of);
    return rc;
}

int loom__vtopo_graph_rank(struct loom_comm *parent, int nnodes, const int *index,
                           const int *edges, int *q)
{
    int m = nnodes > 0 ? index[nnodes - 1] : 0;
    int *src = malloc((size_t)(m > 0 ? m : 1) * sizeof *src); /* freed below */
    if (src == NULL)
        return LOOM_ERR_NOMEM;
    for (int v = 0, e = 0; v < nnodes; v++)
        for (; e < index[v]; e++)
            src[e] = v;
    int rc = my_graph_rank(parent, nnodes, m, src, edges, NULL, q);
    free(src);
    return rc;
}

int loom__vtopo_grid_rank(struct loom_comm *parent, int ndims, const int *dims, int *q)
{
    return my_grid_rank(parent, ndims, dims, (int)loom__vtopo_grid_size(ndims, dims), q);
}

int loom__vtopo_cart_create(struct loom_comm *parent, int ndims, const int *dims,
                            const int *periods, int reorder, struct loom_comm **out)
{
    int n = (int)loom__vtopo_grid_size(ndims, dims), q = parent->rank, trc = 0;
    struct loom_vtopo *t = NULL;
    if (parent->rank < n) {
        if (reorder)
            trc = my_grid_rank(parent, ndims, dims, n, &q);
        if (trc == 0)
            trc = loom__vtopo_cart_new(ndims, dims, periods, q, &t);
    }
    return split_attach(parent, n, q, t, trc, out);
}

int loom__vtopo_graph_create(struct loom_comm *parent, int nnodes, const int *index,
                             const int *edges, int reorder, struct loom_comm **out)
{
    struct loom_vtopo *t = NULL;
    int q = parent->rank, trc = 0;
    if (parent->rank < nnodes) {
        if (reorder)
            trc = loom__vtopo_graph_rank(parent, nnodes, index, edges, &q);
        if (trc == 0)
            trc = loom__vtopo_graph_new(nnodes, index, edges, &t);
    }
    return split_attach(parent, nnodes, q, t, trc, out);
}

/* malloc'd copy of a[n] (at least one element, so NULL means ENOMEM). */
static int *copy_or_ones(const int *a, int n)
{
    int *b = malloc((size_t)(n > 0 ? n : 1) * sizeof *b); /* adopted by the topology */
    for (int i = 0; b != NULL && i < n; i++)
        b[i] = a ? a[i] : 1;
    return b;
}

/* What a member of an adjacent creation publishes when reordering. */
struct adj_pub {
    int indeg, outdeg;
    const int *in, *inw, *out, *outw; /* weights NULL: all 1 */
};

/* With reorder: the new rank q of the caller from every member's out-edges, and node q's
 * lists in *node. Inside an exchange session on parent. */
static int adjacent_reorder(struct loom_comm *parent, int *q, struct adj_pub *node)
{
    int n = parent->sh->size, m = 0;
    for (int r = 0; r < n; r++)
        m += ((const struct adj_pub *)loom__comm_xslot(parent, r))->outdeg;
    int *src = malloc((size_t)(3 * m + 1) * sizeof *src); /* src, dst, w; freed below */
    if (src == NULL)
        return LOOM_ERR_NOMEM;
    int *dst = src + m, *w = dst + m;
    for (int r = 0, e = 0; r < n; r++) {
        const struct adj_pub *p = loom__comm_xslot(parent, r);
        for (int i = 0; i < p->outdeg; i++, e++)
            src[e] = r, dst[e] = p->out[i], w[e] = p->outw ? p->outw[i] : 1;
    }
    int rc = my_graph_rank(parent, n, m, src, dst, w, q);
    free(src);
    if (rc == 0)
        *node = *(const struct adj_pub *)loom__comm_xslot(parent, *q);
    return rc;
}

int loom__vtopo_dist_create_adjacent(struct loom_comm *parent, int indeg, const int *sources,
                                     const int *sourceweights, int outdeg,
                                     const int *destinations, const int *destweights,
                                     int weighted, int reorder, struct loom_comm **out)
{
    struct adj_pub mine = {indeg, outdeg, sources, sourceweights, destinations, destweights};
    struct adj_pub node = mine;
    int q = parent->rank, trc = 0;
    /* across node processes the map is the identity (comm/vtopo_map.c): nothing to read */
    reorder = reorder && !parent->sh->spans_nodes;
    if (reorder) {
        loom__comm_xbegin(parent, &mine);
        trc = adjacent_reorder(parent, &q, &node);
    }
    int *in = copy_or_ones(node.in, node.indeg), *inw = copy_or_ones(node.inw, node.indeg);
    int *o = copy_or_ones(node.out, node.outdeg), *ow = copy_or_ones(node.outw, node.outdeg);
    if (reorder)
        loom__comm_xend(parent); /* nobody reads the published lists after this */
    struct loom_vtopo *t = NULL;
    if (trc == 0 && in && inw && o && ow)
        trc = loom__vtopo_dist_new(node.indeg, in, inw, node.outdeg, o, ow, weighted, &t);
    else {
        trc = trc ? trc : LOOM_ERR_NOMEM;
        free(in), free(inw), free(o), free(ow);
    }
    return split_attach(parent, parent->sh->size, q, t, trc, out);
}

/* ---- MPI_Dist_graph_create: everyone's edges, then each rank keeps its own ---- */

/* Walk every member's edges in (member, edge) order — the same order on every rank, so the
 * k-th edge from a to b in a's out list is the k-th edge from a in b's in list — adding to
 * in/out those that touch `me`. With NULL arrays, only count. */
static void collect(const struct loom_edges *all, int size, int me, int *nin, int *in, int *inw,
                    int *nout, int *out, int *outw)
{
    *nin = *nout = 0;
    for (int r = 0; r < size; r++) {
        const struct loom_edges *p = &all[r];
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

/* With reorder: the new rank of the caller from every member's edges. */
static int spread_reorder(struct loom_comm *parent, const struct loom_edges *all, int *q)
{
    int size = parent->sh->size;
    long long m = 0;
    for (int r = 0; r < size; r++) {
        const struct loom_edges *p = &all[r];
        for (int i = 0; i < p->n; i++)
            m += p->degrees[i];
    }
    if (m > 0x7fffffff / 3)
        return LOOM_ERR_NOMEM;
    int *src = malloc((size_t)(3 * m + 1) * sizeof *src); /* src, dst, w; freed below */
    if (src == NULL)
        return LOOM_ERR_NOMEM;
    int *dst = src + m, *w = dst + m;
    for (int r = 0, k = 0; r < size; r++) {
        const struct loom_edges *p = &all[r];
        for (int i = 0, e = 0; i < p->n; i++)
            for (int j = 0; j < p->degrees[i]; j++, e++, k++)
                src[k] = p->sources[i], dst[k] = p->destinations[e],
                w[k] = p->weights ? p->weights[e] : 1;
    }
    int rc = my_graph_rank(parent, size, (int)m, src, dst, w, q);
    free(src);
    return rc;
}

int loom__vtopo_dist_create(struct loom_comm *parent, int n, const int *sources,
                            const int *degrees, const int *destinations, const int *weights,
                            int reorder, struct loom_comm **out)
{
    struct loom_edges mine = {n, sources, degrees, destinations, weights};
    int size = parent->sh->size, nodes = parent->sh->spans_nodes;
    int nin, nout, q = parent->rank, trc = 0;
    /* everyone's edges: read in place inside one node process, gathered across several */
    struct loom_edges *all = NULL;
    int *buf = NULL;
    if (nodes) {
        loom__vtopo_edges_gather(parent, &mine, &all, &buf);
    } else {
        loom__comm_xbegin(parent, &mine);
        if ((all = malloc((size_t)size * sizeof *all)) != NULL)
            for (int r = 0; r < size; r++)
                all[r] = *(const struct loom_edges *)loom__comm_xslot(parent, r);
    }
    int *in = NULL, *inw = NULL, *o = NULL, *ow = NULL;
    if (all == NULL) {
        trc = LOOM_ERR_NOMEM;
    } else {
        if (reorder)
            trc = spread_reorder(parent, all, &q);
        collect(all, size, q, &nin, NULL, NULL, &nout, NULL, NULL);
        in = copy_or_ones(NULL, nin), inw = copy_or_ones(NULL, nin);
        o = copy_or_ones(NULL, nout), ow = copy_or_ones(NULL, nout);
    }
    struct loom_vtopo *t = NULL;
    if (trc == 0 && in && inw && o && ow) {
        collect(all, size, q, &nin, in, inw, &nout, o, ow);
        trc = loom__vtopo_dist_new(nin, in, inw, nout, o, ow, weights != NULL, &t);
    } else {
        trc = trc ? trc : LOOM_ERR_NOMEM;
        free(in), free(inw), free(o), free(ow);
    }
    if (!nodes)
        loom__comm_xend(parent); /* nobody reads our arrays after this */
    free(all);
    free(buf);
    return split_attach(parent, size, q, t, trc, out);
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
