/* net/pmi_pmix.c — the client of a launcher's PMIx server through libpmix: Slurm's
 * `srun --mpi=pmix`, Open MPI's mpirun, PRRTE. One of the two clients behind net/pmi.h.
 *
 * PMIx names a process by (namespace, rank); loom's node processes are the ranks of the
 * launcher's namespace. A put is PMIx_Put(GLOBAL) of a string, a fence is PMIx_Commit then
 * PMIx_Fence over the whole namespace collecting the data, so that every get after it is
 * answered locally; a get names the node process that put the key.
 *
 * libpmix is thread-safe and runs its own progress thread. `px` is written by init and
 * finalize and read by the other calls, all on the one thread net/pmi.h allows at a time;
 * init writes it before net/pmi.c publishes the client, and abort does not read it. */
#include <pmix.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>

#include "net/pmi_impl.h"

/* PMIx allows any length; the limits keep a value within what a PMI-1 server takes, so that
 * the same keys and values work under either launcher. */
#define KEY_MAX 64
#define VALUE_MAX 4096

static struct {
    pmix_proc_t me;
    int up;
} px;

/* "PMIx <what>: <call> failed: <PMIx's reason>". -1. */
static int fail(const char *what, const char *call, pmix_status_t rc, char *err, size_t errlen)
{
    loom__pmi_seterr(err, errlen, "PMIx %s: %s failed: %s", what, call, PMIx_Error_string(rc));
    return -1;
}

/* A whole number from a PMIx value of any integer type; -1 if it holds none. */
static long long as_number(const pmix_value_t *v)
{
    switch (v->type) {
    case PMIX_UINT8: return v->data.uint8;
    case PMIX_UINT16: return v->data.uint16;
    case PMIX_UINT32: return v->data.uint32;
    case PMIX_UINT64: return (long long)v->data.uint64;
    case PMIX_INT: return v->data.integer;
    case PMIX_INT8: return v->data.int8;
    case PMIX_INT16: return v->data.int16;
    case PMIX_INT32: return v->data.int32;
    case PMIX_INT64: return v->data.int64;
    case PMIX_SIZE: return (long long)v->data.size;
    case PMIX_PROC_RANK: return v->data.rank;
    default: return -1;
    }
}

/* The number the server keeps under key for proc: >= 0, -2 if it has none (PMIX_OPTIONAL:
 * answer from what is there, never wait for a put that may not come), -1 with err otherwise. */
static long long get_number(const pmix_proc_t *proc, const char *key, const char *what,
                            char *err, size_t errlen)
{
    pmix_info_t info;
    bool optional = true;
    PMIX_INFO_LOAD(&info, PMIX_OPTIONAL, &optional, PMIX_BOOL);
    pmix_value_t *v = NULL;
    pmix_status_t rc = PMIx_Get(proc, key, &info, 1, &v);
    PMIX_INFO_DESTRUCT(&info);
    if (rc == PMIX_ERR_NOT_FOUND)
        return -2;
    if (rc != PMIX_SUCCESS) {
        fail(what, key, rc, err, errlen);
        return -1;
    }
    long long n = as_number(v);
    PMIX_VALUE_RELEASE(v);
    if (n < 0)
        loom__pmi_seterr(err, errlen, "PMIx %s: the server's %s is not a whole number", what, key);
    return n;
}

static int pmix_init(int *rank, int *size, char *err, size_t errlen)
{
    pmix_status_t rc = PMIx_Init(&px.me, NULL, 0);
    if (rc != PMIX_SUCCESS)
        return fail("init", "PMIx_Init (the launcher's PMIx server is unreachable)", rc, err,
                    errlen);
    pmix_proc_t job;
    PMIX_LOAD_PROCID(&job, px.me.nspace, PMIX_RANK_WILDCARD);
    long long n = get_number(&job, PMIX_JOB_SIZE, "init", err, errlen);
    if (n == -2)
        loom__pmi_seterr(err, errlen, "PMIx init: the server does not say the job's size");
    if (n < 1 || n > 1 << 30 || px.me.rank >= (pmix_rank_t)n) {
        if (n >= 1)
            loom__pmi_seterr(err, errlen, "PMIx init: rank %u is not below the job's size %lld",
                             px.me.rank, n);
        PMIx_Finalize(NULL, 0);
        return -1;
    }
    px.up = 1;
    *rank = (int)px.me.rank;
    *size = (int)n;
    return 0;
}

static int pmix_local(int *local_rank, int *local_size, char *err, size_t errlen)
{
    pmix_proc_t job;
    PMIX_LOAD_PROCID(&job, px.me.nspace, PMIX_RANK_WILDCARD);
    long long r = get_number(&px.me, PMIX_LOCAL_RANK, "local", err, errlen);
    long long s = get_number(&job, PMIX_LOCAL_SIZE, "local", err, errlen);
    if (r == -1 || s == -1)
        return -1;
    if (r < 0 || s < 1 || r >= s) { /* the server does not say: alone on the host */
        r = 0;
        s = 1;
    }
    *local_rank = (int)r;
    *local_size = (int)s;
    return 0;
}

static int pmix_alive(void)
{
    return px.up;
}

static size_t pmix_key_max(void)
{
    return KEY_MAX < PMIX_MAX_KEYLEN ? KEY_MAX : PMIX_MAX_KEYLEN;
}

static size_t pmix_value_max(void)
{
    return VALUE_MAX;
}

static int pmix_put(const char *key, const char *value, char *err, size_t errlen)
{
    pmix_value_t v;
    PMIX_VALUE_CONSTRUCT(&v);
    v.type = PMIX_STRING;
    v.data.string = (char *)value; /* PMIx_Put copies it */
    pmix_status_t rc = PMIx_Put(PMIX_GLOBAL, key, &v);
    return rc == PMIX_SUCCESS ? 0 : fail("put", "PMIx_Put", rc, err, errlen);
}

static int pmix_fence(char *err, size_t errlen)
{
    pmix_status_t rc = PMIx_Commit();
    if (rc != PMIX_SUCCESS)
        return fail("fence", "PMIx_Commit", rc, err, errlen);
    pmix_info_t info;
    bool collect = true;
    PMIX_INFO_LOAD(&info, PMIX_COLLECT_DATA, &collect, PMIX_BOOL);
    rc = PMIx_Fence(NULL, 0, &info, 1); /* no procs: every process of this namespace */
    PMIX_INFO_DESTRUCT(&info);
    return rc == PMIX_SUCCESS ? 0 : fail("fence", "PMIx_Fence", rc, err, errlen);
}

static int pmix_get(int node, const char *key, char *value, size_t len, char *err,
                    size_t errlen)
{
    pmix_proc_t from;
    PMIX_LOAD_PROCID(&from, px.me.nspace, (pmix_rank_t)node);
    pmix_info_t info;
    bool optional = true; /* the fence collected everything: absent now means never put */
    PMIX_INFO_LOAD(&info, PMIX_OPTIONAL, &optional, PMIX_BOOL);
    pmix_value_t *v = NULL;
    pmix_status_t rc = PMIx_Get(&from, key, &info, 1, &v);
    PMIX_INFO_DESTRUCT(&info);
    if (rc == PMIX_ERR_NOT_FOUND) {
        loom__pmi_seterr(err, errlen, "PMIx get %s: node process %d put no such key", key, node);
        return -1;
    }
    if (rc != PMIX_SUCCESS) {
        char what[96];
        snprintf(what, sizeof what, "get %.64s", key);
        return fail(what, "PMIx_Get", rc, err, errlen);
    }
    int out = -1;
    if (v->type != PMIX_STRING || !v->data.string)
        loom__pmi_seterr(err, errlen, "PMIx get %s: node process %d's value is not text", key,
                         node);
    else if (strlen(v->data.string) >= len)
        loom__pmi_seterr(err, errlen, "PMIx get %s: the value is %zu bytes, the buffer holds %zu",
                         key, strlen(v->data.string), len ? len - 1 : 0);
    else {
        strcpy(value, v->data.string);
        out = 0;
    }
    PMIX_VALUE_RELEASE(v);
    return out;
}

static int pmix_finalize(char *err, size_t errlen)
{
    px.up = 0;
    pmix_status_t rc = PMIx_Finalize(NULL, 0);
    return rc == PMIX_SUCCESS ? 0 : fail("finalize", "PMIx_Finalize", rc, err, errlen);
}

/* The server ends every process of the namespace; PMIx_Abort returns once it has been told
 * (or could not be), and the caller exits. */
static void pmix_abort(int code, const char *msg)
{
    (void)PMIx_Abort(code, msg ? msg : "loom: the job is aborted", NULL, 0);
}

const struct loom_pmi_client loom__pmi_pmix = {
    .init = pmix_init,
    .alive = pmix_alive,
    .local = pmix_local,
    .key_max = pmix_key_max,
    .value_max = pmix_value_max,
    .put = pmix_put,
    .fence = pmix_fence,
    .get = pmix_get,
    .finalize = pmix_finalize,
    .abort = pmix_abort,
};
