/* comm/shared.c — the shared half of a communicator: made by one member, used by all.
 *
 * The member that creates a shared half (the lowest rank of the new group) fills every field
 * before publishing the pointer through a rendezvous, so the others see it complete. It
 * starts with one reference per member handle to come; each member's handle drops one when
 * freed, and the last drop frees it; a nonblocking or persistent collective's request holds
 * one more until it is gone (MPI_Comm_free only marks the communicator for deallocation).
 * A communicator whose members run in several node processes has one shared half in each of
 * them, all with the same context id (comm/attach.c), each counting its own process's
 * members only.
 *
 * Context ids: the node process's index in the top 24 bits, then a per-process atomic
 * counter (relaxed: ids only need to be unique). So an id is unique in the whole job without
 * asking anybody: a communicator across node processes takes the id one of its members made.
 * MPI_COMM_WORLD is 0 in every node process (the counter starts at 1). */
#include <stdlib.h>
#include <string.h>
#include "comm/comm.h"
#include "core/atomic.h"
#include "core/error.h"
#include "core/rank.h"
#include "net/net.h"
#include "p2p/p2p.h"

/* Next context id of this node process (see above). */
static _Atomic uint64_t next_context_id = 1;

uint64_t loom__comm_context_id_new(void)
{
    return ((uint64_t)loom__job.node << 40) | loom__fetch_add_relaxed(&next_context_id, 1);
}

int loom__group_spans_nodes(const struct loom_group *g)
{
    for (int i = 0; i < g->size; i++)
        if (!loom__rank_is_local(g->world[i]))
            return 1;
    return 0;
}

static void destroy(struct loom_comm_shared *sh)
{
    if (sh->spans_nodes) { /* no message from another node process finds it any more */
        if (sh->pt2pt)
            loom__net_ctx_unregister(sh->pt2pt);
        if (sh->coll)
            loom__net_ctx_unregister(sh->coll);
    }
    if (sh->pt2pt)
        loom__p2p_ctx_free(sh->pt2pt);
    if (sh->coll)
        loom__p2p_ctx_free(sh->coll);
    loom__coll_shm_free(&sh->shm, sh->size);
    free(sh->events);
    free((void *)sh->rv.slots);
    if (sh->group)
        loom__group_release(sh->group);
    free(sh);
}

void loom__comm_shared_register(struct loom_comm_shared *sh)
{
    sh->spans_nodes = 1;
    loom__net_ctx_register(sh->pt2pt, sh); /* messages that came before are delivered now */
    loom__net_ctx_register(sh->coll, sh);
}

int loom__comm_shared_make(struct loom_group *g, uint64_t id, int refs,
                           struct loom_comm_shared **out)
{
    int rc = loom__comm_shared_make_unregistered(g, id, refs, out);
    if (rc == 0 && loom__group_spans_nodes(g))
        loom__comm_shared_register(*out);
    return rc;
}

int loom__comm_shared_make_unregistered(struct loom_group *g, uint64_t id, int refs,
                                        struct loom_comm_shared **out)
{
    /* aligned as its type asks (the shm slot's entries, coll/shm.h); freed by the last
     * release. aligned_alloc wants a multiple of the alignment: sizeof is one. */
    struct loom_comm_shared *sh = aligned_alloc(_Alignof(struct loom_comm_shared), sizeof *sh);
    if (sh == NULL)
        return LOOM_ERR_NOMEM;
    memset(sh, 0, sizeof *sh);
    /* its own copy: g may be a user's handle (MPI_Comm_create), which MPI_Group_free must be
     * able to make stale while the communicator lives on (loom__group_copy) */
    sh->group = loom__group_copy(g);
    if (sh->group == NULL)
        goto out_with_sh;
    g = sh->group;
    sh->size = g->size;
    sh->world_of = g->world;
    sh->context_id = id;
    atomic_init(&sh->refs, refs);
    atomic_init(&sh->rv.arrived, 0);
    atomic_init(&sh->rv.gen, 0);
    sh->events = malloc((size_t)g->size * sizeof *sh->events);
    sh->rv.slots = calloc((size_t)g->size, sizeof *sh->rv.slots);
    if (sh->events == NULL || sh->rv.slots == NULL)
        goto out_with_sh;
    for (int i = 0; i < g->size; i++)
        sh->events[i] = &loom__job.ranks[g->world[i]].event;
    sh->pt2pt = loom__p2p_ctx_new(sh);
    sh->coll = loom__p2p_ctx_new(sh);
    if (sh->pt2pt == NULL || sh->coll == NULL)
        goto out_with_sh;
    sh->pt2pt->net_id = 2 * sh->context_id;
    sh->coll->net_id = 2 * sh->context_id + 1;
    /* an intracommunicator's peers are its own ranks (comm/inter.c changes them for a pair) */
    sh->peer_size = sh->size;
    sh->peer_world = sh->world_of;
    sh->peer_pt2pt = sh->pt2pt;
    *out = sh;
    return 0;
out_with_sh:
    destroy(sh);
    return LOOM_ERR_NOMEM;
}

int loom__comm_shared_new(struct loom_group *g, struct loom_comm_shared **out)
{
    /* the callers of this one hand the pointer to the other members in this process's
     * memory: a group of several node processes goes through loom__comm_shared_attach */
    if (loom__group_spans_nodes(g))
        loom__net_unsupported("making this kind of communicator or window");
    return loom__comm_shared_make(g, loom__comm_context_id_new(), g->size, out);
}

void loom__comm_shared_retain(struct loom_comm_shared *sh)
{
    if (sh->remote && !sh->inter_first) /* the pair's count lives on its first half */
        sh = sh->remote;
    /* relaxed: the caller's own reference keeps sh alive; the release that drops this one
     * is acq_rel like every other */
    loom__fetch_add_relaxed(&sh->refs, 1);
}

int loom__comm_shared_try_retain(struct loom_comm_shared *sh)
{
    if (sh->remote && !sh->inter_first)
        sh = sh->remote;
    /* relaxed: a reference taken from a live count orders nothing by itself; the release that
     * drops it is acq_rel like every other */
    int n = loom__load_relaxed(&sh->refs);
    while (n > 0)
        if (atomic_compare_exchange_weak_explicit(&sh->refs, &n, n + 1, memory_order_relaxed,
                                                  memory_order_relaxed))
            return 1;
    return 0;
}

void loom__comm_shared_release(struct loom_comm_shared *sh)
{
    /* An intercommunicator's halves live as long as either group uses the pair: a member of
     * one group may still send into the other's queues. The first half counts both. */
    if (sh->remote && !sh->inter_first)
        sh = sh->remote;
    /* acq_rel: the last release sees every member's use of sh before freeing it */
    if (loom__fetch_sub_acq_rel(&sh->refs, 1) == 1) {
        if (sh->remote)
            destroy(sh->remote);
        destroy(sh);
    }
}
