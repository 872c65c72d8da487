/* Attributes and error handlers on windows (MPI 4.1 sections 7.7.3 and 9.3.2).
 * Keyvals: MPI_Win_create_keyval with a delete callback that counts its calls (per rank, in
 * memory reached through extra_state) and records the window, keyval and value it was given;
 * the callback runs on MPI_Win_delete_attr, when MPI_Win_set_attr replaces a value, and on
 * MPI_Win_free, also after the keyval itself was freed; attributes of two windows under one
 * keyval are independent; MPI_WIN_NULL_COPY_FN, MPI_WIN_DUP_FN and MPI_WIN_NULL_DELETE_FN are
 * accepted. Error handlers: a new window has MPI_ERRORS_ARE_FATAL; a handler made by
 * MPI_Win_create_errhandler records (window, code) in the window's own memory (found through
 * MPI_WIN_BASE: nothing global), is returned by MPI_Win_get_errhandler, survives
 * MPI_Errhandler_free of both handles while set, and is reached by MPI_Win_call_errhandler
 * (MPI_ERR_OTHER and a user-added code) and by a failing RMA call (a target rank out of
 * range); MPI_ERRORS_RETURN makes that call return its error class instead. */
#include <stdint.h>
#include "p2p_check.h"

/* What one rank's delete callback saw (reached through extra_state). */
struct counts {
    int calls;
    MPI_Win win;
    int keyval;
    void *value;
};

static int count_delete(MPI_Win win, int keyval, void *value, void *extra_state)
{
    struct counts *c = extra_state;
    c->calls++;
    c->win = win;
    c->keyval = keyval;
    c->value = value;
    return MPI_SUCCESS;
}

/* The attribute under key on win: its value, or NULL when absent (flag checked). */
static void *get_attr(MPI_Win win, int key, int want_flag)
{
    void *v = NULL;
    int flag = -1;
    OK(MPI_Win_get_attr(win, key, &v, &flag));
    CHECK_INT(flag, want_flag);
    return flag ? v : NULL;
}

static void check_deleted(const struct counts *c, int calls, MPI_Win win, int key, void *value)
{
    CHECK_INT(c->calls, calls);
    CHECK(c->win == win);
    CHECK_INT(c->keyval, key);
    CHECK(c->value == value);
}

static void keyvals(int rank)
{
    struct counts *c = calloc(1, sizeof *c);
    int *vals = malloc(8 * sizeof(int)); /* the values are addresses in here */
    CHECK(c != NULL && vals != NULL);
    for (int i = 0; i < 8; i++)
        vals[i] = rank * 10 + i;

    int key = MPI_KEYVAL_INVALID, key_null = MPI_KEYVAL_INVALID, key_dup = MPI_KEYVAL_INVALID;
    OK(MPI_Win_create_keyval(MPI_WIN_NULL_COPY_FN, count_delete, &key, c));
    OK(MPI_Win_create_keyval(MPI_WIN_NULL_COPY_FN, MPI_WIN_NULL_DELETE_FN, &key_null, NULL));
    OK(MPI_Win_create_keyval(MPI_WIN_DUP_FN, MPI_WIN_NULL_DELETE_FN, &key_dup, NULL));
    CHECK(key != MPI_KEYVAL_INVALID && key_null != MPI_KEYVAL_INVALID);
    CHECK(key_dup != MPI_KEYVAL_INVALID);
    CHECK(key != key_null && key != key_dup && key_null != key_dup);

    void *mem_a, *mem_b;
    MPI_Win a = MPI_WIN_NULL, b = MPI_WIN_NULL;
    OK(MPI_Win_allocate(64, 1, MPI_INFO_NULL, MPI_COMM_WORLD, &mem_a, &a));
    OK(MPI_Win_allocate(64, 1, MPI_INFO_NULL, MPI_COMM_WORLD, &mem_b, &b));

    /* nothing cached yet */
    get_attr(a, key, 0);
    get_attr(b, key, 0);

    /* set, get: no callback */
    OK(MPI_Win_set_attr(a, key, &vals[1]));
    CHECK(get_attr(a, key, 1) == &vals[1]);
    get_attr(b, key, 0);
    CHECK_INT(c->calls, 0);

    /* replace: the old value is deleted */
    OK(MPI_Win_set_attr(a, key, &vals[2]));
    check_deleted(c, 1, a, key, &vals[1]);
    CHECK(get_attr(a, key, 1) == &vals[2]);

    /* the same keyval on another window: independent */
    OK(MPI_Win_set_attr(b, key, &vals[3]));
    CHECK_INT(c->calls, 1);
    CHECK(get_attr(a, key, 1) == &vals[2]);
    CHECK(get_attr(b, key, 1) == &vals[3]);

    /* delete on a: the callback with a's window and value; b keeps its value */
    OK(MPI_Win_delete_attr(a, key));
    check_deleted(c, 2, a, key, &vals[2]);
    get_attr(a, key, 0);
    CHECK(get_attr(b, key, 1) == &vals[3]);

    /* the predefined copy and delete functions: values kept, nothing called */
    OK(MPI_Win_set_attr(a, key_null, (void *)(intptr_t)(rank + 1000)));
    OK(MPI_Win_set_attr(a, key_dup, (void *)(intptr_t)(rank + 2000)));
    OK(MPI_Win_set_attr(a, key_null, (void *)(intptr_t)(rank + 3000))); /* replaced */
    CHECK(get_attr(a, key_null, 1) == (void *)(intptr_t)(rank + 3000));
    CHECK(get_attr(a, key_dup, 1) == (void *)(intptr_t)(rank + 2000));
    OK(MPI_Win_delete_attr(a, key_dup));
    get_attr(a, key_dup, 0);
    CHECK_INT(c->calls, 2);

    /* free b: its attribute is deleted with b's handle */
    MPI_Win b_handle = b;
    OK(MPI_Win_free(&b));
    CHECK(b == MPI_WIN_NULL);
    check_deleted(c, 3, b_handle, key, &vals[3]);

    /* the keyval freed while a value is cached: the value stays until the window goes, and
     * the callback still runs then */
    OK(MPI_Win_set_attr(a, key, &vals[4]));
    int key_was = key;
    OK(MPI_Win_free_keyval(&key));
    CHECK(key == MPI_KEYVAL_INVALID);
    CHECK_INT(c->calls, 3);
    MPI_Win a_handle = a;
    OK(MPI_Win_free(&a));
    check_deleted(c, 4, a_handle, key_was, &vals[4]);

    OK(MPI_Win_free_keyval(&key_null));
    OK(MPI_Win_free_keyval(&key_dup));
    CHECK(key_null == MPI_KEYVAL_INVALID && key_dup == MPI_KEYVAL_INVALID);
    free(vals);
    free(c);
}

/* The window memory of the error-handler windows: where the handler records its calls. */
struct errlog {
    int calls;
    int code;
    MPI_Win win;
};

static void record_error(MPI_Win *win, int *code, ...)
{
    struct errlog *log = NULL;
    int flag = 0;
    MPI_Win_get_attr(*win, MPI_WIN_BASE, &log, &flag);
    if (!flag || log == NULL) {
        fprintf(stderr, "record_error: the window has no base\n");
        _exit(99);
    }
    log->calls++;
    log->code = *code;
    log->win = *win;
}

static void check_errhandler(MPI_Win win, MPI_Errhandler want)
{
    MPI_Errhandler eh = MPI_ERRHANDLER_NULL;
    OK(MPI_Win_get_errhandler(win, &eh));
    CHECK(eh == want);
    if (want != MPI_ERRORS_ARE_FATAL && want != MPI_ERRORS_RETURN) {
        OK(MPI_Errhandler_free(&eh));
        CHECK(eh == MPI_ERRHANDLER_NULL);
    }
}

static void check_class(int code, int cls)
{
    int got = -1;
    CHECK(code != MPI_SUCCESS);
    OK(MPI_Error_class(code, &got));
    CHECK_INT(got, cls);
}

static void errhandlers(int rank, int n)
{
    struct errlog *log = calloc(1, sizeof *log);
    CHECK(log != NULL);
    MPI_Win win = MPI_WIN_NULL, other = MPI_WIN_NULL;
    OK(MPI_Win_create(log, sizeof *log, 1, MPI_INFO_NULL, MPI_COMM_WORLD, &win));
    int *other_mem;
    OK(MPI_Win_allocate(sizeof(int), sizeof(int), MPI_INFO_NULL, MPI_COMM_WORLD, &other_mem,
                        &other));

    /* the default of a new window */
    check_errhandler(win, MPI_ERRORS_ARE_FATAL);

    MPI_Errhandler eh = MPI_ERRHANDLER_NULL;
    OK(MPI_Win_create_errhandler(record_error, &eh));
    CHECK(eh != MPI_ERRHANDLER_NULL);
    OK(MPI_Win_set_errhandler(win, eh));
    check_errhandler(win, eh);
    check_errhandler(other, MPI_ERRORS_ARE_FATAL); /* the other window keeps its own */
    /* freed while set: the window keeps it */
    OK(MPI_Errhandler_free(&eh));
    CHECK(eh == MPI_ERRHANDLER_NULL);

    /* MPI_Win_call_errhandler reaches the handler with the window and the code */
    CHECK_INT(log->calls, 0);
    OK(MPI_Win_call_errhandler(win, MPI_ERR_OTHER));
    CHECK_INT(log->calls, 1);
    CHECK_INT(log->code, MPI_ERR_OTHER);
    CHECK(log->win == win);

    /* a code added by the user, passed through as it is */
    int cls = -1, code = -1;
    OK(MPI_Add_error_class(&cls));
    OK(MPI_Add_error_code(cls, &code));
    OK(MPI_Win_call_errhandler(win, code));
    CHECK_INT(log->calls, 2);
    CHECK_INT(log->code, code);
    check_class(log->code, cls);

    /* an RMA call that fails (target rank out of range) calls the handler, then returns */
    int v = rank;
    OK(MPI_Win_fence(0, win));
    int rc = MPI_Put(&v, 1, MPI_INT, n, 0, 1, MPI_INT, win);
    CHECK_INT(log->calls, 3);
    CHECK(log->win == win);
    CHECK_INT(rc, log->code);
    check_class(rc, MPI_ERR_RANK);

    /* MPI_ERRORS_RETURN: the failing call returns its class, the user handler stays quiet */
    OK(MPI_Win_set_errhandler(win, MPI_ERRORS_RETURN));
    check_errhandler(win, MPI_ERRORS_RETURN);
    rc = MPI_Get(&v, 1, MPI_INT, n + 3, 0, 1, MPI_INT, win);
    check_class(rc, MPI_ERR_RANK);
    CHECK_INT(v, rank);
    OK(MPI_Win_call_errhandler(win, MPI_ERR_OTHER));
    CHECK_INT(log->calls, 3);
    OK(MPI_Win_fence(0, win));

    /* back to the default; the other window never saw any of it */
    OK(MPI_Win_set_errhandler(win, MPI_ERRORS_ARE_FATAL));
    check_errhandler(win, MPI_ERRORS_ARE_FATAL);
    check_errhandler(other, MPI_ERRORS_ARE_FATAL);
    OK(MPI_Win_free(&win));
    OK(MPI_Win_free(&other));
    free(log);
}

int main(int argc, char **argv)
{
    OK(MPI_Init(&argc, &argv));
    int rank = p2p_rank(), n = p2p_size();
    keyvals(rank);
    errhandlers(rank, n);
    OK(MPI_Finalize());
    return 0;
}
