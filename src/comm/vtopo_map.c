/* comm/vtopo_map.c — reordering (reorder = true, MPI_Cart_map, MPI_Graph_map): which member
 * of the parent communicator takes which grid point or graph node, so that neighbours run on
 * nearby cores (docs/topology.md).
 *
 * The members are first put in hardware order — by the core they are placed on (the rank's
 * CPU set, topo/), then by rank — giving "slots" 0..n-1; consecutive slots share the deepest
 * caches, and every object of the scheduling tree (a NUMA node, a package, an L3) holds a run
 * of consecutive slots. The closeness of two slots is the depth of the deepest tree node
 * holding both. Then:
 *   grid:  recursive cuts. A box of the grid owns a run of slots as long as the box is big;
 *          it is cut across its longest dimension where the cut falls on the highest hardware
 *          boundary between two of its slots (lowest closeness), the most even such cut among
 *          equals; each half takes its part of the run, in order.
 *   graph: greedy by edge weight. Slot k takes the unplaced node with the largest sum, over
 *          its edges to placed nodes, of weight x (1 + closeness of the two slots): nodes go
 *          next to their heaviest neighbours, sharing caches first. Ties: the larger total
 *          weight, then the lower node.
 * Only read-only data is used (the job's placement and the parent's member list), in the
 * same order on every rank, so every member computes the same map without talking to the
 * others. Without placement information (no topology, or every member on the same CPU set)
 * the map is the identity; so it is over several node processes (each knows only its own
 * ranks' placement). */
#include <stdlib.h>
#include "comm/comm.h"
#include "comm/vtopo.h"
#include "core/error.h"
#include "core/rank.h"
#include "topo/topo.h"

struct hw {
    int n;
    int *member;                        /* [n] the parent rank in slot k */
    int *leaf;                          /* [n] the tree node of slot k's CPU set */
    const struct loom_topo_node *nodes; /* the scheduling tree (topo/topo.h) */
};

struct key {
    int core, prank, leaf;
};

static int key_cmp(const void *a, const void *b)
{
    const struct key *x = a, *y = b;
    if (x->core != y->core)
        return x->core < y->core ? -1 : 1;
    return x->prank < y->prank ? -1 : x->prank > y->prank;
}

/* The core of s, or of its first PU when it spans several; -1 when unknown. */
static int core_key(const struct loom_topo *t, const struct loom_cpuset *s)
{
    int c = loom__topo_core_of(t, s);
    if (c >= 0)
        return c;
    struct loom_cpuset *one = loom__cpuset_new();
    if (one && loom__cpuset_only(one, loom__cpuset_first(s)) == 0)
        c = loom__topo_core_of(t, one);
    loom__cpuset_free(one);
    return c;
}

/* The slots of parent ranks [0, n). 1 when the hardware says something (then h is filled;
 * free with hw_free), 0 when the identity is the answer, LOOM_ERR_NOMEM. */
static int hw_slots(struct loom_comm *parent, int n, struct hw *h)
{
    const struct loom_topo *t = loom__job.topo;
    /* another node process's placement is not known here: the identity, the same on every
     * member (the slots would differ from one node process to another) */
    if (t == NULL || loom__job.ranks == NULL || n < 2 || parent->sh->spans_nodes)
        return 0;
    struct key *k = malloc((size_t)n * sizeof *k); /* freed below */
    h->member = malloc((size_t)n * sizeof *h->member); /* freed by hw_free */
    h->leaf = malloc((size_t)n * sizeof *h->leaf);     /* freed by hw_free */
    if (k == NULL || h->member == NULL || h->leaf == NULL) {
        free(k), free(h->member), free(h->leaf);
        return LOOM_ERR_NOMEM;
    }
    loom__topo_tree(t, &h->nodes);
    h->n = n;
    int differ = 0;
    for (int p = 0; p < n; p++) {
        const struct loom_cpuset *s = loom__job.ranks[parent->sh->world_of[p]].cpuset;
        k[p] = (struct key){s ? core_key(t, s) : -1, p, s ? loom__topo_tree_find(t, s) : 0};
        differ |= k[p].leaf != k[0].leaf;
    }
    qsort(k, (size_t)n, sizeof *k, key_cmp);
    for (int i = 0; i < n; i++)
        h->member[i] = k[i].prank, h->leaf[i] = k[i].leaf;
    free(k);
    if (!differ) {
        free(h->member), free(h->leaf);
        return 0;
    }
    return 1;
}

static void hw_free(struct hw *h)
{
    free(h->member), free(h->leaf);
}

/* Depth of the deepest tree node holding slots a and b. */
static int closeness(const struct hw *h, int a, int b)
{
    int x = h->leaf[a], y = h->leaf[b];
    while (x != y) {
        if (h->nodes[x].depth >= h->nodes[y].depth)
            x = h->nodes[x].parent;
        else
            y = h->nodes[y].parent;
    }
    return h->nodes[x].depth;
}

static void identity(int n, int *rank_of)
{
    for (int p = 0; p < n; p++)
        rank_of[p] = p;
}

/* ---- grid ---- */

struct grid {
    const struct hw *h;
    int nd;
    const int *dims;
    int *lo, *hi; /* the box being cut: [lo[d], hi[d]) in each dimension */
    int *rank_of;
};

/* Give the box its run of slots starting at `base`. */
static void cut(struct grid *g, int base)
{
    long long npts = 1;
    int d = -1;
    for (int i = 0; i < g->nd; i++) {
        int len = g->hi[i] - g->lo[i];
        npts *= len;
        if (len > 1 && (d < 0 || len > g->hi[d] - g->lo[d]))
            d = i;
    }
    if (d < 0) { /* one point: the row-major rank of lo */
        int r = 0;
        for (int i = 0; i < g->nd; i++)
            r = r * g->dims[i] + g->lo[i];
        g->rank_of[g->h->member[base]] = r;
        return;
    }
    int len = g->hi[d] - g->lo[d], rest = (int)(npts / len), best = 1, best_b = 0, best_bal = 0;
    for (int c = 1; c < len; c++) {
        int k = base + c * rest;
        int b = closeness(g->h, k - 1, k), bal = abs(2 * c - len);
        if (c == 1 || b < best_b || (b == best_b && bal < best_bal))
            best = c, best_b = b, best_bal = bal;
    }
    int save = g->hi[d];
    g->hi[d] = g->lo[d] + best;
    cut(g, base);
    g->hi[d] = save;
    save = g->lo[d];
    g->lo[d] += best;
    cut(g, base + best * rest);
    g->lo[d] = save;
}

int loom__vtopo_map_grid(struct loom_comm *parent, int ndims, const int *dims, int *rank_of)
{
    int n = (int)loom__vtopo_grid_size(ndims, dims);
    struct hw h;
    int rc = hw_slots(parent, n, &h);
    if (rc <= 0) {
        identity(n, rank_of);
        return rc;
    }
    int *box = calloc((size_t)(2 * ndims + 1), sizeof *box); /* lo then hi; freed below */
    if (box == NULL) {
        hw_free(&h);
        return LOOM_ERR_NOMEM;
    }
    struct grid g = {&h, ndims, dims, box, box + ndims, rank_of};
    for (int i = 0; i < ndims; i++)
        g.hi[i] = dims[i];
    cut(&g, 0);
    free(box);
    hw_free(&h);
    return 0;
}

/* ---- graph ---- */

int loom__vtopo_map_graph(struct loom_comm *parent, int n, const int *xadj, const int *adj,
                          const int *w, int *rank_of)
{
    struct hw h;
    int rc = hw_slots(parent, n, &h);
    if (rc <= 0) {
        identity(n, rank_of);
        return rc;
    }
    size_t un = (size_t)(unsigned)n; /* n > 0 here: hw_slots found n slots */
    int *slot_of = malloc(un * sizeof *slot_of);  /* freed below */
    long long *total = malloc(un * sizeof *total); /* freed below */
    if (slot_of == NULL || total == NULL) {
        free(slot_of), free(total), hw_free(&h);
        return LOOM_ERR_NOMEM;
    }
    for (int v = 0; v < n; v++) {
        slot_of[v] = -1;
        total[v] = 0;
        for (int e = xadj[v]; e < xadj[v + 1]; e++)
            total[v] += w[e];
    }
    for (int k = 0; k < n; k++) {
        int best = -1;
        long long best_score = -1;
        for (int v = 0; v < n; v++) {
            if (slot_of[v] >= 0)
                continue;
            long long score = 0;
            for (int e = xadj[v]; e < xadj[v + 1]; e++)
                if (slot_of[adj[e]] >= 0)
                    score += (long long)w[e] * (1 + closeness(&h, slot_of[adj[e]], k));
            if (best < 0 || score > best_score ||
                (score == best_score && total[v] > total[best]))
                best = v, best_score = score;
        }
        slot_of[best] = k;
        rank_of[h.member[k]] = best;
    }
    free(slot_of), free(total), hw_free(&h);
    return 0;
}

int loom__vtopo_sym_graph(int n, int m, const int *src, const int *dst, const int *w,
                          int **xadj, int **adj, int **wadj)
{
    int *x = calloc((size_t)n + 1, sizeof *x);              /* freed by the caller */
    int *a = malloc((size_t)(2 * m + 1) * sizeof *a);       /* freed by the caller */
    int *aw = malloc((size_t)(2 * m + 1) * sizeof *aw);     /* freed by the caller */
    int *fill = malloc((size_t)(n + 1) * sizeof *fill);     /* freed below */
    if (x == NULL || a == NULL || aw == NULL || fill == NULL) {
        free(x), free(a), free(aw), free(fill);
        return LOOM_ERR_NOMEM;
    }
    for (int e = 0; e < m; e++)
        x[src[e] + 1]++, x[dst[e] + 1]++;
    for (int v = 0; v < n; v++)
        x[v + 1] += x[v];
    for (int v = 0; v <= n; v++)
        fill[v] = x[v];
    for (int e = 0; e < m; e++) {
        int we = w ? w[e] : 1;
        a[fill[src[e]]] = dst[e], aw[fill[src[e]]++] = we;
        a[fill[dst[e]]] = src[e], aw[fill[dst[e]]++] = we;
    }
    free(fill);
    *xadj = x, *adj = a, *wadj = aw;
    return 0;
}
