/* fortran/callbacks.c — the Fortran entry points written by hand: the calls that take a
 * Fortran procedure or an attribute value (`@fortran hand` in src/api/calls/), which
 * loom-bindgen cannot convert by rule. Each converts its handles and LOGICALs as the
 * generated ones do (fortran.h) and hands the procedure to the core support for Fortran
 * callbacks (api/fortran_callbacks.h), which calls it back with Fortran's conventions.
 * mpi_xxx_ is weak, like the generated ones, and pmpi_xxx_ does the same work. */
#include "api/api.h"
#include "api/fortran_callbacks.h"
#include "fortran/fortran.h"

/* ---- user operations ---- */
static void op_create(loom_f_user_function *f, const MPI_Fint *commute, MPI_Fint *op,
                      MPI_Fint *ierror)
{
    MPI_Op c = MPI_OP_NULL;
    *ierror = loom__fortran_op_create("MPI_Op_create", f, *commute != 0, &c);
    if (*ierror == MPI_SUCCESS)
        *op = loom__mpi_op_c2f(c);
}
LOOM_F_ENTRY(op_create,
             (loom_f_user_function * f, const MPI_Fint *commute, MPI_Fint *op, MPI_Fint *ierror),
             (f, commute, op, ierror))

static void op_create_c(loom_f_user_function_c *f, const MPI_Fint *commute, MPI_Fint *op,
                        MPI_Fint *ierror)
{
    MPI_Op c = MPI_OP_NULL;
    *ierror = loom__fortran_op_create_c("MPI_Op_create_c", f, *commute != 0, &c);
    if (*ierror == MPI_SUCCESS)
        *op = loom__mpi_op_c2f(c);
}
LOOM_F_ENTRY(op_create_c,
             (loom_f_user_function_c * f, const MPI_Fint *commute, MPI_Fint *op,
              MPI_Fint *ierror),
             (f, commute, op, ierror))

/* ---- attribute keys ---- */
#define LOOM_F_KEYVAL(lower, Name)                                                             \
    static void lower##_create_keyval(loom_f_copy_attr *c, loom_f_delete_attr *d,             \
                                      MPI_Fint *keyval, const MPI_Aint *extra,                 \
                                      MPI_Fint *ierror)                                        \
    {                                                                                          \
        int k = MPI_KEYVAL_INVALID;                                                            \
        *ierror = loom__fortran_##lower##_create_keyval("MPI_" Name "_create_keyval", c, d,    \
                                                        &k, *extra);                           \
        if (*ierror == MPI_SUCCESS)                                                            \
            *keyval = k;                                                                       \
    }                                                                                          \
    LOOM_F_ENTRY(lower##_create_keyval,                                                        \
                 (loom_f_copy_attr * c, loom_f_delete_attr * d, MPI_Fint * keyval,             \
                  const MPI_Aint *extra, MPI_Fint *ierror),                                    \
                 (c, d, keyval, extra, ierror))
LOOM_F_KEYVAL(comm, "Comm")
LOOM_F_KEYVAL(type, "Type")
LOOM_F_KEYVAL(win, "Win")

static void keyval_create(loom_f_copy_attr_int *c, loom_f_delete_attr_int *d, MPI_Fint *keyval,
                          const MPI_Fint *extra, MPI_Fint *ierror)
{
    int k = MPI_KEYVAL_INVALID;
    *ierror = loom__fortran_keyval_create("MPI_Keyval_create", c, d, &k, *extra);
    if (*ierror == MPI_SUCCESS)
        *keyval = k;
}
LOOM_F_ENTRY(keyval_create,
             (loom_f_copy_attr_int * c, loom_f_delete_attr_int *d, MPI_Fint *keyval,
              const MPI_Fint *extra, MPI_Fint *ierror),
             (c, d, keyval, extra, ierror))

/* ---- attribute values: INTEGER(KIND=MPI_ADDRESS_KIND) words ---- */
#define LOOM_F_ATTR(lower, conv, kind)                                                         \
    static void lower##_set_attr(const MPI_Fint *obj, const MPI_Fint *keyval,                  \
                                 const MPI_Aint *value, MPI_Fint *ierror)                      \
    {                                                                                          \
        *ierror = loom__fortran_attr_set(kind, (void *)loom__mpi_##conv##_f2c(*obj), *keyval,  \
                                         *value);                                              \
    }                                                                                          \
    LOOM_F_ENTRY(lower##_set_attr,                                                             \
                 (const MPI_Fint *obj, const MPI_Fint *keyval, const MPI_Aint *value,          \
                  MPI_Fint *ierror),                                                           \
                 (obj, keyval, value, ierror))                                                 \
    static void lower##_get_attr(const MPI_Fint *obj, const MPI_Fint *keyval, MPI_Aint *value, \
                                 MPI_Fint *flag, MPI_Fint *ierror)                             \
    {                                                                                          \
        int f = 0;                                                                             \
        *ierror = loom__fortran_attr_get(kind, (void *)loom__mpi_##conv##_f2c(*obj), *keyval,  \
                                         value, &f);                                           \
        if (*ierror == MPI_SUCCESS)                                                            \
            *flag = f != 0;                                                                    \
    }                                                                                          \
    LOOM_F_ENTRY(lower##_get_attr,                                                             \
                 (const MPI_Fint *obj, const MPI_Fint *keyval, MPI_Aint *value,                \
                  MPI_Fint *flag, MPI_Fint *ierror),                                           \
                 (obj, keyval, value, flag, ierror))
LOOM_F_ATTR(comm, comm, LOOM_F_ATTR_COMM)
LOOM_F_ATTR(type, type, LOOM_F_ATTR_TYPE)
LOOM_F_ATTR(win, win, LOOM_F_ATTR_WIN)

/* MPI-1's INTEGER attribute values on communicators */
static void attr_put(const MPI_Fint *comm, const MPI_Fint *keyval, const MPI_Fint *value,
                     MPI_Fint *ierror)
{
    *ierror = loom__fortran_attr_put_int(loom__mpi_comm_f2c(*comm), *keyval, *value);
}
LOOM_F_ENTRY(attr_put,
             (const MPI_Fint *comm, const MPI_Fint *keyval, const MPI_Fint *value,
              MPI_Fint *ierror),
             (comm, keyval, value, ierror))

static void attr_get(const MPI_Fint *comm, const MPI_Fint *keyval, MPI_Fint *value,
                     MPI_Fint *flag, MPI_Fint *ierror)
{
    int f = 0;
    *ierror = loom__fortran_attr_get_int(loom__mpi_comm_f2c(*comm), *keyval, value, &f);
    if (*ierror == MPI_SUCCESS)
        *flag = f != 0;
}
LOOM_F_ENTRY(attr_get,
             (const MPI_Fint *comm, const MPI_Fint *keyval, MPI_Fint *value, MPI_Fint *flag,
              MPI_Fint *ierror),
             (comm, keyval, value, flag, ierror))

/* ---- error handlers ---- */
#define LOOM_F_ERRHANDLER(lower, create, Name)                                                 \
    static void lower(loom_f_errhandler *f, MPI_Fint *errhandler, MPI_Fint *ierror)            \
    {                                                                                          \
        MPI_Errhandler e = MPI_ERRHANDLER_NULL;                                                \
        *ierror = create(Name, f, &e);                                                         \
        if (*ierror == MPI_SUCCESS)                                                            \
            *errhandler = loom__mpi_errhandler_c2f(e);                                         \
    }                                                                                          \
    LOOM_F_ENTRY(lower, (loom_f_errhandler * f, MPI_Fint * errhandler, MPI_Fint * ierror),     \
                 (f, errhandler, ierror))
LOOM_F_ERRHANDLER(comm_create_errhandler, loom__fortran_comm_create_errhandler,
                  "MPI_Comm_create_errhandler")
LOOM_F_ERRHANDLER(win_create_errhandler, loom__fortran_win_create_errhandler,
                  "MPI_Win_create_errhandler")
LOOM_F_ERRHANDLER(session_create_errhandler, loom__fortran_session_create_errhandler,
                  "MPI_Session_create_errhandler")
/* MPI-1's name of MPI_Comm_create_errhandler */
LOOM_F_ERRHANDLER(errhandler_create, loom__fortran_comm_create_errhandler,
                  "MPI_Errhandler_create")

/* ---- generalized requests ---- */
static void grequest_start(loom_f_grequest_query *q, loom_f_grequest_free *f,
                           loom_f_grequest_cancel *c, const MPI_Aint *extra, MPI_Fint *request,
                           MPI_Fint *ierror)
{
    MPI_Request r = MPI_REQUEST_NULL;
    *ierror = loom__fortran_grequest_start("MPI_Grequest_start", q, f, c, *extra, &r);
    if (*ierror == MPI_SUCCESS)
        *request = loom__mpi_request_c2f(r);
}
LOOM_F_ENTRY(grequest_start,
             (loom_f_grequest_query * q, loom_f_grequest_free *f, loom_f_grequest_cancel *c,
              const MPI_Aint *extra, MPI_Fint *request, MPI_Fint *ierror),
             (q, f, c, extra, request, ierror))
