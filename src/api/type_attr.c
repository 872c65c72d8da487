/* api/type_attr.c — attributes cached on datatypes: MPI_Type_{create,free}_keyval,
 * MPI_Type_{set,get,delete}_attr and the predefined callbacks, on the generic attribute
 * machinery of comm/attr.c and comm/keyval.c (keyvals of kind LOOM_ATTR_TYPE: a
 * communicator keyval on a type, or the reverse, is MPI_ERR_KEYVAL).
 *
 * Predefined types are single objects shared by every rank of the job, while each rank is
 * an MPI process: a rank's attributes on MPI_INT must be its own. Keyvals are never shared
 * between ranks (each rank creates its own), so one list per type holds every rank's
 * attributes apart by keyval, and MPI_Type_dup of a predefined type copies only the calling
 * rank's (the keyval's creator is recorded).
 *
 * Concurrency: every type's `attrs` list is guarded by type_attr_lock (one leaf lock for all
 * types: attributes on types are rare). Callbacks run without it. */
#include <pthread.h>
#include "api/api.h"
#include "api/type_attr.h"
#include "comm/comm.h"
#include "dt/dt.h"

#define FAIL(fn, cls, ...) loom__api_error(MPI_COMM_WORLD, fn, cls, __VA_ARGS__)

static pthread_mutex_t type_attr_lock = PTHREAD_MUTEX_INITIALIZER; /* every t->attrs */

static struct loom_attr_host host(MPI_Datatype t)
{
    return (struct loom_attr_host){LOOM_ATTR_TYPE, t, &t->attrs, &type_attr_lock,
                                   t->predefined};
}

int MPI_TYPE_NULL_COPY_FN(MPI_Datatype oldtype, int keyval, void *extra_state, void *in,
                          void *out, int *flag)
{
    (void)oldtype, (void)keyval, (void)extra_state, (void)in, (void)out;
    *flag = 0;
    return MPI_SUCCESS;
}

int MPI_TYPE_DUP_FN(MPI_Datatype oldtype, int keyval, void *extra_state, void *in, void *out,
                    int *flag)
{
    (void)oldtype, (void)keyval, (void)extra_state;
    *(void **)out = in;
    *flag = 1;
    return MPI_SUCCESS;
}

int MPI_TYPE_NULL_DELETE_FN(MPI_Datatype datatype, int keyval, void *val, void *extra_state)
{
    (void)datatype, (void)keyval, (void)val, (void)extra_state;
    return MPI_SUCCESS;
}

/* Error class for the code a user callback returned. */
static int callback_class(int rc)
{
    return rc > 0 && rc <= MPI_ERR_LASTCODE ? rc : MPI_ERR_OTHER;
}

/* Why keyval id is unusable on a type (NULL if usable); *kv gets it when usable. */
static const char *keyval_problem(int id, int allow_freed, struct loom_keyval **kv)
{
    if (loom__keyval_is_predefined(id))
        return "is a predefined communicator keyval";
    *kv = loom__keyval_get(id, 1);
    if (*kv == NULL)
        return id == MPI_KEYVAL_INVALID ? "is MPI_KEYVAL_INVALID" : "does not exist";
    if ((*kv)->kind != LOOM_ATTR_TYPE)
        return "is not a datatype keyval";
    if (!allow_freed && loom__load_relaxed(&(*kv)->freed))
        return "was freed";
    return NULL;
}

/* MPI_SUCCESS, or the class reported for a bad datatype handle. */
static int check_type(const char *fn, MPI_Datatype t)
{
    const char *why = loom__dt_bad_handle(t);
    return why ? FAIL(fn, MPI_ERR_TYPE, "datatype %s", why) : MPI_SUCCESS;
}

int loom__mpi_type_create_keyval(MPI_Type_copy_attr_function *type_copy_attr_fn,
                                 MPI_Type_delete_attr_function *type_delete_attr_fn,
                                 int *type_keyval, void *extra_state)
{
    LOOM_API_ENTER("MPI_Type_create_keyval");
    static const char fn[] = "MPI_Type_create_keyval";
    if (type_keyval == NULL)
        return FAIL(fn, MPI_ERR_ARG, "type_keyval is NULL");
    /* The predefined functions act as no callback at all: skip the call. */
    if (type_copy_attr_fn == MPI_TYPE_NULL_COPY_FN)
        type_copy_attr_fn = NULL;
    if (type_delete_attr_fn == MPI_TYPE_NULL_DELETE_FN)
        type_delete_attr_fn = NULL;
    int rc = loom__keyval_create_type(type_copy_attr_fn, type_delete_attr_fn, extra_state,
                                      type_keyval);
    return rc ? loom__api_error_code(MPI_COMM_WORLD, fn, rc) : MPI_SUCCESS;
}

int loom__mpi_type_free_keyval(int *type_keyval)
{
    LOOM_API_ENTER("MPI_Type_free_keyval");
    static const char fn[] = "MPI_Type_free_keyval";
    if (type_keyval == NULL)
        return FAIL(fn, MPI_ERR_ARG, "type_keyval is NULL");
    struct loom_keyval *kv = NULL;
    const char *why = keyval_problem(*type_keyval, 0, &kv);
    if (why != NULL)
        return FAIL(fn, MPI_ERR_KEYVAL, "keyval %d %s", *type_keyval, why);
    int expected = 0;
    if (!loom__cas_acq_rel(&kv->freed, &expected, 1))
        return FAIL(fn, MPI_ERR_KEYVAL, "keyval %d was freed", *type_keyval);
    *type_keyval = MPI_KEYVAL_INVALID;
    return MPI_SUCCESS;
}

int loom__mpi_type_set_attr(MPI_Datatype datatype, int type_keyval, void *attribute_val)
{
    LOOM_API_ENTER("MPI_Type_set_attr");
    static const char fn[] = "MPI_Type_set_attr";
    int rc = check_type(fn, datatype);
    if (rc)
        return rc;
    struct loom_keyval *kv = NULL;
    const char *why = keyval_problem(type_keyval, 0, &kv);
    if (why != NULL)
        return FAIL(fn, MPI_ERR_KEYVAL, "keyval %d %s", type_keyval, why);
    struct loom_attr_host h = host(datatype);
    rc = loom__attrs_set(&h, kv, attribute_val);
    if (rc < 0)
        return loom__api_error_code(MPI_COMM_WORLD, fn, rc);
    if (rc > 0)
        return FAIL(fn, callback_class(rc), "the delete callback of keyval %d returned error %d",
                    type_keyval, rc);
    return MPI_SUCCESS;
}

int loom__mpi_type_get_attr(MPI_Datatype datatype, int type_keyval, void *attribute_val, int *flag)
{
    LOOM_API_ENTER("MPI_Type_get_attr");
    static const char fn[] = "MPI_Type_get_attr";
    int rc = check_type(fn, datatype);
    if (rc)
        return rc;
    if (attribute_val == NULL || flag == NULL)
        return FAIL(fn, MPI_ERR_ARG, "%s is NULL", flag == NULL ? "flag" : "attribute_val");
    struct loom_keyval *kv = NULL;
    const char *why = keyval_problem(type_keyval, 0, &kv);
    if (why != NULL)
        return FAIL(fn, MPI_ERR_KEYVAL, "keyval %d %s", type_keyval, why);
    void *val = NULL;
    struct loom_attr_host h = host(datatype);
    loom__attrs_get(&h, kv, &val, flag);
    if (*flag)
        *(void **)attribute_val = val;
    return MPI_SUCCESS;
}

int loom__mpi_type_delete_attr(MPI_Datatype datatype, int type_keyval)
{
    LOOM_API_ENTER("MPI_Type_delete_attr");
    static const char fn[] = "MPI_Type_delete_attr";
    int rc = check_type(fn, datatype);
    if (rc)
        return rc;
    struct loom_keyval *kv = NULL;
    /* a freed keyval still names the attributes made with it */
    const char *why = keyval_problem(type_keyval, 1, &kv);
    if (why != NULL)
        return FAIL(fn, MPI_ERR_KEYVAL, "keyval %d %s", type_keyval, why);
    struct loom_attr_host h = host(datatype);
    rc = loom__attrs_delete(&h, kv);
    if (rc != 0)
        return FAIL(fn, callback_class(rc), "the delete callback of keyval %d returned error %d",
                    type_keyval, rc);
    return MPI_SUCCESS;
}

int loom__type_attr_copy_all(MPI_Datatype old, MPI_Datatype dup)
{
    struct loom_attr_host s = host(old), d = host(dup);
    return loom__attrs_copy_all(&s, &d);
}

int loom__type_attr_delete_all(MPI_Datatype t)
{
    struct loom_attr_host h = host(t);
    return loom__attrs_delete_all(&h);
}

void loom__type_attr_job_fini(void)
{
#define DROP(name, sym)                                                                        \
    do {                                                                                       \
        struct loom_attr_host h = host(&sym);                                                  \
        loom__attrs_drop_all(&h);                                                              \
    } while (0);
    LOOM_FOREACH_PREDEFINED_TYPE(DROP)
#undef DROP
    for (struct loom_datatype *t = loom__dt_f90_next(NULL); t; t = loom__dt_f90_next(t)) {
        struct loom_attr_host h = host(t);
        loom__attrs_drop_all(&h);
    }
}
