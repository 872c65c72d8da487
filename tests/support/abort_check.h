/* abort_check.h — a check with a message, for test programs whose ranks run in several node
 * processes: a failed check prints the world rank and the message, then MPI_Abort ends the
 * whole job (every node process), so no rank waits forever for a peer that stopped. */
#ifndef LOOM_TEST_ABORT_CHECK_H
#define LOOM_TEST_ABORT_CHECK_H
#include <mpi.h>
#include <stdio.h>

#define CHECK_MSG(cond, ...)                                                                   \
    do {                                                                                       \
        if (!(cond)) {                                                                         \
            int rank_;                                                                         \
            MPI_Comm_rank(MPI_COMM_WORLD, &rank_);                                             \
            fprintf(stderr, "rank %d: ", rank_);                                               \
            fprintf(stderr, __VA_ARGS__);                                                      \
            fprintf(stderr, "\n");                                                             \
            MPI_Abort(MPI_COMM_WORLD, 1);                                                      \
        }                                                                                      \
    } while (0)
#endif
