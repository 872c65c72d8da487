/* comm/attach.c — one shared half per node process for a communicator across node processes.
 *
 * The members of such a communicator agree on its context id through its parent
 * (comm/create_net.c); then each asks for its node process's half. No member waits for the
 * others of its process: the first to ask makes the half and leaves it in a small table
 * with the number of members still to come; each later one takes it and counts down; the
 * last removes the entry. So a member is never held up by a slow neighbour, and nonblocking
 * constructors could use the same table.
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
    struct loom_comm_shared *sh;
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

int loom__comm_shared_attach(uint64_t id, struct loom_group *g, struct loom_comm_shared **out)
{
    pthread_mutex_lock(&lock);
    struct entry **pp = &pending;
    while (*pp && (*pp)->id != id)
        pp = &(*pp)->next;
    struct entry *e = *pp;
    if (e == NULL) {
        int n = local_members(g);
        e = calloc(1, sizeof *e); /* freed by the last member to take the half */
        int rc = e ? loom__comm_shared_make(g, id, n, &e->sh) : LOOM_ERR_NOMEM;
        if (rc != 0) {
            pthread_mutex_unlock(&lock);
            free(e);
            return rc;
        }
        e->id = id;
        e->left = n;
        e->next = pending;
        pending = e;
        pp = &pending;
    }
    *out = e->sh;
    if (--e->left == 0) {
        *pp = e->next;
        free(e);
    }
    pthread_mutex_unlock(&lock);
    return 0;
}
