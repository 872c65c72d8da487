/* tests/dt/dt_check.h — helpers for the unit tests of the datatype engine: counting checks
 * that print got/expected, shorthands to build types through the internal constructors, and
 * the reference side: a type's byte offsets of its ints computed by the test itself, and a
 * naive copy element by element. A test's main returns dt_result(). */
#ifndef LOOM_TESTS_DT_CHECK_H
#define LOOM_TESTS_DT_CHECK_H

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/error.h"
#include "dt/dt.h"

#include "count_check.h"

/* the area's names for the shared counting checks */
#define dt_failures check_failures
static inline int dt_result(void)
{
    return check_result();
}

/* Stop the test when a constructor fails (nothing else can be checked). */
static inline struct loom_datatype *dt_must(int rc, struct loom_datatype *t, const char *what)
{
    if (rc != 0 || t == NULL) {
        fprintf(stderr, "building %s failed: %d\n", what, rc);
        exit(1);
    }
    return t;
}

static inline struct loom_datatype *dt_contig(size_t n, struct loom_datatype *old)
{
    struct loom_datatype *t = NULL;
    int rc = loom__dt_contiguous(n, old, &t);
    return dt_must(rc, t, "contiguous");
}

static inline struct loom_datatype *dt_hvector(size_t count, size_t blen, ptrdiff_t stride,
                                               struct loom_datatype *old)
{
    struct loom_datatype *t = NULL;
    int rc = loom__dt_hvector(count, blen, stride, old, MPI_COMBINER_HVECTOR, &t);
    return dt_must(rc, t, "hvector");
}

static inline struct loom_datatype *dt_hindexed(size_t count, const size_t *blens,
                                                const ptrdiff_t *disps,
                                                struct loom_datatype *old)
{
    struct loom_datatype *t = NULL;
    int rc = loom__dt_blocks(count, blens, disps, NULL, old, MPI_COMBINER_HINDEXED, &t);
    return dt_must(rc, t, "hindexed");
}

static inline struct loom_datatype *dt_struct(size_t count, const size_t *blens,
                                              const ptrdiff_t *disps,
                                              struct loom_datatype *const *types)
{
    struct loom_datatype *t = NULL;
    int rc = loom__dt_blocks(count, blens, disps, types, NULL, MPI_COMBINER_STRUCT, &t);
    return dt_must(rc, t, "struct");
}

static inline struct loom_datatype *dt_resized(struct loom_datatype *old, ptrdiff_t lb,
                                               ptrdiff_t extent)
{
    struct loom_datatype *t = NULL;
    int rc = loom__dt_resized(old, lb, extent, &t);
    return dt_must(rc, t, "resized");
}

static inline struct loom_datatype *dt_subarray(int ndims, const int *sizes, const int *subsizes,
                                                const int *starts, int order,
                                                struct loom_datatype *old)
{
    /* the dt layer takes ptrdiff_t arrays (the API converts either form of the call) */
    ptrdiff_t d[3][8];
    for (int i = 0; i < ndims && i < 8; i++) {
        d[0][i] = sizes[i];
        d[1][i] = subsizes[i];
        d[2][i] = starts[i];
    }
    struct loom_datatype *t = NULL;
    int rc = loom__dt_subarray(ndims, d[0], d[1], d[2], order, old, &t);
    return dt_must(rc, t, "subarray");
}

/* Check lb, extent, true lb, true extent and size of t. */
#define CHECK_SHAPE(t, lb_, ext_, tlb_, text_, size_)                                          \
    do {                                                                                       \
        CHECK_INT((t)->lb, lb_);                                                               \
        CHECK_INT((t)->extent, ext_);                                                          \
        CHECK_INT((t)->true_lb, tlb_);                                                         \
        CHECK_INT((t)->true_extent, text_);                                                    \
        CHECK_INT((t)->size, size_);                                                           \
    } while (0)

/* The reference side of the copy tests. A layout made of ints is described by the byte
 * offsets of its ints in stream order (computed by each test from the type's parameters,
 * without the engine); the naive copy moves int k of the source to int k of the
 * destination. */
struct dt_ref {
    const char *name;
    struct loom_datatype *type; /* built by the engine */
    size_t count;               /* elements of type */
    size_t nints;               /* ints in count elements */
    ptrdiff_t *off;             /* [nints] byte offset of each int from the buffer */
};

static inline void dt_ref_copy(char *dst, const struct dt_ref *d, const char *src,
                               const struct dt_ref *s)
{
    for (size_t k = 0; k < s->nints; k++)
        memcpy(dst + d->off[k], src + s->off[k], sizeof(int));
}

/* A simple deterministic generator (xorshift) for the random chunks. */
static inline unsigned long long dt_rand(unsigned long long *state)
{
    unsigned long long x = *state;
    x ^= x << 13;
    x ^= x >> 7;
    x ^= x << 17;
    return *state = x;
}
#endif
