/* net/net_ctx.c — the contexts that span node processes, by id, so that a message from
 * another node process finds its matching queues.
 *
 * A small table under one lock: registered when a communicator's shared half is made in this
 * node process, removed before it is freed; looked up by the polling thread for each message
 * that arrives. Few communicators span node processes, and a lookup is a short scan.
 *
 * A message may come before its communicator exists here: the members of a new communicator
 * do not wait for each other once they agree on it (comm/create_net.c), so a member in
 * another node process may send on it before this process's half is made. Such messages are
 * held, in arrival order, and delivered by the thread that registers the context, under the
 * lock: the poller looks a message up under the same lock, so whatever it finds after the
 * registration comes after everything held. The data of an eager message is copied; a
 * request-to-send is only its header. Held messages for a communicator never made here (an
 * erroneous program) stay until the end.
 *
 * The poller hands a message to its context outside the lock, holding a reference on the
 * context's shared half (taken under the lock, only while the half still has one), so that
 * the last member's MPI_Comm_free, which may run meanwhile, leaves the freeing to the poller's
 * release. */
#include <pthread.h>
#include <stdlib.h>
#include <string.h>
#include "comm/comm.h"
#include "core/rank.h"
#include "net/net.h"
#include "net/net_impl.h"
#include "p2p/p2p.h"

struct held {
    struct held *next;
    struct loom_net_hdr h;
    /* an eager message's h.bytes of data follow */
};

static pthread_mutex_t lock = PTHREAD_MUTEX_INITIALIZER;
struct entry {
    struct loom_p2p_ctx *ctx;
    struct loom_comm_shared *sh; /* its owner */
};

static struct entry *table; /* [cap], under lock */
static int used, cap;
static struct held *held, **held_tail = &held; /* in arrival order, under lock */

static struct entry *find(uint64_t id)
{
    for (int i = 0; i < used; i++)
        if (table[i].ctx->net_id == id)
            return &table[i];
    return NULL;
}

void loom__net_ctx_register(struct loom_p2p_ctx *ctx, struct loom_comm_shared *sh)
{
    pthread_mutex_lock(&lock);
    if (used == cap) {
        int ncap = cap ? 2 * cap : 16;
        struct entry *t = realloc(table, (size_t)ncap * sizeof *t);
        if (!t) {
            pthread_mutex_unlock(&lock);
            loom__net_abort(1, "out of memory registering a communicator with the network");
        }
        table = t;
        cap = ncap;
    }
    table[used++] = (struct entry){ctx, sh};
    struct held **pp = &held;
    while (*pp) {
        struct held *m = *pp;
        if (m->h.ctx_id != ctx->net_id) {
            pp = &m->next;
            continue;
        }
        *pp = m->next;
        loom__net_deliver(ctx, &m->h, m + 1);
        free(m);
    }
    held_tail = pp;
    pthread_mutex_unlock(&lock);
}

void loom__net_ctx_unregister(struct loom_p2p_ctx *ctx)
{
    pthread_mutex_lock(&lock);
    for (int i = 0; i < used; i++)
        if (table[i].ctx == ctx) {
            table[i] = table[--used];
            break;
        }
    if (used == 0) {
        free(table);
        table = NULL;
        cap = 0;
    }
    pthread_mutex_unlock(&lock);
}

struct loom_p2p_ctx *loom__net_ctx_find_or_hold(const struct loom_net_hdr *h, const void *data,
                                                struct loom_comm_shared **held_sh)
{
    pthread_mutex_lock(&lock);
    struct entry *e = find(h->ctx_id);
    /* a half whose last reference is gone is being freed: as if it were not there */
    struct loom_p2p_ctx *ctx = e && loom__comm_shared_try_retain(e->sh) ? e->ctx : NULL;
    if (ctx) {
        *held_sh = e->sh;
    } else {
        size_t len = h->type == LOOM_NET_EAGER ? (size_t)h->bytes : 0;
        struct held *m = malloc(sizeof *m + len);
        if (!m) {
            pthread_mutex_unlock(&lock);
            loom__net_abort(1, "out of memory keeping a message for a communicator to come");
        }
        m->next = NULL;
        m->h = *h;
        if (len)
            memcpy(m + 1, data, len);
        *held_tail = m;
        held_tail = &m->next;
    }
    pthread_mutex_unlock(&lock);
    return ctx;
}

void loom__net_ctx_fini(void)
{
    pthread_mutex_lock(&lock);
    int n = 0;
    while (held) {
        struct held *m = held;
        held = m->next;
        free(m);
        n++;
    }
    held_tail = &held;
    pthread_mutex_unlock(&lock);
    if (n)
        loom__log("warning: %d message%s from other node processes never received (their "
                  "communicator was freed, or never made here)", n, n == 1 ? "" : "s");
}
