/* net/net_order.c — messages from each node process handled in the order it sent them
 * (net_impl.h: seq). A message that arrives before an older one from the same node process
 * is copied aside and handled right after that one. Only the polling thread is here. */
#include <stdlib.h>
#include <string.h>
#include "core/rank.h"
#include "net/net.h"
#include "net/net_impl.h"

struct loom_net_held {
    struct loom_net_held *next; /* by seq */
    uint32_t seq;
    size_t len;
    /* the message follows */
};

void loom__net_on_recv(void *arg, const void *msg, size_t len)
{
    (void)arg;
    struct loom_net_hdr h;
    if (len < sizeof h)
        loom__net_peer_failed(-1, "a network message shorter than its header");
    memcpy(&h, msg, sizeof h);
    if (h.node < 0 || h.node >= loom__job.nnodes)
        loom__net_peer_failed(-1, "a network message from an unknown node process");
    int from = h.node;
    if (h.seq != loom__net.seq_in[from]) { /* early: keep it until its turn */
        struct loom_net_held *m = malloc(sizeof *m + len);
        if (!m)
            loom__net_abort(1, "out of memory putting network messages back in order");
        m->seq = h.seq;
        m->len = len;
        memcpy(m + 1, msg, len);
        struct loom_net_held **pp = &loom__net.held[from];
        /* wrap-safe: distance from the next expected number */
        while (*pp && (*pp)->seq - loom__net.seq_in[from] < h.seq - loom__net.seq_in[from])
            pp = &(*pp)->next;
        m->next = *pp;
        *pp = m;
        return;
    }
    loom__net.seq_in[from]++;
    loom__net_dispatch(msg, len);
    struct loom_net_held *m;
    while ((m = loom__net.held[from]) != NULL && m->seq == loom__net.seq_in[from]) {
        loom__net.held[from] = m->next;
        loom__net.seq_in[from]++;
        loom__net_dispatch(m + 1, m->len);
        free(m);
    }
}
