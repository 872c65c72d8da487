/* api/error_add.c — MPI_Add_error_class, MPI_Add_error_code, MPI_Add_error_string and their
 * MPI 4.1 inverses MPI_Remove_error_class/_code/_string: error classes, codes and texts of the
 * program's own (the table: comm/error_class.c). MPI_Error_class
 * and MPI_Error_string (api/error.c) know them; the attribute MPI_LASTUSEDCODE follows the
 * largest value added. No communicator is involved: errors go to MPI_COMM_WORLD's handler. */
#include <string.h>
#include "api/api.h"
#include "comm/error_class.h"

#define FAIL(fn, cls, ...) loom__api_error(MPI_COMM_WORLD, fn, cls, __VA_ARGS__)

int loom__mpi_add_error_class(int *errorclass)
{
    LOOM_API_ENTER("MPI_Add_error_class");
    if (errorclass == NULL)
        return FAIL("MPI_Add_error_class", MPI_ERR_ARG, "errorclass is NULL");
    int rc = loom__error_add_class(errorclass);
    if (rc != 0)
        return loom__api_error_code(MPI_COMM_WORLD, "MPI_Add_error_class", rc);
    return MPI_SUCCESS;
}

int loom__mpi_add_error_code(int errorclass, int *errorcode)
{
    LOOM_API_ENTER("MPI_Add_error_code");
    static const char fn[] = "MPI_Add_error_code";
    /* a class: predefined (other than MPI_SUCCESS) or added by MPI_Add_error_class */
    int is_class = (errorclass > MPI_SUCCESS && errorclass <= MPI_ERR_LASTCODE) ||
                   loom__error_is_user_class(errorclass);
    if (!is_class)
        return FAIL(fn, MPI_ERR_ARG, "%d is not an error class%s", errorclass,
                    loom__error_is_user(errorclass) ? " (it is an error code)" : "");
    if (errorcode == NULL)
        return FAIL(fn, MPI_ERR_ARG, "errorcode is NULL");
    int rc = loom__error_add_code(errorclass, errorcode);
    if (rc != 0)
        return loom__api_error_code(MPI_COMM_WORLD, fn, rc);
    return MPI_SUCCESS;
}

int loom__mpi_add_error_string(int errorcode, const char *string)
{
    LOOM_API_ENTER("MPI_Add_error_string");
    static const char fn[] = "MPI_Add_error_string";
    if (errorcode >= 0 && errorcode <= MPI_ERR_LASTCODE)
        return FAIL(fn, MPI_ERR_ARG, "%d is a predefined error code: its string cannot change",
                    errorcode);
    if (!loom__error_is_user(errorcode))
        return FAIL(fn, MPI_ERR_ARG, "%d is not an error code or class added by the program",
                    errorcode);
    if (string == NULL)
        return FAIL(fn, MPI_ERR_ARG, "string is NULL");
    size_t len = strlen(string);
    if (len >= MPI_MAX_ERROR_STRING)
        return FAIL(fn, MPI_ERR_ARG, "string is %zu characters long, more than "
                    "MPI_MAX_ERROR_STRING - 1 (%d)", len, MPI_MAX_ERROR_STRING - 1);
    int rc = loom__error_set_string(errorcode, string);
    if (rc != 0)
        return loom__api_error_code(MPI_COMM_WORLD, fn, rc);
    return MPI_SUCCESS;
}

/* Report what stops a removal; MPI_SUCCESS when it was done. Every refusal is MPI_ERR_ARG:
 * the standard calls each case erroneous without naming a class. */
static int removal(const char *fn, int v, enum loom_error_remove rc, const char *what)
{
    switch (rc) {
    case LOOM_ERROR_REMOVED:
        return MPI_SUCCESS;
    case LOOM_ERROR_HAS_CODES:
        return FAIL(fn, MPI_ERR_ARG, "error class %d still has error codes: remove them first",
                    v);
    case LOOM_ERROR_HAS_STRING:
        return FAIL(fn, MPI_ERR_ARG, "error code %d still has a string: "
                    "MPI_Remove_error_string first", v);
    case LOOM_ERROR_NO_STRING:
        return FAIL(fn, MPI_ERR_ARG, "%d has no string added by MPI_Add_error_string", v);
    case LOOM_ERROR_UNKNOWN:
        break;
    }
    if (v >= 0 && v <= MPI_ERR_LASTCODE)
        return FAIL(fn, MPI_ERR_ARG, "%d is predefined: only what the program added can be "
                    "removed", v);
    return FAIL(fn, MPI_ERR_ARG, "%d is not %s", v, what);
}

int loom__mpi_remove_error_class(int errorclass)
{
    LOOM_API_ENTER("MPI_Remove_error_class");
    return removal("MPI_Remove_error_class", errorclass,
                   loom__error_remove_class(errorclass),
                   "an error class added by MPI_Add_error_class (or it was removed)");
}

int loom__mpi_remove_error_code(int errorcode)
{
    LOOM_API_ENTER("MPI_Remove_error_code");
    return removal("MPI_Remove_error_code", errorcode, loom__error_remove_code(errorcode),
                   "an error code added by MPI_Add_error_code (or it was removed)");
}

int loom__mpi_remove_error_string(int errorcode)
{
    LOOM_API_ENTER("MPI_Remove_error_string");
    return removal("MPI_Remove_error_string", errorcode, loom__error_remove_string(errorcode),
                   "an error code or class added by the program");
}
