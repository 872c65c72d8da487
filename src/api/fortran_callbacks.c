/* api/fortran_callbacks.c — Fortran user operations, error handlers and generalized requests
 * (fortran_callbacks.h; attributes are in fortran_attr.c).
 *
 * Each kind keeps loom's C machinery and adds the Fortran call at the one place that calls
 * the user: an operation and an error handler carry the Fortran procedure next to the C
 * function slots (coll/op.c and comm/errhandler.c call it with Fortran arguments); a
 * generalized request gets C trampolines whose extra state is a small record of the three
 * procedures and the integer extra state, freed by the free trampoline (the request calls
 * free_fn exactly once, last: p2p/grequest.h). */
#include <stdlib.h>
#include "api/api.h"
#include "api/fortran_callbacks.h"
#include "coll/op.h"
#include "comm/comm.h"
#include "p2p/grequest.h"

#define FAIL(fn, cls, ...) loom__api_error(MPI_COMM_WORLD, fn, cls, __VA_ARGS__)

/* ---- operations ---- */

static int op_create(const char *fn, loom_f_user_function *f, loom_f_user_function_c *f_c,
                     int commute, MPI_Op *op)
{
    if (f == NULL && f_c == NULL)
        return FAIL(fn, MPI_ERR_ARG, "user function is NULL");
    if (op == NULL)
        return FAIL(fn, MPI_ERR_ARG, "op pointer is NULL");
    struct loom_op *o;
    int rc = loom__op_create_fortran(f, f_c, commute, &o);
    if (rc)
        return loom__api_error_code(MPI_COMM_WORLD, fn, rc);
    *op = o;
    return MPI_SUCCESS;
}

int loom__fortran_op_create(const char *fn, loom_f_user_function *f, int commute, MPI_Op *op)
{
    LOOM_API_ENTER(fn);
    return op_create(fn, f, NULL, commute, op);
}

int loom__fortran_op_create_c(const char *fn, loom_f_user_function_c *f, int commute,
                              MPI_Op *op)
{
    LOOM_API_ENTER(fn);
    return op_create(fn, NULL, f, commute, op);
}

/* ---- error handlers ---- */

/* The C call made the handler (its checks, its kind's slot, which holds f cast to the C
 * type to mark the kind and is never called through); then the Fortran procedure is set
 * before the handle is returned to anyone. */
static int errhandler_done(int rc, loom_f_errhandler *f, MPI_Errhandler *eh)
{
    if (rc == MPI_SUCCESS)
        (*eh)->fortran_fn = f;
    return rc;
}

int loom__fortran_comm_create_errhandler(const char *fn, loom_f_errhandler *f,
                                         MPI_Errhandler *eh)
{
    if (f == NULL || eh == NULL) {
        LOOM_API_ENTER(fn);
        return FAIL(fn, MPI_ERR_ARG, "%s is NULL", f == NULL ? "function" : "errhandler");
    }
    int rc = loom__mpi_comm_create_errhandler((MPI_Comm_errhandler_function *)(void (*)(void))f,
                                              eh);
    return errhandler_done(rc, f, eh);
}

int loom__fortran_win_create_errhandler(const char *fn, loom_f_errhandler *f,
                                        MPI_Errhandler *eh)
{
    if (f == NULL || eh == NULL) {
        LOOM_API_ENTER(fn);
        return loom__api_error(MPI_COMM_SELF, fn, MPI_ERR_ARG, "%s is NULL",
                               f == NULL ? "function" : "errhandler");
    }
    int rc = loom__mpi_win_create_errhandler((MPI_Win_errhandler_function *)(void (*)(void))f,
                                             eh);
    return errhandler_done(rc, f, eh);
}

int loom__fortran_session_create_errhandler(const char *fn, loom_f_errhandler *f,
                                            MPI_Errhandler *eh)
{
    if (f == NULL || eh == NULL) {
        LOOM_API_ENTER(fn);
        return loom__api_error(MPI_COMM_SELF, fn, MPI_ERR_ARG, "%s is NULL",
                               f == NULL ? "function" : "errhandler");
    }
    int rc = loom__mpi_session_create_errhandler(
        (MPI_Session_errhandler_function *)(void (*)(void))f, eh);
    return errhandler_done(rc, f, eh);
}

/* ---- generalized requests ---- */

/* The Fortran side of one generalized request: the C callbacks' extra state. Written before
 * the request is published, read-only after; freed by greq_free. */
struct fgreq {
    loom_f_grequest_query *query;
    loom_f_grequest_free *free;
    loom_f_grequest_cancel *cancel;
    MPI_Aint extra;
};

static int greq_query(void *extra_state, MPI_Status *status)
{
    struct fgreq *g = extra_state;
    MPI_Fint fs[MPI_F_STATUS_SIZE], ierr = MPI_SUCCESS;
    MPI_Aint extra = g->extra;
    loom__mpi_status_c2f(status, fs); /* what the procedure leaves unset stays as it was */
    g->query(&extra, fs, &ierr);
    loom__mpi_status_f2c(fs, status);
    return ierr;
}

static int greq_free(void *extra_state)
{
    struct fgreq *g = extra_state;
    MPI_Fint ierr = MPI_SUCCESS;
    MPI_Aint extra = g->extra;
    g->free(&extra, &ierr);
    free(g); /* the last callback of the request */
    return ierr;
}

static int greq_cancel(void *extra_state, int complete)
{
    struct fgreq *g = extra_state;
    MPI_Fint fcomplete = complete != 0, ierr = MPI_SUCCESS;
    MPI_Aint extra = g->extra;
    g->cancel(&extra, &fcomplete, &ierr);
    return ierr;
}

int loom__fortran_grequest_start(const char *fn, loom_f_grequest_query *q,
                                 loom_f_grequest_free *f, loom_f_grequest_cancel *c,
                                 MPI_Aint extra, MPI_Request *req)
{
    LOOM_API_ENTER(fn);
    if (req == NULL)
        return loom__api_error(MPI_COMM_SELF, fn, MPI_ERR_ARG, "request is NULL");
    if (q == NULL || f == NULL || c == NULL)
        return loom__api_error(MPI_COMM_SELF, fn, MPI_ERR_ARG, "%s is NULL",
                               q == NULL ? "query_fn" : f == NULL ? "free_fn" : "cancel_fn");
    struct fgreq *g = malloc(sizeof *g); /* freed by greq_free */
    if (g == NULL)
        return loom__api_error_code(MPI_COMM_SELF, fn, LOOM_ERR_NOMEM);
    *g = (struct fgreq){q, f, c, extra};
    struct loom_request *r = loom__greq_new(greq_query, greq_free, greq_cancel, g);
    if (r == NULL) {
        free(g);
        return loom__api_error_code(MPI_COMM_SELF, fn, LOOM_ERR_NOMEM);
    }
    *req = r;
    return MPI_SUCCESS;
}
