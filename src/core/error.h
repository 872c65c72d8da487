/* core/error.h — loom's internal error codes.
 * Inside loom a function returns 0 on success or a negative loom code. The table below is the
 * one place that maps each code to its MPI error class and a short reason; only the API layer
 * turns codes into classes and calls error handlers. */
#ifndef LOOM_CORE_ERROR_H
#define LOOM_CORE_ERROR_H

/* X(loom code, MPI error class, reason) */
#define LOOM_ERROR_TABLE(X)                                                                    \
    X(LOOM_ERR_NOMEM, MPI_ERR_NO_MEM, "out of memory")                                         \
    X(LOOM_ERR_ARG, MPI_ERR_ARG, "invalid argument")                                           \
    X(LOOM_ERR_COMM, MPI_ERR_COMM, "invalid communicator")                                     \
    X(LOOM_ERR_RANK, MPI_ERR_RANK, "invalid rank")                                             \
    X(LOOM_ERR_TAG, MPI_ERR_TAG, "invalid tag")                                                \
    X(LOOM_ERR_COUNT, MPI_ERR_COUNT, "invalid count")                                          \
    X(LOOM_ERR_TYPE, MPI_ERR_TYPE, "invalid datatype")                                         \
    X(LOOM_ERR_BUFFER, MPI_ERR_BUFFER, "invalid buffer")                                       \
    X(LOOM_ERR_REQUEST, MPI_ERR_REQUEST, "invalid request")                                    \
    X(LOOM_ERR_TRUNCATE, MPI_ERR_TRUNCATE, "message truncated")                                \
    X(LOOM_ERR_GROUP, MPI_ERR_GROUP, "invalid group")                                          \
    X(LOOM_ERR_INFO, MPI_ERR_INFO, "invalid info")                                             \
    X(LOOM_ERR_KEYVAL, MPI_ERR_KEYVAL, "invalid keyval")                                       \
    X(LOOM_ERR_OTHER, MPI_ERR_OTHER, "other error")                                            \
    X(LOOM_ERR_INTERN, MPI_ERR_INTERN, "internal error")                                       \
    X(LOOM_ERR_OP, MPI_ERR_OP, "invalid operation")                                           \
    X(LOOM_ERR_ROOT, MPI_ERR_ROOT, "invalid root")                                             \
    X(LOOM_ERR_UNSUPPORTED, MPI_ERR_UNSUPPORTED_OPERATION, "unsupported operation")          \
    X(LOOM_ERR_RMA_RANGE, MPI_ERR_RMA_RANGE, "target range outside the window")              \
    X(LOOM_ERR_RMA_ATTACH, MPI_ERR_RMA_ATTACH, "memory cannot be attached")                  \
    X(LOOM_ERR_RMA_SYNC, MPI_ERR_RMA_SYNC, "wrong synchronization of one-sided calls")

enum loom_error {
    LOOM_OK = 0,
#define LOOM_ERROR_ENUM(code, cls, reason) code,
    LOOM_ERR_FIRST_ = -1000,
    LOOM_ERROR_TABLE(LOOM_ERROR_ENUM)
#undef LOOM_ERROR_ENUM
};

/* The MPI error class of a loom code (MPI_SUCCESS for 0, MPI_ERR_INTERN if unknown). */
int loom__error_class(int code);
/* The short reason of a loom code. */
const char *loom__error_reason(int code);
#endif
