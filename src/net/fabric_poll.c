/* net/fabric_poll.c — reading the completion queue: the callbacks of what completed, the
 * errors, and what waits to be posted (receive buffers refused earlier, pieces of reads).
 *
 * With a provider of manual data progress (tcp;ofi_rxm) this is where data moves: fi_cq_read
 * runs the provider's progress engine. One thread at a time (net/'s poll lock). */
#include "net/fabric_impl.h"

#include <rdma/fi_errno.h>
#include <stdio.h>

/* Completions taken from the queue per poll: enough to drain a burst, few enough that one poll
 * stays short for the thread that runs it. */
#define FAB_POLL_BATCH 16

static void recv_done(struct loom_fabric *f, struct fab_recv *r, const void *msg, size_t len)
{
    if (msg)
        f->h.on_recv(f->h.arg, msg, len);
    if (loom__fabric_post_recv(f, r)) {
        r->next_repost = f->repost;
        f->repost = r;
    }
}

static void read_done(struct loom_fabric *f, struct fab_read *r, const char *why)
{
    pthread_mutex_lock(&f->rma_lock);
    int fin = loom__fabric_read_piece_done(f, r, why);
    pthread_mutex_unlock(&f->rma_lock);
    if (fin)
        loom__fabric_read_finish(f, r);
}

static void completed(struct loom_fabric *f, const struct fi_cq_data_entry *e)
{
    struct fab_op *op = e->op_context;
    if (!op)
        return; /* nothing of loom's: every operation loom posts carries a context */
    switch (op->kind) {
    case FAB_OP_RECV: {
        struct fab_recv *r = (struct fab_recv *)op;
        recv_done(f, r, r->buf, e->len);
        break;
    }
    case FAB_OP_SEND: {
        struct fab_slot *s = (struct fab_slot *)op;
        void *ctx = s->ctx;
        loom__fabric_slot_free(f, (int)(s - f->slots));
        if (ctx)
            f->h.on_send_done(f->h.arg, ctx);
        break;
    }
    case FAB_OP_READ:
        read_done(f, ((struct fab_piece *)op)->read, NULL);
        break;
    }
}

/* One error entry: 0, or -1 if the queue could not give it. */
static int failed(struct loom_fabric *f, char *err, size_t errlen)
{
    struct fi_cq_err_entry e = {0};
    fab_enter(f);
    ssize_t rc = fi_cq_readerr(f->cq, &e, 0);
    char detail[128] = "";
    const char *text = rc == 1 ? fi_cq_strerror(f->cq, e.prov_errno, e.err_data, detail,
                                                sizeof detail)
                               : NULL;
    fab_leave(f);
    if (rc == -FI_EAGAIN)
        return 0;
    if (rc != 1) {
        snprintf(err, errlen, "loom__fabric_poll: fi_cq_readerr: %s", fi_strerror((int)-rc));
        return -1;
    }
    char why[192];
    snprintf(why, sizeof why, "%s (%s)", fi_strerror(e.err), text ? text : "no detail");
    struct fab_op *op = e.op_context;
    if (!op) {
        f->h.on_error(f->h.arg, NULL, -1, why);
        return 0;
    }
    switch (op->kind) {
    case FAB_OP_RECV:
        /* Cancelled receives only come at close; any other failure (a message longer than
         * msg_max...) is reported and the buffer goes back. */
        if (e.err == FI_ECANCELED)
            return 0;
        f->h.on_error(f->h.arg, NULL, -1, why);
        recv_done(f, (struct fab_recv *)op, NULL, 0);
        break;
    case FAB_OP_SEND: {
        struct fab_slot *s = (struct fab_slot *)op;
        int peer = s->peer;
        void *ctx = s->ctx;
        loom__fabric_slot_free(f, (int)(s - f->slots));
        f->h.on_error(f->h.arg, ctx, peer, why);
        break;
    }
    case FAB_OP_READ:
        read_done(f, ((struct fab_piece *)op)->read, why);
        break;
    }
    return 0;
}

int loom__fabric_poll(struct loom_fabric *f, char *err, size_t errlen)
{
    if (f->repost)
        loom__fabric_repost(f);

    struct fi_cq_data_entry e[FAB_POLL_BATCH];
    fab_enter(f);
    ssize_t n = fi_cq_read(f->cq, e, FAB_POLL_BATCH);
    fab_leave(f);
    int handled = 0;
    if (n > 0) {
        for (ssize_t i = 0; i < n; i++)
            completed(f, &e[i]);
        handled = (int)n;
    } else if (n == -FI_EAVAIL) {
        if (failed(f, err, errlen))
            return -1;
        handled = 1;
    } else if (n != -FI_EAGAIN) {
        snprintf(err, errlen, "loom__fabric_poll: fi_cq_read: %s", fi_strerror((int)-n));
        return -1;
    }

    /* Completions free room in the provider's queues: post what waits for it. */
    struct fab_read *done = NULL;
    pthread_mutex_lock(&f->rma_lock);
    loom__fabric_post_pending(f, &done);
    pthread_mutex_unlock(&f->rma_lock);
    while (done) {
        struct fab_read *r = done;
        done = r->next_pending;
        loom__fabric_read_finish(f, r);
    }
    return handled;
}
