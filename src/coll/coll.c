/* coll/coll.c — one collective call: a blocking one runs as an shm collective (shm.h) when
 * that is chosen; otherwise pick the algorithm, build the calling rank's schedule, cut it for
 * split-tree, then run it (blocking) or start it (nonblocking). */
#include <string.h>
#include "coll/alg.h"
#include "coll/shm.h"
#include "comm/comm.h"
#include "core/config.h"
#include "core/error.h"
#include "core/rank.h"

static int rooted(enum loom_coll_kind kind)
{
    return kind == LOOM_COLL_BCAST || kind == LOOM_COLL_REDUCE || kind == LOOM_COLL_GATHER ||
           kind == LOOM_COLL_GATHERV || kind == LOOM_COLL_SCATTER || kind == LOOM_COLL_SCATTERV;
}

/* Whether a blocking call of kind on n ranks runs as an shm collective: when its ALGO row says
 * "shm", or says "auto" and the rule picks it. The rule (bench/coll.c, docs/collectives.md):
 * every size of every collective on every communicator the slot has room for (on 2 ranks at
 * or below MPICH everywhere), except the rooted ones when ranks outnumber cores: there a tree
 * lets each rank finish as soon as its part is done, where the shm rendezvous needs every
 * member to get a core (4 and 8 ranks on 2 cores: bcast and reduce 2-4x faster as
 * schedules). Depends only on what every member has alike. */
static int use_shm(enum loom_coll_kind kind, int n, const struct loom_coll_args *a)
{
    if (!loom__coll_shm_usable((int)kind, n, a))
        return 0;
    enum loom_config_id cfg = loom__coll_algo_cfg(kind);
    if (loom__config_int(cfg) == 0) /* auto */
        return !(loom__job.oversubscribed && rooted(kind));
    return strcmp(loom__config_str(cfg), "shm") == 0;
}

typedef void (*builder_fn)(struct loom_sched *s, const struct loom_coll_args *a);

static void barrier_dissemination(struct loom_sched *s, const struct loom_coll_args *a)
{
    (void)a;
    loom__alg_barrier_dissemination(s);
}

static void barrier_linear(struct loom_sched *s, const struct loom_coll_args *a)
{
    (void)a;
    loom__alg_barrier_linear(s);
}

static builder_fn builder(enum loom_coll_kind kind, enum loom_coll_alg alg)
{
    int lin = alg == LOOM_ALG_LINEAR;
    switch (kind) {
    case LOOM_COLL_BARRIER:
        return lin ? barrier_linear : barrier_dissemination;
    case LOOM_COLL_BCAST:
        return alg == LOOM_ALG_CHAIN ? loom__alg_bcast_chain
               : lin                 ? loom__alg_bcast_linear
                                     : loom__alg_bcast_binomial;
    case LOOM_COLL_REDUCE:
        return alg == LOOM_ALG_CHAIN ? loom__alg_reduce_chain
               : lin                 ? loom__alg_reduce_linear
                                     : loom__alg_reduce_binomial;
    case LOOM_COLL_ALLREDUCE:
        return alg == LOOM_ALG_REDUCE_BCAST ? loom__alg_allreduce_reduce_bcast
                                            : loom__alg_allreduce_recursive_doubling;
    case LOOM_COLL_GATHER:
        return lin ? loom__alg_gather_linear : loom__alg_gather_binomial;
    case LOOM_COLL_GATHERV:
        return loom__alg_gatherv_linear;
    case LOOM_COLL_SCATTER:
        return lin ? loom__alg_scatter_linear : loom__alg_scatter_binomial;
    case LOOM_COLL_SCATTERV:
        return loom__alg_scatterv_linear;
    case LOOM_COLL_ALLGATHER:
        return lin ? loom__alg_allgather_linear : loom__alg_allgather_ring;
    case LOOM_COLL_ALLGATHERV:
        return lin ? loom__alg_allgatherv_linear : loom__alg_allgatherv_ring;
    case LOOM_COLL_ALLTOALL:
        return lin ? loom__alg_alltoall_linear : loom__alg_alltoall_pairwise;
    case LOOM_COLL_ALLTOALLV:
        return lin ? loom__alg_alltoallv_linear : loom__alg_alltoallv_pairwise;
    case LOOM_COLL_ALLTOALLW:
        return lin ? loom__alg_alltoallw_linear : loom__alg_alltoallw_pairwise;
    case LOOM_COLL_REDUCE_SCATTER:
    case LOOM_COLL_REDUCE_SCATTER_BLOCK:
        return lin ? loom__alg_reduce_scatter_linear : loom__alg_reduce_scatter_reduce_scatterv;
    case LOOM_COLL_SCAN:
        return loom__alg_scan_chain;
    case LOOM_COLL_EXSCAN:
        return loom__alg_exscan_chain;
    default:
        return NULL;
    }
}

/* The size that selection looks at: the whole vector for reductions and bcast, one rank's
 * block for the gathers, scatters and all-to-alls. */
static size_t selection_bytes(enum loom_coll_kind kind, const struct loom_coll_args *a,
                              int is_root)
{
    switch (kind) {
    case LOOM_COLL_BARRIER:
        return 0;
    case LOOM_COLL_BCAST:
    case LOOM_COLL_ALLGATHER:
    case LOOM_COLL_ALLGATHERV:
    case LOOM_COLL_ALLTOALL:
    case LOOM_COLL_ALLTOALLV:
    case LOOM_COLL_ALLTOALLW:
        return a->rtype ? loom__dt_stream_size(a->rtype, a->rcount) : 0;
    case LOOM_COLL_GATHER: /* every rank must pick the same: the root's receive side */
        return is_root ? loom__dt_stream_size(a->rtype, a->rcount)
                       : loom__dt_stream_size(a->stype, a->scount);
    case LOOM_COLL_SCATTER:
        return is_root ? loom__dt_stream_size(a->stype, a->scount)
                       : loom__dt_stream_size(a->rtype, a->rcount);
    case LOOM_COLL_GATHERV:
    case LOOM_COLL_SCATTERV:
        return 0; /* one algorithm */
    default:
        return a->stype ? loom__dt_stream_size(a->stype, a->scount) : 0;
    }
}

static int is_tree(enum loom_coll_alg alg)
{
    return alg == LOOM_ALG_BINOMIAL || alg == LOOM_ALG_REDUCE_BCAST;
}

/* A nonblocking collective keeps the user's types alive until it ends. */
static void keep_types(struct loom_sched *s, const struct loom_coll_args *a)
{
    loom__sched_keep_type(s, a->stype);
    loom__sched_keep_type(s, a->rtype);
    for (int r = 0; r < s->size; r++) {
        if (a->stypes)
            loom__sched_keep_type(s, a->stypes[r]);
        if (a->rtypes)
            loom__sched_keep_type(s, a->rtypes[r]);
    }
}

/* Build the calling rank's schedule of a nonblocking (S: its split, -1 for none) or blocking
 * collective; NULL on ENOMEM (*rc set). */
static struct loom_sched *build_sched(enum loom_coll_kind kind, struct loom_comm *c, MPI_Comm h,
                                      const struct loom_coll_args *a, int nb, int *rc)
{
    if (loom__comm_is_inter(c))
        return loom__coll_inter_build(kind, c, h, a, nb, rc);
    int n = c->sh->size;
    int S = nb ? loom__coll_split_s(kind, n) : -1;
    size_t bytes = selection_bytes(kind, a, c->rank == a->root);
    enum loom_coll_alg alg =
        loom__coll_select(kind, n, bytes, a->op ? a->op->commutative : 1, S >= 0);
    builder_fn build = builder(kind, alg);
    *rc = build ? LOOM_ERR_NOMEM : LOOM_ERR_INTERN;
    if (!build)
        return NULL;
    struct loom_sched *s = loom__sched_new(c, h);
    if (!s)
        return NULL;
    if (nb)
        keep_types(s, a);
    /* LOOM_COLL_HIER (alg_hier.c): the machine's levels, or the network's */
    if (!loom__coll_hier_build(kind, c, s, a))
        build(s, a);
    loom__coll_split_apply(s, is_tree(alg) ? S : -1);
    loom__sched_merge_sends(s);
    return s;
}

int loom__coll_run(enum loom_coll_kind kind, struct loom_comm *c, MPI_Comm h,
                   const struct loom_coll_args *a, MPI_Request *req, int *mpi_err)
{
    /* shm reads the members' buffers: all of them must be in this node process */
    if (!req && !loom__comm_is_inter(c) && !c->sh->spans_nodes &&
        use_shm(kind, c->sh->size, a) && !loom__coll_hier_applies(kind, c, a))
        return loom__coll_shm_run((int)kind, c, a, mpi_err);
    int rc;
    struct loom_sched *s = build_sched(kind, c, h, a, req != NULL, &rc);
    if (!s)
        return rc;
    if (!req)
        return loom__sched_run(s, mpi_err);
    return loom__sched_start(s, req);
}

int loom__coll_run_internal(enum loom_coll_kind kind, struct loom_comm *c,
                            const struct loom_coll_args *a)
{
    int mpi_err = 0;
    int rc = loom__coll_run(kind, c, c, a, NULL, &mpi_err);
    return rc != 0 ? rc : mpi_err != 0 ? LOOM_ERR_INTERN : 0;
}

int loom__coll_persist_init(enum loom_coll_kind kind, struct loom_comm *c, MPI_Comm h,
                            const struct loom_coll_args *a, MPI_Request *req)
{
    int rc;
    struct loom_sched *s = build_sched(kind, c, h, a, 1, &rc);
    if (!s)
        return rc;
    return loom__sched_persist(s, req);
}
