/* small_check.h — helpers for tests/small: a call that must succeed, a call that must fail
 * with a given class (MPI_ERRORS_RETURN in effect). Builds on check.h (ends the job with 99). */
#ifndef LOOM_TEST_SMALL_CHECK_H
#define LOOM_TEST_SMALL_CHECK_H
#include <stdio.h>
#include <mpi.h>
#include "check.h"

#define OK(call) CHECK_INT((call), MPI_SUCCESS)

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
#endif
