/* comm/errhandler.h — error handler objects (struct loom_errhandler is in comm.h). */
#ifndef LOOM_COMM_ERRHANDLER_H
#define LOOM_COMM_ERRHANDLER_H
struct loom_errhandler;
/* A communicator handle takes a reference on its handler; builtins are never counted. */
void loom__errhandler_retain(struct loom_errhandler *eh);
void loom__errhandler_release(struct loom_errhandler *eh);
/* Call a Fortran handler (eh->fortran_fn set) on the object `handle` (a C handle, NULL for
 * none) with error code `code`: both by reference, the handle as its Fortran handle. */
void loom__errhandler_call_fortran(struct loom_errhandler *eh, void *handle, int code);
#endif
