/* comm/handle.c — communicator handles: the predefined sentinels, resolving user handles,
 * creating and freeing a rank's handle, and the per-job / per-rank set-up of MPI_COMM_WORLD
 * and MPI_COMM_SELF.
 *
 * A handle belongs to one rank and is used only by that rank's threads. MPI_COMM_WORLD and
 * MPI_COMM_SELF are sentinel objects, the same for every rank; loom__comm_resolve maps them
 * to the calling rank's own handles. */
#include <stdlib.h>
#include <string.h>
#include "comm/comm.h"
#include "comm/errhandler.h"
#include "comm/vtopo.h"
#include "core/atomic.h"
#include "core/error.h"
#include "core/quarantine.h"
#include "core/rank.h"
#include "p2p/bsend.h"

struct loom_comm loom_mpi_comm_world = {
    .obj = {LOOM_MAGIC_COMM},
    .errh = &loom_mpi_errors_are_fatal,
    .name = "MPI_COMM_WORLD",
    .is_predefined = 1,
    .attr_lock = PTHREAD_MUTEX_INITIALIZER,
};
struct loom_comm loom_mpi_comm_self = {
    .obj = {LOOM_MAGIC_COMM},
    .errh = &loom_mpi_errors_are_fatal,
    .name = "MPI_COMM_SELF",
    .is_predefined = 1,
    .attr_lock = PTHREAD_MUTEX_INITIALIZER,
};

/* MPI_COMM_WORLD's shared half: made by loom__comm_job_init before ranks run, read-only
 * pointer afterwards. Its refs count the job's own reference plus each rank's handle. */
static struct loom_comm_shared *world_sh;

struct loom_comm *loom__comm_resolve_handle(MPI_Comm comm)
{
    struct loom_rank *self = loom__self;
    if (!loom__object_is(comm, LOOM_MAGIC_COMM))
        return NULL;
    /* A handle of another rank (shared through a global variable) is not ours to use. */
    /* No shared half yet: its MPI_Comm_idup has not completed (comm/idup.c). */
    if (comm->sh == NULL)
        return NULL;
    if (self != NULL && comm->sh->world_of[comm->rank] != self->world_rank)
        return NULL;
    return comm;
}

const char *loom__comm_invalid_reason(MPI_Comm comm)
{
    if (comm == MPI_COMM_NULL)
        return "communicator is MPI_COMM_NULL";
    if (loom__comm_resolve(comm) != NULL)
        return NULL;
    if (comm == MPI_COMM_WORLD || comm == MPI_COMM_SELF)
        return "the predefined communicator does not exist outside MPI_Init..MPI_Finalize";
    if (loom__object_is(comm, LOOM_MAGIC_FREED))
        return "communicator was freed";
    if (loom__object_is(comm, LOOM_MAGIC_COMM) && comm->sh == NULL)
        return "communicator is not ready (its MPI_Comm_idup has not completed)";
    if (loom__object_is(comm, LOOM_MAGIC_COMM))
        return "communicator handle belongs to another rank";
    return "not a communicator handle";
}

int loom__comm_handle_new(struct loom_comm_shared *sh, int rank, struct loom_comm *parent,
                          struct loom_comm **out)
{
    struct loom_comm *c = calloc(1, sizeof *c); /* quarantined by loom__comm_handle_free */
    if (c == NULL) {
        if (sh)
            loom__comm_shared_release(sh);
        return LOOM_ERR_NOMEM;
    }
    loom__object_init(&c->obj, LOOM_MAGIC_COMM);
    c->sh = sh;
    c->rank = rank;
    c->errh = parent ? parent->errh : &loom_mpi_errors_are_fatal;
    loom__errhandler_retain(c->errh);
    /* A communicator made from one derived from a session derives from it too (its buffer
     * serves the new one's buffered sends); the parent's own attached buffer does not. */
    c->session_bsend = parent ? parent->session_bsend : NULL;
    if (c->session_bsend)
        loom__bsend_retain(c->session_bsend);
    pthread_mutex_init(&c->attr_lock, NULL);
    *out = c;
    return 0;
}

static void release_handle(void *obj)
{
    struct loom_comm *c = obj;
    pthread_mutex_destroy(&c->attr_lock);
    free(c);
}

void loom__comm_handle_free(struct loom_comm *c)
{
    struct loom_comm_shared *sh = c->sh;
    loom__errhandler_release(c->errh);
    c->errh = NULL;
    if (c->info)
        loom__info_free(c->info);
    c->info = NULL;
    loom__vtopo_release(c->topo);
    c->topo = NULL;
    /* Buffers: MPI_Comm_free detached an attached one first (and waited for its messages);
     * at the end of the rank nothing waits. A send still in flight holds its own reference
     * on the owner, so releasing the handle's never frees memory a send uses. */
    loom__bsend_release(atomic_load_explicit(&c->bsend, memory_order_acquire));
    atomic_store_explicit(&c->bsend, NULL, memory_order_relaxed);
    loom__bsend_release(c->session_bsend);
    c->session_bsend = NULL;
    struct loom_comm *all = c->all;
    loom__quarantine_put(c, release_handle); /* marks it freed first */
    if (sh) /* NULL: freed before its MPI_Comm_idup completed (erroneous) */
        loom__comm_shared_release(sh);
    if (all) /* an intercommunicator's hidden handle on the union (no attributes) */
        loom__comm_handle_free(all);
}

int loom__comm_group_is_subset(struct loom_comm *c, const struct loom_group *g)
{
    unsigned char *in_c = calloc((size_t)loom__job.nranks, 1);
    if (in_c == NULL)
        return LOOM_ERR_NOMEM;
    for (int i = 0; i < c->sh->size; i++)
        in_c[c->sh->world_of[i]] = 1;
    int ok = 1;
    for (int i = 0; i < g->size && ok; i++)
        ok = in_c[g->world[i]];
    free(in_c);
    return ok;
}

/* Delete what is left on a handle at finalize; a failing delete callback is reported and
 * its attribute dropped, as nothing can be returned to the program any more. */
static void drop_attrs(struct loom_comm *c)
{
    while (loom__attr_delete_all(c) != 0) {
        pthread_mutex_lock(&c->attr_lock);
        struct loom_attr_list *a = c->attrs;
        c->attrs = a->next;
        pthread_mutex_unlock(&c->attr_lock);
        loom__log("MPI_Finalize: delete callback of keyval %d failed on %s", a->kv->id,
                  c->name[0] ? c->name : "a communicator");
        free(a);
    }
}

int loom__comm_rank_free_self_attrs(void)
{
    struct loom_comm *s = loom__self ? loom__self->self : NULL;
    return s ? loom__attr_delete_all(s) : 0;
}

int loom__comm_rank_init(void)
{
    struct loom_rank *r = loom__self;
    struct loom_comm *w, *s;
    loom__fetch_add_relaxed(&world_sh->refs, 1); /* the job holds a reference already */
    int rc = loom__comm_handle_new(world_sh, r->world_rank, NULL, &w);
    if (rc != 0)
        return rc;
    w->is_predefined = 1;
    strcpy(w->name, "MPI_COMM_WORLD");

    struct loom_group *g = loom__group_new(1);
    struct loom_comm_shared *sh;
    if (g == NULL) {
        rc = LOOM_ERR_NOMEM;
        goto out_with_world;
    }
    g->world[0] = r->world_rank;
    rc = loom__comm_shared_new(g, &sh);
    loom__group_release(g); /* the shared half holds its own reference */
    if (rc != 0)
        goto out_with_world;
    rc = loom__comm_handle_new(sh, 0, NULL, &s);
    if (rc != 0)
        goto out_with_world;
    s->is_predefined = 1;
    strcpy(s->name, "MPI_COMM_SELF");
    r->world = w;
    r->self = s;
    return 0;
out_with_world:
    loom__comm_handle_free(w);
    return rc;
}

void loom__comm_rank_fini(void)
{
    struct loom_rank *r = loom__self;
    if (r->self) {
        drop_attrs(r->self); /* MPI_COMM_SELF first, as the standard asks */
        loom__comm_handle_free(r->self);
        r->self = NULL;
    }
    if (r->world) {
        drop_attrs(r->world);
        loom__comm_handle_free(r->world);
        r->world = NULL;
    }
}

int loom__comm_job_init(int nranks)
{
    loom__keyval_job_init(nranks);
    int rc = loom__info_env_init(nranks);
    if (rc != 0)
        return rc;
    struct loom_group *g = loom__group_new(nranks);
    if (g == NULL)
        return LOOM_ERR_NOMEM;
    for (int i = 0; i < nranks; i++)
        g->world[i] = i;
    /* context id 0 in every node process; no rank holds a handle yet: the only reference
     * is the job's (see world_sh) */
    rc = loom__comm_shared_make(g, 0, 1, &world_sh);
    loom__group_release(g);
    if (rc != 0)
        return rc;
    return 0;
}

void loom__comm_job_fini(void)
{
    if (world_sh) {
        loom__comm_shared_release(world_sh);
        world_sh = NULL;
    }
    loom__keyval_fini();
    loom__info_env_fini();
}
