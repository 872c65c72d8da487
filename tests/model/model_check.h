/* tests/model/model_check.h — assertions for the split-tree model tests: each check prints
 * what it got and what it expected and counts a failure; main returns model_result(). */
#ifndef LOOM_TESTS_MODEL_CHECK_H
#define LOOM_TESTS_MODEL_CHECK_H

#include <math.h>
#include <stdio.h>

#include "coll/model.h"

static int model_failures;

#define CHECK_INT(got, want)                                                                 \
    do {                                                                                     \
        long g_ = (long)(got), w_ = (long)(want);                                            \
        if (g_ != w_) {                                                                      \
            fprintf(stderr, "%s:%d: %s: got %ld, expected %ld\n", __FILE__, __LINE__, #got,  \
                    g_, w_);                                                                 \
            model_failures++;                                                                \
        }                                                                                    \
    } while (0)

#define CHECK(cond)                                                                          \
    do {                                                                                     \
        if (!(cond)) {                                                                       \
            fprintf(stderr, "%s:%d: check failed: %s\n", __FILE__, __LINE__, #cond);         \
            model_failures++;                                                                \
        }                                                                                    \
    } while (0)

#define CHECK_DBL(got, want)                                                                 \
    do {                                                                                     \
        double g_ = (got), w_ = (want);                                                      \
        if (!(fabs(g_ - w_) <= 1e-9 * (fabs(w_) > 1 ? fabs(w_) : 1)) &&                     \
            !(isinf(g_) && isinf(w_))) {                                                     \
            fprintf(stderr, "%s:%d: %s: got %.9g, expected %.9g\n", __FILE__, __LINE__, #got, \
                    g_, w_);                                                                 \
            model_failures++;                                                                \
        }                                                                                    \
    } while (0)

static inline int model_result(void)
{
    if (model_failures)
        fprintf(stderr, "%d check(s) failed\n", model_failures);
    return model_failures ? 1 : 0;
}
#endif
