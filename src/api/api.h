/* api/api.h — what every MPI_* entry point uses: argument checks and error reporting.
 *
 * An entry point checks its arguments in order and, on the first bad one, returns
 *     return loom__api_error(comm, "MPI_Send", MPI_ERR_RANK, "rank %d out of range (size %d)", ...);
 * which formats the one-line reason, calls the communicator's error handler (MPI_COMM_WORLD's
 * when comm is NULL or not a valid communicator) and returns the class for MPI_ERRORS_RETURN.
 * The fatal handler prints `loom: rank R: MPI_Xxx: <reason>` and ends the job. */
#ifndef LOOM_API_API_H
#define LOOM_API_API_H
#include <string.h>
#include "mpi.h"
#include "api/mpi_impl.h" /* loom__mpi_xxx: the implementation of MPI_Xxx (generated) */
#include "core/error.h"
#include "core/atomic.h"
#include "core/rank.h"
#include "core/trace.h" /* LOOM_TRACE_API_SCOPE: MPI call enter/exit for LOOM_TRACE/STATS */
#include "p2p/batch.h"  /* loom__batch_flush_mine */

/* Report an error of class errclass raised by call fn, through the error handler of comm
 * (a user handle: may be MPI_COMM_WORLD/SELF/NULL). Returns errclass when the handler returns. */
int loom__api_error(MPI_Comm comm, const char *fn, int errclass, const char *fmt, ...)
    __attribute__((format(printf, 4, 5)));
/* Same, for a negative loom code from a lower layer (class and reason from the error table). */
int loom__api_error_code(MPI_Comm comm, const char *fn, int loom_code);

/* The text of error code or class `code` (predefined, or added by the program: "" until
 * MPI_Add_error_string) into text[MPI_MAX_ERROR_STRING]: its length, or -1 when code is not
 * an MPI error code. Any thread, before MPI_Init too. */
int loom__api_error_text(int code, char *text);
/* The class of error code `code`, or -1 when it is not an MPI error code. */
int loom__api_error_class_of(int code);

/* 1 when fn, the name of the call that reached an implementation shared by an int call and
 * its big-count twin (docs/bindings.md "Big counts"), is the big-count one, MPI_Xxx_c: for
 * what the standard makes depend on which was called (the record of a datatype's
 * constructor). */
static inline int loom__api_big_count(const char *fn)
{
    size_t n = strlen(fn);
    return n > 2 && fn[n - 2] == '_' && fn[n - 1] == 'c';
}

/* 1 if the calling thread is a rank between MPI_Init and MPI_Finalize. */
static inline __attribute__((always_inline)) int loom__api_rank_ready(void)
{
    struct loom_rank *me = loom__self;
    return me != 0 && loom__load_relaxed(&me->state) == LOOM_RANK_INITIALIZED;
}

/* 0 if the calling thread is a rank between MPI_Init and MPI_Finalize; otherwise reports
 * MPI_ERR_OTHER ("called before MPI_Init" / "after MPI_Finalize" / "outside a loom rank")
 * through the fatal path and returns that class. Use: LOOM_API_ENTER("MPI_Send"); */
int loom__api_check_initialized(const char *fn);
#define LOOM_API_ENTER(fn)                                                                     \
    LOOM_API_ENTER_KEEP_BATCH(fn);                                                             \
    loom__batch_flush_mine() /* the thread's batch of small messages goes out (batch.h) */
/* LOOM_API_ENTER without publishing the calling thread's batch: for the nonblocking sends,
 * which may add to it. */
#define LOOM_API_ENTER_KEEP_BATCH(fn)                                                          \
    LOOM_TRACE_API_SCOPE(fn); /* trace/stats: the exit is recorded on every return path */    \
    do {                                                                                       \
        if (__builtin_expect(!loom__api_rank_ready(), 0)) {                                    \
            int loom_api_rc_ = loom__api_check_initialized(fn);                                \
            if (loom_api_rc_ != MPI_SUCCESS)                                                   \
                return loom_api_rc_;                                                           \
        }                                                                                      \
    } while (0)

/* 1 when a call may take a fast path without LOOM_API_ENTER's bookkeeping: no trace is being
 * recorded and the calling thread is an initialized rank. A call that takes its fast path only
 * when this holds, and otherwise calls out of line a function that starts with
 * LOOM_API_ENTER, keeps the checks and the trace of the full path while its fast path holds
 * no scope: the compiler then keeps that path free of register saves (the latency-bound
 * one-sided calls, api/rma_ops.c). */
static inline __attribute__((always_inline)) int loom__api_fast_ok(void)
{
    return !loom__load_relaxed(&loom__trace_enabled) && loom__api_rank_ready();
}
/* loom__api_fast_ok for a call on an object that names the rank it belongs to (a window's
 * owner, never NULL): 1 when the calling thread is that rank, initialized, and no trace is
 * recorded. The comparison with the owner, which the fast path makes anyway, stands for the
 * test of a NULL self. */
static inline __attribute__((always_inline)) int loom__api_fast_as(struct loom_rank *owner)
{
    return owner == loom__self &&
           loom__load_relaxed(&owner->state) == LOOM_RANK_INITIALIZED &&
           !loom__load_relaxed(&loom__trace_enabled);
}
/* The owner check of a fast path shared by an entry point (`entry`: loom__api_fast_as, the
 * entry's first check) and by its full path after LOOM_API_ENTER (the calling rank only). */
static inline __attribute__((always_inline)) int loom__api_owner_ok(struct loom_rank *owner,
                                                                    int entry)
{
    return entry ? loom__api_fast_as(owner) : owner == loom__self;
}
#endif
