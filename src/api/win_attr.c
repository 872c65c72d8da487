/* api/win_attr.c — attributes and names of windows: MPI_Win_create_keyval, _free_keyval,
 * _set_attr, _get_attr, _delete_attr, the predefined attributes (MPI_WIN_BASE, MPI_WIN_SIZE,
 * MPI_WIN_DISP_UNIT, MPI_WIN_CREATE_FLAVOR, MPI_WIN_MODEL), MPI_Win_set_name and
 * MPI_Win_get_name, on the generic attribute machinery of comm/attr.c (keyvals of kind
 * LOOM_ATTR_WIN: a communicator's or a datatype's keyval on a window is MPI_ERR_KEYVAL).
 *
 * A window's list is guarded by its attr_lock; callbacks run without it. No window is ever
 * copied, so a window keyval's copy callback is never called. */
#include <string.h>
#include "api/win.h"
#include "comm/comm.h"

int MPI_WIN_NULL_COPY_FN(MPI_Win oldwin, int keyval, void *extra_state, void *in, void *out,
                         int *flag)
{
    (void)oldwin, (void)keyval, (void)extra_state, (void)in, (void)out;
    *flag = 0;
    return MPI_SUCCESS;
}

int MPI_WIN_DUP_FN(MPI_Win oldwin, int keyval, void *extra_state, void *in, void *out,
                   int *flag)
{
    (void)oldwin, (void)keyval, (void)extra_state;
    *(void **)out = in;
    *flag = 1;
    return MPI_SUCCESS;
}

int MPI_WIN_NULL_DELETE_FN(MPI_Win win, int keyval, void *val, void *extra_state)
{
    (void)win, (void)keyval, (void)val, (void)extra_state;
    return MPI_SUCCESS;
}

static struct loom_attr_host host(struct loom_win *w)
{
    return (struct loom_attr_host){LOOM_ATTR_WIN, w, &w->attrs, &w->attr_lock, 0};
}

static int is_window_key(int id)
{
    return id >= MPI_WIN_BASE && id <= MPI_WIN_MODEL;
}

/* Why keyval id is unusable on a window (NULL if usable); *kv gets it when usable. */
static const char *keyval_problem(int id, int allow_freed, struct loom_keyval **kv)
{
    if (is_window_key(id))
        return "is a predefined window attribute, which cannot be set or deleted";
    if (loom__keyval_is_predefined(id))
        return "is a predefined communicator keyval";
    *kv = loom__keyval_get(id, 1);
    if (*kv == NULL)
        return id == MPI_KEYVAL_INVALID ? "is MPI_KEYVAL_INVALID" : "does not exist";
    if ((*kv)->kind != LOOM_ATTR_WIN)
        return "is not a window keyval";
    if (!allow_freed && loom__load_relaxed(&(*kv)->freed))
        return "was freed";
    return NULL;
}

/* Error class for the code a user callback returned. */
static int callback_class(int rc)
{
    return rc > 0 && rc <= MPI_ERR_LASTCODE ? rc : MPI_ERR_OTHER;
}

/* The keyval argument of a call on window w: its keyval in *kv, or NULL after reporting
 * MPI_ERR_KEYVAL in *rc. */
static struct loom_keyval *keyval_arg(struct loom_win *w, const char *fn, int id, int allow_freed,
                                      int *rc)
{
    struct loom_keyval *kv = NULL;
    const char *why = keyval_problem(id, allow_freed, &kv);
    if (why != NULL) {
        *rc = loom__win_error(w, fn, MPI_ERR_KEYVAL, "keyval %d %s", id, why);
        return NULL;
    }
    return kv;
}

/* What an attribute operation on w returned: MPI_SUCCESS, or the error reported (a negative
 * loom code, or the code a delete callback of keyval id returned). */
static int attr_result(struct loom_win *w, const char *fn, int id, int rc)
{
    if (rc < 0)
        return loom__win_error_code(w, fn, rc);
    if (rc > 0)
        return loom__win_error(w, fn, callback_class(rc),
                               "the delete callback of keyval %d returned error %d", id, rc);
    return MPI_SUCCESS;
}

int loom__mpi_win_create_keyval(MPI_Win_copy_attr_function *win_copy_attr_fn,
                                MPI_Win_delete_attr_function *win_delete_attr_fn,
                                int *win_keyval, void *extra_state)
{
    static const char fn[] = "MPI_Win_create_keyval";
    LOOM_API_ENTER(fn);
    if (win_keyval == NULL)
        return loom__api_error(MPI_COMM_SELF, fn, MPI_ERR_ARG, "win_keyval is NULL");
    if (win_delete_attr_fn == MPI_WIN_NULL_DELETE_FN)
        win_delete_attr_fn = NULL; /* acts as no callback: skip the call */
    int rc = loom__keyval_create_win(win_copy_attr_fn, win_delete_attr_fn, extra_state,
                                     win_keyval);
    return rc ? loom__api_error_code(MPI_COMM_SELF, fn, rc) : MPI_SUCCESS;
}

int loom__mpi_win_free_keyval(int *win_keyval)
{
    static const char fn[] = "MPI_Win_free_keyval";
    LOOM_API_ENTER(fn);
    if (win_keyval == NULL)
        return loom__api_error(MPI_COMM_SELF, fn, MPI_ERR_ARG, "win_keyval is NULL");
    struct loom_keyval *kv = NULL;
    const char *why = keyval_problem(*win_keyval, 0, &kv);
    if (why != NULL)
        return loom__api_error(MPI_COMM_SELF, fn, MPI_ERR_KEYVAL, "keyval %d %s", *win_keyval,
                               why);
    int expected = 0;
    if (!loom__cas_acq_rel(&kv->freed, &expected, 1))
        return loom__api_error(MPI_COMM_SELF, fn, MPI_ERR_KEYVAL, "keyval %d was freed",
                               *win_keyval);
    *win_keyval = MPI_KEYVAL_INVALID;
    return MPI_SUCCESS;
}

int loom__mpi_win_set_attr(MPI_Win win, int win_keyval, void *attribute_val)
{
    static const char fn[] = "MPI_Win_set_attr";
    LOOM_API_ENTER(fn);
    int rc;
    struct loom_win *w = loom__win_arg(fn, win, &rc);
    if (w == NULL)
        return rc;
    struct loom_keyval *kv = keyval_arg(w, fn, win_keyval, 0, &rc);
    if (kv == NULL)
        return rc;
    struct loom_attr_host h = host(w);
    return attr_result(w, fn, win_keyval, loom__attrs_set(&h, kv, attribute_val));
}

/* The value of a predefined window attribute: the base itself, or a pointer to the value. */
static void *window_key_value(struct loom_win *w, int id)
{
    switch (id) {
    case MPI_WIN_BASE: return w->base_attr;
    case MPI_WIN_SIZE: return &w->size_attr;
    case MPI_WIN_DISP_UNIT: return &w->disp_unit_attr;
    case MPI_WIN_CREATE_FLAVOR: return &w->flavor_attr;
    default: return &w->model_attr;
    }
}

int loom__mpi_win_get_attr(MPI_Win win, int win_keyval, void *attribute_val, int *flag)
{
    static const char fn[] = "MPI_Win_get_attr";
    LOOM_API_ENTER(fn);
    int rc;
    struct loom_win *w = loom__win_arg(fn, win, &rc);
    if (w == NULL)
        return rc;
    if (attribute_val == NULL || flag == NULL)
        return loom__win_error(w, fn, MPI_ERR_ARG, "%s is NULL",
                               flag == NULL ? "flag" : "attribute_val");
    if (is_window_key(win_keyval)) {
        *(void **)attribute_val = window_key_value(w, win_keyval);
        *flag = 1;
        return MPI_SUCCESS;
    }
    struct loom_keyval *kv = keyval_arg(w, fn, win_keyval, 0, &rc);
    if (kv == NULL)
        return rc;
    void *val = NULL;
    struct loom_attr_host h = host(w);
    loom__attrs_get(&h, kv, &val, flag);
    if (*flag)
        *(void **)attribute_val = val;
    return MPI_SUCCESS;
}

int loom__mpi_win_delete_attr(MPI_Win win, int win_keyval)
{
    static const char fn[] = "MPI_Win_delete_attr";
    LOOM_API_ENTER(fn);
    int rc;
    struct loom_win *w = loom__win_arg(fn, win, &rc);
    if (w == NULL)
        return rc;
    /* a freed keyval still names the attributes made with it */
    struct loom_keyval *kv = keyval_arg(w, fn, win_keyval, 1, &rc);
    if (kv == NULL)
        return rc;
    struct loom_attr_host h = host(w);
    return attr_result(w, fn, win_keyval, loom__attrs_delete(&h, kv));
}

int loom__mpi_win_set_name(MPI_Win win, const char *win_name)
{
    static const char fn[] = "MPI_Win_set_name";
    LOOM_API_ENTER(fn);
    int rc;
    struct loom_win *w = loom__win_arg(fn, win, &rc);
    if (w == NULL)
        return rc;
    if (win_name == NULL)
        return loom__win_error(w, fn, MPI_ERR_ARG, "win_name is NULL");
    /* longer names are cut at MPI_MAX_OBJECT_NAME - 1 characters, as MPICH does */
    pthread_mutex_lock(&w->attr_lock);
    strncpy(w->name, win_name, MPI_MAX_OBJECT_NAME - 1);
    w->name[MPI_MAX_OBJECT_NAME - 1] = '\0';
    pthread_mutex_unlock(&w->attr_lock);
    return MPI_SUCCESS;
}

int loom__mpi_win_get_name(MPI_Win win, char *win_name, int *resultlen)
{
    static const char fn[] = "MPI_Win_get_name";
    LOOM_API_ENTER(fn);
    int rc;
    struct loom_win *w = loom__win_arg(fn, win, &rc);
    if (w == NULL)
        return rc;
    if (win_name == NULL || resultlen == NULL)
        return loom__win_error(w, fn, MPI_ERR_ARG, "%s is NULL",
                               win_name == NULL ? "win_name" : "resultlen");
    pthread_mutex_lock(&w->attr_lock);
    size_t n = strlen(w->name);
    memcpy(win_name, w->name, n + 1);
    pthread_mutex_unlock(&w->attr_lock);
    *resultlen = (int)n;
    return MPI_SUCCESS;
}
