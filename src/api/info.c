/* api/info.c — MPI_Info_*: create, set, get, get_valuelen, get_nkeys, get_nthkey, delete,
 * dup, free. Info errors are reported through MPI_COMM_WORLD's handler. MPI_INFO_ENV can be
 * read and duplicated but not changed or freed. */
#include <string.h>
#include "api/api.h"
#include "comm/comm.h"

static int fail(const char *fn, int cls, const char *why)
{
    return loom__api_error(MPI_COMM_NULL, fn, cls, "%s", why);
}

/* The info, or NULL after reporting MPI_ERR_INFO through *rc. */
static struct loom_info *get_info(MPI_Info info, const char *fn, int *rc)
{
    const char *why = loom__info_invalid_reason(info);
    if (why != NULL) {
        *rc = fail(fn, MPI_ERR_INFO, why);
        return NULL;
    }
    return info;
}

/* MPI_SUCCESS if key is a valid key, else the reported MPI_ERR_INFO_KEY. */
static int check_key(const char *fn, const char *key)
{
    if (key == NULL)
        return fail(fn, MPI_ERR_INFO_KEY, "key is NULL");
    size_t len = strlen(key);
    if (len == 0)
        return fail(fn, MPI_ERR_INFO_KEY, "key is empty");
    if (len > MPI_MAX_INFO_KEY)
        return loom__api_error(MPI_COMM_NULL, fn, MPI_ERR_INFO_KEY,
                               "key is %zu characters long, more than MPI_MAX_INFO_KEY (%d)",
                               len, MPI_MAX_INFO_KEY);
    return MPI_SUCCESS;
}

static int check_writable(const char *fn, struct loom_info *i)
{
    if (i->is_predefined)
        return fail(fn, MPI_ERR_INFO, "MPI_INFO_ENV cannot be changed or freed");
    return MPI_SUCCESS;
}

int loom__mpi_info_create(MPI_Info *info)
{
    LOOM_API_ENTER("MPI_Info_create");
    if (info == NULL)
        return fail("MPI_Info_create", MPI_ERR_ARG, "info is NULL");
    struct loom_info *i = loom__info_new();
    if (i == NULL)
        return loom__api_error_code(MPI_COMM_NULL, "MPI_Info_create", LOOM_ERR_NOMEM);
    *info = i;
    return MPI_SUCCESS;
}

int loom__mpi_info_set(MPI_Info info, const char *key, const char *value)
{
    LOOM_API_ENTER("MPI_Info_set");
    const char *fn = "MPI_Info_set";
    int rc = MPI_SUCCESS;
    struct loom_info *i = get_info(info, fn, &rc);
    if (i == NULL)
        return rc;
    if ((rc = check_writable(fn, i)) != MPI_SUCCESS || (rc = check_key(fn, key)) != MPI_SUCCESS)
        return rc;
    if (value == NULL)
        return fail(fn, MPI_ERR_INFO_VALUE, "value is NULL");
    size_t len = strlen(value);
    if (len > MPI_MAX_INFO_VAL)
        return loom__api_error(MPI_COMM_NULL, fn, MPI_ERR_INFO_VALUE,
                               "value is %zu characters long, more than MPI_MAX_INFO_VAL (%d)",
                               len, MPI_MAX_INFO_VAL);
    rc = loom__info_set(i, key, value);
    if (rc != 0)
        return loom__api_error_code(MPI_COMM_NULL, fn, rc);
    return MPI_SUCCESS;
}

int loom__mpi_info_get(MPI_Info info, const char *key, int valuelen, char *value, int *flag)
{
    LOOM_API_ENTER("MPI_Info_get");
    const char *fn = "MPI_Info_get";
    int rc = MPI_SUCCESS;
    struct loom_info *i = get_info(info, fn, &rc);
    if (i == NULL)
        return rc;
    if ((rc = check_key(fn, key)) != MPI_SUCCESS)
        return rc;
    if (valuelen < 0)
        return loom__api_error(MPI_COMM_NULL, fn, MPI_ERR_ARG, "valuelen %d is negative",
                               valuelen);
    if (value == NULL || flag == NULL)
        return fail(fn, MPI_ERR_ARG, value == NULL ? "value is NULL" : "flag is NULL");
    /* value has room for valuelen characters and the NUL */
    *flag = loom__info_get(i, key, value, (size_t)valuelen + 1) >= 0;
    return MPI_SUCCESS;
}

int loom__mpi_info_get_valuelen(MPI_Info info, const char *key, int *valuelen, int *flag)
{
    LOOM_API_ENTER("MPI_Info_get_valuelen");
    const char *fn = "MPI_Info_get_valuelen";
    int rc = MPI_SUCCESS;
    struct loom_info *i = get_info(info, fn, &rc);
    if (i == NULL)
        return rc;
    if ((rc = check_key(fn, key)) != MPI_SUCCESS)
        return rc;
    if (valuelen == NULL || flag == NULL)
        return fail(fn, MPI_ERR_ARG, valuelen == NULL ? "valuelen is NULL" : "flag is NULL");
    int len = loom__info_get(i, key, NULL, 0);
    *flag = len >= 0;
    if (len >= 0)
        *valuelen = len;
    return MPI_SUCCESS;
}

int loom__mpi_info_get_nkeys(MPI_Info info, int *nkeys)
{
    LOOM_API_ENTER("MPI_Info_get_nkeys");
    int rc = MPI_SUCCESS;
    struct loom_info *i = get_info(info, "MPI_Info_get_nkeys", &rc);
    if (i == NULL)
        return rc;
    if (nkeys == NULL)
        return fail("MPI_Info_get_nkeys", MPI_ERR_ARG, "nkeys is NULL");
    *nkeys = loom__info_nkeys(i);
    return MPI_SUCCESS;
}

int loom__mpi_info_get_nthkey(MPI_Info info, int n, char *key)
{
    LOOM_API_ENTER("MPI_Info_get_nthkey");
    const char *fn = "MPI_Info_get_nthkey";
    int rc = MPI_SUCCESS;
    struct loom_info *i = get_info(info, fn, &rc);
    if (i == NULL)
        return rc;
    if (key == NULL)
        return fail(fn, MPI_ERR_ARG, "key is NULL");
    if (loom__info_nthkey(i, n, key) != 0)
        return loom__api_error(MPI_COMM_NULL, fn, MPI_ERR_ARG, "n %d is out of range (%d keys)",
                               n, loom__info_nkeys(i));
    return MPI_SUCCESS;
}

int loom__mpi_info_delete(MPI_Info info, const char *key)
{
    LOOM_API_ENTER("MPI_Info_delete");
    const char *fn = "MPI_Info_delete";
    int rc = MPI_SUCCESS;
    struct loom_info *i = get_info(info, fn, &rc);
    if (i == NULL)
        return rc;
    if ((rc = check_writable(fn, i)) != MPI_SUCCESS || (rc = check_key(fn, key)) != MPI_SUCCESS)
        return rc;
    if (loom__info_delete(i, key) != 0)
        return loom__api_error(MPI_COMM_NULL, fn, MPI_ERR_INFO_NOKEY, "key \"%s\" is not set",
                               key);
    return MPI_SUCCESS;
}

int loom__mpi_info_dup(MPI_Info info, MPI_Info *newinfo)
{
    LOOM_API_ENTER("MPI_Info_dup");
    int rc = MPI_SUCCESS;
    struct loom_info *i = get_info(info, "MPI_Info_dup", &rc);
    if (i == NULL)
        return rc;
    if (newinfo == NULL)
        return fail("MPI_Info_dup", MPI_ERR_ARG, "newinfo is NULL");
    struct loom_info *d = loom__info_dup(i);
    if (d == NULL)
        return loom__api_error_code(MPI_COMM_NULL, "MPI_Info_dup", LOOM_ERR_NOMEM);
    *newinfo = d;
    return MPI_SUCCESS;
}

int loom__mpi_info_free(MPI_Info *info)
{
    LOOM_API_ENTER("MPI_Info_free");
    if (info == NULL)
        return fail("MPI_Info_free", MPI_ERR_ARG, "info is NULL");
    int rc = MPI_SUCCESS;
    struct loom_info *i = get_info(*info, "MPI_Info_free", &rc);
    if (i == NULL)
        return rc;
    if ((rc = check_writable("MPI_Info_free", i)) != MPI_SUCCESS)
        return rc;
    loom__info_free(i);
    *info = MPI_INFO_NULL;
    return MPI_SUCCESS;
}
