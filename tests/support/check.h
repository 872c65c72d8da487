/* check.h — assertions for loom's test programs. A failed check prints where, what was
 * expected and what came, then ends the job with status 99 so no rank waits forever. */
#ifndef LOOM_TEST_CHECK_H
#define LOOM_TEST_CHECK_H
#include <stdio.h>
#include <stdlib.h>
#include <unistd.h>

#define CHECK(cond)                                                                            \
    do {                                                                                       \
        if (!(cond)) {                                                                         \
            fprintf(stderr, "%s:%d: check failed: %s\n", __FILE__, __LINE__, #cond);           \
            fflush(NULL);                                                                      \
            _exit(99);                                                                         \
        }                                                                                      \
    } while (0)

#define CHECK_INT(got, want)                                                                   \
    do {                                                                                       \
        long long got_ = (long long)(got), want_ = (long long)(want);                          \
        if (got_ != want_) {                                                                   \
            fprintf(stderr, "%s:%d: %s is %lld, expected %lld\n", __FILE__, __LINE__, #got,    \
                    got_, want_);                                                              \
            fflush(NULL);                                                                      \
            _exit(99);                                                                         \
        }                                                                                      \
    } while (0)
#endif
