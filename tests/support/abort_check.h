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

/* A call that must succeed (under MPI_ERRORS_RETURN too): its class and text otherwise. */
#define CHECK_OK(call)                                                                         \
    do {                                                                                       \
        int rc_ = (call), len_ = 0;                                                            \
        char text_[MPI_MAX_ERROR_STRING] = "";                                                 \
        if (rc_ != MPI_SUCCESS)                                                                \
            MPI_Error_string(rc_, text_, &len_);                                               \
        CHECK_MSG(rc_ == MPI_SUCCESS, "%s returned %d (%s)", #call, rc_, text_);               \
    } while (0)
#endif
