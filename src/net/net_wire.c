/* net/net_wire.c — posting to the endpoint in order, the backlog, and polling (net_impl.h
 * has the locking rule). */
#include <stdlib.h>
#include <string.h>
#include "core/atomic.h"
#include "core/error.h"
#include "net/net.h"
#include "net/net_impl.h"

/* Work the endpoint could not take when it was posted: a message (its bytes follow) or a
 * read. */
struct loom_net_pending {
    struct loom_net_pending *next;
    int peer;
    int is_read;
    size_t len;
    void *local;       /* read */
    uint64_t addr, key;
    void *ctx;
    /* message bytes follow */
};

static void backlog_add(struct loom_net_pending *p)
{
    if (!loom__load_relaxed(&loom__net.backlogged))
        loom__net_watch_begin(); /* only polls post it: the network thread polls till then */
    loom__store_relaxed(&loom__net.backlogged, 1);
    p->next = NULL;
    *loom__net.backlog_tail = p;
    loom__net.backlog_tail = &p->next;
}

/* Post a message now: 0 posted, 1 the endpoint cannot take it now. With ctx, data is sent
 * from where it lies (loom__fabric_sendv), else copied into the slot. send_lock held. */
static int try_send(int peer, const struct loom_net_hdr *h, const void *data, size_t len,
                    void *ctx)
{
    void *slot = loom__fabric_slot(loom__net.fab);
    if (!slot)
        return 1;
    memcpy(slot, h, sizeof *h);
    char err[256];
    int rc;
    if (ctx) {
        rc = loom__fabric_sendv(loom__net.fab, peer, slot, sizeof *h, data, len, ctx, err,
                                sizeof err);
    } else {
        if (len)
            memcpy((char *)slot + sizeof *h, data, len);
        rc = loom__fabric_send(loom__net.fab, peer, slot, sizeof *h + len, err, sizeof err);
    }
    if (rc < 0)
        loom__net_peer_failed(peer, err);
    if (rc == 1)
        loom__fabric_unslot(loom__net.fab, slot); /* busy: the message waits in the backlog */
    return rc;
}

/* loom__net_post and loom__net_post_inplace: posted now (with ctx: in place), or copied into
 * the backlog (*copied set). */
static int post(int peer, const struct loom_net_hdr *hdr, const void *data, size_t len,
                void *ctx, int *copied)
{
    struct loom_net_hdr copy = *hdr, *h = &copy;
    *copied = 0;
    pthread_mutex_lock(&loom__net.send_lock);
    h->seq = loom__net.seq_out[peer]++; /* the order it leaves in: posted now or backlogged */
    if (loom__net.backlog == NULL && try_send(peer, h, data, len, ctx) == 0) {
        pthread_mutex_unlock(&loom__net.send_lock);
        return 0;
    }
    struct loom_net_pending *p = malloc(sizeof *p + sizeof *h + len);
    if (!p) {
        pthread_mutex_unlock(&loom__net.send_lock);
        return LOOM_ERR_NOMEM;
    }
    *p = (struct loom_net_pending){.peer = peer, .len = len};
    memcpy(p + 1, h, sizeof *h);
    if (len)
        memcpy((char *)(p + 1) + sizeof *h, data, len);
    backlog_add(p);
    pthread_mutex_unlock(&loom__net.send_lock);
    *copied = 1;
    return 0;
}

int loom__net_post(int peer, const struct loom_net_hdr *hdr, const void *data, size_t len)
{
    int copied;
    return post(peer, hdr, data, len, NULL, &copied);
}

int loom__net_post_inplace(int peer, const struct loom_net_hdr *hdr, const void *data,
                           size_t len, void *ctx, int *copied)
{
    return post(peer, hdr, data, len, ctx, copied);
}

static int try_read(int peer, void *local, size_t len, uint64_t addr, uint64_t key, void *ctx)
{
    char err[256];
    int rc = loom__fabric_read(loom__net.fab, peer, local, len, addr, key, ctx, err, sizeof err);
    if (rc < 0)
        loom__net_peer_failed(peer, err);
    return rc;
}

int loom__net_post_read(int peer, void *local, size_t len, uint64_t addr, uint64_t key,
                        void *ctx)
{
    pthread_mutex_lock(&loom__net.send_lock);
    if (loom__net.backlog == NULL && try_read(peer, local, len, addr, key, ctx) == 0) {
        pthread_mutex_unlock(&loom__net.send_lock);
        return 0;
    }
    struct loom_net_pending *p = malloc(sizeof *p);
    if (!p) {
        pthread_mutex_unlock(&loom__net.send_lock);
        return LOOM_ERR_NOMEM;
    }
    *p = (struct loom_net_pending){.peer = peer, .is_read = 1, .len = len, .local = local,
                                   .addr = addr, .key = key, .ctx = ctx};
    backlog_add(p);
    pthread_mutex_unlock(&loom__net.send_lock);
    return 0;
}

int loom__net_flush_backlog(void)
{
    int moved = 0;
    pthread_mutex_lock(&loom__net.send_lock);
    struct loom_net_pending *p;
    while ((p = loom__net.backlog) != NULL) {
        int rc = p->is_read
                     ? try_read(p->peer, p->local, p->len, p->addr, p->key, p->ctx)
                     : try_send(p->peer, (const struct loom_net_hdr *)(p + 1),
                                (const char *)(p + 1) + sizeof(struct loom_net_hdr), p->len,
                                NULL);
        if (rc != 0)
            break; /* busy: the rest waits for the next poll, in order */
        loom__net.backlog = p->next;
        if (!p->next) {
            loom__net.backlog_tail = &loom__net.backlog;
            loom__store_relaxed(&loom__net.backlogged, 0);
            loom__net_watch_end();
        }
        free(p);
        moved = 1;
    }
    pthread_mutex_unlock(&loom__net.send_lock);
    return moved;
}

int loom__net_poll(void)
{
    if (!loom__net.fab || pthread_mutex_trylock(&loom__net.poll_lock) != 0)
        return 0;
    char err[256];
    loom__store_relaxed(&loom__net.polls, loom__load_relaxed(&loom__net.polls) + 1);
    int n = loom__fabric_poll(loom__net.fab, err, sizeof err);
    if (n < 0)
        loom__net_peer_failed(-1, err);
    int moved = loom__load_relaxed(&loom__net.backlogged) ? loom__net_flush_backlog() : 0;
    pthread_mutex_unlock(&loom__net.poll_lock);
    return n > 0 || moved;
}
