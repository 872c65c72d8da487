/* coll/coll.h — the collectives layer as the API layer sees it, and the builders' contract.
 *
 * An MPI_<Coll> / MPI_I<coll> / MPI_<Coll>_init entry point checks its arguments
 * (api/coll_*.c), fills a struct loom_coll_args and calls loom__coll_run (or
 * loom__coll_persist_init): it picks an algorithm (select.c), builds the calling rank's
 * schedule with that algorithm's builder (alg_*.c), sets the split-tree boundaries
 * (split.c), and runs it to the end (blocking), hands it to the task engine (nonblocking) or
 * keeps it in a persistent request that each MPI_Start reruns. Every builder appends the calling rank's rounds to a schedule (sched.h);
 * it never blocks and never talks to another rank. */
#ifndef LOOM_COLL_COLL_H
#define LOOM_COLL_COLL_H
#include <stddef.h>
#include "mpi.h"

struct loom_comm;
struct loom_sched;
struct loom_datatype;
struct loom_op;

enum loom_coll_kind {
    LOOM_COLL_BARRIER,
    LOOM_COLL_BCAST,
    LOOM_COLL_REDUCE,
    LOOM_COLL_ALLREDUCE,
    LOOM_COLL_GATHER,
    LOOM_COLL_GATHERV,
    LOOM_COLL_SCATTER,
    LOOM_COLL_SCATTERV,
    LOOM_COLL_ALLGATHER,
    LOOM_COLL_ALLGATHERV,
    LOOM_COLL_ALLTOALL,
    LOOM_COLL_ALLTOALLV,
    LOOM_COLL_ALLTOALLW,
    LOOM_COLL_REDUCE_SCATTER,
    LOOM_COLL_REDUCE_SCATTER_BLOCK,
    LOOM_COLL_SCAN,
    LOOM_COLL_EXSCAN,
    LOOM_COLL_NKINDS_
};

/* Algorithms. Each collective's LOOM_COLL_<NAME>_ALGO row lists "auto" then the names of
 * the algorithms it accepts, in the order of this enum (select.c maps between the two). */
enum loom_coll_alg {
    LOOM_ALG_AUTO = 0,
    LOOM_ALG_BINOMIAL,           /* bcast, reduce, gather, scatter */
    LOOM_ALG_LINEAR,             /* root talks to everyone / everyone to everyone */
    LOOM_ALG_DISSEMINATION,      /* barrier */
    LOOM_ALG_RECURSIVE_DOUBLING, /* allreduce */
    LOOM_ALG_REDUCE_BCAST,       /* allreduce */
    LOOM_ALG_RING,               /* allgather(v) */
    LOOM_ALG_PAIRWISE,           /* alltoall(v,w) */
    LOOM_ALG_CHAIN,              /* scan, exscan (libNBC's, the paper's Iscan) */
    LOOM_ALG_REDUCE_SCATTERV,    /* reduce_scatter(_block): reduce to 0, then scatterv */
    LOOM_ALG_SHM,                /* blocking calls: direct access, no messages (shm.h) */
    LOOM_ALG_NALGS_
};

/* Everything a collective call says. Unused fields are 0. Buffers are the user's; "in
 * place" is already resolved per the standard by the entry point (in_place = 1 and sbuf
 * unset where MPI_IN_PLACE was given and is significant). Types are checked and live.
 * The arrays of counts and displacements are the user's, of the width the call declares:
 * int (the int calls: wide = 0) or MPI_Count counts and MPI_Aint displacements (the
 * big-count MPI_Xxx_c calls: wide = 1); read them only through loom__coll_count and
 * loom__coll_displ. The v forms' displacements are in elements of the type's extent,
 * alltoallw's in bytes. Builders read them while they build (persistent and nonblocking
 * schedules keep no pointer to them); the blocking shm forms while the call runs. */
struct loom_coll_args {
    const void *sbuf;
    void *rbuf;
    size_t scount, rcount;
    struct loom_datatype *stype, *rtype;
    const void *scounts, *sdispls, *rcounts, *rdispls; /* int[] or MPI_Count[] / MPI_Aint[] */
    struct loom_datatype *const *stypes, *const *rtypes; /* alltoallw */
    struct loom_op *op;
    int root;
    int in_place;
    int wide; /* the arrays above are MPI_Count (counts) and MPI_Aint (displacements) */
};

/* Element i of an array of counts or displacements of either width. */
static inline size_t loom__coll_count_at(const void *counts, int wide, size_t i)
{
    return wide ? (size_t)((const MPI_Count *)counts)[i] : (size_t)((const int *)counts)[i];
}
static inline ptrdiff_t loom__coll_displ_at(const void *displs, int wide, size_t i)
{
    return wide ? (ptrdiff_t)((const MPI_Aint *)displs)[i]
                : (ptrdiff_t)((const int *)displs)[i];
}

enum loom_coll_side { LOOM_COLL_SEND, LOOM_COLL_RECV };
/* The count of peer i on one side of a: counts[i] of the v and w forms, else the call's one
 * count (scount / rcount). */
static inline size_t loom__coll_count(const struct loom_coll_args *a, enum loom_coll_side side,
                                      int i)
{
    const void *v = side == LOOM_COLL_SEND ? a->scounts : a->rcounts;
    if (v == NULL)
        return side == LOOM_COLL_SEND ? a->scount : a->rcount;
    return loom__coll_count_at(v, a->wide, (size_t)i);
}
/* The displacement of peer i's block on one side of a: displs[i] of the v and w forms, else
 * i blocks of the call's one count (in elements). */
static inline ptrdiff_t loom__coll_displ(const struct loom_coll_args *a, enum loom_coll_side side,
                                         int i)
{
    const void *v = side == LOOM_COLL_SEND ? a->sdispls : a->rdispls;
    if (v == NULL)
        return (ptrdiff_t)i * (ptrdiff_t)(side == LOOM_COLL_SEND ? a->scount : a->rcount);
    return loom__coll_displ_at(v, a->wide, (size_t)i);
}

/* Run collective `kind` on c (user handle h) for the calling rank: blocking when req is
 * NULL, else start it and return its request in *req. 0 or a negative loom code; an MPI error
 * class met while running a blocking one (truncation) goes to *mpi_err. */
int loom__coll_run(enum loom_coll_kind kind, struct loom_comm *c, MPI_Comm h,
                   const struct loom_coll_args *a, MPI_Request *req, int *mpi_err);

/* A blocking collective that loom itself runs on c (a constructor's exchange over node
 * processes): loom__coll_run on c's own handle, with an MPI error class met on the way
 * turned into LOOM_ERR_INTERN. 0 or a negative loom code. */
int loom__coll_run_internal(enum loom_coll_kind kind, struct loom_comm *c,
                            const struct loom_coll_args *a);

/* The calling rank's schedule of a collective on an intercommunicator c (coll/inter.c), on
 * the hidden union of both groups: the intercommunicator form of the call (a->root is
 * MPI_ROOT, MPI_PROC_NULL or a rank of the remote group; vector arguments are indexed by
 * remote rank, reduce_scatter's counts by local rank). keep: the schedule holds the datatypes
 * (nonblocking and persistent calls). NULL with *rc a negative loom code on failure.
 * loom__coll_run and loom__coll_persist_init use it for every intercommunicator. */
struct loom_sched *loom__coll_inter_build(enum loom_coll_kind kind, struct loom_comm *c,
                                          MPI_Comm h, const struct loom_coll_args *a, int keep,
                                          int *rc);

/* Nonblocking (coll/publish.c): rank `root` of c gives every rank r the k pointers
 * table[r*k .. r*k + k-1] (table: [size*k], read during the call, significant at the root),
 * which land in *dst[0..k-1] of rank r once its request (*req) completes. 0 or a negative
 * loom code. Collective over c, in the order of c's collectives. */
int loom__coll_ipublish(struct loom_comm *c, MPI_Comm h, int root, void *const *table, int k,
                        void **const *dst, MPI_Request *req);

/* A persistent collective (MPI_<Coll>_init): build the calling rank's schedule once, as for
 * the nonblocking form, and return an inactive persistent request for it in *req; each
 * MPI_Start reruns that schedule (sched.h). 0 or a negative loom code. */
int loom__coll_persist_init(enum loom_coll_kind kind, struct loom_comm *c, MPI_Comm h,
                            const struct loom_coll_args *a, MPI_Request *req);

/* How an entry point runs its collective (api/coll_*.c pass it to loom__coll_call_mode). */
enum loom_coll_mode { LOOM_COLL_BLOCKING = 0, LOOM_COLL_NONBLOCKING, LOOM_COLL_PERSISTENT };

/* ---- selection (select.c) ---- */
/* The algorithm for a call: LOOM_COLL_<NAME>_ALGO when set, else the rule of select.c.
 * split: 1 when a split tree is in effect for this call (nonblocking, thread mode, S > 0),
 * which asks for the tree algorithm. */
/* The LOOM_COLL_<NAME>_ALGO row of a collective. */
enum loom_config_id loom__coll_algo_cfg(enum loom_coll_kind kind);
enum loom_coll_alg loom__coll_select(enum loom_coll_kind kind, int nranks, size_t bytes,
                                     int commutative, int split);
const char *loom__coll_alg_name(enum loom_coll_alg alg);

/* ---- split tree (split.c) ---- */
/* S for a nonblocking tree collective of kind on nranks ranks: -1 when no split applies
 * (not thread mode, LOOM_SPLIT_TREE=off, not a tree collective). */
int loom__coll_split_s(enum loom_coll_kind kind, int nranks);
/* Set s->call_end / s->task_end for split S (S < 0: no split) from the rounds' tags. */
void loom__coll_split_apply(struct loom_sched *s, int S);

/* ---- builders (alg_*.c): the calling rank's rounds of one algorithm ---- */
void loom__alg_barrier_dissemination(struct loom_sched *s);
void loom__alg_barrier_linear(struct loom_sched *s);
void loom__alg_bcast_binomial(struct loom_sched *s, const struct loom_coll_args *a);
void loom__alg_bcast_linear(struct loom_sched *s, const struct loom_coll_args *a);
void loom__alg_reduce_binomial(struct loom_sched *s, const struct loom_coll_args *a);
void loom__alg_reduce_linear(struct loom_sched *s, const struct loom_coll_args *a);
void loom__alg_allreduce_recursive_doubling(struct loom_sched *s,
                                            const struct loom_coll_args *a);
void loom__alg_allreduce_reduce_bcast(struct loom_sched *s, const struct loom_coll_args *a);
void loom__alg_gather_binomial(struct loom_sched *s, const struct loom_coll_args *a);
void loom__alg_gather_linear(struct loom_sched *s, const struct loom_coll_args *a);
void loom__alg_gatherv_linear(struct loom_sched *s, const struct loom_coll_args *a);
void loom__alg_scatter_binomial(struct loom_sched *s, const struct loom_coll_args *a);
void loom__alg_scatter_linear(struct loom_sched *s, const struct loom_coll_args *a);
void loom__alg_scatterv_linear(struct loom_sched *s, const struct loom_coll_args *a);
void loom__alg_allgather_ring(struct loom_sched *s, const struct loom_coll_args *a);
void loom__alg_allgather_linear(struct loom_sched *s, const struct loom_coll_args *a);
void loom__alg_allgatherv_ring(struct loom_sched *s, const struct loom_coll_args *a);
void loom__alg_allgatherv_linear(struct loom_sched *s, const struct loom_coll_args *a);
void loom__alg_alltoall_pairwise(struct loom_sched *s, const struct loom_coll_args *a);
void loom__alg_alltoall_linear(struct loom_sched *s, const struct loom_coll_args *a);
void loom__alg_alltoallv_pairwise(struct loom_sched *s, const struct loom_coll_args *a);
void loom__alg_alltoallv_linear(struct loom_sched *s, const struct loom_coll_args *a);
void loom__alg_alltoallw_pairwise(struct loom_sched *s, const struct loom_coll_args *a);
void loom__alg_alltoallw_linear(struct loom_sched *s, const struct loom_coll_args *a);
/* reduce_scatter: a->rcounts (reduce_scatter_block passes its count for every rank) */
void loom__alg_reduce_scatter_reduce_scatterv(struct loom_sched *s,
                                              const struct loom_coll_args *a);
void loom__alg_reduce_scatter_linear(struct loom_sched *s, const struct loom_coll_args *a);
void loom__alg_scan_chain(struct loom_sched *s, const struct loom_coll_args *a);
void loom__alg_exscan_chain(struct loom_sched *s, const struct loom_coll_args *a);
#endif
