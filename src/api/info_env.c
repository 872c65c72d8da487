/* api/info_env.c — MPI_Info_get_string (MPI 4.0) and MPI_Info_create_env.
 * Info errors are reported through MPI_COMM_WORLD's handler, as in api/info.c. */
#include <string.h>
#include "api/api.h"
#include "comm/comm.h"

#define FAIL(fn, cls, ...) loom__api_error(MPI_COMM_NULL, fn, cls, __VA_ARGS__)

int loom__mpi_info_get_string(MPI_Info info, const char *key, int *buflen, char *value, int *flag)
{
    LOOM_API_ENTER("MPI_Info_get_string");
    static const char fn[] = "MPI_Info_get_string";
    const char *why = loom__info_invalid_reason(info);
    if (why != NULL)
        return FAIL(fn, MPI_ERR_INFO, "%s", why);
    if (key == NULL)
        return FAIL(fn, MPI_ERR_INFO_KEY, "key is NULL");
    size_t klen = strlen(key);
    if (klen == 0 || klen > MPI_MAX_INFO_KEY)
        return FAIL(fn, MPI_ERR_INFO_KEY, "key is %zu characters long (1 to MPI_MAX_INFO_KEY, "
                    "%d, allowed)", klen, MPI_MAX_INFO_KEY);
    if (buflen == NULL || flag == NULL)
        return FAIL(fn, MPI_ERR_ARG, "%s is NULL", buflen == NULL ? "buflen" : "flag");
    if (*buflen < 0)
        return FAIL(fn, MPI_ERR_ARG, "*buflen %d is negative", *buflen);
    if (*buflen > 0 && value == NULL)
        return FAIL(fn, MPI_ERR_ARG, "value is NULL with *buflen %d", *buflen);
    /* one locked read: the copy (truncated to *buflen - 1 characters and a NUL) and the full
     * length agree even while another thread changes the key */
    int len = loom__info_get(info, key, value, (size_t)*buflen);
    *flag = len >= 0;
    if (len >= 0)
        *buflen = len + 1; /* the whole value and its NUL */
    return MPI_SUCCESS;
}

/* Callable before MPI_Init too (MPI 4.1, section 11.2.4): it needs no rank. */
int loom__mpi_info_create_env(int argc, char *argv[], MPI_Info *info)
{
    LOOM_TRACE_API_SCOPE("MPI_Info_create_env");
    static const char fn[] = "MPI_Info_create_env";
    if (loom__self != NULL && loom__load_acquire(&loom__self->state) >= LOOM_RANK_FINALIZED)
        return loom__api_check_initialized(fn); /* after MPI_Finalize: reported */
    if (info == NULL)
        return FAIL(fn, MPI_ERR_ARG, "info is NULL");
    if (argc < 0 || (argc > 0 && argv == NULL))
        return FAIL(fn, MPI_ERR_ARG, argc < 0 ? "argc %d is negative" : "argv is NULL with "
                    "argc %d", argc);
    /* no arguments given (argc 0, as C programs may pass): the calling rank's own */
    if (argc == 0 && loom__self != NULL && loom__self->argv != NULL) {
        argv = loom__self->argv;
        while (argv[argc] != NULL)
            argc++;
    }
    struct loom_info *i = loom__info_new();
    if (i == NULL)
        return loom__api_error_code(MPI_COMM_NULL, fn, LOOM_ERR_NOMEM);
    int rc = loom__info_fill_env(i, argc, argv, loom__job.nranks);
    if (rc != 0) {
        loom__info_free(i);
        return loom__api_error_code(MPI_COMM_NULL, fn, rc);
    }
    *info = i;
    return MPI_SUCCESS;
}
