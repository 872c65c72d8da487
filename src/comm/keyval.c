/* comm/keyval.c — attribute keys: the predefined ones (MPI_TAG_UB...) and user keyvals, of
 * every kind of object (communicators, datatypes, windows).
 *
 * User keyvals live in a two-level table indexed by (id - LOOM_KEYVAL_FIRST): creation takes
 * kv_lock (creation only, a leaf lock), lookups take no lock. A keyval is never reused or
 * freed while the job runs: MPI_Comm_free_keyval only marks it, because attributes made with
 * it still need its callbacks. Everything is freed at job end. */
#include <pthread.h>
#include <stdlib.h>
#include "comm/comm.h"
#include "core/atomic.h"
#include "core/error.h"
#include "core/rank.h"
#include "p2p/p2p.h"

#define KV_CHUNK 256
#define KV_CHUNKS 4096 /* at most 1M keyvals per job */

static pthread_mutex_t kv_lock = PTHREAD_MUTEX_INITIALIZER; /* protects chunk creation */
static struct loom_keyval *chunks[KV_CHUNKS]; /* written under kv_lock before kv_count
                                                 publishes the entries they hold */
static _Atomic int kv_count; /* entries in use; release store after an entry is written,
                                pairs with the acquire load in loom__keyval_get */

/* Values of the predefined attributes: written once at job start (loom__comm_job_init,
 * before ranks run), read-only afterwards. MPI_LASTUSEDCODE is apart (below). */
static int predef[MPI_LASTUSEDCODE + 1];

/* MPI_LASTUSEDCODE. The job's value, `lastused`, changes whenever any rank adds an error class
 * or code (atomic stores under comm/error_class.c's lock). A program reads the attribute's int
 * through the pointer it got, with plain loads, so it must not point at a word other ranks
 * write: each rank gets its own copy, `lastused_of[world rank]`, refreshed from `lastused` by
 * the rank's own threads when they get the attribute (as in a process of MPICH, only the
 * process's own threads write the word its pointer names). Allocated before ranks run, freed
 * after; NULL if that allocation failed (then every rank shares predef's word). */
static int lastused;
static int *lastused_of;

/* Publish a new keyval made from tmpl (its id and freed flag are set here). */
static int create(const struct loom_keyval *tmpl, int *keyval)
{
    pthread_mutex_lock(&kv_lock);
    int idx = loom__load_relaxed(&kv_count); /* only writers change it, under kv_lock */
    int c = idx / KV_CHUNK;
    if (c >= KV_CHUNKS) {
        pthread_mutex_unlock(&kv_lock);
        return LOOM_ERR_NOMEM;
    }
    if (chunks[c] == NULL) {
        chunks[c] = calloc(KV_CHUNK, sizeof(struct loom_keyval)); /* freed in keyval_fini */
        if (chunks[c] == NULL) {
            pthread_mutex_unlock(&kv_lock);
            return LOOM_ERR_NOMEM;
        }
    }
    struct loom_keyval *kv = &chunks[c][idx % KV_CHUNK];
    kv->id = LOOM_KEYVAL_FIRST + idx;
    kv->kind = tmpl->kind;
    kv->copy_fn = tmpl->copy_fn;
    kv->delete_fn = tmpl->delete_fn;
    kv->type_copy_fn = tmpl->type_copy_fn;
    kv->type_delete_fn = tmpl->type_delete_fn;
    kv->win_copy_fn = tmpl->win_copy_fn;
    kv->win_delete_fn = tmpl->win_delete_fn;
    kv->extra_state = tmpl->extra_state;
    kv->f_copy = tmpl->f_copy;
    kv->f_delete = tmpl->f_delete;
    kv->f_extra = tmpl->f_extra;
    kv->rank = loom__self;
    atomic_init(&kv->freed, 0);
    loom__store_release(&kv_count, idx + 1);
    pthread_mutex_unlock(&kv_lock);
    *keyval = kv->id;
    return 0;
}

int loom__keyval_create(MPI_Comm_copy_attr_function *copy_fn,
                        MPI_Comm_delete_attr_function *delete_fn, void *extra_state,
                        int *keyval)
{
    struct loom_keyval t = {.kind = LOOM_ATTR_COMM, .copy_fn = copy_fn, .delete_fn = delete_fn,
                            .extra_state = extra_state};
    return create(&t, keyval);
}

int loom__keyval_create_type(MPI_Type_copy_attr_function *copy_fn,
                             MPI_Type_delete_attr_function *delete_fn, void *extra_state,
                             int *keyval)
{
    struct loom_keyval t = {.kind = LOOM_ATTR_TYPE, .type_copy_fn = copy_fn,
                            .type_delete_fn = delete_fn, .extra_state = extra_state};
    return create(&t, keyval);
}

int loom__keyval_create_win(MPI_Win_copy_attr_function *copy_fn,
                            MPI_Win_delete_attr_function *delete_fn, void *extra_state,
                            int *keyval)
{
    struct loom_keyval t = {.kind = LOOM_ATTR_WIN, .win_copy_fn = copy_fn,
                            .win_delete_fn = delete_fn, .extra_state = extra_state};
    return create(&t, keyval);
}

int loom__keyval_create_from(const struct loom_keyval *tmpl, int *keyval)
{
    return create(tmpl, keyval);
}

struct loom_keyval *loom__keyval_get(int id, int allow_freed)
{
    if (id < LOOM_KEYVAL_FIRST)
        return NULL;
    int idx = id - LOOM_KEYVAL_FIRST;
    if (idx >= loom__load_acquire(&kv_count)) /* pairs with the release in create */
        return NULL;
    struct loom_keyval *kv = &chunks[idx / KV_CHUNK][idx % KV_CHUNK];
    if (!allow_freed && loom__load_relaxed(&kv->freed))
        return NULL;
    return kv;
}

int loom__keyval_is_predefined(int id)
{
    return id >= 1 && id <= MPI_LASTUSEDCODE;
}

void *loom__attr_predefined(int id)
{
    if (id == MPI_LASTUSEDCODE) {
        int v = __atomic_load_n(&lastused, __ATOMIC_RELAXED);
        int *mine = lastused_of && loom__self ? &lastused_of[loom__self->world_rank]
                                              : &predef[MPI_LASTUSEDCODE];
        if (__atomic_load_n(mine, __ATOMIC_RELAXED) != v) /* write only when it changed */
            __atomic_store_n(mine, v, __ATOMIC_RELAXED);
        return mine;
    }
    return loom__keyval_is_predefined(id) ? &predef[id] : NULL;
}

void loom__attr_set_lastusedcode(int v)
{
    __atomic_store_n(&lastused, v, __ATOMIC_RELAXED);
}

void loom__keyval_job_init(int nranks)
{
    predef[MPI_TAG_UB] = LOOM_TAG_UB;
    predef[MPI_HOST] = MPI_PROC_NULL;
    predef[MPI_IO] = MPI_ANY_SOURCE;
    predef[MPI_WTIME_IS_GLOBAL] = 1;
    predef[MPI_UNIVERSE_SIZE] = nranks;
    predef[MPI_APPNUM] = 0;
    predef[MPI_LASTUSEDCODE] = MPI_ERR_LASTCODE;
    lastused = MPI_ERR_LASTCODE;
    lastused_of = malloc((size_t)(nranks > 0 ? nranks : 1) * sizeof *lastused_of);
    for (int r = 0; lastused_of && r < nranks; r++)
        lastused_of[r] = MPI_ERR_LASTCODE;
}

void loom__keyval_fini(void)
{
    pthread_mutex_lock(&kv_lock);
    for (int c = 0; c < KV_CHUNKS && chunks[c] != NULL; c++) {
        free(chunks[c]);
        chunks[c] = NULL;
    }
    loom__store_relaxed(&kv_count, 0);
    pthread_mutex_unlock(&kv_lock);
    free(lastused_of); /* after every rank ended */
    lastused_of = NULL;
}
