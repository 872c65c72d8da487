/* comm_check.h — helpers for the communicator, group, attribute and info tests (tests/comm).
 * Builds on check.h: a failed check prints what came and what was expected and ends the job
 * with status 99. */
#ifndef LOOM_TEST_COMM_CHECK_H
#define LOOM_TEST_COMM_CHECK_H
#include <string.h>
#include <mpi.h>
#include "check.h"

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

/* A call that must succeed. */
#define OK(call) CHECK_INT((call), MPI_SUCCESS)

static inline int world_rank(void)
{
    int r;
    OK(MPI_Comm_rank(MPI_COMM_WORLD, &r));
    return r;
}

static inline int world_size(void)
{
    int n;
    OK(MPI_Comm_size(MPI_COMM_WORLD, &n));
    return n;
}
#endif
