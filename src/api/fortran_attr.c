/* api/fortran_attr.c — attributes from Fortran (fortran_callbacks.h): keyvals whose copy and
 * delete procedures are Fortran's, attribute values as integers, and the predefined callback
 * procedures under their Fortran names.
 *
 * A Fortran keyval is an ordinary keyval (comm/keyval.c) whose C callbacks are the
 * trampolines below; the Fortran procedures and the integer extra state sit in the keyval
 * (f_copy, f_delete, f_extra), which a trampoline finds by the keyval id it is called with.
 * Keyvals live until the job ends, so the lookup never fails while an attribute made with it
 * exists. The attribute word (comm/attr.c) is what both languages share: the trampolines hand
 * it to Fortran as an integer and store the integer a copy procedure returns.
 *
 * The predefined Fortran procedures passed to the create calls are replaced by their C twins
 * (or no callback), as the C create calls do with the C ones: no trampoline for them. */
#include "api/api.h"
#include "api/fortran_callbacks.h"
#include "comm/comm.h"
#include "core/fhandle.h"

/* ---- the trampolines: C callbacks of Fortran keyvals ---- */

/* Copy: obj's attribute word `in` through kv's procedure; *out and *flag as C wants them. */
static int copy_call(void *obj, int keyval, void *in, void *out, int *flag)
{
    const struct loom_keyval *kv = loom__keyval_get(keyval, 1);
    MPI_Fint fobj = loom__fhandle_of(obj), fkey = keyval, fflag = 0, ierr = MPI_SUCCESS;
    MPI_Aint extra = kv->f_extra, vin = (MPI_Aint)in, vout = 0;
    ((loom_f_copy_attr *)(void (*)(void))kv->f_copy)(&fobj, &fkey, &extra, &vin, &vout, &fflag,
                                                     &ierr);
    *flag = ierr == MPI_SUCCESS && fflag != 0;
    if (*flag)
        *(void **)out = (void *)vout;
    return ierr;
}

static int delete_call(void *obj, int keyval, void *val)
{
    const struct loom_keyval *kv = loom__keyval_get(keyval, 1);
    MPI_Fint fobj = loom__fhandle_of(obj), fkey = keyval, ierr = MPI_SUCCESS;
    MPI_Aint extra = kv->f_extra, v = (MPI_Aint)val;
    ((loom_f_delete_attr *)(void (*)(void))kv->f_delete)(&fobj, &fkey, &v, &extra, &ierr);
    return ierr;
}

/* MPI-1's INTEGER forms: the word's low 32 bits in, the result sign-extended out. */
static int copy_call_int(void *obj, int keyval, void *in, void *out, int *flag)
{
    const struct loom_keyval *kv = loom__keyval_get(keyval, 1);
    MPI_Fint fobj = loom__fhandle_of(obj), fkey = keyval, fflag = 0, ierr = MPI_SUCCESS;
    MPI_Fint extra = (MPI_Fint)kv->f_extra, vin = (MPI_Fint)(MPI_Aint)in, vout = 0;
    ((loom_f_copy_attr_int *)(void (*)(void))kv->f_copy)(&fobj, &fkey, &extra, &vin, &vout,
                                                         &fflag, &ierr);
    *flag = ierr == MPI_SUCCESS && fflag != 0;
    if (*flag)
        *(void **)out = (void *)(MPI_Aint)vout;
    return ierr;
}

static int delete_call_int(void *obj, int keyval, void *val)
{
    const struct loom_keyval *kv = loom__keyval_get(keyval, 1);
    MPI_Fint fobj = loom__fhandle_of(obj), fkey = keyval, ierr = MPI_SUCCESS;
    MPI_Fint extra = (MPI_Fint)kv->f_extra, v = (MPI_Fint)(MPI_Aint)val;
    ((loom_f_delete_attr_int *)(void (*)(void))kv->f_delete)(&fobj, &fkey, &v, &extra, &ierr);
    return ierr;
}

/* One pair of C callbacks per kind of object (their handle types differ). */
#define TRAMPOLINES(kind, Handle)                                                              \
    static int kind##_copy(Handle h, int keyval, void *extra_state, void *in, void *out,      \
                           int *flag)                                                          \
    {                                                                                          \
        (void)extra_state;                                                                     \
        return copy_call((void *)h, keyval, in, out, flag);                                    \
    }                                                                                          \
    static int kind##_delete(Handle h, int keyval, void *val, void *extra_state)               \
    {                                                                                          \
        (void)extra_state;                                                                     \
        return delete_call((void *)h, keyval, val);                                            \
    }
TRAMPOLINES(comm, MPI_Comm)
TRAMPOLINES(type, MPI_Datatype)
TRAMPOLINES(win, MPI_Win)

static int comm_copy_int(MPI_Comm h, int keyval, void *extra_state, void *in, void *out,
                         int *flag)
{
    (void)extra_state;
    return copy_call_int((void *)h, keyval, in, out, flag);
}

static int comm_delete_int(MPI_Comm h, int keyval, void *val, void *extra_state)
{
    (void)extra_state;
    return delete_call_int((void *)h, keyval, val);
}

/* ---- creating keyvals ---- */

/* Publish tmpl (kind and C callbacks set by the caller) with the Fortran procedures. */
static int create(const char *fn, struct loom_keyval *tmpl, void (*c)(void), void (*d)(void),
                  MPI_Aint extra, int *keyval)
{
    if (keyval == NULL)
        return loom__api_error(MPI_COMM_NULL, fn, MPI_ERR_ARG, "keyval is NULL");
    tmpl->f_copy = c;
    tmpl->f_delete = d;
    tmpl->f_extra = extra;
    int rc = loom__keyval_create_from(tmpl, keyval);
    return rc ? loom__api_error_code(MPI_COMM_NULL, fn, rc) : MPI_SUCCESS;
}

/* The C callback for Fortran copy procedure c: none for the null procedure, the C dup for the
 * dup procedure (the word is copied as it is), else the trampoline. */
#define PICK_COPY(c, null_f, dup_f, dup_c, tramp)                                              \
    ((c) == NULL || (c) == (null_f) ? NULL : (c) == (dup_f) ? (dup_c) : (tramp))
#define PICK_DELETE(d, null_f, tramp) ((d) == NULL || (d) == (null_f) ? NULL : (tramp))

int loom__fortran_comm_create_keyval(const char *fn, loom_f_copy_attr *c, loom_f_delete_attr *d,
                                     int *keyval, MPI_Aint extra)
{
    LOOM_API_ENTER(fn);
    struct loom_keyval t = {
        .kind = LOOM_ATTR_COMM,
        .copy_fn = PICK_COPY(c, mpi_comm_null_copy_fn_, mpi_comm_dup_fn_, MPI_COMM_DUP_FN,
                             comm_copy),
        .delete_fn = PICK_DELETE(d, mpi_comm_null_delete_fn_, comm_delete)};
    return create(fn, &t, (void (*)(void))c, (void (*)(void))d, extra, keyval);
}

int loom__fortran_type_create_keyval(const char *fn, loom_f_copy_attr *c, loom_f_delete_attr *d,
                                     int *keyval, MPI_Aint extra)
{
    LOOM_API_ENTER(fn);
    struct loom_keyval t = {
        .kind = LOOM_ATTR_TYPE,
        .type_copy_fn = PICK_COPY(c, mpi_type_null_copy_fn_, mpi_type_dup_fn_, MPI_TYPE_DUP_FN,
                                  type_copy),
        .type_delete_fn = PICK_DELETE(d, mpi_type_null_delete_fn_, type_delete)};
    return create(fn, &t, (void (*)(void))c, (void (*)(void))d, extra, keyval);
}

int loom__fortran_win_create_keyval(const char *fn, loom_f_copy_attr *c, loom_f_delete_attr *d,
                                    int *keyval, MPI_Aint extra)
{
    LOOM_API_ENTER(fn);
    struct loom_keyval t = {
        .kind = LOOM_ATTR_WIN,
        .win_copy_fn = PICK_COPY(c, mpi_win_null_copy_fn_, mpi_win_dup_fn_, MPI_WIN_DUP_FN,
                                 win_copy),
        .win_delete_fn = PICK_DELETE(d, mpi_win_null_delete_fn_, win_delete)};
    return create(fn, &t, (void (*)(void))c, (void (*)(void))d, extra, keyval);
}

int loom__fortran_keyval_create(const char *fn, loom_f_copy_attr_int *c,
                                loom_f_delete_attr_int *d, int *keyval, MPI_Fint extra)
{
    LOOM_API_ENTER(fn);
    struct loom_keyval t = {
        .kind = LOOM_ATTR_COMM,
        .copy_fn = PICK_COPY(c, mpi_null_copy_fn_, mpi_dup_fn_, MPI_COMM_DUP_FN, comm_copy_int),
        .delete_fn = PICK_DELETE(d, mpi_null_delete_fn_, comm_delete_int)};
    return create(fn, &t, (void (*)(void))c, (void (*)(void))d, extra, keyval);
}

/* ---- attribute values as integers ---- */

int loom__fortran_attr_set(int kind, void *obj, int keyval, MPI_Aint value)
{
    switch (kind) {
    case LOOM_F_ATTR_TYPE:
        return loom__mpi_type_set_attr((MPI_Datatype)obj, keyval, (void *)value);
    case LOOM_F_ATTR_WIN:
        return loom__mpi_win_set_attr((MPI_Win)obj, keyval, (void *)value);
    default:
        return loom__mpi_comm_set_attr((MPI_Comm)obj, keyval, (void *)value);
    }
}

/* The integer Fortran reads of the word `w` of keyval on an object of `kind`: a predefined
 * attribute's value (C gets a pointer to it; MPI_WIN_BASE is the address itself), else the
 * word. */
static MPI_Aint fortran_value(int kind, int keyval, void *w)
{
    if (kind == LOOM_F_ATTR_WIN && keyval >= MPI_WIN_BASE && keyval <= MPI_WIN_MODEL) {
        if (keyval == MPI_WIN_BASE)
            return (MPI_Aint)w;
        if (keyval == MPI_WIN_SIZE)
            return *(MPI_Aint *)w;
        return *(int *)w;
    }
    if (kind == LOOM_F_ATTR_COMM && loom__keyval_is_predefined(keyval))
        return *(int *)w;
    return (MPI_Aint)w;
}

int loom__fortran_attr_get(int kind, void *obj, int keyval, MPI_Aint *value, int *flag)
{
    void *w = NULL;
    int rc;
    switch (kind) {
    case LOOM_F_ATTR_TYPE:
        rc = loom__mpi_type_get_attr((MPI_Datatype)obj, keyval, &w, flag);
        break;
    case LOOM_F_ATTR_WIN:
        rc = loom__mpi_win_get_attr((MPI_Win)obj, keyval, &w, flag);
        break;
    default:
        rc = loom__mpi_comm_get_attr((MPI_Comm)obj, keyval, &w, flag);
        break;
    }
    if (rc == MPI_SUCCESS && *flag && value != NULL)
        *value = fortran_value(kind, keyval, w);
    return rc;
}

int loom__fortran_attr_put_int(MPI_Comm comm, int keyval, MPI_Fint value)
{
    return loom__mpi_attr_put(comm, keyval, (void *)(MPI_Aint)value);
}

int loom__fortran_attr_get_int(MPI_Comm comm, int keyval, MPI_Fint *value, int *flag)
{
    void *w = NULL;
    int rc = loom__mpi_attr_get(comm, keyval, &w, flag);
    if (rc == MPI_SUCCESS && *flag && value != NULL)
        *value = (MPI_Fint)fortran_value(LOOM_F_ATTR_COMM, keyval, w);
    return rc;
}

/* ---- the predefined procedures, as a Fortran program calls them ---- */

#define NULL_COPY(name, Int)                                                                   \
    void name(MPI_Fint *obj, MPI_Fint *keyval, Int *extra_state, Int *in, Int *out,            \
              MPI_Fint *flag, MPI_Fint *ierr)                                                  \
    {                                                                                          \
        (void)obj, (void)keyval, (void)extra_state, (void)in, (void)out;                       \
        *flag = 0;                                                                             \
        *ierr = MPI_SUCCESS;                                                                   \
    }
#define DUP(name, Int)                                                                         \
    void name(MPI_Fint *obj, MPI_Fint *keyval, Int *extra_state, Int *in, Int *out,            \
              MPI_Fint *flag, MPI_Fint *ierr)                                                  \
    {                                                                                          \
        (void)obj, (void)keyval, (void)extra_state;                                            \
        *out = *in;                                                                            \
        *flag = 1;                                                                             \
        *ierr = MPI_SUCCESS;                                                                   \
    }
#define NULL_DELETE(name, Int)                                                                 \
    void name(MPI_Fint *obj, MPI_Fint *keyval, Int *attr, Int *extra_state, MPI_Fint *ierr)    \
    {                                                                                          \
        (void)obj, (void)keyval, (void)attr, (void)extra_state;                                \
        *ierr = MPI_SUCCESS;                                                                   \
    }

NULL_COPY(mpi_comm_null_copy_fn_, MPI_Aint)
DUP(mpi_comm_dup_fn_, MPI_Aint)
NULL_DELETE(mpi_comm_null_delete_fn_, MPI_Aint)
NULL_COPY(mpi_type_null_copy_fn_, MPI_Aint)
DUP(mpi_type_dup_fn_, MPI_Aint)
NULL_DELETE(mpi_type_null_delete_fn_, MPI_Aint)
NULL_COPY(mpi_win_null_copy_fn_, MPI_Aint)
DUP(mpi_win_dup_fn_, MPI_Aint)
NULL_DELETE(mpi_win_null_delete_fn_, MPI_Aint)
NULL_COPY(mpi_null_copy_fn_, MPI_Fint)
DUP(mpi_dup_fn_, MPI_Fint)
NULL_DELETE(mpi_null_delete_fn_, MPI_Fint)
