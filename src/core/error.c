/* core/error.c — loom codes to MPI classes and reasons, from the one table in error.h. */
#include "mpi.h"
#include "core/error.h"

int loom__error_class(int code)
{
    switch (code) {
    case LOOM_OK:
        return MPI_SUCCESS;
#define LOOM_ERROR_CLASS(c, cls, reason)                                                       \
    case c:                                                                                    \
        return cls;
        LOOM_ERROR_TABLE(LOOM_ERROR_CLASS)
#undef LOOM_ERROR_CLASS
    }
    return MPI_ERR_INTERN;
}

const char *loom__error_reason(int code)
{
    switch (code) {
    case LOOM_OK:
        return "no error";
#define LOOM_ERROR_REASON(c, cls, reason)                                                      \
    case c:                                                                                    \
        return reason;
        LOOM_ERROR_TABLE(LOOM_ERROR_REASON)
#undef LOOM_ERROR_REASON
    }
    return "internal error";
}
