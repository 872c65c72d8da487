/* class_check.h — EXPECT(call, class): the call's error class is exactly `class` (under
 * MPI_ERRORS_RETURN); otherwise print where, the call, both classes, and end the job with 99. */
#ifndef LOOM_TEST_CLASS_CHECK_H
#define LOOM_TEST_CLASS_CHECK_H
#include <stdio.h>
#include <unistd.h>
#include "mpi.h"

#define EXPECT(call, cls)                                                                      \
    do {                                                                                       \
        int rc_ = (call);                                                                      \
        int c_ = -1;                                                                           \
        MPI_Error_class(rc_, &c_);                                                             \
        if (c_ != (cls)) {                                                                     \
            fprintf(stderr, "%s:%d: %s gave class %d, expected %s (%d)\n", __FILE__, __LINE__,  \
                    #call, c_, #cls, (cls));                                                   \
            fflush(NULL);                                                                      \
            _exit(99);                                                                         \
        }                                                                                      \
    } while (0)
#endif
