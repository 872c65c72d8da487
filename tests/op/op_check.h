/* tests/op/op_check.h — helpers for the unit tests of the reduction operations: counting
 * checks that print got/expected, the predefined operations by kind, and shorthands to build
 * derived types through the internal constructors. A test's main returns op_result(). */
#ifndef LOOM_TESTS_OP_CHECK_H
#define LOOM_TESTS_OP_CHECK_H

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "coll/op.h"
#include "core/error.h"
#include "dt/dt.h"

#include "count_check.h"

/* the area's names for the shared counting checks */
#define op_failures check_failures
static inline int op_result(void)
{
    return check_result();
}

/* The predefined operations, indexed by enum loom_op_kind. */
static struct loom_op *const op_by_kind[LOOM_OP_NKINDS] = {
    &loom_mpi_max,  &loom_mpi_min,  &loom_mpi_sum,    &loom_mpi_prod,    &loom_mpi_land,
    &loom_mpi_band, &loom_mpi_lor,  &loom_mpi_bor,    &loom_mpi_lxor,    &loom_mpi_bxor,
    &loom_mpi_minloc, &loom_mpi_maxloc, &loom_mpi_replace, &loom_mpi_no_op};

/* Stop the test when a constructor fails (nothing else can be checked). */
static inline struct loom_datatype *op_must(int rc, struct loom_datatype *t, const char *what)
{
    if (rc != 0 || t == NULL) {
        fprintf(stderr, "building %s failed: %d\n", what, rc);
        exit(1);
    }
    return t;
}

static inline struct loom_datatype *mk_contig(size_t n, struct loom_datatype *old)
{
    struct loom_datatype *t = NULL;
    int rc = loom__dt_contiguous(n, old, &t);
    return op_must(rc, t, "contiguous");
}

static inline struct loom_datatype *mk_hvector(size_t count, size_t blen, ptrdiff_t stride,
                                               struct loom_datatype *old)
{
    struct loom_datatype *t = NULL;
    int rc = loom__dt_hvector(count, blen, stride, old, MPI_COMBINER_HVECTOR, &t);
    return op_must(rc, t, "hvector");
}

static inline struct loom_datatype *mk_struct(size_t count, const size_t *blens,
                                              const ptrdiff_t *disps,
                                              struct loom_datatype *const *types)
{
    struct loom_datatype *t = NULL;
    int rc = loom__dt_blocks(count, blens, disps, types, NULL, MPI_COMBINER_STRUCT, &t);
    return op_must(rc, t, "struct");
}

static inline struct loom_datatype *mk_resized(struct loom_datatype *old, ptrdiff_t lb,
                                               ptrdiff_t extent)
{
    struct loom_datatype *t = NULL;
    int rc = loom__dt_resized(old, lb, extent, &t);
    return op_must(rc, t, "resized");
}
#endif
