/* api/win.h — what the one-sided entry points share (api/win_*.c, api/rma_*.c): the window
 * argument and raising errors on a window.
 *
 * An error of a call on a valid window goes to the window's error handler (MPI 4.1 section
 * 9.3; MPI_ERRORS_ARE_FATAL unless the program set another); an invalid window handle is
 * reported on MPI_COMM_SELF, like every error not tied to a usable object; the creation calls
 * report on their communicator. */
#ifndef LOOM_API_WIN_H
#define LOOM_API_WIN_H
#include "api/api.h"
#include "rma/rma.h"

/* The calling rank's window behind handle `win`, or NULL after reporting MPI_ERR_WIN (in
 * *rc): MPI_WIN_NULL, freed, not a window, or another rank's. */
struct loom_win *loom__win_arg(const char *fn, MPI_Win win, int *rc);
/* Raise class cls for call fn on window w (valid) through its error handler: the one-line
 * reason (default handler: "loom: rank R: fn: reason", then the job ends). Returns cls when
 * the handler returns. */
int loom__win_error(struct loom_win *w, const char *fn, int cls, const char *fmt, ...)
    __attribute__((format(printf, 4, 5)));
/* Same, for a negative loom code (its class and reason from the error table). */
int loom__win_error_code(struct loom_win *w, const char *fn, int loom_code);

/* The checks of a communication call (api/rma_args.c), each MPI_SUCCESS or the class it
 * reported on w. In this order: */
/* side ("origin", "target", "result"): count not negative, datatype usable. */
int loom__rma_check_side(struct loom_win *w, const char *fn, const char *side, MPI_Count count,
                         MPI_Datatype type);
/* target_rank in the window or MPI_PROC_NULL, target_disp not negative. */
int loom__rma_check_target_args(struct loom_win *w, const char *fn, int rank, MPI_Aint disp);
/* The side's data and the target's have the same size (their type signatures match). */
int loom__rma_check_sizes(struct loom_win *w, const char *fn, const char *side, MPI_Count count,
                          MPI_Datatype type, MPI_Count tcount, MPI_Datatype ttype);
/* Accumulates: the target datatype is made of one predefined type and the side's (NULL:
 * none) of the same; op is a predefined operation defined on it (or REPLACE, NO_OP). */
int loom__rma_check_acc_types(struct loom_win *w, const char *fn, const char *side,
                              MPI_Datatype type, MPI_Datatype ttype);
int loom__rma_check_op(struct loom_win *w, const char *fn, MPI_Op op, MPI_Datatype ttype);
/* Last: the origin may access target `rank` now (passive: only in a passive-target epoch)
 * and the target data lies in its window; *taddr is where. rank is not MPI_PROC_NULL. */
int loom__rma_locate(struct loom_win *w, const char *fn, int rank, MPI_Aint disp,
                     MPI_Count count, MPI_Datatype type, int passive, char **taddr);
/* A request complete at birth (MPI_PROC_NULL targets, accumulates done in the call), not yet
 * handed out. 0 or LOOM_ERR_NOMEM. */
struct loom_request;
int loom__rma_request_done(struct loom_request **out);
/* A new request of a request-based operation, incomplete (what it starts completes it), or
 * NULL. */
struct loom_request *loom__rma_request_new(void);
/* The end of a request-based operation's call that started it with loom code rc: on success
 * req (if any) goes to *request; on failure req is discarded and the error reported on w. */
int loom__rma_request_out(struct loom_win *w, const char *fn, int rc, struct loom_request *req,
                          MPI_Request *request);
#endif
