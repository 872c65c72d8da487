/* api/datatype_value_index.c — MPI_Type_get_value_index (MPI 4.1, section 6.9.4): the
 * predefined value-index pair type that MPI_MINLOC and MPI_MAXLOC take, for a value type and
 * an index type. The pairs loom has are C's, all with an int index (MPI_FLOAT_INT ...
 * MPI_LONG_DOUBLE_INT, MPI_2INT), and Fortran's, whose index has the value's type
 * (MPI_2REAL, MPI_2DOUBLE_PRECISION, MPI_2INTEGER); for any other combination, derived types
 * included, there is none and the answer is MPI_DATATYPE_NULL, which is not an error. */
#include "api/api.h"
#include "dt/dt.h"

#define FAIL(fn, cls, ...) loom__api_error(MPI_COMM_WORLD, fn, cls, __VA_ARGS__)

int loom__mpi_type_get_value_index(MPI_Datatype value_type, MPI_Datatype index_type,
                                   MPI_Datatype *pair_type)
{
    LOOM_API_ENTER("MPI_Type_get_value_index");
    static const char fn[] = "MPI_Type_get_value_index";
    const char *why = loom__dt_bad_handle(value_type);
    if (why)
        return FAIL(fn, MPI_ERR_TYPE, "value_type %s", why);
    why = loom__dt_bad_handle(index_type);
    if (why)
        return FAIL(fn, MPI_ERR_TYPE, "index_type %s", why);
    if (pair_type == NULL)
        return FAIL(fn, MPI_ERR_ARG, "pair_type is NULL");
    static const struct {
        MPI_Datatype value, index, pair;
    } pairs[] = {
        {MPI_FLOAT, MPI_INT, MPI_FLOAT_INT},
        {MPI_DOUBLE, MPI_INT, MPI_DOUBLE_INT},
        {MPI_LONG, MPI_INT, MPI_LONG_INT},
        {MPI_INT, MPI_INT, MPI_2INT},
        {MPI_SHORT, MPI_INT, MPI_SHORT_INT},
        {MPI_LONG_DOUBLE, MPI_INT, MPI_LONG_DOUBLE_INT},
        {MPI_REAL, MPI_REAL, MPI_2REAL},
        {MPI_DOUBLE_PRECISION, MPI_DOUBLE_PRECISION, MPI_2DOUBLE_PRECISION},
        {MPI_INTEGER, MPI_INTEGER, MPI_2INTEGER},
    };
    *pair_type = MPI_DATATYPE_NULL;
    for (size_t i = 0; i < sizeof pairs / sizeof pairs[0]; i++)
        if (pairs[i].value == value_type && pairs[i].index == index_type)
            *pair_type = pairs[i].pair;
    return MPI_SUCCESS;
}
