/* comm/info.c — info objects: ordered (key, value) lists, and MPI_INFO_ENV.
 *
 * An info object may be used by any thread of any rank (handles are plain pointers and ranks
 * share the address space); its mutex, a leaf lock taken only by these functions, protects
 * the list. MPI_INFO_ENV is filled once at job start, before ranks run, and is read-only
 * afterwards (the API layer refuses to change or free it). */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "comm/comm.h"
#include "core/error.h"
#include "core/quarantine.h"
#include "core/rank.h"

struct loom_info loom_mpi_info_env = {
    .obj = {LOOM_MAGIC_INFO},
    .lock = PTHREAD_MUTEX_INITIALIZER,
    .is_predefined = 1,
};

struct loom_info *loom__info_new(void)
{
    struct loom_info *info = calloc(1, sizeof *info); /* freed by loom__info_free */
    if (info == NULL)
        return NULL;
    loom__object_init(&info->obj, LOOM_MAGIC_INFO);
    pthread_mutex_init(&info->lock, NULL);
    return info;
}

/* Free every entry; the caller holds info->lock or owns info alone. */
static void clear(struct loom_info *info)
{
    for (int i = 0; i < info->n; i++) {
        free(info->keys[i]);
        free(info->vals[i]);
    }
    free(info->keys);
    free(info->vals);
    info->keys = info->vals = NULL;
    info->n = info->cap = 0;
}

static void release_header(void *obj)
{
    struct loom_info *info = obj;
    pthread_mutex_destroy(&info->lock);
    free(info);
}

void loom__info_free(struct loom_info *info)
{
    pthread_mutex_lock(&info->lock);
    clear(info);
    pthread_mutex_unlock(&info->lock);
    loom__quarantine_put(info, release_header);
}

/* Index of key, or -1; the caller holds info->lock. */
static int find(const struct loom_info *info, const char *key)
{
    for (int i = 0; i < info->n; i++)
        if (strcmp(info->keys[i], key) == 0)
            return i;
    return -1;
}

/* Set without locking (the caller holds info->lock or owns info alone). */
static int set_locked(struct loom_info *info, const char *key, const char *value)
{
    char *v = strdup(value);
    if (v == NULL)
        return LOOM_ERR_NOMEM;
    int i = find(info, key);
    if (i >= 0) {
        free(info->vals[i]);
        info->vals[i] = v;
        return 0;
    }
    if (info->n == info->cap) {
        int cap = info->cap ? 2 * info->cap : 8;
        char **k = realloc(info->keys, (size_t)cap * sizeof *k);
        if (k != NULL)
            info->keys = k;
        char **vv = k ? realloc(info->vals, (size_t)cap * sizeof *vv) : NULL;
        if (vv == NULL) {
            free(v);
            return LOOM_ERR_NOMEM;
        }
        info->vals = vv;
        info->cap = cap;
    }
    char *kc = strdup(key);
    if (kc == NULL) {
        free(v);
        return LOOM_ERR_NOMEM;
    }
    info->keys[info->n] = kc;
    info->vals[info->n] = v;
    info->n++;
    return 0;
}

int loom__info_set(struct loom_info *info, const char *key, const char *value)
{
    pthread_mutex_lock(&info->lock);
    int rc = set_locked(info, key, value);
    pthread_mutex_unlock(&info->lock);
    return rc;
}

struct loom_info *loom__info_dup(struct loom_info *src)
{
    struct loom_info *info = loom__info_new();
    if (info == NULL)
        return NULL;
    pthread_mutex_lock(&src->lock);
    int rc = 0;
    for (int i = 0; i < src->n && rc == 0; i++)
        rc = set_locked(info, src->keys[i], src->vals[i]);
    pthread_mutex_unlock(&src->lock);
    if (rc != 0) {
        loom__info_free(info);
        return NULL;
    }
    return info;
}

int loom__info_get(struct loom_info *info, const char *key, char *buf, size_t len)
{
    pthread_mutex_lock(&info->lock);
    int i = find(info, key);
    int vlen = -1;
    if (i >= 0) {
        vlen = (int)strlen(info->vals[i]);
        if (len > 0) {
            size_t n = (size_t)vlen < len - 1 ? (size_t)vlen : len - 1;
            memcpy(buf, info->vals[i], n);
            buf[n] = '\0';
        }
    }
    pthread_mutex_unlock(&info->lock);
    return vlen;
}

int loom__info_delete(struct loom_info *info, const char *key)
{
    pthread_mutex_lock(&info->lock);
    int i = find(info, key);
    if (i >= 0) {
        free(info->keys[i]);
        free(info->vals[i]);
        /* keep insertion order: MPI_Info_get_nthkey numbers keys in it */
        memmove(&info->keys[i], &info->keys[i + 1], (size_t)(info->n - i - 1) * sizeof(char *));
        memmove(&info->vals[i], &info->vals[i + 1], (size_t)(info->n - i - 1) * sizeof(char *));
        info->n--;
    }
    pthread_mutex_unlock(&info->lock);
    return i >= 0 ? 0 : -1;
}

int loom__info_nkeys(struct loom_info *info)
{
    pthread_mutex_lock(&info->lock);
    int n = info->n;
    pthread_mutex_unlock(&info->lock);
    return n;
}

int loom__info_nthkey(struct loom_info *info, int n, char *key)
{
    pthread_mutex_lock(&info->lock);
    int ok = n >= 0 && n < info->n;
    if (ok) {
        strncpy(key, info->keys[n], MPI_MAX_INFO_KEY);
        key[MPI_MAX_INFO_KEY] = '\0';
    }
    pthread_mutex_unlock(&info->lock);
    return ok ? 0 : -1;
}

const char *loom__info_invalid_reason(MPI_Info i)
{
    if (i == MPI_INFO_NULL)
        return "info is MPI_INFO_NULL";
    if (loom__object_is(i, LOOM_MAGIC_INFO))
        return NULL;
    if (loom__object_is(i, LOOM_MAGIC_FREED))
        return "info was freed";
    return "not an info handle";
}

int loom__info_env_init(int nranks)
{
    /* before ranks run: nobody else can see MPI_INFO_ENV yet */
    char **argv = nranks > 0 && loom__job.ranks != NULL ? loom__job.ranks[0].argv : NULL;
    int argc = 0;
    while (argv != NULL && argv[argc] != NULL)
        argc++;
    return loom__info_fill_env(&loom_mpi_info_env, argc, argv, nranks);
}

void loom__info_env_fini(void)
{
    clear(&loom_mpi_info_env);
}
