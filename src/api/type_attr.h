/* api/type_attr.h — attributes on datatypes (type_attr.c), for the datatype calls that copy
 * or free them. */
#ifndef LOOM_API_TYPE_ATTR_H
#define LOOM_API_TYPE_ATTR_H
#include "mpi.h"

/* Run the copy callbacks of old's attributes into dup (new, not yet seen by the user), as
 * MPI_Type_dup does. 0, a negative loom code, or a callback's error code (positive); on
 * failure dup's copied attributes are deleted again. */
int loom__type_attr_copy_all(MPI_Datatype old, MPI_Datatype dup);
/* Run the delete callbacks of t's attributes (MPI_Type_free). 0 or a callback's code. */
int loom__type_attr_delete_all(MPI_Datatype t);
/* Drop what is left on the predefined types at job end, without callbacks (their keyvals'
 * table is about to go). */
void loom__type_attr_job_fini(void);
#endif
