/* coll_run.h — RUN: one collective, int or big-count, blocking, nonblocking or persistent
 * (the tests/bigcount/coll_*.c twins). */
#ifndef LOOM_TEST_BIGCOUNT_COLL_RUN_H
#define LOOM_TEST_BIGCOUNT_COLL_RUN_H
#include "coll_check.h"

#define STRIP(...) __VA_ARGS__
enum { BLOCKING, NONBLOCKING, PERSISTENT, NMODES };
static const char *const modes[] = {"blocking", "nonblocking", "persistent"};

/* Run MPI_<N> (or MPI_<N>_c when wide) in `mode`: IA and CA are the argument lists of the int
 * and the _c call, in parentheses, without the request (and info). */
#define RUN(mode, wide, N, IN, IA, CA)                                                         \
    do {                                                                                       \
        MPI_Request r_ = MPI_REQUEST_NULL;                                                     \
        if ((mode) == BLOCKING) {                                                              \
            OK((wide) ? MPI_##N##_c(STRIP CA) : MPI_##N(STRIP IA));                            \
        } else if ((mode) == NONBLOCKING) {                                                    \
            OK((wide) ? MPI_##IN##_c(STRIP CA, &r_) : MPI_##IN(STRIP IA, &r_));                \
            OK(MPI_Wait(&r_, MPI_STATUS_IGNORE));                                              \
        } else {                                                                               \
            OK((wide) ? MPI_##N##_init_c(STRIP CA, MPI_INFO_NULL, &r_)                         \
                      : MPI_##N##_init(STRIP IA, MPI_INFO_NULL, &r_));                         \
            for (int k_ = 0; k_ < 2; k_++) {                                                   \
                OK(MPI_Start(&r_));                                                            \
                OK(MPI_Wait(&r_, MPI_STATUS_IGNORE));                                          \
            }                                                                                  \
            OK(MPI_Request_free(&r_));                                                         \
        }                                                                                      \
    } while (0)


/* The same for the big-count call alone. */
#define RUN_C(mode, N, IN, CA)                                                                 \
    do {                                                                                       \
        MPI_Request r_ = MPI_REQUEST_NULL;                                                     \
        if ((mode) == BLOCKING) {                                                              \
            OK(MPI_##N##_c(STRIP CA));                                                         \
        } else if ((mode) == NONBLOCKING) {                                                    \
            OK(MPI_##IN##_c(STRIP CA, &r_));                                                   \
            OK(MPI_Wait(&r_, MPI_STATUS_IGNORE));                                              \
        } else {                                                                               \
            OK(MPI_##N##_init_c(STRIP CA, MPI_INFO_NULL, &r_));                                \
            for (int k_ = 0; k_ < 2; k_++) {                                                   \
                OK(MPI_Start(&r_));                                                            \
                OK(MPI_Wait(&r_, MPI_STATUS_IGNORE));                                          \
            }                                                                                  \
            OK(MPI_Request_free(&r_));                                                         \
        }                                                                                      \
    } while (0)
#endif
