/* net/net_rma.c — what one-sided communication asks of the network: its messages leave here
 * (their payload is rma/net_msg.h's; net_p2p.c hands the ones that arrive to
 * rma/net_target.c), and a large put's data is exposed here and read by the target's node
 * process. */
#include "core/error.h"
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

int loom__net_expose(const void *buf, size_t len, struct loom_net_region *r)
{
    struct loom_fabric_mr mr;
    char err[256];
    if (loom__fabric_expose(loom__net.fab, buf, len, &mr, err, sizeof err) != 0)
        return -1; /* the caller sends the data another way */
    r->addr = mr.addr;
    r->key = mr.key;
    r->mr = mr.handle;
    return 0;
}

void loom__net_unexpose(struct loom_net_region *r)
{
    struct loom_fabric_mr mr = {r->key, r->addr, r->mr};
    loom__fabric_unexpose(loom__net.fab, &mr);
}

int loom__net_rma_read(int node, void *local, size_t len, uint64_t addr, uint64_t key,
                       struct loom_net_read *read)
{
    return loom__net_post_read(node, local, len, addr, key, read);
}
