/* coll/check.h — argument checks shared by the collective entry points (api/coll_*.c,
 * api/barrier.c; defined in api/coll_check.c). Each returns MPI_SUCCESS, or the error class
 * already reported through the communicator's error handler with a one-line reason. */
#ifndef LOOM_COLL_CHECK_H
#define LOOM_COLL_CHECK_H
#include "mpi.h"
#include "coll/coll.h"

struct loom_comm;

/* The communicator (an intracommunicator the calling rank belongs to) into *out; an
 * intercommunicator is MPI_ERR_COMM (scan and exscan, which are not defined on one). */
int loom__coll_check_comm(const char *fn, MPI_Comm comm, struct loom_comm **out);
/* The same, accepting an intercommunicator (the calls that handle one). */
int loom__coll_check_comm_any(const char *fn, MPI_Comm comm, struct loom_comm **out);
/* buf as a buffer of count elements of type: not MPI_IN_PLACE, and not NULL when it holds
 * data at its start (MPI_BOTTOM with a type of absolute addresses is fine): MPI_ERR_BUFFER. */
int loom__coll_check_null(const char *fn, MPI_Comm comm, const char *what, const void *buf,
                          long long count, MPI_Datatype type);
/* A buffer argument named `what` ("sendbuf"): count >= 0, a usable datatype, not NULL when
 * it holds data, not MPI_IN_PLACE (callers handle the places where it is allowed). */
int loom__coll_check_buf(const char *fn, MPI_Comm comm, const char *what, const void *buf,
                         MPI_Count count, MPI_Datatype type);
/* The same for a vector argument: counts[] and displs[] (not NULL) for every rank, int or,
 * when wide, MPI_Count and MPI_Aint (coll.h); types[] when non-NULL (alltoallw) instead of
 * type. */
int loom__coll_check_bufv(const char *fn, MPI_Comm comm, const char *what, const void *buf,
                          const void *counts, const void *displs, int wide, MPI_Datatype type,
                          const MPI_Datatype types[], int size);
/* root in [0, size). */
int loom__coll_check_root(const char *fn, MPI_Comm comm, int root, int size);
/* The root of a rooted collective. On an intracommunicator a rank of it (*is_root: it is the
 * calling rank); on an intercommunicator MPI_ROOT (*is_root = 1: the calling rank is the
 * root), MPI_PROC_NULL (*idle = 1: another member of the root's group, whose arguments are
 * not significant) or a rank of the remote group (the root's). */
int loom__coll_check_root_of(const char *fn, MPI_Comm comm, struct loom_comm *c, int root,
                             int *is_root, int *idle);
/* MPI_IN_PLACE given where the intracommunicator form allows it: MPI_ERR_BUFFER on an
 * intercommunicator (the standard has no in-place form there). */
int loom__coll_check_in_place(const char *fn, MPI_Comm comm, struct loom_comm *c,
                              const char *what, const void *buf);
/* op is a live operation that may be applied to type. */
int loom__coll_check_op(const char *fn, MPI_Comm comm, MPI_Op op, MPI_Datatype type);
/* sendbuf and recvbuf are the same address while both hold data: MPI_ERR_BUFFER (the
 * standard asks for MPI_IN_PLACE instead). */
int loom__coll_check_alias(const char *fn, MPI_Comm comm, const void *sendbuf,
                           const void *recvbuf, int holds_data);
/* Nonblocking calls: the request pointer. */
int loom__coll_check_request(const char *fn, MPI_Comm comm, MPI_Request *request);
/* Persistent calls (*_init): info is MPI_INFO_NULL or a live info object (its hints are
 * accepted and ignored). */
int loom__coll_check_info(const char *fn, MPI_Comm comm, MPI_Info info);
/* Run the collective as mode says (enum loom_coll_mode; request unused when blocking) and
 * report what went wrong. */
int loom__coll_call_mode(const char *fn, MPI_Comm comm, enum loom_coll_kind kind,
                         struct loom_comm *c, const struct loom_coll_args *a,
                         MPI_Request *request, int mode);
/* Run the collective (request NULL: blocking) and report what went wrong. */
int loom__coll_call(const char *fn, MPI_Comm comm, enum loom_coll_kind kind,
                    struct loom_comm *c, const struct loom_coll_args *a, MPI_Request *request);
#endif
