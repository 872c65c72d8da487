/* coll_check.h — helpers for the collective tests (tests/coll): checked calls, a way to run
 * one call blocking or nonblocking (completed by Wait or by a Test loop), and value patterns
 * that tell every rank's and every element's data apart. Builds on check.h. */
#ifndef LOOM_TEST_COLL_CHECK_H
#define LOOM_TEST_COLL_CHECK_H
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <mpi.h>
#include "check.h"

#if defined(__GNUC__) && !defined(__clang__)
#pragma GCC diagnostic ignored "-Wstringop-overflow"
#endif

/* A call that must succeed. */
#define OK(call)                                                                               \
    do {                                                                                       \
        int rc_ = (call);                                                                      \
        if (rc_ != MPI_SUCCESS) {                                                              \
            char text_[MPI_MAX_ERROR_STRING];                                                  \
            int len_ = 0;                                                                      \
            text_[0] = 0;                                                                      \
            MPI_Error_string(rc_, text_, &len_);                                               \
            fprintf(stderr, "%s:%d: %s returned %d (%s)\n", __FILE__, __LINE__, #call, rc_,    \
                    text_);                                                                    \
            fflush(NULL);                                                                      \
            _exit(99);                                                                         \
        }                                                                                      \
    } while (0)

/* How a collective is run: MODE_BLOCKING, MODE_WAIT (MPI_I* + MPI_Wait), MODE_TEST (MPI_I* +
 * an MPI_Test loop). */
enum { MODE_BLOCKING, MODE_WAIT, MODE_TEST, MODE_COUNT_ };
static const char *const mode_name[] = {"blocking", "wait", "test"};

static inline void complete(MPI_Request *r, int mode)
{
    if (mode == MODE_WAIT) {
        OK(MPI_Wait(r, MPI_STATUS_IGNORE));
    } else {
        int flag = 0;
        while (!flag)
            OK(MPI_Test(r, &flag, MPI_STATUS_IGNORE));
    }
    CHECK(*r == MPI_REQUEST_NULL);
}

/* COLL(mode, Bcast, bcast, args...): MPI_Bcast(args) or MPI_Ibcast(args, &r) + complete. */
#define COLL(mode, Name, name, ...)                                                            \
    do {                                                                                       \
        if ((mode) == MODE_BLOCKING) {                                                         \
            OK(MPI_##Name(__VA_ARGS__));                                                       \
        } else {                                                                               \
            MPI_Request r_ = MPI_REQUEST_NULL;                                                 \
            OK(MPI_I##name(__VA_ARGS__, &r_));                                                 \
            complete(&r_, (mode));                                                             \
        }                                                                                      \
    } while (0)

/* The value of element i of rank r's contribution (distinct, small enough to sum). */
static inline int val(int r, long i)
{
    return (r + 1) * 1000 + (int)(i % 997);
}

/* The error class of rc must be `want` (under MPI_ERRORS_RETURN), or the job ends. */
static inline void expect_class(int rc, int want, const char *what, int me)
{
    int cls = MPI_SUCCESS;
    if (rc != MPI_SUCCESS)
        MPI_Error_class(rc, &cls);
    if (cls != want) {
        fprintf(stderr, "rank %d: %s: error class %d, expected %d\n", me, what, cls, want);
        MPI_Abort(MPI_COMM_WORLD, 1);
    }
}

/* Compare n ints with what was expected, naming the case. */
#define CHECK_INTS(got, want, n, what)                                                         \
    do {                                                                                       \
        for (long k_ = 0; k_ < (long)(n); k_++) {                                              \
            if ((got)[k_] != (want)[k_]) {                                                     \
                fprintf(stderr, "%s:%d: %s: element %ld is %d, expected %d\n", __FILE__,       \
                        __LINE__, (what), k_, (got)[k_], (want)[k_]);                          \
                fflush(NULL);                                                                  \
                _exit(99);                                                                     \
            }                                                                                  \
        }                                                                                      \
    } while (0)
#endif
