/* api/win_error.c — errors on windows: the window argument, raising an error through a
 * window's handler, and MPI_Win_create_errhandler, _set_, _get_ and _call_errhandler. */
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include "api/win.h"
#include "comm/comm.h"
#include "comm/errhandler.h"

struct loom_win *loom__win_arg(const char *fn, MPI_Win win, int *rc)
{
    if (loom__win_valid(win) && win->owner == loom__self)
        return win;
    const char *why = win == MPI_WIN_NULL                           ? "is MPI_WIN_NULL"
                      : loom__object_is(win, LOOM_MAGIC_FREED)      ? "was freed"
                      : loom__win_valid(win)                        ? "is another rank's"
                                                                    : "is not a window";
    *rc = loom__api_error(MPI_COMM_SELF, fn, MPI_ERR_WIN, "window %s", why);
    return NULL;
}

/* Raise cls through handler eh on window h. */
static int raise_with(struct loom_errhandler *eh, MPI_Win h, const char *fn, int cls,
                      const char *reason)
{
    if (eh->builtin == 1 || eh->builtin == 3) {
        loom__log("%s: %s", fn, reason);
        loom__job_abort(1);
    }
    if (eh->builtin == 0 && eh->win_fn != NULL) {
        int code = cls;
        if (eh->fortran_fn)
            loom__errhandler_call_fortran(eh, h, code);
        else
            eh->win_fn(&h, &code);
    }
    return cls;
}

/* The handler runs without the window's lock held: it may set another handler. */
static int raise_on(struct loom_win *w, const char *fn, int cls, const char *reason)
{
    pthread_mutex_lock(&w->attr_lock);
    struct loom_errhandler *eh = w->errh;
    loom__errhandler_retain(eh);
    pthread_mutex_unlock(&w->attr_lock);
    int rc = raise_with(eh, w, fn, cls, reason);
    loom__errhandler_release(eh);
    return rc;
}

int loom__win_error(struct loom_win *w, const char *fn, int cls, const char *fmt, ...)
{
    char reason[512];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(reason, sizeof reason, fmt, ap);
    va_end(ap);
    return raise_on(w, fn, cls, reason);
}

int loom__win_error_code(struct loom_win *w, const char *fn, int loom_code)
{
    return raise_on(w, fn, loom__error_class(loom_code), loom__error_reason(loom_code));
}

/* 1 if eh may be attached to a window: a predefined handler or one made by
 * MPI_Win_create_errhandler. */
static int errhandler_ok(MPI_Errhandler eh)
{
    return loom__object_is(eh, LOOM_MAGIC_ERRHANDLER) &&
           (eh->builtin != 0 || eh->win_fn != NULL);
}

int loom__mpi_win_create_errhandler(MPI_Win_errhandler_function *win_errhandler_fn,
                                    MPI_Errhandler *errhandler)
{
    static const char fn[] = "MPI_Win_create_errhandler";
    LOOM_API_ENTER(fn);
    if (win_errhandler_fn == NULL || errhandler == NULL)
        return loom__api_error(MPI_COMM_SELF, fn, MPI_ERR_ARG, "%s is NULL",
                               win_errhandler_fn == NULL ? "win_errhandler_fn" : "errhandler");
    /* freed when its handle is freed and no window uses it (comm/errhandler.c) */
    struct loom_errhandler *eh = calloc(1, sizeof *eh);
    if (eh == NULL)
        return loom__api_error_code(MPI_COMM_SELF, fn, LOOM_ERR_NOMEM);
    loom__object_init(&eh->obj, LOOM_MAGIC_ERRHANDLER);
    atomic_init(&eh->refs, 1);
    eh->win_fn = win_errhandler_fn;
    *errhandler = eh;
    return MPI_SUCCESS;
}

int loom__mpi_win_set_errhandler(MPI_Win win, MPI_Errhandler errhandler)
{
    static const char fn[] = "MPI_Win_set_errhandler";
    LOOM_API_ENTER(fn);
    int rc;
    struct loom_win *w = loom__win_arg(fn, win, &rc);
    if (w == NULL)
        return rc;
    if (!errhandler_ok(errhandler))
        return loom__win_error(w, fn, MPI_ERR_ARG, "%s",
                               loom__object_is(errhandler, LOOM_MAGIC_ERRHANDLER)
                                   ? "errhandler is not a window's (made by "
                                     "MPI_Win_create_errhandler) nor a predefined one"
                                   : "errhandler is not a valid error handler");
    loom__errhandler_retain(errhandler);
    pthread_mutex_lock(&w->attr_lock);
    struct loom_errhandler *old = w->errh;
    w->errh = errhandler;
    pthread_mutex_unlock(&w->attr_lock);
    loom__errhandler_release(old);
    return MPI_SUCCESS;
}

int loom__mpi_win_get_errhandler(MPI_Win win, MPI_Errhandler *errhandler)
{
    static const char fn[] = "MPI_Win_get_errhandler";
    LOOM_API_ENTER(fn);
    int rc;
    struct loom_win *w = loom__win_arg(fn, win, &rc);
    if (w == NULL)
        return rc;
    if (errhandler == NULL)
        return loom__win_error(w, fn, MPI_ERR_ARG, "errhandler is NULL");
    /* a new reference, which the program frees with MPI_Errhandler_free */
    pthread_mutex_lock(&w->attr_lock);
    loom__errhandler_retain(w->errh);
    *errhandler = w->errh;
    pthread_mutex_unlock(&w->attr_lock);
    return MPI_SUCCESS;
}

int loom__mpi_win_call_errhandler(MPI_Win win, int errorcode)
{
    static const char fn[] = "MPI_Win_call_errhandler";
    LOOM_API_ENTER(fn);
    int rc;
    struct loom_win *w = loom__win_arg(fn, win, &rc);
    if (w == NULL)
        return rc;
    char text[MPI_MAX_ERROR_STRING];
    if (loom__api_error_text(errorcode, text) < 0)
        snprintf(text, sizeof text, "not an MPI error code");
    loom__win_error(w, fn, errorcode, "error %d: %s", errorcode, text);
    return MPI_SUCCESS;
}
