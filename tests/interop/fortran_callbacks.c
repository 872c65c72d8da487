/* User procedures with Fortran's calling convention (api/fortran_callbacks.h), emulated in C
 * with exactly the Fortran signatures: a user operation in MPI_Allreduce and MPI_Iallreduce
 * (its datatype as a Fortran handle, big-count form too); keyval copy procedures on
 * MPI_Comm_dup and MPI_Type_dup with flag false and true, delete procedures on free, the
 * MPI-1 INTEGER forms, the predefined procedures; attribute values crossing C and Fortran,
 * predefined attributes read from Fortran as values; error handlers of communicators,
 * windows and sessions called with the Fortran handle and code; a generalized request whose
 * query fills a Fortran status. Ranks are threads sharing this file's globals: each rank
 * keeps its own slot, and what other threads may touch is atomic. */
#include <stdatomic.h>
#include <string.h>
#include "api/fortran_callbacks.h"
#include "comm_check.h"

#define MAXR 16
static _Atomic int op_calls, op_bad_type;
/* The Fortran handles the op may get: MPI_INTEGER's, or a rank's pair type (written by the
 * rank before its collective starts; the op may run on any thread) */
static _Atomic MPI_Fint f_integer, f_pair[MAXR];

/* ---- a user operation: integer sum, by reference; no MPI call (it may run on a thread that
 * is no rank's) ---- */
static void fsum(void *in, void *inout, MPI_Fint *len, MPI_Fint *datatype)
{
    MPI_Fint *a = in, *b = inout, per = 0;
    if (*datatype == atomic_load(&f_integer))
        per = 1;
    for (int r = 0; r < MAXR && per == 0; r++)
        if (*datatype == atomic_load(&f_pair[r]))
            per = 2;
    if (per == 0)
        atomic_fetch_add(&op_bad_type, 1);
    for (MPI_Fint i = 0; i < *len * per; i++)
        b[i] += a[i];
    *len = -1; /* writing an input changes nothing of loom's */
    atomic_fetch_add(&op_calls, 1);
}

static void fsum_c(void *in, void *inout, MPI_Count *len, MPI_Fint *datatype)
{
    MPI_Fint n = (MPI_Fint)*len;
    fsum(in, inout, &n, datatype);
    *len = -1;
}

static void ops(int rank, int size)
{
    MPI_Op op, op_c;
    atomic_store(&f_integer, MPI_Type_c2f(MPI_INTEGER));
    OK(loom__fortran_op_create("MPI_OP_CREATE", fsum, 1, &op));
    OK(loom__fortran_op_create_c("MPI_Op_create_c", fsum_c, 0, &op_c));
    int commute = -1;
    OK(MPI_Op_commutative(op_c, &commute));
    CHECK_INT(commute, 0);
    MPI_Fint v[3] = {rank, 1, 2 * rank}, w[3];
    OK(MPI_Allreduce(v, w, 3, MPI_INTEGER, op, MPI_COMM_WORLD));
    CHECK(w[0] == size * (size - 1) / 2 && w[1] == size && w[2] == size * (size - 1));
    OK(MPI_Allreduce(v, w, 3, MPI_INTEGER, op_c, MPI_COMM_WORLD));
    CHECK(w[0] == size * (size - 1) / 2 && w[1] == size);
    /* a derived type: the procedure gets its Fortran handle */
    MPI_Datatype pair;
    OK(MPI_Type_contiguous(2, MPI_INTEGER, &pair));
    OK(MPI_Type_commit(&pair));
    atomic_store(&f_pair[rank], MPI_Type_c2f(pair));
    CHECK(atomic_load(&f_pair[rank]) > 0);
    MPI_Fint p[4] = {1, rank, 2, rank}, q[4];
    MPI_Request req;
    OK(MPI_Iallreduce(p, q, 2, pair, op, MPI_COMM_WORLD, &req));
    OK(MPI_Wait(&req, MPI_STATUS_IGNORE));
    CHECK(q[0] == size && q[1] == size * (size - 1) / 2 && q[2] == 2 * size);
    OK(MPI_Type_free(&pair));
    atomic_store(&f_pair[rank], 0);
    /* locally: the datatype handle the procedure sees is the type's Fortran handle */
    MPI_Fint x[2] = {1, 2}, y[2] = {10, 20};
    OK(MPI_Reduce_local(x, y, 2, MPI_INTEGER, op));
    CHECK(y[0] == 11 && y[1] == 22);
    CHECK_INT(atomic_load(&op_bad_type), 0);
    CHECK(atomic_load(&op_calls) > 0);
    OK(MPI_Op_free(&op));
    OK(MPI_Op_free(&op_c));
    CHECK_INT(loom__fortran_op_create("MPI_OP_CREATE", NULL, 1, &op), MPI_ERR_ARG);
}

/* ---- attribute procedures ---- */
struct seen {
    int copies, deletes;
    MPI_Fint obj, key, flag_given;
    MPI_Aint extra, attr;
};
static struct seen seen[MAXR]; /* per rank, written by the rank's thread only */
static int me(void)
{
    int r;
    MPI_Comm_rank(MPI_COMM_WORLD, &r);
    return r;
}

/* copies 42 as 43 (flag true), refuses anything else (flag false) */
static void fcopy(MPI_Fint *obj, MPI_Fint *keyval, MPI_Aint *extra_state, MPI_Aint *attr_in,
                  MPI_Aint *attr_out, MPI_Fint *flag, MPI_Fint *ierr)
{
    struct seen *s = &seen[me()];
    s->copies++;
    s->obj = *obj;
    s->key = *keyval;
    s->extra = *extra_state;
    if (*attr_in == 42) {
        *attr_out = 43;
        *flag = 1;
    } else {
        *flag = 0;
    }
    *extra_state = -1; /* writing an input changes nothing of loom's */
    *ierr = MPI_SUCCESS;
}

static void fdelete(MPI_Fint *obj, MPI_Fint *keyval, MPI_Aint *attr, MPI_Aint *extra_state,
                    MPI_Fint *ierr)
{
    struct seen *s = &seen[me()];
    s->deletes++;
    s->obj = *obj;
    s->key = *keyval;
    s->attr = *attr;
    s->extra = *extra_state;
    *ierr = MPI_SUCCESS;
}

static void fcopy_int(MPI_Fint *obj, MPI_Fint *keyval, MPI_Fint *extra_state, MPI_Fint *attr_in,
                      MPI_Fint *attr_out, MPI_Fint *flag, MPI_Fint *ierr)
{
    struct seen *s = &seen[me()];
    s->copies++;
    s->obj = *obj;
    s->extra = *extra_state;
    *attr_out = 2 * *attr_in;
    *flag = 1;
    (void)keyval;
    *ierr = MPI_SUCCESS;
}

static void fdelete_int(MPI_Fint *obj, MPI_Fint *keyval, MPI_Fint *attr, MPI_Fint *extra_state,
                        MPI_Fint *ierr)
{
    struct seen *s = &seen[me()];
    s->deletes++;
    s->obj = *obj;
    s->attr = *attr;
    (void)keyval, (void)extra_state;
    *ierr = MPI_SUCCESS;
}

static MPI_Aint fget(int kind, void *obj, int key, int *flag)
{
    MPI_Aint v = -12345;
    OK(loom__fortran_attr_get(kind, obj, key, &v, flag));
    return v;
}

static void comm_attributes(int rank)
{
    struct seen *s = &seen[rank];
    MPI_Comm base, dup;
    int key, key_no, key_c, key_dup, key_null, flag;
    OK(MPI_Comm_dup(MPI_COMM_WORLD, &base));
    OK(loom__fortran_comm_create_keyval("MPI_COMM_CREATE_KEYVAL", fcopy, fdelete, &key, 7));
    OK(loom__fortran_comm_create_keyval("MPI_COMM_CREATE_KEYVAL", fcopy, fdelete, &key_no, 8));
    OK(loom__fortran_comm_create_keyval("MPI_COMM_CREATE_KEYVAL", mpi_comm_dup_fn_,
                                        mpi_comm_null_delete_fn_, &key_dup, 0));
    OK(loom__fortran_comm_create_keyval("MPI_COMM_CREATE_KEYVAL", mpi_comm_null_copy_fn_,
                                        mpi_comm_null_delete_fn_, &key_null, 0));
    OK(MPI_Comm_create_keyval(MPI_COMM_NULL_COPY_FN, MPI_COMM_NULL_DELETE_FN, &key_c, NULL));
    OK(loom__fortran_attr_set(LOOM_F_ATTR_COMM, base, key, 42));
    OK(loom__fortran_attr_set(LOOM_F_ATTR_COMM, base, key_no, 5));
    OK(loom__fortran_attr_set(LOOM_F_ATTR_COMM, base, key_dup, 99));
    OK(loom__fortran_attr_set(LOOM_F_ATTR_COMM, base, key_null, 98));
    /* set from Fortran, read from C: a pointer holding the integer */
    void *p = NULL;
    OK(MPI_Comm_get_attr(base, key, &p, &flag));
    CHECK(flag && p == (void *)42);
    /* set from C, read from Fortran: the address as an integer */
    static int cval[MAXR];
    OK(MPI_Comm_set_attr(base, key_c, &cval[rank]));
    CHECK(fget(LOOM_F_ATTR_COMM, base, key_c, &flag) == (MPI_Aint)&cval[rank] && flag);
    /* predefined: the value, not its address */
    int *tag_ub;
    OK(MPI_Comm_get_attr(base, MPI_TAG_UB, &tag_ub, &flag));
    CHECK(fget(LOOM_F_ATTR_COMM, base, MPI_TAG_UB, &flag) == *tag_ub && *tag_ub >= 32767);

    s->copies = s->deletes = 0;
    OK(MPI_Comm_dup(base, &dup));
    CHECK_INT(s->copies, 2); /* key and key_no; key_dup copied in C, key_null not at all */
    CHECK_INT(s->obj, MPI_Comm_c2f(base));
    CHECK_INT(s->extra, 8); /* the last copy was key_no's: its extra state */
    CHECK_INT(fget(LOOM_F_ATTR_COMM, dup, key, &flag), 43);
    CHECK(flag);
    fget(LOOM_F_ATTR_COMM, dup, key_no, &flag);
    CHECK(!flag); /* flag false: not copied */
    CHECK_INT(fget(LOOM_F_ATTR_COMM, dup, key_dup, &flag), 99);
    fget(LOOM_F_ATTR_COMM, dup, key_null, &flag);
    CHECK(!flag);

    MPI_Fint fdup = MPI_Comm_c2f(dup);
    s->deletes = 0;
    OK(MPI_Comm_free(&dup));
    CHECK_INT(s->deletes, 1); /* key's value 43 */
    CHECK_INT(s->obj, fdup);
    CHECK_INT(s->key, key);
    CHECK_INT(s->attr, 43);
    CHECK_INT(s->extra, 7);
    /* replacing an attribute deletes the old value */
    OK(loom__fortran_attr_set(LOOM_F_ATTR_COMM, base, key, 50));
    CHECK_INT(s->deletes, 2);
    CHECK_INT(s->attr, 42);

    /* MPI-1: INTEGER values, sign-extended into the word */
    int key1;
    OK(loom__fortran_keyval_create("MPI_KEYVAL_CREATE", fcopy_int, fdelete_int, &key1, 3));
    OK(loom__fortran_attr_put_int(base, key1, -5));
    OK(MPI_Comm_get_attr(base, key1, &p, &flag));
    CHECK(flag && p == (void *)(MPI_Aint)-5);
    MPI_Fint i = 0;
    OK(loom__fortran_attr_get_int(base, key1, &i, &flag));
    CHECK(flag && i == -5);
    OK(loom__fortran_attr_get_int(base, MPI_TAG_UB, &i, &flag));
    CHECK(flag && i == *tag_ub);
    s->copies = 0;
    OK(MPI_Comm_dup(base, &dup));
    CHECK_INT(s->extra, 3);
    OK(loom__fortran_attr_get_int(dup, key1, &i, &flag));
    CHECK(flag && i == -10);
    s->deletes = 0;
    OK(MPI_Comm_free(&dup));
    CHECK_INT(s->deletes, 1); /* key1's -10 (key's 50 was not copied) */
    CHECK_INT(s->attr, -10);
    OK(MPI_Comm_free(&base));
    OK(MPI_Comm_free_keyval(&key));
    OK(MPI_Comm_free_keyval(&key_no));
    OK(MPI_Comm_free_keyval(&key_dup));
    OK(MPI_Comm_free_keyval(&key_null));
    OK(MPI_Comm_free_keyval(&key_c));
    OK(MPI_Comm_free_keyval(&key1));
    CHECK_INT(loom__fortran_comm_create_keyval("MPI_COMM_CREATE_KEYVAL", fcopy, fdelete, NULL, 0),
              MPI_ERR_ARG);

    /* the predefined procedures, called as a Fortran program would */
    MPI_Fint o = 0, k = 0, fl = -1, err = -1;
    MPI_Aint ex = 0, in = 77, out = 0;
    mpi_comm_dup_fn_(&o, &k, &ex, &in, &out, &fl, &err);
    CHECK(out == 77 && fl == 1 && err == 0);
    mpi_type_null_copy_fn_(&o, &k, &ex, &in, &out, &fl, &err);
    CHECK(fl == 0 && err == 0);
    err = -1;
    mpi_win_null_delete_fn_(&o, &k, &in, &ex, &err);
    CHECK(err == 0);
    MPI_Fint in4 = 6, out4 = 0, ex4 = 0;
    mpi_dup_fn_(&o, &k, &ex4, &in4, &out4, &fl, &err);
    CHECK(out4 == 6 && fl == 1);
}

static void type_attributes(int rank)
{
    struct seen *s = &seen[rank];
    MPI_Datatype t, d;
    int key, flag;
    OK(MPI_Type_contiguous(3, MPI_REAL, &t));
    OK(loom__fortran_type_create_keyval("MPI_TYPE_CREATE_KEYVAL", fcopy, fdelete, &key, 11));
    OK(loom__fortran_attr_set(LOOM_F_ATTR_TYPE, t, key, 42));
    s->copies = 0;
    OK(MPI_Type_dup(t, &d));
    CHECK_INT(s->copies, 1);
    CHECK_INT(s->obj, MPI_Type_c2f(t));
    CHECK_INT(s->extra, 11);
    CHECK_INT(fget(LOOM_F_ATTR_TYPE, d, key, &flag), 43);
    s->deletes = 0;
    MPI_Fint fd = MPI_Type_c2f(d);
    OK(MPI_Type_free(&d));
    CHECK_INT(s->deletes, 1);
    CHECK_INT(s->obj, fd);
    OK(MPI_Type_free(&t));
    CHECK_INT(s->deletes, 2);
    OK(MPI_Type_free_keyval(&key));
}

static void win_attributes(int rank)
{
    struct seen *s = &seen[rank];
    double mem[4];
    MPI_Win win;
    int key, flag;
    OK(MPI_Win_create(mem, sizeof mem, sizeof(double), MPI_INFO_NULL, MPI_COMM_WORLD, &win));
    CHECK(fget(LOOM_F_ATTR_WIN, win, MPI_WIN_BASE, &flag) == (MPI_Aint)mem && flag);
    CHECK(fget(LOOM_F_ATTR_WIN, win, MPI_WIN_SIZE, &flag) == (MPI_Aint)sizeof mem);
    CHECK(fget(LOOM_F_ATTR_WIN, win, MPI_WIN_DISP_UNIT, &flag) == (MPI_Aint)sizeof(double));
    CHECK(fget(LOOM_F_ATTR_WIN, win, MPI_WIN_CREATE_FLAVOR, &flag) == MPI_WIN_FLAVOR_CREATE);
    CHECK(fget(LOOM_F_ATTR_WIN, win, MPI_WIN_MODEL, &flag) == MPI_WIN_UNIFIED);
    OK(loom__fortran_win_create_keyval("MPI_WIN_CREATE_KEYVAL", mpi_win_dup_fn_, fdelete, &key,
                                       13));
    OK(loom__fortran_attr_set(LOOM_F_ATTR_WIN, win, key, 1000 + rank));
    CHECK(fget(LOOM_F_ATTR_WIN, win, key, &flag) == 1000 + rank && flag);
    MPI_Fint fw = MPI_Win_c2f(win);
    s->deletes = 0;
    OK(MPI_Win_free(&win));
    CHECK_INT(s->deletes, 1);
    CHECK_INT(s->obj, fw);
    CHECK_INT(s->attr, 1000 + rank);
    CHECK_INT(s->extra, 13);
    OK(MPI_Win_free_keyval(&key));
}

/* ---- error handlers ---- */
static struct {
    int calls;
    MPI_Fint obj, code;
} errs[MAXR];

static void ferr(MPI_Fint *obj, MPI_Fint *code)
{
    int r = me();
    errs[r].calls++;
    errs[r].obj = *obj;
    errs[r].code = *code;
    *code = 0; /* writing an input changes nothing of loom's */
}

static void errhandlers(int rank, int size)
{
    MPI_Errhandler eh, weh, seh;
    MPI_Comm c;
    OK(MPI_Comm_dup(MPI_COMM_WORLD, &c));
    OK(loom__fortran_comm_create_errhandler("MPI_COMM_CREATE_ERRHANDLER", ferr, &eh));
    OK(MPI_Comm_set_errhandler(c, eh));
    int x = 0;
    CHECK_INT(MPI_Send(&x, 1, MPI_INT, size + 3, 0, c), MPI_ERR_RANK);
    CHECK_INT(errs[rank].calls, 1);
    CHECK_INT(errs[rank].obj, MPI_Comm_c2f(c));
    CHECK_INT(errs[rank].code, MPI_ERR_RANK);
    OK(MPI_Comm_call_errhandler(c, MPI_ERR_OTHER));
    CHECK_INT(errs[rank].calls, 2);
    CHECK_INT(errs[rank].code, MPI_ERR_OTHER);
    /* a communicator's Fortran handler is no window's */
    double mem[2];
    MPI_Win win;
    OK(MPI_Win_create(mem, sizeof mem, 1, MPI_INFO_NULL, MPI_COMM_WORLD, &win));
    OK(MPI_Win_set_errhandler(win, MPI_ERRORS_RETURN));
    CHECK_INT(MPI_Win_set_errhandler(win, eh), MPI_ERR_ARG);
    OK(loom__fortran_win_create_errhandler("MPI_WIN_CREATE_ERRHANDLER", ferr, &weh));
    OK(MPI_Win_set_errhandler(win, weh));
    OK(MPI_Win_call_errhandler(win, MPI_ERR_WIN));
    CHECK_INT(errs[rank].calls, 3);
    CHECK_INT(errs[rank].obj, MPI_Win_c2f(win));
    CHECK_INT(errs[rank].code, MPI_ERR_WIN);
    OK(MPI_Win_free(&win));

    OK(loom__fortran_session_create_errhandler("MPI_SESSION_CREATE_ERRHANDLER", ferr, &seh));
    MPI_Session session;
    OK(MPI_Session_init(MPI_INFO_NULL, seh, &session));
    OK(MPI_Session_call_errhandler(session, MPI_ERR_ARG));
    CHECK_INT(errs[rank].calls, 4);
    CHECK_INT(errs[rank].obj, MPI_Session_c2f(session));
    CHECK_INT(errs[rank].code, MPI_ERR_ARG);
    OK(MPI_Session_finalize(&session));

    OK(MPI_Errhandler_free(&eh));
    OK(MPI_Errhandler_free(&weh));
    OK(MPI_Errhandler_free(&seh));
    OK(MPI_Comm_free(&c));
    CHECK_INT(loom__fortran_comm_create_errhandler("MPI_COMM_CREATE_ERRHANDLER", NULL, &eh),
              MPI_ERR_ARG);
}

/* ---- a generalized request ---- */
static struct {
    int queries, frees, cancels;
    MPI_Fint complete;
    MPI_Aint extra;
} greq[MAXR];

static void fquery(MPI_Aint *extra_state, MPI_Fint *status, MPI_Fint *ierr)
{
    int r = (int)(*extra_state - 1000);
    greq[r].queries++;
    greq[r].extra = *extra_state;
    status[MPI_F_SOURCE] = 3;
    status[MPI_F_TAG] = 9;
    *ierr = MPI_SUCCESS;
}

static void ffree(MPI_Aint *extra_state, MPI_Fint *ierr)
{
    greq[*extra_state - 1000].frees++;
    *ierr = MPI_SUCCESS;
}

static void fcancel(MPI_Aint *extra_state, MPI_Fint *complete, MPI_Fint *ierr)
{
    int r = (int)(*extra_state - 1000);
    greq[r].cancels++;
    greq[r].complete = *complete;
    *ierr = MPI_SUCCESS;
}

static void grequests(int rank)
{
    MPI_Request r;
    OK(loom__fortran_grequest_start("MPI_GREQUEST_START", fquery, ffree, fcancel, 1000 + rank,
                                    &r));
    OK(MPI_Cancel(&r));
    CHECK_INT(greq[rank].cancels, 1);
    CHECK_INT(greq[rank].complete, 0); /* .FALSE.: not yet complete */
    OK(MPI_Grequest_complete(r));
    MPI_Status st;
    OK(MPI_Wait(&r, &st));
    CHECK(r == MPI_REQUEST_NULL);
    CHECK_INT(greq[rank].queries, 1);
    CHECK_INT(greq[rank].frees, 1);
    CHECK_INT(greq[rank].extra, 1000 + rank);
    CHECK_INT(st.MPI_SOURCE, 3);
    CHECK_INT(st.MPI_TAG, 9);
    /* freed before completion: free at MPI_Grequest_complete, no query */
    OK(loom__fortran_grequest_start("MPI_GREQUEST_START", fquery, ffree, fcancel, 1000 + rank,
                                    &r));
    MPI_Request keep = r;
    OK(MPI_Request_free(&r));
    CHECK_INT(greq[rank].frees, 1);
    OK(MPI_Grequest_complete(keep));
    CHECK_INT(greq[rank].frees, 2);
    CHECK_INT(greq[rank].queries, 1);
    CHECK_INT(loom__fortran_grequest_start("MPI_GREQUEST_START", fquery, NULL, fcancel, 0, &r),
              MPI_ERR_ARG);
}

int main(int argc, char **argv)
{
    MPI_Init(&argc, &argv);
    OK(MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_RETURN));
    OK(MPI_Comm_set_errhandler(MPI_COMM_SELF, MPI_ERRORS_RETURN)); /* generalized requests' */
    int rank = world_rank(), size = world_size();
    CHECK(size <= MAXR);
    ops(rank, size);
    comm_attributes(rank);
    type_attributes(rank);
    win_attributes(rank);
    errhandlers(rank, size);
    grequests(rank);
    MPI_Finalize();
    return 0;
}
