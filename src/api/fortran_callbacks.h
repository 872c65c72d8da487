/* api/fortran_callbacks.h — user procedures written in Fortran, for the Fortran bindings
 * (internal: the bindings' C entry points call these instead of the C calls).
 *
 * Fortran passes every argument by reference and every handle as an MPI_Fint; a LOGICAL is
 * 1 (.TRUE.) or 0; a status is MPI_F_STATUS_SIZE integers. When loom calls one of these
 * procedures it converts: handles with their Fortran handle (c2f), flags to 1/0 (and reads
 * any non-zero as true), statuses to and from the Fortran form, and it passes copies, so a
 * procedure that writes an input argument changes nothing of loom's.
 *
 * `fn` is the name of the call the program made ("MPI_OP_CREATE" or "MPI_Op_create"), for
 * the one-line message of a bad argument; errors go to the handler the C call would use.
 * Every function returns an MPI error code, for the binding's IERROR.
 *
 * Attributes (docs/interop.md, "Attributes from Fortran"): an attribute value is one
 * address-sized word whichever language set it. Set from Fortran, the word is the integer
 * (MPI-1's INTEGER forms sign-extend it); C reads it back as a void * holding that integer.
 * Set from C, the word is the pointer; Fortran reads the address as an integer (MPI-1's
 * INTEGER forms the low 32 bits). The predefined attributes are read as their values from
 * Fortran (MPI_TAG_UB gives the tag bound, MPI_WIN_SIZE the size, MPI_WIN_BASE the address
 * as an integer), as pointers to them from C. A Fortran copy or delete procedure receives
 * the word as an integer and a copy procedure's output becomes the new word.
 *
 * Threads: the procedures run on whatever thread the C ones would (attribute and error
 * callbacks on the calling thread, a user operation on the thread that runs the collective
 * step, under the privatization view of the rank that owns it, coll/run.c). */
#ifndef LOOM_API_FORTRAN_CALLBACKS_H
#define LOOM_API_FORTRAN_CALLBACKS_H
#include "mpi.h"

/* ---- user operations (MPI_OP_CREATE; MPI_Op_create_c's big-count form) ---- */
typedef void loom_f_user_function(void *invec, void *inoutvec, MPI_Fint *len,
                                  MPI_Fint *datatype);
typedef void loom_f_user_function_c(void *invec, void *inoutvec, MPI_Count *len,
                                    MPI_Fint *datatype);
int loom__fortran_op_create(const char *fn, loom_f_user_function *f, int commute, MPI_Op *op);
int loom__fortran_op_create_c(const char *fn, loom_f_user_function_c *f, int commute,
                              MPI_Op *op);

/* ---- attribute keys and their callbacks ---- */
/* obj is the Fortran handle of the communicator, datatype or window of the keyval's kind;
 * flag out is a LOGICAL; ierr out an MPI error code (MPI_SUCCESS to go on). */
typedef void loom_f_copy_attr(MPI_Fint *obj, MPI_Fint *keyval, MPI_Aint *extra_state,
                              MPI_Aint *attr_in, MPI_Aint *attr_out, MPI_Fint *flag,
                              MPI_Fint *ierr);
typedef void loom_f_delete_attr(MPI_Fint *obj, MPI_Fint *keyval, MPI_Aint *attr,
                                MPI_Aint *extra_state, MPI_Fint *ierr);
/* MPI_COMM_CREATE_KEYVAL, MPI_TYPE_CREATE_KEYVAL, MPI_WIN_CREATE_KEYVAL. The predefined
 * procedures below (mpi_comm_null_copy_fn_ ...) act as their C twins. A window's copy
 * procedure is never called (no window is duplicated). */
int loom__fortran_comm_create_keyval(const char *fn, loom_f_copy_attr *c, loom_f_delete_attr *d,
                                     int *keyval, MPI_Aint extra);
int loom__fortran_type_create_keyval(const char *fn, loom_f_copy_attr *c, loom_f_delete_attr *d,
                                     int *keyval, MPI_Aint extra);
int loom__fortran_win_create_keyval(const char *fn, loom_f_copy_attr *c, loom_f_delete_attr *d,
                                    int *keyval, MPI_Aint extra);
/* The old MPI-1 MPI_KEYVAL_CREATE (communicators): INTEGER (not ADDRESS_KIND) extra state and
 * attribute values. */
typedef void loom_f_copy_attr_int(MPI_Fint *obj, MPI_Fint *keyval, MPI_Fint *extra_state,
                                  MPI_Fint *attr_in, MPI_Fint *attr_out, MPI_Fint *flag,
                                  MPI_Fint *ierr);
typedef void loom_f_delete_attr_int(MPI_Fint *obj, MPI_Fint *keyval, MPI_Fint *attr,
                                    MPI_Fint *extra_state, MPI_Fint *ierr);
int loom__fortran_keyval_create(const char *fn, loom_f_copy_attr_int *c,
                                loom_f_delete_attr_int *d, int *keyval, MPI_Fint extra);

/* The objects of attribute calls: obj below is the C handle (MPI_Comm, MPI_Datatype, MPI_Win
 * as a void *) of this kind. */
enum loom_f_attr_kind { LOOM_F_ATTR_COMM = 0, LOOM_F_ATTR_TYPE, LOOM_F_ATTR_WIN };
/* MPI_COMM_SET_ATTR, MPI_TYPE_SET_ATTR, MPI_WIN_SET_ATTR: store the integer as the word. */
int loom__fortran_attr_set(int kind, void *obj, int keyval, MPI_Aint value);
/* MPI_COMM_GET_ATTR, MPI_TYPE_GET_ATTR, MPI_WIN_GET_ATTR: *flag 1 and *value the word as an
 * integer (a predefined attribute's value), or *flag 0 and *value untouched. */
int loom__fortran_attr_get(int kind, void *obj, int keyval, MPI_Aint *value, int *flag);
/* MPI-1's MPI_ATTR_PUT and MPI_ATTR_GET on communicators: INTEGER values (sign-extended in,
 * low 32 bits out). Deleting needs nothing of Fortran's: the C calls serve. */
int loom__fortran_attr_put_int(MPI_Comm comm, int keyval, MPI_Fint value);
int loom__fortran_attr_get_int(MPI_Comm comm, int keyval, MPI_Fint *value, int *flag);

/* ---- error handlers ---- */
/* obj is the Fortran handle of the communicator, window or session the error is raised on
 * (0 for none yet, as in MPI_Session_init); error_code the error code. */
typedef void loom_f_errhandler(MPI_Fint *obj, MPI_Fint *error_code);
int loom__fortran_comm_create_errhandler(const char *fn, loom_f_errhandler *f,
                                         MPI_Errhandler *eh);
int loom__fortran_win_create_errhandler(const char *fn, loom_f_errhandler *f,
                                        MPI_Errhandler *eh);
int loom__fortran_session_create_errhandler(const char *fn, loom_f_errhandler *f,
                                            MPI_Errhandler *eh);

/* ---- generalized requests (MPI_GREQUEST_START) ---- */
/* query fills a Fortran status (prefilled with what loom knows: an empty status); cancel's
 * complete is a LOGICAL. Each returns its error in ierr, which becomes the request's. */
typedef void loom_f_grequest_query(MPI_Aint *extra_state, MPI_Fint *status, MPI_Fint *ierr);
typedef void loom_f_grequest_free(MPI_Aint *extra_state, MPI_Fint *ierr);
typedef void loom_f_grequest_cancel(MPI_Aint *extra_state, MPI_Fint *complete,
                                    MPI_Fint *ierr);
int loom__fortran_grequest_start(const char *fn, loom_f_grequest_query *q,
                                 loom_f_grequest_free *f, loom_f_grequest_cancel *c,
                                 MPI_Aint extra, MPI_Request *req);

/* ---- the predefined callback procedures, under gfortran's external names (mpif.h and the
 * modules declare MPI_COMM_DUP_FN ... as these). Exported from libloom. ---- */
LOOM_API loom_f_copy_attr mpi_comm_null_copy_fn_, mpi_comm_dup_fn_;
LOOM_API loom_f_delete_attr mpi_comm_null_delete_fn_;
LOOM_API loom_f_copy_attr mpi_type_null_copy_fn_, mpi_type_dup_fn_;
LOOM_API loom_f_delete_attr mpi_type_null_delete_fn_;
LOOM_API loom_f_copy_attr mpi_win_null_copy_fn_, mpi_win_dup_fn_;
LOOM_API loom_f_delete_attr mpi_win_null_delete_fn_;
LOOM_API loom_f_copy_attr_int mpi_null_copy_fn_, mpi_dup_fn_;
LOOM_API loom_f_delete_attr_int mpi_null_delete_fn_;
#endif
