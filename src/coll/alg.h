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
#endif
