/* net/net_ctx.c — the contexts that span node processes, by id, so that a message from
 * another node process finds its matching queues.
 *
 * A small table under one lock: registered when a communicator's shared half is made (before
 * any of its ranks can receive), removed before it is freed; looked up by the polling thread
 * for each message that arrives. Few communicators span node processes, and a lookup is a
 * short scan. */
#include <pthread.h>
#include <stdlib.h>
#include "net/net.h"
#include "net/net_impl.h"
#include "p2p/p2p.h"

static pthread_mutex_t lock = PTHREAD_MUTEX_INITIALIZER;
static struct loom_p2p_ctx **table; /* [cap], under lock */
static int used, cap;

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

struct loom_p2p_ctx *loom__net_ctx_find(uint64_t id)
{
    struct loom_p2p_ctx *found = NULL;
    pthread_mutex_lock(&lock);
    for (int i = 0; i < used && !found; i++)
        if (table[i]->net_id == id)
            found = table[i];
    pthread_mutex_unlock(&lock);
    return found;
}
