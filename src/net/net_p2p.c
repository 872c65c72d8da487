/* net/net_p2p.c — point-to-point messages between node processes: eager messages, and the
 * rendezvous in which the receiver reads the data out of the sender's buffer (net.h).
 *
 * Records and who owns them:
 *  - struct rndv_send: the sender's side of a rendezvous, from its request-to-send until the
 *    FIN (handled by the polling thread) completes the send and frees it;
 *  - struct standin: the receiver's copy of a request-to-send, queued in the receiver's
 *    unexpected queue like a local sender's request (kind LOOM_REQ_NETSEND) until a receive
 *    matches it; then the pull owns it;
 *  - struct pull: a read in flight into a receive, freed by the polling thread when the read
 *    has landed, after it completed the receive and sent the FIN. */
#include <stdlib.h>
#include <string.h>
#include "comm/comm.h"
#include "core/atomic.h"
#include "core/error.h"
#include "core/rank.h"
#include "core/stats.h"
#include "dt/dt.h"
#include "net/net.h"
#include "net/net_impl.h"
#include "p2p/p2p.h"

struct rndv_send {
    struct loom_request *s;
    struct loom_fabric_mr mr;
    int exposed;
    void *tmp; /* a noncontiguous buffer, packed; or NULL */
};

struct standin {
    struct loom_request req; /* kind LOOM_REQ_NETSEND; env is the queued envelope */
    int node;
    uint64_t addr, key, cookie;
};

struct pull {
    struct loom_net_read read; /* first: what the endpoint's read completion calls */
    struct standin *sd;
    struct loom_request *r;
    void *tmp; /* the data of a noncontiguous receive, before it is unpacked; or NULL */
    size_t n;
};

int loom__net_send(struct loom_request *s)
{
    size_t bytes = s->env.bytes;
    int node = loom__node_of(s->ctx->match[s->peer].rank->world_rank);
    struct loom_net_hdr h = {.node = loom__job.node, .ctx_id = s->ctx->net_id, .dest = s->peer,
                             .source = s->me, .tag = s->tag, .bytes = bytes};
    int contig = s->type->contig;
    const void *data = contig ? (const char *)s->buf + s->type->true_lb : NULL;
    s->netwatch = 0; /* a persistent send may have been a rendezvous last time */
    if (s->mode != LOOM_SEND_SYNC && bytes <= loom__net.eager_max) {
        h.type = LOOM_NET_EAGER;
        if (contig && bytes && bytes >= loom__net.inplace_min && !s->heap) {
            /* A blocking send (its request on the caller's stack) waits anyway: its data
             * leaves without the copy into a slot, and it returns once the endpoint is done
             * with it. A nonblocking one is copied and complete at once, so that its caller
             * goes on (sending a window of them in place lost 5 - 8 % of the bandwidth). */
            int copied, rc = loom__net_post_inplace(node, &h, data, bytes, s, &copied);
            if (rc == 0 && copied)
                loom__req_complete(s);
            return rc;
        }
        void *tmp = NULL;
        if (!contig && bytes) {
            if (!(tmp = malloc(bytes)))
                return LOOM_ERR_NOMEM;
            loom__dt_pack(tmp, s->buf, s->type, s->count, 0, bytes);
            data = tmp;
        }
        int rc = loom__net_post(node, &h, data, bytes);
        free(tmp);
        if (rc != 0)
            return rc;
        loom__req_complete(s); /* the data has left the buffer */
        return 0;
    }
    struct rndv_send *rs = calloc(1, sizeof *rs);
    if (!rs)
        return LOOM_ERR_NOMEM;
    rs->s = s;
    if (!contig && bytes) {
        if (!(rs->tmp = malloc(bytes))) {
            free(rs);
            return LOOM_ERR_NOMEM;
        }
        loom__dt_pack(rs->tmp, s->buf, s->type, s->count, 0, bytes);
        data = rs->tmp;
    }
    if (bytes) {
        char err[256];
        if (loom__fabric_expose(loom__net.fab, data, bytes, &rs->mr, err, sizeof err) != 0) {
            loom__log("cannot expose a send buffer to the network: %s", err);
            free(rs->tmp);
            free(rs);
            return LOOM_ERR_OTHER;
        }
        rs->exposed = 1;
    }
    h.type = LOOM_NET_RTS;
    h.addr = rs->mr.addr;
    h.key = rs->mr.key;
    h.cookie = (uint64_t)(uintptr_t)rs;
    /* nonblocking: the receiver reads the data while the caller may compute, and over a
     * provider of manual progress this side must be polled for the read to be served */
    s->netwatch = s->heap;
    if (s->netwatch)
        loom__net_watch_begin();
    int rc = loom__net_post(node, &h, NULL, 0);
    if (rc != 0) {
        if (s->netwatch)
            loom__net_watch_end();
        s->netwatch = 0;
        if (rs->exposed)
            loom__fabric_unexpose(loom__net.fab, &rs->mr);
        free(rs->tmp);
        free(rs);
    }
    return rc;
}

/* The receiver read the data: the send is complete. */
static void on_fin(const struct loom_net_hdr *h)
{
    struct rndv_send *rs = (struct rndv_send *)(uintptr_t)h->cookie;
    struct loom_request *s = rs->s;
    if (rs->exposed)
        loom__fabric_unexpose(loom__net.fab, &rs->mr);
    free(rs->tmp);
    free(rs);
    loom__p2p_status_set(&s->status, s->peer, s->tag, (size_t)h->bytes);
    loom__req_complete(s);
}

static void finish_pull(struct pull *p);

static void pull_landed(struct loom_net_read *read)
{
    finish_pull((struct pull *)read);
}

static void finish_pull(struct pull *p)
{
    struct standin *sd = p->sd;
    struct loom_request *r = p->r;
    size_t bytes = sd->req.env.bytes;
    if (p->tmp) {
        loom__dt_unpack(r->buf, r->type, r->count, p->tmp, 0, p->n);
        free(p->tmp);
    }
    r->error = bytes > p->n ? MPI_ERR_TRUNCATE : MPI_SUCCESS;
    loom__p2p_status_set(&r->status, sd->req.env.source, sd->req.env.tag, p->n);
    LOOM_STATS_RECEIVED(r->owner, p->n); /* LOOM_STATS: before completion frees r */
    struct loom_net_hdr fin = {.type = LOOM_NET_FIN, .node = loom__job.node, .bytes = p->n,
                               .cookie = sd->cookie};
    int node = sd->node;
    free(sd);
    free(p);
    /* The FIN first: its send must not wait for the receiver's next call. */
    if (loom__net_post(node, &fin, NULL, 0) != 0)
        loom__net_abort(1, "out of memory answering a rendezvous");
    loom__req_complete(r);
}

void loom__net_pull(struct loom_request *standin, struct loom_request *r)
{
    struct standin *sd = (struct standin *)standin;
    if (r->heap && !r->netwatch) {
        /* MPI_Imrecv of a request-to-send, or a posted nonblocking receive with room for no
         * more than an eager message (not counted when posted: p2p/match.c) that a
         * synchronous send's request-to-send matched: its read moves while the caller may
         * compute. The thread here is the owner or the poller that matched the receive, which
         * its owner no longer touches but to test its flags. */
        r->netwatch = 1;
        loom__net_watch_begin();
    }
    struct pull *p = calloc(1, sizeof *p);
    if (!p)
        loom__net_abort(1, "out of memory receiving a message from another node process");
    p->read.done = pull_landed;
    size_t cap = loom__dt_stream_size(r->type, r->count);
    p->sd = sd;
    p->r = r;
    p->n = sd->req.env.bytes < cap ? sd->req.env.bytes : cap;
    if (p->n == 0) {
        finish_pull(p);
        return;
    }
    void *local;
    if (r->type->contig) {
        local = (char *)r->buf + r->type->true_lb;
    } else {
        if (!(p->tmp = malloc(p->n)))
            loom__net_abort(1, "out of memory receiving a message from another node process");
        local = p->tmp;
    }
    if (loom__net_post_read(sd->node, local, p->n, sd->addr, sd->key, p) != 0)
        loom__net_abort(1, "out of memory receiving a message from another node process");
}

void loom__net_standin_free(struct loom_request *standin)
{
    free((struct standin *)standin);
}

void loom__net_on_send_done(void *arg, void *ctx)
{
    (void)arg;
    loom__req_complete(ctx);
}

void loom__net_on_read_done(void *arg, void *ctx)
{
    (void)arg;
    struct loom_net_read *read = ctx; /* a pull's, or one-sided communication's */
    read->done(read);
}

void loom__net_deliver(struct loom_p2p_ctx *ctx, const struct loom_net_hdr *h, const void *data)
{
    if (h->dest < 0 || h->dest >= ctx->size)
        loom__net_peer_failed(h->node, "a message for a rank its communicator does not have");
    struct loom_match *m = &ctx->match[h->dest];
    if (h->type == LOOM_NET_EAGER) {
        if (loom__p2p_net_eager(m, h->source, h->tag, data, (size_t)h->bytes) != 0)
            loom__net_abort(1, "out of memory queueing a message from another node process");
        return;
    }
    struct standin *sd = calloc(1, sizeof *sd);
    if (!sd)
        loom__net_abort(1, "out of memory queueing a message from another node process");
    sd->req.kind = LOOM_REQ_NETSEND;
    sd->req.env = (struct loom_envelope){.source = h->source, .tag = h->tag,
                                         .bytes = (size_t)h->bytes, .sreq = &sd->req};
    sd->node = h->node;
    sd->addr = h->addr;
    sd->key = h->key;
    sd->cookie = h->cookie;
    struct loom_request *r = loom__p2p_net_rts(m, &sd->req);
    if (r)
        loom__net_pull(&sd->req, r);
}

void loom__net_dispatch(const void *msg, size_t len)
{
    struct loom_net_hdr h;
    if (len < sizeof h)
        loom__net_peer_failed(-1, "a network message shorter than its header");
    memcpy(&h, msg, sizeof h);
    switch (h.type) {
    case LOOM_NET_EAGER:
    case LOOM_NET_RTS: {
        const void *data = (const char *)msg + sizeof h;
        if (h.type == LOOM_NET_EAGER && len - sizeof h < h.bytes)
            loom__net_peer_failed(h.node, "a network message shorter than its data");
        /* NULL: its communicator is not made here yet; it is delivered when it is */
        struct loom_comm_shared *sh;
        struct loom_p2p_ctx *ctx = loom__net_ctx_find_or_hold(&h, data, &sh);
        if (ctx) {
            loom__net_deliver(ctx, &h, data);
            loom__comm_shared_release(sh); /* may free it: the last member is gone */
        }
        break;
    }
    case LOOM_NET_FIN:
        on_fin(&h);
        break;
    case LOOM_NET_RMA:
    case LOOM_NET_RMA_REPLY:
        if (len - sizeof h < h.bytes)
            loom__net_peer_failed(h.node, "a network message shorter than its data");
        loom__rma_net_recv(h.node, h.type == LOOM_NET_RMA_REPLY, (const char *)msg + sizeof h,
                           h.bytes);
        break;
    case LOOM_NET_BYE:
        loom__fetch_add_acq_rel(&loom__net.byes, 1);
        for (int i = loom__job.first; i < loom__job.first + loom__job.nlocal; i++)
            loom__event_notify(&loom__job.ranks[i].event);
        break;
    default:
        loom__net_peer_failed(h.node, "a network message of an unknown kind");
    }
}
