/* api/deprecated.c — MPI-1/2 names removed from the standard (MPI 3.0) but still declared by
 * MPICH's and Open MPI's headers, which old programs call: each runs the implementation of its
 * modern equivalent (api/shared_impl.h) under its own name.
 *   MPI_Keyval_create / _free        MPI_Comm_create_keyval / _free_keyval
 *   MPI_Attr_put / _get / _delete    MPI_Comm_set_attr / _get_attr / _delete_attr
 *   MPI_Errhandler_create / _set / _get   MPI_Comm_create_errhandler / _set_ / _get_
 *   MPI_Type_extent, _lb, _ub        MPI_Type_get_extent (ub = lb + extent)
 *   MPI_Type_hvector, _hindexed, _struct  MPI_Type_create_hvector, _hindexed, _struct
 *   MPI_Address                      MPI_Get_address */
#include <stdint.h>
#include "api/api.h"
#include "api/shared_impl.h"

int loom__mpi_keyval_create(MPI_Copy_function *copy_fn, MPI_Delete_function *delete_fn, int *keyval,
                            void *extra_state)
{
    LOOM_API_ENTER("MPI_Keyval_create");
    return loom__api_create_keyval("MPI_Keyval_create", copy_fn, delete_fn, keyval,
                                   extra_state);
}

int loom__mpi_keyval_free(int *keyval)
{
    LOOM_API_ENTER("MPI_Keyval_free");
    return loom__api_free_keyval("MPI_Keyval_free", keyval);
}

int loom__mpi_attr_put(MPI_Comm comm, int keyval, void *attribute_val)
{
    LOOM_API_ENTER("MPI_Attr_put");
    return loom__api_set_attr("MPI_Attr_put", comm, keyval, attribute_val);
}

int loom__mpi_attr_get(MPI_Comm comm, int keyval, void *attribute_val, int *flag)
{
    LOOM_API_ENTER("MPI_Attr_get");
    return loom__api_get_attr("MPI_Attr_get", comm, keyval, attribute_val, flag);
}

int loom__mpi_attr_delete(MPI_Comm comm, int keyval)
{
    LOOM_API_ENTER("MPI_Attr_delete");
    return loom__api_delete_attr("MPI_Attr_delete", comm, keyval);
}

int loom__mpi_errhandler_create(MPI_Handler_function *function, MPI_Errhandler *errhandler)
{
    LOOM_API_ENTER("MPI_Errhandler_create");
    return loom__api_create_errhandler("MPI_Errhandler_create", function, errhandler);
}

int loom__mpi_errhandler_set(MPI_Comm comm, MPI_Errhandler errhandler)
{
    LOOM_API_ENTER("MPI_Errhandler_set");
    return loom__api_set_errhandler("MPI_Errhandler_set", comm, errhandler);
}

int loom__mpi_errhandler_get(MPI_Comm comm, MPI_Errhandler *errhandler)
{
    LOOM_API_ENTER("MPI_Errhandler_get");
    return loom__api_get_errhandler("MPI_Errhandler_get", comm, errhandler);
}

/* The bounds of datatype through MPI_Type_get_extent's code: which = 0 extent, 1 lb, 2 ub. */
static int bound(const char *fn, MPI_Datatype datatype, MPI_Aint *out, int which)
{
    MPI_Aint lb, extent;
    int rc = loom__api_type_extent(fn, datatype, &lb, &extent);
    if (rc != MPI_SUCCESS)
        return rc;
    if (out == NULL)
        return loom__api_error(MPI_COMM_WORLD, fn, MPI_ERR_ARG, "%s is NULL",
                               which == 0 ? "extent" : "displacement");
    *out = which == 0 ? extent : which == 1 ? lb : (MPI_Aint)((uintptr_t)lb + (uintptr_t)extent);
    return MPI_SUCCESS;
}

int loom__mpi_type_extent(MPI_Datatype datatype, MPI_Aint *extent)
{
    LOOM_API_ENTER("MPI_Type_extent");
    return bound("MPI_Type_extent", datatype, extent, 0);
}

int loom__mpi_type_lb(MPI_Datatype datatype, MPI_Aint *displacement)
{
    LOOM_API_ENTER("MPI_Type_lb");
    return bound("MPI_Type_lb", datatype, displacement, 1);
}

int loom__mpi_type_ub(MPI_Datatype datatype, MPI_Aint *displacement)
{
    LOOM_API_ENTER("MPI_Type_ub");
    return bound("MPI_Type_ub", datatype, displacement, 2);
}

int loom__mpi_type_hvector(int count, int blocklength, MPI_Aint stride, MPI_Datatype oldtype,
                           MPI_Datatype *newtype)
{
    LOOM_API_ENTER("MPI_Type_hvector");
    return loom__api_type_hvector("MPI_Type_hvector", count, blocklength, stride, oldtype,
                                  newtype);
}

int loom__mpi_type_hindexed(int count, int blocklengths[], MPI_Aint displacements[],
                            MPI_Datatype oldtype, MPI_Datatype *newtype)
{
    LOOM_API_ENTER("MPI_Type_hindexed");
    return loom__api_type_hindexed("MPI_Type_hindexed", count, blocklengths, displacements,
                                   oldtype, newtype);
}

int loom__mpi_type_struct(int count, int blocklengths[], MPI_Aint displacements[],
                          MPI_Datatype types[], MPI_Datatype *newtype)
{
    LOOM_API_ENTER("MPI_Type_struct");
    return loom__api_type_struct("MPI_Type_struct", count, blocklengths, displacements, types,
                                 newtype);
}

int loom__mpi_address(void *location, MPI_Aint *address)
{
    LOOM_API_ENTER("MPI_Address");
    return loom__api_get_address("MPI_Address", location, address);
}
