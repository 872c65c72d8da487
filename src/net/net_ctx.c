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
 * erroneous program) stay until the end. */
#include <pthread.h>
#include <stdlib.h>
#include <string.h>
#include "net/net.h"
#include "net/net_impl.h"
#include "p2p/p2p.h"

struct held {
    struct held *next;
    struct loom_net_hdr h;
    /* an eager message's h.bytes of data follow */
};

static pthread_mutex_t lock = PTHREAD_MUTEX_INITIALIZER;
static struct loom_p2p_ctx **table; /* [cap], under lock */
static int used, cap;
static struct held *held, **held_tail = &held; /* in arrival order, under lock */

static struct loom_p2p_ctx *find(uint64_t id)
{
    for (int i = 0; i < used; i++)
        if (table[i]->net_id == id)
            return table[i];
    return NULL;
}

void loom__net_ctx_register(struct loom_p2p_ctx *ctx)
{
    pthread_mutex_lock(&lock);
    if (used == cap) {
        int ncap = cap ? 2 * cap : 16;
        struct loom_p2p_ctx **t = realloc(table, (size_t)ncap * sizeof *t);
        if (!t) {
            pthread_mutex_unlock(&lock);
            loom__net_abort(1, "out of memory registering a communicator with the network");
        }
        table = t;
        cap = ncap;
    }
    table[used++] = ctx;
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
        if (table[i] == ctx) {
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

struct loom_p2p_ctx *loom__net_ctx_find_or_hold(const struct loom_net_hdr *h, const void *data)
{
    pthread_mutex_lock(&lock);
    struct loom_p2p_ctx *ctx = find(h->ctx_id);
    if (!ctx) {
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
