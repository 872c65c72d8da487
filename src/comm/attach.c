/* comm/attach.c — one shared half per node process for a communicator across node processes.
 *
 * The members of such a communicator agree on its context id through its parent
 * (comm/create_net.c); then each asks for its node process's half. No member waits for the
 * others of its process: the first to ask makes the half and leaves it in a small table
 * with the number of members still to come; each later one takes it and counts down; the
 * last removes the entry. So a member is never held up by a slow neighbour (MPI_Comm_idup's
 * members attach from its schedule). An intercommunicator's pair (its two halves and their
 * union) is attached the same way, by the id of its first half.
 *
 * The table is under one lock, held while a half is made (a short, bounded time: a few
 * allocations and the network's registration, which takes the network's context lock: lock
 * order attach, then net/net_ctx.c). Entries are few: one per communicator being made at
 * this moment in this process. */
#include <pthread.h>
#include <stdlib.h>
#include "comm/comm.h"
#include "core/error.h"

struct entry {
    struct entry *next;
    uint64_t id;
    struct loom_comm_shared *sh; /* a communicator */
    struct loom_inter_pair pair; /* or an intercommunicator (sh NULL) */
    int left; /* members of this process that have not taken it yet */
};

static pthread_mutex_t lock = PTHREAD_MUTEX_INITIALIZER;
static struct entry *pending; /* under lock */

/* Members of g that run in this node process. */
static int local_members(const struct loom_group *g)
{
    int n = 0;
    for (int i = 0; i < g->size; i++)
        n += loom__rank_is_local(g->world[i]);
    return n;
}

/* Under lock: the entry of `id`, made (by make) if this is the first member to ask; *pp its
 * link. NULL with *rc on failure. */
static struct entry *find_or_make(uint64_t id, int n, struct entry ***pp,
                                  int (*make)(struct entry *e, void *arg), void *arg, int *rc)
{
    *pp = &pending;
    while (**pp && (**pp)->id != id)
        *pp = &(**pp)->next;
    if (**pp)
        return **pp;
    struct entry *e = calloc(1, sizeof *e); /* freed by the last member to take it */
    *rc = e ? make(e, arg) : LOOM_ERR_NOMEM;
    if (*rc != 0) {
        free(e);
        return NULL;
    }
    e->id = id;
    e->left = n;
    e->next = pending;
    pending = e;
    *pp = &pending;
    return e;
}

/* Under lock: the caller has taken e. */
static void taken(struct entry *e, struct entry **link)
{
    if (--e->left == 0) {
        *link = e->next;
        free(e);
    }
}

struct half_args {
    struct loom_group *g;
    uint64_t id;
    int n;
};

static int make_half(struct entry *e, void *arg)
{
    struct half_args *a = arg;
    return loom__comm_shared_make(a->g, a->id, a->n, &e->sh);
}

int loom__comm_shared_attach(uint64_t id, struct loom_group *g, struct loom_comm_shared **out)
{
    struct half_args a = {g, id, local_members(g)};
    struct entry **pp;
    int rc = 0;
    pthread_mutex_lock(&lock);
    struct entry *e = find_or_make(id, a.n, &pp, make_half, &a, &rc);
    if (e) {
        *out = e->sh;
        taken(e, pp);
    }
    pthread_mutex_unlock(&lock);
    return rc;
}

struct pair_args {
    struct loom_group *g0, *g1;
    const uint64_t *ids;
    int n;
};

static int make_pair(struct entry *e, void *arg)
{
    struct pair_args *a = arg;
    return loom__inter_pair_make(a->g0, a->g1, a->ids, a->n, &e->pair);
}

int loom__inter_pair_attach(const uint64_t ids[3], struct loom_group *g0, struct loom_group *g1,
                            struct loom_inter_pair *out)
{
    struct pair_args a = {g0, g1, ids, local_members(g0) + local_members(g1)};
    struct entry **pp;
    int rc = 0;
    pthread_mutex_lock(&lock);
    struct entry *e = find_or_make(ids[0], a.n, &pp, make_pair, &a, &rc);
    if (e) {
        *out = e->pair;
        taken(e, pp);
    }
    pthread_mutex_unlock(&lock);
    return rc;
}
