/* net/net_rma.c — the messages of one-sided communication leave here (their payload is
 * rma/net_msg.h's; net_p2p.c hands the ones that arrive to rma/net_target.c). */
#include "core/rank.h"
#include "net/net.h"
#include "net/net_impl.h"

int loom__net_rma_send(int node, int reply, const void *msg, size_t len)
{
    struct loom_net_hdr h = {0};
    h.type = reply ? LOOM_NET_RMA_REPLY : LOOM_NET_RMA;
    h.node = loom__job.node;
    h.bytes = len;
    return loom__net_post(node, &h, msg, len);
}
