/* coll/alg_hier.c — collectives run level by level through the hardware tree (LOOM_COLL_HIER;
 * alg_hier.h for the tree, docs/hierarchy.md for the rule): what the 2018 paper's Section 7.2
 * does with its roots communicators, done inside loom for its own bcast, reduce, allreduce
 * and barrier (and allgather, gather and scatter, on the network tree of a communicator that
 * spans node processes), blocking and nonblocking alike (this only builds the schedule).
 *
 * At each internal node of the tree the node's participants (the leaders of its children)
 * run the flat algorithm that selection picks for that many ranks (LOOM_COLL_<NAME>_ALGO
 * still forces it): one-to-all from the top node down (bcast), all-to-one from the bottom up
 * (reduce), reduce below the top + allreduce among the top node's participants + bcast below
 * (allreduce), and fan-in / barrier at the top / fan-out (barrier). A rank takes part in the
 * node above its leaf, and in each node above that as long as it leads the node below.
 *
 * The flat builders are reused as they are: each is run on a "view" of the schedule whose
 * size and rank are the node's (s->size, s->me), then the peers of the operations it added
 * are mapped from the view's ranks to the communicator's. Messages of different nodes never
 * mix: two ranks meet in one node only (the deepest holding both), and every message of one
 * call shares the call's tag, ordered per pair as the schedule posts them.
 *
 * Non-commutative operations keep rank order only where every node holds consecutive ranks
 * (children are ordered by their lowest rank, so the view's order is rank order); elsewhere
 * (a scattered binding) reductions with them stay flat. */
#include <string.h>
#include "coll/alg.h"
#include "coll/alg_hier.h"
#include "comm/comm.h"
#include "net/net.h"

typedef void (*builder_fn)(struct loom_sched *s, const struct loom_coll_args *a);

/* One node seen from the calling rank: its participants in child order, the view's rank of
 * the calling rank and of the node's leader. */
struct part {
    int node;
    int k;
    int *ids;   /* [k] communicator rank of each view rank (schedule scratch) */
    int vme, vroot;
};

/* The nodes the calling rank takes part in, bottom up, into p[] (at most height + 1); their
 * number. root: the collective's root (the leaders follow it). */
static int path(struct loom_sched *s, const struct loom_htree *t, int root, struct part *p)
{
    int me = s->me, m = 0;
    int x = t->leaf[me];
    while (t->parent[x] >= 0 && loom__hier_tree_leader(t, x, root) == me) {
        int g = t->parent[x];
        struct part *q = &p[m++];
        q->node = g;
        q->k = t->nkids[g];
        q->ids = loom__sched_bytes(s, (size_t)q->k * sizeof *q->ids);
        if (s->nomem)
            return 0;
        int lead = loom__hier_tree_leader(t, g, root);
        q->vroot = 0;
        for (int j = 0; j < q->k; j++) {
            int c = t->kids[t->kfirst[g] + j];
            q->ids[j] = loom__hier_tree_leader(t, c, root);
            if (q->ids[j] == lead)
                q->vroot = j;
        }
        q->vme = t->kidx[x];
        x = g;
    }
    return m;
}

/* Append builder b's rounds for the view p (args a, whose root is a view rank). */
static void among(struct loom_sched *s, const struct part *p, builder_fn b,
                  const struct loom_coll_args *a)
{
    int me = s->me, size = s->size, from = s->nops;
    s->me = p->vme;
    s->size = p->k;
    b(s, a);
    s->me = me;
    s->size = size;
    for (int i = from; i < s->nops; i++)
        if (s->ops[i].kind == LOOM_SOP_SEND || s->ops[i].kind == LOOM_SOP_RECV)
            s->ops[i].peer = p->ids[s->ops[i].peer];
}

static builder_fn bcast_builder(int k, size_t bytes)
{
    switch (loom__coll_select(LOOM_COLL_BCAST, k, bytes, 1, 0)) {
    case LOOM_ALG_LINEAR:
        return loom__alg_bcast_linear;
    case LOOM_ALG_CHAIN:
        return loom__alg_bcast_chain;
    default:
        return loom__alg_bcast_binomial;
    }
}

static builder_fn reduce_builder(int k, size_t bytes, int commutative)
{
    switch (loom__coll_select(LOOM_COLL_REDUCE, k, bytes, commutative, 0)) {
    case LOOM_ALG_LINEAR:
        return loom__alg_reduce_linear;
    case LOOM_ALG_CHAIN:
        return loom__alg_reduce_chain;
    default:
        return loom__alg_reduce_binomial;
    }
}

static builder_fn allreduce_builder(int k, size_t bytes, int commutative)
{
    return loom__coll_select(LOOM_COLL_ALLREDUCE, k, bytes, commutative, 0) ==
                   LOOM_ALG_REDUCE_BCAST
               ? loom__alg_allreduce_reduce_bcast
               : loom__alg_allreduce_recursive_doubling;
}

/* bcast of buf down the nodes p[from..0] (top first). */
static void bcast_down(struct loom_sched *s, const struct part *p, int from, void *buf,
                       size_t count, struct loom_datatype *type)
{
    size_t bytes = loom__dt_stream_size(type, count);
    for (int i = from; i >= 0; i--) {
        struct loom_coll_args v = {.rbuf = buf, .rcount = count, .rtype = type,
                                   .root = p[i].vroot};
        among(s, &p[i], bcast_builder(p[i].k, bytes), &v);
    }
}

/* reduce up the nodes p[0..m-1] starting from input; returns what the calling rank holds
 * after the last one: that node's result, in last_result, when it leads it (it leads every
 * node of its path but maybe the last, whose results go to schedule scratch); else the
 * partial result it sent. */
static const void *reduce_up(struct loom_sched *s, const struct part *p, int m,
                             const void *input, void *last_result, size_t count,
                             struct loom_datatype *type, struct loom_op *op)
{
    size_t bytes = loom__dt_stream_size(type, count);
    const void *acc = input;
    for (int i = 0; i < m; i++) {
        int leads = p[i].vme == p[i].vroot;
        void *out = !leads ? NULL : i == m - 1 ? last_result : loom__sched_scratch(s, count, type);
        struct loom_coll_args v = {.sbuf = acc, .rbuf = out, .scount = count, .stype = type,
                                   .op = op, .root = p[i].vroot,
                                   .in_place = out != NULL && out == acc};
        among(s, &p[i], reduce_builder(p[i].k, bytes, op->commutative), &v);
        if (leads)
            acc = out;
    }
    return acc;
}

static void hier_bcast(struct loom_sched *s, const struct loom_htree *t, struct part *p,
                       const struct loom_coll_args *a)
{
    int m = path(s, t, a->root, p);
    bcast_down(s, p, m - 1, a->rbuf, a->rcount, a->rtype);
}

static void hier_reduce(struct loom_sched *s, const struct loom_htree *t, struct part *p,
                        const struct loom_coll_args *a)
{
    int m = path(s, t, a->root, p);
    const void *input = a->in_place ? a->rbuf : a->sbuf;
    loom__sched_keep_op(s, a->op);
    reduce_up(s, p, m, input, a->rbuf, a->scount, a->stype, a->op);
}

static void hier_allreduce(struct loom_sched *s, const struct loom_htree *t, struct part *p,
                           const struct loom_coll_args *a)
{
    int m = path(s, t, 0, p);
    const void *input = a->in_place ? a->rbuf : a->sbuf;
    size_t count = a->scount;
    struct loom_datatype *type = a->stype;
    loom__sched_keep_op(s, a->op);
    int top = m > 0 && t->parent[p[m - 1].node] < 0; /* the calling rank reaches the top */
    int below = top ? m - 1 : m;
    const void *acc = reduce_up(s, p, below, input, a->rbuf, count, type, a->op);
    if (top) { /* allreduce among the top node's participants, into rbuf */
        struct loom_coll_args v = {.sbuf = acc, .rbuf = a->rbuf, .scount = count,
                                   .stype = type, .op = a->op, .in_place = acc == a->rbuf};
        among(s, &p[m - 1],
              allreduce_builder(p[m - 1].k, loom__dt_stream_size(type, count),
                                a->op->commutative),
              &v);
    }
    bcast_down(s, p, below - 1, a->rbuf, count, type);
}

/* barrier: the participants of each node below the top tell its leader (fan-in), the top
 * node's run the barrier algorithm, then each leader releases its participants (fan-out). */
static void fan(struct loom_sched *s, const struct part *p, int in)
{
    loom__sched_round(s, LOOM_ROUND_NONE, 0);
    if (p->vme != p->vroot) {
        if (in)
            loom__sched_send(s, NULL, 0, MPI_BYTE, p->ids[p->vroot]);
        else
            loom__sched_recv(s, NULL, 0, MPI_BYTE, p->ids[p->vroot]);
        return;
    }
    for (int j = 0; j < p->k; j++) {
        if (j == p->vme)
            continue;
        if (in)
            loom__sched_recv(s, NULL, 0, MPI_BYTE, p->ids[j]);
        else
            loom__sched_send(s, NULL, 0, MPI_BYTE, p->ids[j]);
    }
}

static void barrier_top(struct loom_sched *s, const struct loom_coll_args *a)
{
    (void)a;
    if (loom__coll_select(LOOM_COLL_BARRIER, s->size, 0, 1, 0) == LOOM_ALG_LINEAR)
        loom__alg_barrier_linear(s);
    else
        loom__alg_barrier_dissemination(s);
}

static void hier_barrier(struct loom_sched *s, const struct loom_htree *t, struct part *p)
{
    int m = path(s, t, 0, p);
    int top = m > 0 && t->parent[p[m - 1].node] < 0;
    int below = top ? m - 1 : m;
    for (int i = 0; i < below; i++)
        fan(s, &p[i], 1);
    if (top)
        among(s, &p[m - 1], barrier_top, NULL);
    for (int i = below - 1; i >= 0; i--)
        fan(s, &p[i], 0);
}

/* allgather: the blocks of node x's ranks to or from peer: one message when the ranks are
 * consecutive (their blocks are then one run of the receive buffer), else one per rank. */
static void subtree_blocks(struct loom_sched *s, const struct loom_htree *t, int x,
                           const struct loom_coll_args *a, int peer, int send)
{
    const int *m = t->memb + t->first[x];
    int k = t->size[x];
    int runs = m[k - 1] - m[0] == k - 1 ? 1 : k; /* members are ascending */
    for (int i = 0; i < runs; i++) {
        struct loom_coll_blk b = loom__coll_rblock(LOOM_COLL_ALLGATHER, a, m[i]);
        size_t count = runs == 1 ? b.c * (size_t)k : b.c;
        if (send)
            loom__sched_send(s, b.p, count, b.t, peer);
        else
            loom__sched_recv(s, b.p, count, b.t, peer);
    }
}

/* allgather: up the tree each node's leader gathers its children's blocks (round by round,
 * bottom up), the top node's participants trade their subtrees' blocks, and the whole
 * receive buffer goes down as a bcast. Across node processes: one exchange per pair of node
 * processes crosses the network, instead of one message per pair of ranks. */
static void hier_allgather(struct loom_sched *s, const struct loom_htree *t, struct part *p,
                           const struct loom_coll_args *a)
{
    int m = path(s, t, 0, p);
    loom__sched_round(s, LOOM_ROUND_NONE, 0);
    loom__coll_own_into_place(s, LOOM_COLL_ALLGATHER, a);
    int top = m > 0 && t->parent[p[m - 1].node] < 0;
    int below = top ? m - 1 : m;
    for (int i = 0; i < below; i++) {
        const struct part *q = &p[i];
        const int *kids = t->kids + t->kfirst[q->node];
        loom__sched_round(s, LOOM_ROUND_NONE, 0);
        if (q->vme != q->vroot) {
            subtree_blocks(s, t, kids[q->vme], a, q->ids[q->vroot], 1);
            continue;
        }
        for (int j = 0; j < q->k; j++)
            if (j != q->vme)
                subtree_blocks(s, t, kids[j], a, q->ids[j], 0);
    }
    if (top) {
        const struct part *q = &p[m - 1];
        const int *kids = t->kids + t->kfirst[q->node];
        loom__sched_round(s, LOOM_ROUND_NONE, 0);
        for (int j = 0; j < q->k; j++) {
            if (j == q->vme)
                continue;
            subtree_blocks(s, t, kids[j], a, q->ids[j], 0);
            subtree_blocks(s, t, kids[q->vme], a, q->ids[j], 1);
        }
    }
    bcast_down(s, p, below - 1, a->rbuf, (size_t)t->n * a->rcount, a->rtype);
}

/* gather / scatter: the bytes of one rank's block as the calling rank sees them (the root's
 * receive side of a gather or send side of a scatter, else the other side: equal by the
 * standard's rule on type signatures, so every member computes the same). */
static size_t block_bytes(int gather, int is_root, const struct loom_coll_args *a)
{
    return gather == is_root ? loom__dt_stream_size(a->rtype, a->rcount)
                             : loom__dt_stream_size(a->stype, a->scount);
}

/* gather / scatter: what the calling rank holds while the blocks pass it. */
struct packed {
    int m;      /* parts on its path (path()) */
    int top;    /* the highest node it leads (its leaf when it leads nothing more) */
    size_t blk; /* bytes of one block */
    char *tmp;  /* top's blocks in memb order, first[top] at offset 0; NULL for a leaf */
};

/* Fill k for the calling rank; -1 when the schedule ran out of memory. */
static int packed_start(struct loom_sched *s, const struct loom_htree *t, struct part *p,
                        const struct loom_coll_args *a, int gather, struct packed *k)
{
    k->blk = block_bytes(gather, s->me == a->root, a);
    k->m = path(s, t, a->root, p);
    const struct part *q = k->m ? &p[k->m - 1] : NULL;
    k->top = !q ? t->leaf[s->me]
         : q->vme == q->vroot ? q->node : t->kids[t->kfirst[q->node] + q->vme];
    k->tmp = NULL;
    if (t->size[k->top] > 1)
        k->tmp = loom__sched_bytes(s, (size_t)t->size[k->top] * k->blk);
    return s->nomem ? -1 : 0;
}

/* gather / scatter: where block k of top's packed blocks lies (k counted in memb). */
static char *packed_at(const struct loom_htree *t, const struct packed *pk, int k)
{
    return pk->tmp + (size_t)(k - t->first[pk->top]) * pk->blk;
}

/* gather / scatter at a node q the calling rank leads: each other child's run of the packed
 * blocks comes up from that child's leader (gather) or goes down to it (scatter). */
static void child_runs(struct loom_sched *s, const struct loom_htree *t, const struct part *q,
                       const struct packed *pk, int down)
{
    const int *kids = t->kids + t->kfirst[q->node];
    for (int j = 0; j < q->k; j++) {
        if (j == q->vme)
            continue;
        int c = kids[j];
        char *run = packed_at(t, pk, t->first[c]);
        size_t bytes = (size_t)t->size[c] * pk->blk;
        if (down)
            loom__sched_send(s, run, bytes, MPI_BYTE, q->ids[j]);
        else
            loom__sched_recv(s, run, bytes, MPI_BYTE, q->ids[j]);
    }
}

/* gather: each rank's block goes up to the leader of each node it reaches, packed in memb
 * order (a node's children hold consecutive runs of it), one message per child; the root
 * unpacks the whole tree's blocks into place. Across node processes: one message per node
 * process crosses the network, instead of one per rank. */
static void hier_gather(struct loom_sched *s, const struct loom_htree *t, struct part *p,
                        const struct loom_coll_args *a)
{
    int me = s->me, root = a->root, is_root = me == root;
    struct packed pk;
    if (packed_start(s, t, p, a, 1, &pk) != 0)
        return;
    loom__sched_round(s, LOOM_ROUND_NONE, 0);
    if (pk.tmp && !is_root) /* own block into its place; the root's stays where it is */
        loom__sched_copy(s, a->sbuf, a->scount, a->stype, packed_at(t, &pk, t->pos[me]), pk.blk,
                         MPI_BYTE);
    for (int i = 0; i < pk.m; i++) {
        const struct part *q = &p[i];
        loom__sched_round(s, LOOM_ROUND_NONE, 0);
        if (q->vme != q->vroot) { /* the last level: hand the subtree's blocks up */
            if (pk.tmp)
                loom__sched_send(s, pk.tmp, (size_t)t->size[pk.top] * pk.blk, MPI_BYTE,
                                 q->ids[q->vroot]);
            else
                loom__sched_send(s, a->sbuf, a->scount, a->stype, q->ids[q->vroot]);
            return;
        }
        child_runs(s, t, q, &pk, 0);
    }
    if (!is_root)
        return;
    loom__sched_round(s, LOOM_ROUND_NONE, 0);
    for (int k = 0; k < t->n; k++) {
        int r = t->memb[k];
        void *dst = loom__elem(a->rbuf, (size_t)r * a->rcount, a->rtype);
        if (r != root)
            loom__sched_copy(s, packed_at(t, &pk, k), pk.blk, MPI_BYTE, dst, a->rcount,
                             a->rtype);
        else if (!a->in_place)
            loom__sched_copy(s, a->sbuf, a->scount, a->stype, dst, a->rcount, a->rtype);
    }
}

/* scatter: gather's mirror. The root packs every block in memb order; each leader, top down,
 * sends each other child its run; a rank gets its own block last. */
static void hier_scatter(struct loom_sched *s, const struct loom_htree *t, struct part *p,
                         const struct loom_coll_args *a)
{
    int me = s->me, root = a->root, is_root = me == root;
    struct packed pk;
    if (packed_start(s, t, p, a, 0, &pk) != 0)
        return;
    int i = pk.m - 1;
    loom__sched_round(s, LOOM_ROUND_NONE, 0);
    if (is_root) {
        for (int k = 0; k < t->n; k++) {
            int r = t->memb[k];
            if (r != root)
                loom__sched_copy(s, loom__elem(a->sbuf, (size_t)r * a->scount, a->stype),
                                 a->scount, a->stype, packed_at(t, &pk, k), pk.blk, MPI_BYTE);
        }
    } else if (i >= 0) { /* the level where the calling rank is not the leader: its run */
        const struct part *q = &p[i--];
        if (pk.tmp)
            loom__sched_recv(s, pk.tmp, (size_t)t->size[pk.top] * pk.blk, MPI_BYTE,
                             q->ids[q->vroot]);
        else
            loom__sched_recv(s, a->rbuf, a->rcount, a->rtype, q->ids[q->vroot]);
    }
    for (; i >= 0; i--) {
        loom__sched_round(s, LOOM_ROUND_NONE, 0);
        child_runs(s, t, &p[i], &pk, 1);
    }
    if (!pk.tmp)
        return;
    loom__sched_round(s, LOOM_ROUND_NONE, 0);
    if (!is_root)
        loom__sched_copy(s, packed_at(t, &pk, t->pos[me]), pk.blk, MPI_BYTE, a->rbuf, a->rcount,
                         a->rtype);
    else if (!a->in_place)
        loom__sched_copy(s, loom__elem(a->sbuf, (size_t)me * a->scount, a->stype), a->scount,
                         a->stype, a->rbuf, a->rcount, a->rtype);
}

/* gather / scatter across node processes: a node process's blocks travel as one message, which
 * pays while that message stays eager (one network message, bound by latency: one instead of
 * one per rank). Past the eager limit it is read at the network's bandwidth as the separate
 * blocks would be, and only the leader's extra copies and its serializing are left. Every
 * member answers alike: block sizes agree by the standard's rule on type signatures. */
static int runs_stay_eager(enum loom_coll_kind kind, const struct loom_comm *c,
                           const struct loom_coll_args *a, const struct loom_htree *t)
{
    size_t blk = block_bytes(kind == LOOM_COLL_GATHER, c->rank == a->root, a);
    int most = 0;
    for (int j = 0; j < t->nkids[0]; j++) {
        int k = t->size[t->kids[t->kfirst[0] + j]];
        most = k > most ? k : most;
    }
    return blk * (size_t)most <= loom__net_eager_max();
}

/* The tree to build kind through for this call, or NULL (flat). */
static const struct loom_htree *tree_for_call(enum loom_coll_kind kind, struct loom_comm *c,
                                              const struct loom_coll_args *a)
{
    switch (kind) {
    case LOOM_COLL_BARRIER:
    case LOOM_COLL_BCAST:
        break;
    case LOOM_COLL_REDUCE:
    case LOOM_COLL_ALLREDUCE:
        if (!a->op)
            return NULL;
        break;
    case LOOM_COLL_ALLGATHER: /* measured across node processes only (docs/multinode.md) */
    case LOOM_COLL_GATHER:
    case LOOM_COLL_SCATTER:
        if (!c->sh->spans_nodes)
            return NULL;
        break;
    default:
        return NULL;
    }
    const struct loom_htree *t = loom__hier_tree_for(c);
    if (t && a->op && !a->op->commutative && !t->contiguous)
        return NULL; /* rank order would not survive the grouping: stay flat */
    if (t && (kind == LOOM_COLL_GATHER || kind == LOOM_COLL_SCATTER) &&
        !runs_stay_eager(kind, c, a, t))
        return NULL;
    return t;
}

int loom__coll_hier_applies(enum loom_coll_kind kind, struct loom_comm *c,
                            const struct loom_coll_args *a)
{
    return tree_for_call(kind, c, a) != NULL;
}

int loom__coll_hier_build(enum loom_coll_kind kind, struct loom_comm *c, struct loom_sched *s,
                          const struct loom_coll_args *a)
{
    const struct loom_htree *t = tree_for_call(kind, c, a);
    if (!t)
        return 0;
    struct part *p = loom__sched_bytes(s, (size_t)(t->height + 1) * sizeof *p);
    if (s->nomem)
        return 1; /* the caller sees nomem and gives up */
    switch (kind) {
    case LOOM_COLL_BARRIER:
        hier_barrier(s, t, p);
        break;
    case LOOM_COLL_BCAST:
        hier_bcast(s, t, p, a);
        break;
    case LOOM_COLL_REDUCE:
        hier_reduce(s, t, p, a);
        break;
    case LOOM_COLL_ALLGATHER:
        hier_allgather(s, t, p, a);
        break;
    case LOOM_COLL_GATHER:
        hier_gather(s, t, p, a);
        break;
    case LOOM_COLL_SCATTER:
        hier_scatter(s, t, p, a);
        break;
    default:
        hier_allreduce(s, t, p, a);
        break;
    }
    /* no split-tree cut: the rounds' tags describe the views' trees, not the whole one */
    if (!s->nomem)
        memset(s->rdir, LOOM_ROUND_NONE, (size_t)s->nrounds);
    return 1;
}
