/* api/shared_impl.h — the implementations that a deprecated MPI-1/2 name (api/deprecated.c)
 * shares with its modern equivalent. Each is the whole call but LOOM_API_ENTER, and takes the
 * name of the call it serves, for its error messages: MPI_Attr_put and MPI_Comm_set_attr run
 * the same code and each reports under its own name. */
#ifndef LOOM_API_SHARED_IMPL_H
#define LOOM_API_SHARED_IMPL_H
#include "mpi.h"

/* api/attr.c */
int loom__api_create_keyval(const char *fn, MPI_Comm_copy_attr_function *copy_fn,
                            MPI_Comm_delete_attr_function *delete_fn, int *keyval,
                            void *extra_state);
int loom__api_free_keyval(const char *fn, int *keyval);
int loom__api_set_attr(const char *fn, MPI_Comm comm, int keyval, void *attribute_val);
int loom__api_get_attr(const char *fn, MPI_Comm comm, int keyval, void *attribute_val,
                       int *flag);
int loom__api_delete_attr(const char *fn, MPI_Comm comm, int keyval);
/* api/errhandler.c */
int loom__api_create_errhandler(const char *call, MPI_Comm_errhandler_function *fn,
                                MPI_Errhandler *errhandler);
int loom__api_set_errhandler(const char *fn, MPI_Comm comm, MPI_Errhandler errhandler);
int loom__api_get_errhandler(const char *fn, MPI_Comm comm, MPI_Errhandler *errhandler);
/* api/datatype.c */
int loom__api_type_extent(const char *fn, MPI_Datatype datatype, MPI_Aint *lb,
                          MPI_Aint *extent);
int loom__api_get_address(const char *fn, const void *location, MPI_Aint *address);
/* api/datatype_create.c */
int loom__api_type_hvector(const char *fn, MPI_Count count, MPI_Count blocklength,
                           MPI_Count stride, MPI_Datatype oldtype, MPI_Datatype *newtype);
int loom__api_type_hindexed(const char *fn, int count, const int blocklengths[],
                            const MPI_Aint displacements[], MPI_Datatype oldtype,
                            MPI_Datatype *newtype);
int loom__api_type_struct(const char *fn, int count, const int blocklengths[],
                          const MPI_Aint displacements[], const MPI_Datatype types[],
                          MPI_Datatype *newtype);
#endif
