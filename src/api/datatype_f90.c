/* api/datatype_f90.c — MPI_Type_create_f90_integer / _real / _complex and
 * MPI_Type_match_size: predefined types chosen by range, precision or size (dt/f90.c).
 *
 * What the standard leaves to the implementation: an unsupported range or precision, or no
 * type of the asked size, is MPI_ERR_ARG (as MPICH); p and r of _real / _complex may each be
 * MPI_UNDEFINED, not both. The types are gfortran's kinds: MPI_INTEGER1..16, MPI_REAL4, 8,
 * MPI_LONG_DOUBLE (REAL(10)), MPI_REAL16 and their complexes; match_size answers the sized
 * Fortran types. Errors go to MPI_COMM_WORLD's handler. */
#include "api/api.h"
#include "dt/dt.h"

#define FAIL(fn, cls, ...) loom__api_error(MPI_COMM_WORLD, fn, cls, __VA_ARGS__)

static int make(const char *fn, int combiner, int p, int r, MPI_Datatype *newtype)
{
    if (newtype == NULL)
        return FAIL(fn, MPI_ERR_ARG, "newtype is NULL");
    struct loom_datatype *t = NULL;
    int rc = loom__dt_f90(combiner, p, r, &t);
    if (rc == LOOM_ERR_ARG) {
        if (combiner == MPI_COMBINER_F90_INTEGER)
            return FAIL(fn, MPI_ERR_ARG, "no integer type has a decimal range of %d", r);
        return FAIL(fn, MPI_ERR_ARG, "no floating type has precision %d and range %d", p, r);
    }
    if (rc)
        return loom__api_error_code(MPI_COMM_WORLD, fn, rc);
    *newtype = t;
    return MPI_SUCCESS;
}

/* MPI_SUCCESS if p and r are valid for _real / _complex, else the class reported. */
static int check_pr(const char *fn, int p, int r)
{
    if (p == MPI_UNDEFINED && r == MPI_UNDEFINED)
        return FAIL(fn, MPI_ERR_ARG, "p and r are both MPI_UNDEFINED");
    if (p < 0 && p != MPI_UNDEFINED)
        return FAIL(fn, MPI_ERR_ARG, "p %d is negative", p);
    if (r < 0 && r != MPI_UNDEFINED)
        return FAIL(fn, MPI_ERR_ARG, "r %d is negative", r);
    return MPI_SUCCESS;
}

int loom__mpi_type_create_f90_integer(int r, MPI_Datatype *newtype)
{
    LOOM_API_ENTER("MPI_Type_create_f90_integer");
    static const char fn[] = "MPI_Type_create_f90_integer";
    if (r < 0)
        return FAIL(fn, MPI_ERR_ARG, "r %d is negative", r);
    return make(fn, MPI_COMBINER_F90_INTEGER, MPI_UNDEFINED, r, newtype);
}

int loom__mpi_type_create_f90_real(int p, int r, MPI_Datatype *newtype)
{
    LOOM_API_ENTER("MPI_Type_create_f90_real");
    static const char fn[] = "MPI_Type_create_f90_real";
    int rc = check_pr(fn, p, r);
    return rc ? rc : make(fn, MPI_COMBINER_F90_REAL, p, r, newtype);
}

int loom__mpi_type_create_f90_complex(int p, int r, MPI_Datatype *newtype)
{
    LOOM_API_ENTER("MPI_Type_create_f90_complex");
    static const char fn[] = "MPI_Type_create_f90_complex";
    int rc = check_pr(fn, p, r);
    return rc ? rc : make(fn, MPI_COMBINER_F90_COMPLEX, p, r, newtype);
}

int loom__mpi_type_match_size(int typeclass, int size, MPI_Datatype *datatype)
{
    LOOM_API_ENTER("MPI_Type_match_size");
    static const char fn[] = "MPI_Type_match_size";
    if (typeclass != MPI_TYPECLASS_INTEGER && typeclass != MPI_TYPECLASS_REAL &&
        typeclass != MPI_TYPECLASS_COMPLEX)
        return FAIL(fn, MPI_ERR_ARG, "typeclass %d is not an MPI_TYPECLASS_*", typeclass);
    if (datatype == NULL)
        return FAIL(fn, MPI_ERR_ARG, "datatype is NULL");
    struct loom_datatype *t = loom__dt_match_size(typeclass, size);
    if (t == NULL)
        return FAIL(fn, MPI_ERR_ARG, "no %s type has %d bytes",
                    typeclass == MPI_TYPECLASS_INTEGER ? "integer"
                    : typeclass == MPI_TYPECLASS_REAL  ? "real"
                                                       : "complex",
                    size);
    *datatype = t;
    return MPI_SUCCESS;
}
