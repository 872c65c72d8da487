/* coll/alg.h — helpers shared by the builders (alg_*.c), private to coll/. */
#ifndef LOOM_COLL_ALG_H
#define LOOM_COLL_ALG_H
#include <stddef.h>
#include "coll/coll.h"
#include "coll/op.h"
#include "coll/sched.h"
#include "dt/dt.h"

/* The address of element `idx` of a buffer of `type` (idx counted in elements). */
static inline void *loom__elem(const void *buf, size_t idx, const struct loom_datatype *type)
{
    return (char *)buf + (ptrdiff_t)idx * type->extent;
}

/* Tree level of a binomial step that pairs ranks `mask` apart (1 = the leaves' level). */
static inline int loom__level(unsigned mask)
{
    return __builtin_ctz(mask) + 1;
}

/* ceil(log2 n), 0 for n <= 1. */
static inline int loom__height(int n)
{
    int h = 0;
    while ((1 << h) < n)
        h++;
    return h;
}

/* The binomial reduction of `count` elements of type with s->op... into `result` at `root`:
 * input is this rank's data (read-only); on the root the result lands in result. When
 * acc_in_result, every rank may use its own `result` buffer as its accumulator (allreduce:
 * it is overwritten afterwards anyway). Non-commutative operations are reduced in rank
 * order (the tree is rooted at 0 and 0 sends the result to root). */
void loom__tree_reduce(struct loom_sched *s, const void *input, void *result, size_t count,
                       struct loom_datatype *type, struct loom_op *op, int root,
                       int acc_in_result);
/* The binomial broadcast of buf (count elements of type) from root. */
void loom__tree_bcast(struct loom_sched *s, void *buf, size_t count, struct loom_datatype *type,
                      int root);

/* A block of a call's buffer: address, count and type (blocks.c). */
struct loom_coll_blk {
    void *p;
    size_t c;
    struct loom_datatype *t;
};
/* Peer r's block of a's receive buffer (allgather(v): the block holding r's data; alltoall
 * family: the block from r), and a's send block for peer r (alltoall family, not in place). */
struct loom_coll_blk loom__coll_rblock(enum loom_coll_kind k, const struct loom_coll_args *a,
                                       int r);
struct loom_coll_blk loom__coll_sblock(enum loom_coll_kind k, const struct loom_coll_args *a,
                                       int r);
/* allgather(v): copy the calling rank's send buffer into its own receive block (a schedule
 * step of the current round); nothing in place. */
void loom__coll_own_into_place(struct loom_sched *s, enum loom_coll_kind k,
                               const struct loom_coll_args *a);

/* ---- issue 6, "Using the hierarchy": builders that coll.c's dispatch calls ---- */
/* bcast / reduce as a chain in rank order (alg_chain.c; LOOM_COLL_{BCAST,REDUCE}_ALGO=chain). */
void loom__alg_bcast_chain(struct loom_sched *s, const struct loom_coll_args *a);
void loom__alg_reduce_chain(struct loom_sched *s, const struct loom_coll_args *a);
struct loom_comm;
/* LOOM_COLL_HIER (alg_hier.c): when the call of `kind` on c goes through the hardware tree
 * or the network tree (barrier, bcast, reduce, allreduce, and allgather on the network tree;
 * non-commutative operations only where every group holds consecutive ranks), append its
 * rounds to s and return 1 (s->nomem tells a failure); else return 0 with s untouched, and
 * the caller builds the flat algorithm. The rounds carry no tree tags, so split-tree leaves
 * them whole. */
int loom__coll_hier_build(enum loom_coll_kind kind, struct loom_comm *c, struct loom_sched *s,
                          const struct loom_coll_args *a);
/* 1 when loom__coll_hier_build would build this call hierarchically (for a caller that has
 * another path to rule out first, such as the blocking shm collectives). */
int loom__coll_hier_applies(enum loom_coll_kind kind, struct loom_comm *c,
                            const struct loom_coll_args *a);
#endif
