/* count_check.h — counting checks for unit tests that go on after a failure: each failed
 * check prints where, what was expected and what came, and counts; main returns
 * check_result(). (check.h is the other kind: the first failure ends the job, for MPI
 * programs where a rank must not wait for the others.) */
#ifndef LOOM_TESTS_COUNT_CHECK_H
#define LOOM_TESTS_COUNT_CHECK_H
#include <stdio.h>

static int check_failures;

#define CHECK(cond)                                                                            \
    do {                                                                                       \
        if (!(cond)) {                                                                         \
            fprintf(stderr, "%s:%d: check failed: %s\n", __FILE__, __LINE__, #cond);           \
            check_failures++;                                                                  \
        }                                                                                      \
    } while (0)

#define CHECK_INT(got, want)                                                                   \
    do {                                                                                       \
        long long g_ = (long long)(got), w_ = (long long)(want);                               \
        if (g_ != w_) {                                                                        \
            fprintf(stderr, "%s:%d: %s: got %lld, expected %lld\n", __FILE__, __LINE__, #got,  \
                    g_, w_);                                                                   \
            check_failures++;                                                                  \
        }                                                                                      \
    } while (0)

static inline int check_result(void)
{
    if (check_failures)
        fprintf(stderr, "%d check(s) failed\n", check_failures);
    return check_failures ? 1 : 0;
}
#endif
