/* net/fabric_msg.c — messages: the send slots (taken by any thread, given back by poll when the
 * send completes), sends, and the receive buffers poll keeps posted. */
#include "net/fabric_impl.h"

#include <rdma/fi_errno.h>
#include <stdio.h>
#include <sys/uio.h>

void *loom__fabric_slot(struct loom_fabric *f)
{
    int i = -1;
    pthread_mutex_lock(&f->slot_lock);
    if (f->nfree > 0)
        i = f->free_slots[--f->nfree];
    pthread_mutex_unlock(&f->slot_lock);
    return i < 0 ? NULL : f->slot_mem + f->stride * (size_t)i;
}

void loom__fabric_slot_free(struct loom_fabric *f, int i)
{
    pthread_mutex_lock(&f->slot_lock);
    f->free_slots[f->nfree++] = i;
    pthread_mutex_unlock(&f->slot_lock);
}

static int slot_index(const struct loom_fabric *f, const void *slot);

void loom__fabric_unslot(struct loom_fabric *f, void *slot)
{
    int i = slot_index(f, slot);
    if (i >= 0)
        loom__fabric_slot_free(f, i);
}

int loom__fabric_inflight(const struct loom_fabric *f)
{
    struct loom_fabric *m = (struct loom_fabric *)f; /* the locks only */
    pthread_mutex_lock(&m->slot_lock);
    int n = m->nslots - m->nfree; /* sends in flight (and slots a caller holds) */
    pthread_mutex_unlock(&m->slot_lock);
    pthread_mutex_lock(&m->rma_lock);
    for (const struct fab_read *r = m->reads; r; r = r->next)
        n++;
    pthread_mutex_unlock(&m->rma_lock);
    return n;
}

/* The index of a slot pointer, or -1 if it is not the start of one of this endpoint's slots. */
static int slot_index(const struct loom_fabric *f, const void *slot)
{
    const char *p = slot;
    if (p < f->slot_mem || p >= f->slot_mem + f->stride * (size_t)f->nslots)
        return -1;
    size_t off = (size_t)(p - f->slot_mem);
    return off % f->stride ? -1 : (int)(off / f->stride);
}

/* A slot's first hlen bytes, then data[len] if len (loom__fabric_send, loom__fabric_sendv). */
static int post(struct loom_fabric *f, int peer, void *slot, size_t hlen, const void *data,
                size_t len, void *ctx, char *err, size_t errlen)
{
    int i = slot_index(f, slot);
    if (i < 0) {
        snprintf(err, errlen, "loom__fabric_send: %p is not a send slot of this endpoint", slot);
        return -1;
    }
    if (peer < 0 || peer >= f->npeers || hlen + len > f->msg_max) {
        loom__fabric_slot_free(f, i);
        if (hlen + len > f->msg_max)
            snprintf(err, errlen, "loom__fabric_send: %zu bytes is more than msg_max (%zu)",
                     hlen + len, f->msg_max);
        else
            snprintf(err, errlen, "loom__fabric_send: no node process %d (%d inserted)", peer,
                     f->npeers);
        return -1;
    }
    struct fab_slot *s = &f->slots[i];
    s->peer = peer;
    s->ctx = ctx;
    ssize_t rc;
    fab_enter(f);
    if (len) {
        struct iovec iov[2] = {{slot, hlen}, {(void *)data, len}};
        void *desc[2] = {f->slot_desc, NULL};
        rc = fi_sendv(f->ep, iov, desc, 2, f->peers[peer], &s->op);
    } else {
        rc = fi_send(f->ep, slot, hlen, f->slot_desc, f->peers[peer], &s->op);
    }
    fab_leave(f);
    if (rc == 0)
        return 0;
    if (rc == -FI_EAGAIN)
        return 1; /* nothing sent: the slot stays the caller's */
    loom__fabric_slot_free(f, i);
    snprintf(err, errlen, "loom__fabric_send: to node process %d: %s", peer,
             fi_strerror((int)-rc));
    return -1;
}

int loom__fabric_send(struct loom_fabric *f, int peer, void *slot, size_t len, char *err,
                      size_t errlen)
{
    return post(f, peer, slot, len, NULL, 0, NULL, err, errlen);
}

int loom__fabric_can_sendv(const struct loom_fabric *f)
{
    return f->info->tx_attr->iov_limit >= 2 && !(f->mr_mode & FI_MR_LOCAL) &&
           f->h.on_send_done != NULL;
}

int loom__fabric_sendv(struct loom_fabric *f, int peer, void *slot, size_t hlen, const void *data,
                       size_t len, void *ctx, char *err, size_t errlen)
{
    if (!loom__fabric_can_sendv(f) || !len || !ctx) {
        snprintf(err, errlen, "loom__fabric_sendv: %s",
                 !loom__fabric_can_sendv(f) ? "the endpoint cannot send in place"
                                            : "no data or no context");
        loom__fabric_unslot(f, slot);
        return -1;
    }
    return post(f, peer, slot, hlen, data, len, ctx, err, errlen);
}

int loom__fabric_post_recv(struct loom_fabric *f, struct fab_recv *r)
{
    fab_enter(f);
    ssize_t rc = fi_recv(f->ep, r->buf, f->msg_max, f->recv_desc, FI_ADDR_UNSPEC, &r->op);
    fab_leave(f);
    return (int)rc;
}

void loom__fabric_repost(struct loom_fabric *f)
{
    struct fab_recv *list = f->repost;
    f->repost = NULL;
    while (list) {
        struct fab_recv *r = list;
        list = r->next_repost;
        if (loom__fabric_post_recv(f, r)) {
            /* Busy (or worse): keep it for the next poll rather than lose the buffer. */
            r->next_repost = f->repost;
            f->repost = r;
        }
    }
}
