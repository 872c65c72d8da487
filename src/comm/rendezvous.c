/* comm/rendezvous.c — the members of a communicator meeting: exchange sessions and barrier.
 *
 * Protocol (struct loom_rendezvous in comm.h), for member r of c:
 *   1. g = gen (acquire). gen cannot move before r arrives, since the flip needs r.
 *   2. arrived += 1 (acq_rel). The member that makes it `size` is the last arriver: it sets
 *      arrived back to 0 (relaxed: ordered before the release of gen, and every member reads
 *      gen with acquire before it arrives again), publishes gen = g + 1 (release) and
 *      notifies every member's event. The acq_rel increments form one release sequence, so
 *      the last arriver has seen every member's writes before the rendezvous, and its release
 *      of gen passes them on to every waiter's acquire of gen.
 *   3. The others wait (loom__wait_until on their rank's event) until gen != g.
 * Sense is the generation counter; no member can lap another, because a member that leaves
 * round k cannot complete round k+1 before every member has arrived at it.
 * The last arriver still reads sh->events after others may have left: safe, because the
 * shared half lives until every member has freed its handle, and the last arriver holds its
 * own handle across the call.
 *
 * Exchange session: xbegin stores `mine` in the member's slot before arriving; after the
 * flip every slot is readable. A member's slot and the memory it points to stay valid
 * until the member has passed the session's final rendezvous (xend), and every reader reads
 * before arriving at xend, so no read outlives the data. */
#include <string.h>
#include "comm/comm.h"
#include "core/atomic.h"
#include "core/rank.h"
#include "net/net.h"

struct gen_wait {
    _Atomic uint32_t *gen;
    uint32_t seen;
};

static int gen_moved(void *arg)
{
    struct gen_wait *w = arg;
    return loom__load_acquire(w->gen) != w->seen; /* pairs with the release in arrive() */
}

/* Steps 1-3 above. */
static void arrive(struct loom_comm_shared *sh)
{
    /* the rendezvous is in this process's memory only: what still meets through it over
     * several node processes (windows) is not made there yet; the communicators' constructors
     * take other paths there (comm/create_net.c, inter_net.c, vtopo_dist_net.c) */
    if (sh->spans_nodes)
        loom__net_unsupported("a window");
    struct loom_rendezvous *rv = &sh->rv;
    uint32_t g = loom__load_acquire(&rv->gen);
    if (loom__fetch_add_acq_rel(&rv->arrived, 1) == (uint32_t)sh->size - 1) {
        loom__store_relaxed(&rv->arrived, 0);
        loom__store_release(&rv->gen, g + 1);
        for (int i = 0; i < sh->size; i++)
            loom__event_notify(sh->events[i]);
        return;
    }
    struct gen_wait w = {&rv->gen, g};
    loom__wait_until(&loom__self->event, gen_moved, &w);
}

void loom__comm_xbegin(struct loom_comm *c, const void *mine)
{
    c->sh->rv.slots[c->rank] = mine;
    arrive(c->sh);
}

const void *loom__comm_xslot(struct loom_comm *c, int rank)
{
    return c->sh->rv.slots[rank];
}

void loom__comm_rendezvous(struct loom_comm *c)
{
    arrive(c->sh);
}

int loom__comm_exchange(struct loom_comm *c, const void *mine, size_t len, void *all)
{
    if (all == NULL) {
        /* nothing to read: one rendezvous is the whole barrier */
        arrive(c->sh);
        return 0;
    }
    loom__comm_xbegin(c, mine);
    for (int i = 0; i < c->sh->size && len > 0; i++)
        memcpy((char *)all + (size_t)i * len, loom__comm_xslot(c, i), len);
    loom__comm_xend(c);
    return 0;
}
