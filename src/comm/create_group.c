/* comm/create_group.c — MPI_Comm_create_group: a communicator made by the members of a group
 * only, without the rest of the parent. The parent's rendezvous cannot be used (non-members
 * do not take part), so members meet in a creation-only table.
 *
 * Protocol. A call is named by its key (parent context id, tag, world rank of the group's
 * rank 0, group size); every member of one call computes the same key. The table (`calls`)
 * is a FIFO list of meeting entries under `table_lock`, a leaf lock taken only here (never on
 * a message path, never while waiting):
 *   1. Join: under the lock, member r (its rank in the group) takes the oldest entry with the
 *      key whose joined[r] is still 0, creating and appending one if none; it sets joined[r].
 *      Successive calls with the same key by one member are sequential, and the entry of a
 *      member's k-th call is created only by a member that has joined its (k-1)-th, so the
 *      oldest entry where r has not joined is always r's current call.
 *   2. Publish: the leader (r == 0) builds the shared half (refs = group size) without the
 *      lock, stores it (or its error) in the entry, sets `ready` (release) and notifies every
 *      member's event. The other members wait on their event until `ready` (acquire).
 *   3. Leave: under the lock, each member counts itself in `taken`; the last one unlinks and
 *      frees the entry. An entry therefore outlives every wait on it.
 * The leader never waits: it may return before the others have joined. A group of several
 * node processes goes through comm/create_group_net.c instead. */
#include <pthread.h>
#include <stdlib.h>
#include "comm/comm.h"
#include "core/atomic.h"
#include "core/error.h"
#include "core/rank.h"

struct call {
    struct call *next;              /* under table_lock */
    uint64_t parent_ctx;            /* the key; read-only after creation */
    int tag, leader_world, size;
    int taken;                      /* members that have left; under table_lock */
    _Atomic int ready;              /* 1 once sh/err are written (release by the leader) */
    struct loom_comm_shared *sh;    /* written by the leader before ready */
    int err;                        /* written by the leader before ready */
    unsigned char joined[];         /* [size] under table_lock */
};

static pthread_mutex_t table_lock = PTHREAD_MUTEX_INITIALIZER; /* protects calls, taken, joined */
static struct call *calls;                                      /* FIFO: oldest first */

/* Step 1; NULL on ENOMEM. */
static struct call *join(uint64_t ctx, int tag, const struct loom_group *g, int r)
{
    pthread_mutex_lock(&table_lock);
    struct call **pp = &calls, *e;
    for (e = calls; e != NULL; pp = &e->next, e = e->next)
        if (e->parent_ctx == ctx && e->tag == tag && e->leader_world == g->world[0] &&
            e->size == g->size && !e->joined[r])
            break;
    if (e == NULL) {
        while (*pp != NULL)
            pp = &(*pp)->next;
        e = calloc(1, sizeof *e + (size_t)g->size); /* freed by the last member to leave */
        if (e != NULL) {
            e->parent_ctx = ctx;
            e->tag = tag;
            e->leader_world = g->world[0];
            e->size = g->size;
            atomic_init(&e->ready, 0);
            *pp = e;
        }
    }
    if (e != NULL)
        e->joined[r] = 1;
    pthread_mutex_unlock(&table_lock);
    return e;
}

static int is_ready(void *arg)
{
    struct call *e = arg;
    return loom__load_acquire(&e->ready); /* pairs with the leader's release */
}

/* Step 3. */
static void leave(struct call *e)
{
    pthread_mutex_lock(&table_lock);
    int last = ++e->taken == e->size;
    if (last) {
        struct call **pp = &calls;
        while (*pp != e)
            pp = &(*pp)->next;
        *pp = e->next;
    }
    pthread_mutex_unlock(&table_lock);
    if (last)
        free(e);
}

int loom__comm_create_group(struct loom_comm *parent, struct loom_group *g, int tag,
                            struct loom_comm **out)
{
    *out = NULL;
    int r = loom__group_rank_of(g, loom__self->world_rank);
    if (r == MPI_UNDEFINED)
        return 0; /* not a member: a local call that returns MPI_COMM_NULL */
    if (loom__group_spans_nodes(g))
        return loom__comm_create_group_net(parent, g, tag, r, out);
    struct call *e = join(parent->sh->context_id, tag, g, r);
    if (e == NULL)
        return LOOM_ERR_NOMEM; /* the others wait: a fatal condition in practice */
    if (r == 0) {
        e->err = loom__comm_shared_new(g, &e->sh);
        loom__store_release(&e->ready, 1);
        for (int i = 0; i < g->size; i++)
            loom__event_notify(&loom__job.ranks[g->world[i]].event);
    } else {
        loom__wait_until(&loom__self->event, is_ready, e);
    }
    struct loom_comm_shared *sh = e->sh;
    int err = e->err;
    leave(e);
    if (err != 0)
        return err;
    return loom__comm_handle_new(sh, r, parent, out);
}
