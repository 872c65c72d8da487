/* api/attr.c — keyvals and communicator attributes: MPI_Comm_{create,free}_keyval,
 * MPI_Comm_{set,get,delete}_attr and the predefined callbacks. The attribute lists and the
 * keyval table are in comm/attr.c and comm/keyval.c. */
#include "api/api.h"
#include "api/shared_impl.h"
#include "comm/comm.h"

int MPI_COMM_NULL_COPY_FN(MPI_Comm oldcomm, int keyval, void *extra_state, void *in,
                          void *out, int *flag)
{
    (void)oldcomm, (void)keyval, (void)extra_state, (void)in, (void)out;
    *flag = 0;
    return MPI_SUCCESS;
}

int MPI_COMM_DUP_FN(MPI_Comm oldcomm, int keyval, void *extra_state, void *in, void *out,
                    int *flag)
{
    (void)oldcomm, (void)keyval, (void)extra_state;
    *(void **)out = in;
    *flag = 1;
    return MPI_SUCCESS;
}

int MPI_COMM_NULL_DELETE_FN(MPI_Comm comm, int keyval, void *val, void *extra_state)
{
    (void)comm, (void)keyval, (void)val, (void)extra_state;
    return MPI_SUCCESS;
}

/* Error class for the code a user callback returned. */
static int callback_class(int rc)
{
    return rc > 0 && rc <= MPI_ERR_LASTCODE ? rc : MPI_ERR_OTHER;
}

/* Why keyval id is unusable (NULL if usable); *kv gets it when usable. */
static const char *keyval_problem(int id, int allow_freed, struct loom_keyval **kv)
{
    if (loom__keyval_is_predefined(id))
        return "is predefined";
    *kv = loom__keyval_get(id, 1);
    if (*kv == NULL)
        return id == MPI_KEYVAL_INVALID ? "is MPI_KEYVAL_INVALID" : "does not exist";
    if ((*kv)->kind != LOOM_ATTR_COMM)
        return "is not a communicator keyval";
    if (!allow_freed && loom__load_relaxed(&(*kv)->freed))
        return "was freed";
    return NULL;
}

int loom__mpi_comm_create_keyval(MPI_Comm_copy_attr_function *copy_fn,
                                 MPI_Comm_delete_attr_function *delete_fn, int *keyval,
                                 void *extra_state)
{
    LOOM_API_ENTER("MPI_Comm_create_keyval");
    return loom__api_create_keyval("MPI_Comm_create_keyval", copy_fn, delete_fn, keyval,
                                   extra_state);
}

int loom__api_create_keyval(const char *fn, MPI_Comm_copy_attr_function *copy_fn,
                            MPI_Comm_delete_attr_function *delete_fn, int *keyval,
                            void *extra_state)
{
    if (keyval == NULL)
        return loom__api_error(MPI_COMM_NULL, fn, MPI_ERR_ARG, "keyval is NULL");
    /* The predefined functions act as no callback at all: skip the call. */
    if (copy_fn == MPI_COMM_NULL_COPY_FN)
        copy_fn = NULL;
    if (delete_fn == MPI_COMM_NULL_DELETE_FN)
        delete_fn = NULL;
    int rc = loom__keyval_create(copy_fn, delete_fn, extra_state, keyval);
    if (rc != 0)
        return loom__api_error_code(MPI_COMM_NULL, fn, rc);
    return MPI_SUCCESS;
}

int loom__mpi_comm_free_keyval(int *keyval)
{
    LOOM_API_ENTER("MPI_Comm_free_keyval");
    return loom__api_free_keyval("MPI_Comm_free_keyval", keyval);
}

int loom__api_free_keyval(const char *fn, int *keyval)
{
    if (keyval == NULL)
        return loom__api_error(MPI_COMM_NULL, fn, MPI_ERR_ARG, "keyval is NULL");
    struct loom_keyval *kv = NULL;
    const char *why = keyval_problem(*keyval, 0, &kv);
    if (why != NULL)
        return loom__api_error(MPI_COMM_NULL, fn, MPI_ERR_KEYVAL, "keyval %d %s", *keyval, why);
    int expected = 0;
    if (!loom__cas_acq_rel(&kv->freed, &expected, 1))
        return loom__api_error(MPI_COMM_NULL, fn, MPI_ERR_KEYVAL, "keyval %d was freed",
                               *keyval);
    *keyval = MPI_KEYVAL_INVALID;
    return MPI_SUCCESS;
}

int loom__mpi_comm_set_attr(MPI_Comm comm, int keyval, void *attribute_val)
{
    LOOM_API_ENTER("MPI_Comm_set_attr");
    return loom__api_set_attr("MPI_Comm_set_attr", comm, keyval, attribute_val);
}

int loom__api_set_attr(const char *fn, MPI_Comm comm, int keyval, void *attribute_val)
{
    struct loom_comm *c = loom__comm_resolve(comm);
    if (c == NULL)
        return loom__api_error(comm, fn, MPI_ERR_COMM, "%s", loom__comm_invalid_reason(comm));
    struct loom_keyval *kv = NULL;
    const char *why = keyval_problem(keyval, 0, &kv);
    if (why != NULL)
        return loom__api_error(comm, fn, MPI_ERR_KEYVAL, "keyval %d %s", keyval, why);
    int rc = loom__attr_set(c, kv, attribute_val);
    if (rc < 0)
        return loom__api_error_code(comm, fn, rc);
    if (rc > 0)
        return loom__api_error(comm, fn, callback_class(rc),
                               "the delete callback of keyval %d returned error %d", keyval, rc);
    return MPI_SUCCESS;
}

int loom__mpi_comm_get_attr(MPI_Comm comm, int keyval, void *attribute_val, int *flag)
{
    LOOM_API_ENTER("MPI_Comm_get_attr");
    return loom__api_get_attr("MPI_Comm_get_attr", comm, keyval, attribute_val, flag);
}

int loom__api_get_attr(const char *fn, MPI_Comm comm, int keyval, void *attribute_val,
                       int *flag)
{
    struct loom_comm *c = loom__comm_resolve(comm);
    if (c == NULL)
        return loom__api_error(comm, fn, MPI_ERR_COMM, "%s", loom__comm_invalid_reason(comm));
    if (attribute_val == NULL || flag == NULL)
        return loom__api_error(comm, fn, MPI_ERR_ARG, "%s is NULL",
                               flag == NULL ? "flag" : "attribute_val");
    if (loom__keyval_is_predefined(keyval)) {
        /* the job's values, the same on every communicator */
        *(void **)attribute_val = loom__attr_predefined(keyval);
        *flag = 1;
        return MPI_SUCCESS;
    }
    struct loom_keyval *kv = NULL;
    const char *why = keyval_problem(keyval, 0, &kv);
    if (why != NULL)
        return loom__api_error(comm, fn, MPI_ERR_KEYVAL, "keyval %d %s", keyval, why);
    void *val = NULL;
    loom__attr_get(c, kv, &val, flag);
    if (*flag)
        *(void **)attribute_val = val;
    return MPI_SUCCESS;
}

int loom__mpi_comm_delete_attr(MPI_Comm comm, int keyval)
{
    LOOM_API_ENTER("MPI_Comm_delete_attr");
    return loom__api_delete_attr("MPI_Comm_delete_attr", comm, keyval);
}

int loom__api_delete_attr(const char *fn, MPI_Comm comm, int keyval)
{
    struct loom_comm *c = loom__comm_resolve(comm);
    if (c == NULL)
        return loom__api_error(comm, fn, MPI_ERR_COMM, "%s", loom__comm_invalid_reason(comm));
    struct loom_keyval *kv = NULL;
    /* a freed keyval still names the attributes made with it */
    const char *why = keyval_problem(keyval, 1, &kv);
    if (why != NULL)
        return loom__api_error(comm, fn, MPI_ERR_KEYVAL, "keyval %d %s", keyval, why);
    int rc = loom__attr_delete(c, kv);
    if (rc != 0)
        return loom__api_error(comm, fn, callback_class(rc),
                               "the delete callback of keyval %d returned error %d", keyval, rc);
    return MPI_SUCCESS;
}
