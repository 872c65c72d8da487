/* misc_check.h — helpers for tests/misc: a call that must succeed, a call that must fail with
 * a given class (MPI_ERRORS_RETURN in effect). Builds on check.h (ends the job with 99). */
#ifndef LOOM_TEST_MISC_CHECK_H
#define LOOM_TEST_MISC_CHECK_H
#include <stdio.h>
#include <string.h>
#include <mpi.h>
#include "check.h"

#define OK(call)                                                                               \
    do {                                                                                       \
        int rc_ = (call);                                                                      \
        if (rc_ != MPI_SUCCESS) {                                                              \
            fprintf(stderr, "%s:%d: %s returned %d, expected MPI_SUCCESS\n", __FILE__,         \
                    __LINE__, #call, rc_);                                                     \
            fflush(NULL);                                                                      \
            _exit(99);                                                                         \
        }                                                                                      \
    } while (0)

#define FAILS(call, cls)                                                                       \
    do {                                                                                       \
        int rc_ = (call), cls_ = -1;                                                           \
        MPI_Error_class(rc_, &cls_);                                                           \
        if (rc_ == MPI_SUCCESS || cls_ != (cls)) {                                             \
            fprintf(stderr, "%s:%d: %s returned %d (class %d), expected %s (%d)\n", __FILE__,  \
                    __LINE__, #call, rc_, cls_, #cls, (int)(cls));                             \
            fflush(NULL);                                                                      \
            _exit(99);                                                                         \
        }                                                                                      \
    } while (0)

#define CHECK_STR(got, want)                                                                   \
    do {                                                                                       \
        const char *got_ = (got), *want_ = (want);                                             \
        if (strcmp(got_, want_) != 0) {                                                        \
            fprintf(stderr, "%s:%d: %s is \"%s\", expected \"%s\"\n", __FILE__, __LINE__, #got, \
                    got_, want_);                                                              \
            fflush(NULL);                                                                      \
            _exit(99);                                                                         \
        }                                                                                      \
    } while (0)
#endif
