/* net/fabric.c — opening and closing a node process's libfabric endpoint (net/fabric.h):
 * choosing the provider, the objects (fabric, domain, address vector, completion queue,
 * endpoint), the send slots and receive buffers, the endpoint's name and its peers.
 *
 * Progress: loom asks for whatever control and data progress the provider has. With manual
 * data progress (tcp;ofi_rxm is manual) data moves only inside libfabric calls on the
 * endpoint, chiefly fi_cq_read: loom__fabric_poll is what moves messages and reads, so net/
 * must keep polling while anything is in flight. */
#include "net/fabric_impl.h"

#include <rdma/fi_cm.h>
#include <rdma/fi_errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* Slots and receive buffers are carved out of one allocation each; every buffer starts on a
 * cache line. msg_max is lowered to at most LOOM_FABRIC_MSG_CAP: larger payloads go by RMA
 * read (the caller's protocol), and nslots + nrecv buffers of that size stay affordable. */
#define FAB_ALIGN 64
#define LOOM_FABRIC_MSG_CAP ((size_t)1 << 20)
/* A read is cut into pieces of at most this many bytes (and of the provider's max_msg_size):
 * reads of several peers then share the wire instead of one large read holding it. */
#define LOOM_FABRIC_PIECE_CAP ((size_t)1 << 20)

static const char *env_provider(void)
{
    const char *p = getenv("FI_PROVIDER");
    return p && *p ? p : NULL;
}

/* The hints: a reliable-datagram endpoint with messages and reads, messages between two
 * endpoints delivered in order (MPI's non-overtaking rule rests on it), every memory
 * registration mode loom handles. */
static struct fi_info *make_hints(int threading)
{
    struct fi_info *hints = fi_allocinfo();
    if (!hints)
        return NULL;
    hints->ep_attr->type = FI_EP_RDM;
    hints->caps = FI_MSG | FI_RMA | FI_READ | FI_REMOTE_READ;
    /* Each operation's context has room for the provider's use (struct fab_op). */
    hints->mode = FI_CONTEXT | FI_CONTEXT2;
    hints->tx_attr->msg_order = FI_ORDER_SAS;
    hints->rx_attr->msg_order = FI_ORDER_SAS;
    hints->domain_attr->threading = threading;
    hints->domain_attr->control_progress = FI_PROGRESS_UNSPEC;
    hints->domain_attr->data_progress = FI_PROGRESS_UNSPEC;
    hints->domain_attr->av_type = FI_AV_TABLE;
    hints->domain_attr->mr_mode =
        FI_MR_LOCAL | FI_MR_VIRT_ADDR | FI_MR_ALLOCATED | FI_MR_PROV_KEY | FI_MR_ENDPOINT;
    return hints;
}

/* fi_getinfo at FI_THREAD_SAFE (or the level asked), then at FI_THREAD_DOMAIN. On failure a
 * line naming the provider asked for (FI_PROVIDER) or saying that none was named. */
static int choose(int threading, struct fi_info **out, char *err, size_t errlen)
{
    int levels[2] = {threading, FI_THREAD_DOMAIN};
    int nlevels = threading == FI_THREAD_DOMAIN ? 1 : 2;
    int rc = -FI_ENODATA;
    for (int i = 0; i < nlevels; i++) {
        struct fi_info *hints = make_hints(levels[i]);
        if (!hints) {
            snprintf(err, errlen, "loom__fabric_open: out of memory");
            return -1;
        }
        rc = fi_getinfo(FI_VERSION(FI_MAJOR_VERSION, FI_MINOR_VERSION), NULL, NULL, 0, hints,
                        out);
        fi_freeinfo(hints);
        if (rc == 0 && *out)
            return 0;
        if (rc != -FI_ENODATA)
            break;
    }
    const char *p = env_provider();
    if (p)
        snprintf(err, errlen,
                 "libfabric provider \"%s\" (FI_PROVIDER) has no reliable-datagram endpoint "
                 "with messages and RMA reads: fi_getinfo: %s",
                 p, fi_strerror(-rc));
    else
        snprintf(err, errlen,
                 "no libfabric provider has a reliable-datagram endpoint with messages and RMA "
                 "reads (FI_PROVIDER unset): fi_getinfo: %s",
                 fi_strerror(-rc));
    return -1;
}

int loom__fabric_reg(struct loom_fabric *f, void *buf, size_t len, uint64_t access,
                     struct fid_mr **mr, void **desc)
{
    /* Without FI_MR_PROV_KEY loom chooses the key; with it the provider does and ignores
     * this one. Relaxed: the key only has to be unique, it orders nothing. */
    uint64_t key = f->mr_mode & FI_MR_PROV_KEY ? 0 : loom__fetch_add_relaxed(&f->next_key, 1);
    fab_enter(f);
    int rc = fi_mr_reg(f->domain, buf, len, access, 0, key, 0, mr, NULL);
    if (rc == 0 && (f->mr_mode & FI_MR_ENDPOINT)) {
        rc = fi_mr_bind(*mr, &f->ep->fid, 0);
        if (rc == 0)
            rc = fi_mr_enable(*mr);
        if (rc) {
            fi_close(&(*mr)->fid);
            *mr = NULL;
        }
    }
    fab_leave(f);
    if (rc == 0 && desc)
        *desc = fi_mr_desc(*mr);
    return rc;
}

/* Allocate count buffers of f->stride bytes, registered under FI_MR_LOCAL. */
static int buffers(struct loom_fabric *f, int count, uint64_t access, char **mem,
                   struct fid_mr **mr, void **desc)
{
    size_t bytes = f->stride * (size_t)count;
    if (posix_memalign((void **)mem, 4096, bytes))
        return -FI_ENOMEM;
    memset(*mem, 0, bytes);
    *mr = NULL;
    *desc = NULL;
    if (!(f->mr_mode & FI_MR_LOCAL))
        return 0;
    return loom__fabric_reg(f, *mem, bytes, access, mr, desc);
}

/* Open and bind the objects in libfabric's order; the caller closes what was opened on
 * failure (loom__fabric_close handles a partial endpoint). */
static int objects(struct loom_fabric *f, const char **what)
{
    struct fi_info *info = f->info;
    int rc;
    *what = "fi_fabric";
    if ((rc = fi_fabric(info->fabric_attr, &f->fabric, NULL)))
        return rc;
    *what = "fi_domain";
    if ((rc = fi_domain(f->fabric, info, &f->domain, NULL)))
        return rc;
    struct fi_av_attr av_attr = {.type = FI_AV_TABLE};
    *what = "fi_av_open";
    if ((rc = fi_av_open(f->domain, &av_attr, &f->av, NULL)))
        return rc;
    /* Room for every receive buffer and every slot and then some reads: the queue never
     * overflows while net/ polls. */
    struct fi_cq_attr cq_attr = {.format = FI_CQ_FORMAT_DATA,
                                 .wait_obj = f->blockable ? FI_WAIT_FD : FI_WAIT_NONE,
                                 .size = (size_t)(f->nrecv + f->nslots) + 1024};
    /* A queue with a file descriptor to block on (fabric_wait.c) when asked for; a provider
     * without one gets a plain queue, and its waiters keep the bounded sleeps of net/. */
    *what = "fi_cq_open";
    if (!f->blockable) {
        if ((rc = fi_cq_open(f->domain, &cq_attr, &f->cq, NULL)))
            return rc;
    } else if (fi_cq_open(f->domain, &cq_attr, &f->cq, NULL) != 0) {
        cq_attr.wait_obj = FI_WAIT_NONE;
        if ((rc = fi_cq_open(f->domain, &cq_attr, &f->cq, NULL)))
            return rc;
    } else if (fi_control(&f->cq->fid, FI_GETWAIT, &f->wait_fd) != 0) {
        f->wait_fd = -1;
    }
    *what = "fi_endpoint";
    if ((rc = fi_endpoint(f->domain, info, &f->ep, NULL)))
        return rc;
    *what = "fi_ep_bind(av)";
    if ((rc = fi_ep_bind(f->ep, &f->av->fid, 0)))
        return rc;
    *what = "fi_ep_bind(cq)";
    if ((rc = fi_ep_bind(f->ep, &f->cq->fid, FI_TRANSMIT | FI_RECV)))
        return rc;
    *what = "fi_enable";
    return fi_enable(f->ep);
}

int loom__fabric_open_with(size_t msg_max, int nrecv, int nslots, int blockable,
                           const struct loom_fabric_handlers *h, int threading, uint64_t mr_extra,
                           struct loom_fabric **out, char *err, size_t errlen)
{
    *out = NULL;
    if (msg_max == 0 || nrecv < 1 || nslots < 1 || !h || !h->on_recv || !h->on_read_done ||
        !h->on_error) {
        snprintf(err, errlen,
                 "loom__fabric_open: msg_max (%zu), nrecv (%d) and nslots (%d) must be positive "
                 "and every handler given",
                 msg_max, nrecv, nslots);
        return -1;
    }
    struct loom_fabric *f = calloc(1, sizeof *f);
    if (!f) {
        snprintf(err, errlen, "loom__fabric_open: out of memory");
        return -1;
    }
    f->h = *h;
    f->wait_fd = -1;
    pthread_mutex_init(&f->ep_lock, NULL);
    pthread_mutex_init(&f->slot_lock, NULL);
    pthread_mutex_init(&f->rma_lock, NULL);
    atomic_init(&f->next_key, 1);
    if (choose(threading, &f->info, err, errlen)) {
        loom__fabric_close(f);
        return -1;
    }
    struct fi_info *info = f->info;
    snprintf(f->provider, sizeof f->provider, "%s", info->fabric_attr->prov_name);
    f->serialize = info->domain_attr->threading != FI_THREAD_SAFE || threading != FI_THREAD_SAFE;
    f->mr_mode = info->domain_attr->mr_mode | mr_extra;
    size_t limit = info->ep_attr->max_msg_size;
    f->msg_max = msg_max;
    if (f->msg_max > limit)
        f->msg_max = limit;
    if (f->msg_max > LOOM_FABRIC_MSG_CAP)
        f->msg_max = LOOM_FABRIC_MSG_CAP;
    f->stride = (f->msg_max + FAB_ALIGN - 1) / FAB_ALIGN * FAB_ALIGN;
    f->piece_max = limit < LOOM_FABRIC_PIECE_CAP ? limit : LOOM_FABRIC_PIECE_CAP;
    f->nrecv = nrecv;
    f->nslots = nslots;
    f->blockable = blockable;

    const char *what = "";
    int rc = objects(f, &what);
    if (rc == 0) {
        what = "send slots";
        rc = buffers(f, nslots, FI_SEND, &f->slot_mem, &f->slot_mr, &f->slot_desc);
    }
    if (rc == 0) {
        what = "receive buffers";
        rc = buffers(f, nrecv, FI_RECV, &f->recv_mem, &f->recv_mr, &f->recv_desc);
    }
    if (rc == 0) {
        what = "calloc";
        f->slots = calloc((size_t)nslots, sizeof *f->slots);
        f->free_slots = calloc((size_t)nslots, sizeof *f->free_slots);
        f->recvs = calloc((size_t)nrecv, sizeof *f->recvs);
        if (!f->slots || !f->free_slots || !f->recvs)
            rc = -FI_ENOMEM;
    }
    if (rc == 0) {
        /* The stack pops slot 0 first. */
        for (int i = 0; i < nslots; i++) {
            f->slots[i].op.kind = FAB_OP_SEND;
            f->slots[i].peer = -1;
            f->free_slots[i] = nslots - 1 - i;
        }
        f->nfree = nslots;
        what = "fi_recv";
        for (int i = 0; i < nrecv && rc == 0; i++) {
            f->recvs[i].op.kind = FAB_OP_RECV;
            f->recvs[i].buf = f->recv_mem + f->stride * (size_t)i;
            rc = loom__fabric_post_recv(f, &f->recvs[i]);
            if (rc == -FI_EAGAIN) {
                /* Reposted by the first poll. */
                f->recvs[i].next_repost = f->repost;
                f->repost = &f->recvs[i];
                rc = 0;
            }
        }
    }
    if (rc) {
        snprintf(err, errlen, "libfabric provider \"%s\": %s: %s", f->provider, what,
                 fi_strerror(-rc));
        loom__fabric_close(f);
        return -1;
    }
    *out = f;
    return 0;
}

int loom__fabric_open(size_t msg_max, int nrecv, int nslots, int blockable,
                      const struct loom_fabric_handlers *h, struct loom_fabric **out, char *err,
                      size_t errlen)
{
    return loom__fabric_open_with(msg_max, nrecv, nslots, blockable, h, FI_THREAD_SAFE, 0, out,
                                  err, errlen);
}

static void close_fid(struct fid *fid)
{
    if (fid)
        fi_close(fid);
}

void loom__fabric_close(struct loom_fabric *f)
{
    if (!f)
        return;
    /* Closing the endpoint cancels its posted receives and whatever is still in flight; no
     * completion is reported after it, so the reads still live are freed unreported. */
    if (f->ep)
        close_fid(&f->ep->fid);
    if (f->cq)
        close_fid(&f->cq->fid);
    if (f->av)
        close_fid(&f->av->fid);
    loom__fabric_reads_free(f);
    if (f->slot_mr)
        close_fid(&f->slot_mr->fid);
    if (f->recv_mr)
        close_fid(&f->recv_mr->fid);
    if (f->domain)
        close_fid(&f->domain->fid);
    if (f->fabric)
        close_fid(&f->fabric->fid);
    if (f->info)
        fi_freeinfo(f->info);
    free(f->slot_mem);
    free(f->recv_mem);
    free(f->slots);
    free(f->free_slots);
    free(f->recvs);
    free(f->peers);
    pthread_mutex_destroy(&f->ep_lock);
    pthread_mutex_destroy(&f->slot_lock);
    pthread_mutex_destroy(&f->rma_lock);
    free(f);
}

const char *loom__fabric_provider(const struct loom_fabric *f)
{
    return f->provider;
}

size_t loom__fabric_msg_max(const struct loom_fabric *f)
{
    return f->msg_max;
}

size_t loom__fabric_name(struct loom_fabric *f, void *buf, size_t len)
{
    size_t need = len;
    fab_enter(f);
    int rc = fi_getname(&f->ep->fid, buf, &need);
    fab_leave(f);
    if (rc && rc != -FI_ETOOSMALL)
        return 0;
    return need;
}

int loom__fabric_insert(struct loom_fabric *f, const void *names, int n, size_t namelen,
                        char *err, size_t errlen)
{
    if (n < 1 || !names || f->peers) {
        snprintf(err, errlen,
                 "loom__fabric_insert: %s", f->peers ? "the peers are already inserted"
                                                     : "no addresses given");
        return -1;
    }
    fi_addr_t *addrs = calloc((size_t)n, sizeof *addrs);
    if (!addrs) {
        snprintf(err, errlen, "loom__fabric_insert: out of memory");
        return -1;
    }
    /* Addresses go one by one: fi_av_insert takes an array of names of the provider's address
     * length, which is namelen when the names came from loom__fabric_name on the same provider. */
    for (int i = 0; i < n; i++) {
        fab_enter(f);
        int rc = fi_av_insert(f->av, (const char *)names + namelen * (size_t)i, 1, &addrs[i], 0,
                              NULL);
        fab_leave(f);
        if (rc != 1) {
            snprintf(err, errlen,
                     "loom__fabric_insert: libfabric provider \"%s\" refused the address of "
                     "node process %d: %s",
                     f->provider, i, rc < 0 ? fi_strerror(-rc) : "not inserted");
            free(addrs);
            return -1;
        }
    }
    f->peers = addrs;
    f->npeers = n;
    return 0;
}
