/* net/net_job.c — joining a multi-node job, leaving it, and ending it (net.h). */
#include <sched.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/eventfd.h>
#include <time.h>
#include <unistd.h>
#include "core/atomic.h"
#include "core/config.h"
#include "core/event.h"
#include "core/rank.h"
#include "net/net.h"
#include "net/net_impl.h"
#include "net/pmi.h"

struct loom_net loom__net = {
    .poll_lock = PTHREAD_MUTEX_INITIALIZER,
    .send_lock = PTHREAD_MUTEX_INITIALIZER,
    .wake_fd = -1,
};

/* Receive buffers, send slots and their size: a network message carries a header and at
 * most LOOM_NET_EAGER_DATA bytes of data; larger messages are read by their receiver. Past
 * 32 KiB the copies of an eager message (into a slot, through the provider's buffers, out of
 * a receive buffer) cost more than they save: on TCP loopback 64 KiB sent eagerly had the
 * better latency (22 µs against 31 read) but half the streaming bandwidth (1.6 - 2.4 GB/s
 * against 3.4 - 3.8); 64 receive buffers and 64 slots of it are 4 MiB a node process. */
#define LOOM_NET_EAGER_DATA 32768
#define LOOM_NET_MSG_MAX (LOOM_NET_EAGER_DATA + sizeof(struct loom_net_hdr))
#define LOOM_NET_NRECV 64
#define LOOM_NET_NSLOTS 64

static int layout_alone(int np, char *err, size_t errlen)
{
    struct loom_job *j = &loom__job;
    j->node_first = malloc(2 * sizeof *j->node_first);
    if (!j->node_first) {
        snprintf(err, errlen, "out of memory");
        return -1;
    }
    j->node_first[0] = 0;
    j->node_first[1] = np;
    j->nranks = j->nlocal = np;
    j->first = j->node = 0;
    j->nnodes = j->node_share = 1;
    j->host_index = 0;
    return 0;
}

static void on_error(void *arg, void *ctx, int peer, const char *why)
{
    (void)arg;
    (void)ctx;
    loom__net_peer_failed(peer, why);
}

/* Each node process puts "<ranks>,<address in hex>" under its number; after the fence every
 * one reads them all, in node order. */
static int exchange(int node, int nnodes, int mine, char *err, size_t errlen)
{
    struct loom_job *j = &loom__job;
    size_t namelen = loom__fabric_name(loom__net.fab, NULL, 0);
    size_t vmax = loom__pmi_value_max();
    char key[32], *val = malloc(vmax + 1);
    unsigned char *names = calloc((size_t)nnodes, namelen ? namelen : 1);
    j->node_first = malloc(((size_t)nnodes + 1) * sizeof *j->node_first);
    if (!val || !names || !j->node_first) {
        snprintf(err, errlen, "out of memory joining the job");
        goto fail;
    }
    if (2 * namelen + 24 > vmax) {
        snprintf(err, errlen, "PMI: an endpoint address of %zu bytes does not fit in a value "
                 "of %zu characters", namelen, vmax);
        goto fail;
    }
    loom__fabric_name(loom__net.fab, names + (size_t)node * namelen, namelen);
    int at = snprintf(val, vmax + 1, "%d,", mine);
    loom__pmi_hex_encode(names + (size_t)node * namelen, namelen, val + at);
    snprintf(key, sizeof key, "loom-node-%d", node);
    if (loom__pmi_put(key, val, err, errlen) != 0 || loom__pmi_fence(err, errlen) != 0)
        goto fail;
    j->node_first[0] = 0;
    for (int n = 0; n < nnodes; n++) {
        snprintf(key, sizeof key, "loom-node-%d", n);
        if (loom__pmi_get(n, key, val, vmax + 1, err, errlen) != 0)
            goto fail;
        char *comma = strchr(val, ',');
        long ranks = strtol(val, NULL, 10);
        if (!comma || ranks < 1 ||
            loom__pmi_hex_decode(comma + 1, names + (size_t)n * namelen, namelen) !=
                (long)namelen) {
            snprintf(err, errlen, "PMI: node process %d published a malformed entry '%s' "
                     "(a different loom?)", n, val);
            goto fail;
        }
        j->node_first[n + 1] = j->node_first[n] + (int)ranks;
    }
    if (loom__fabric_insert(loom__net.fab, names, nnodes, namelen, err, errlen) != 0)
        goto fail;
    /* Nobody sends before every node process knows every address. */
    if (loom__pmi_fence(err, errlen) != 0)
        goto fail;
    free(val);
    free(names);
    return 0;
fail:
    free(val);
    free(names);
    return -1;
}

int loom__net_bootstrap(int local_np, int job_np, char *err, size_t errlen)
{
    struct loom_job *j = &loom__job;
    if (!loom__pmi_present())
        return layout_alone(local_np, err, errlen);
    loom__fabric_preset(LOOM_NET_MSG_MAX); /* before PMI starts a thread (PMIx does) */
    int node, nnodes, local_rank, local_size;
    if (loom__pmi_init(&node, &nnodes, err, errlen) != 0)
        return -1;
    loom__store_release(&loom__net.pmi_up, 1);
    if (loom__pmi_local(&local_rank, &local_size, err, errlen) != 0)
        return -1;
    int mine = local_np;
    if (job_np > 0) {
        long left = (long)job_np - (long)node * local_np;
        mine = left < local_np ? (int)left : local_np;
        if (mine < 1) {
            snprintf(err, errlen, "LOOM_JOB_NP=%d with LOOM_NP=%d leaves no rank for node "
                     "process %d of %d", job_np, local_np, node, nnodes);
            return -1;
        }
    }
    if (nnodes == 1) { /* one node process: nothing to talk to */
        if (loom__pmi_finalize(err, errlen) != 0)
            return -1;
        loom__store_release(&loom__net.pmi_up, 0);
        return layout_alone(mine, err, errlen);
    }
    /* LOOM_NET_WAIT: a queue to block on costs a signal per completion; it pays where waiting
     * threads share cores with the ranks that work (auto: the host is oversubscribed). */
    enum { WAIT_AUTO, WAIT_BLOCK, WAIT_POLL }; /* the row's words, in order */
    int mode = (int)loom__config_int(LOOM_CFG_NET_WAIT);
    int blockable = mode == WAIT_BLOCK ||
                    (mode == WAIT_AUTO && loom__job_oversubscribed(mine, local_size));
    struct loom_fabric_handlers h = {.on_recv = loom__net_on_recv,
                                     .on_read_done = loom__net_on_read_done,
                                     .on_error = on_error,
                                     .on_send_done = loom__net_on_send_done};
    if (loom__fabric_open(LOOM_NET_MSG_MAX, LOOM_NET_NRECV, LOOM_NET_NSLOTS, blockable, &h,
                          &loom__net.fab, err, errlen) != 0)
        return -1;
    /* Over ofi_rxm, an eager message also fits rxm's buffer (the user may have sized it
     * below loom's): past it rxm would cut it up, which costs what loom's read costs. */
    size_t whole = loom__fabric_msg_max(loom__net.fab), hdr = sizeof(struct loom_net_hdr);
    if (strstr(loom__fabric_provider(loom__net.fab), "ofi_rxm") &&
        loom__fabric_rxm_buffer() < whole)
        whole = loom__fabric_rxm_buffer();
    loom__net.eager_max = whole > hdr ? whole - hdr : 0;
    loom__net.inplace_min = loom__net_inplace_min(loom__net.fab, loom__net.eager_max);
    loom__net.backlog_tail = &loom__net.backlog;
    loom__net.seq_out = calloc((size_t)nnodes, sizeof *loom__net.seq_out);
    loom__net.seq_in = calloc((size_t)nnodes, sizeof *loom__net.seq_in);
    loom__net.held = calloc((size_t)nnodes, sizeof *loom__net.held);
    if (!loom__net.seq_out || !loom__net.seq_in || !loom__net.held) {
        snprintf(err, errlen, "out of memory joining the job");
        return -1;
    }
    if (exchange(node, nnodes, mine, err, errlen) != 0)
        return -1;
    j->node = node;
    j->nnodes = nnodes;
    j->node_share = local_size;
    j->host_index = local_rank;
    j->nranks = j->node_first[nnodes];
    j->first = j->node_first[node];
    j->nlocal = mine;
    return 0;
}

/* The wait hook with the network in front: every poll of a wait polls the endpoint (one
 * thread at a time), then does what the layers below do. A waiter never sleeps for long: the
 * endpoint moves data only when its queue is read (manual progress), so a node process whose
 * ranks all slept would stall every other one. */
static loom_wait_progress_fn below_progress;

static int net_wait_progress(void)
{
    int moved = loom__net_poll();
    return (below_progress ? below_progress() : 0) | moved;
}

/* The last waiting thread of the node process blocks on the endpoint and on wake_fd, which a
 * notify of its own event writes (core/event.c): it wakes when a message comes or when its
 * rank's condition may hold, whichever is first. */
static int net_block(long ns)
{
    if (loom__load_relaxed(&loom__net.backlogged))
        return 0; /* only polls post the backlog: poll, do not block */
    int rc = loom__fabric_wait(loom__net.fab, loom__net.wake_fd, ns);
    uint64_t v;
    if (rc == 1 && read(loom__net.wake_fd, &v, sizeof v) < 0) /* drained: nonblocking */
        v = 0;
    return rc < 0 ? -1 : 0;
}

static void net_unblock(void)
{
    uint64_t one = 1;
    if (write(loom__net.wake_fd, &one, sizeof one) < 0) /* only when the counter is full */
        one = 0;
}

void loom__net_layers_fini(void)
{
    loom__net_watch_stop();
}

void loom__net_layers_init(void)
{
    if (loom__job.nnodes <= 1)
        return;
    below_progress = loom__wait_progress;
    loom__wait_progress = net_wait_progress;
    loom__wait_sleep_ns = 1000000; /* 1 ms: see above */
    /* the last of this node process's ranks to fall asleep polls much sooner: a network
     * message then waits tens of microseconds, not a millisecond, for somebody to see it */
    loom__wait_sleep_last_ns = 20000;
    loom__wait_sleep_quorum = loom__job.nlocal;
    /* ...or, better, blocks until one comes (where the queue has a descriptor: without one,
     * no blocker to claim and no eventfd write per notify) */
    if (loom__fabric_can_block(loom__net.fab)) {
        loom__net.wake_fd = eventfd(0, EFD_NONBLOCK | EFD_CLOEXEC);
        if (loom__net.wake_fd >= 0) {
            loom__wait_unblock = net_unblock;
            loom__wait_block = net_block;
        }
    }
    loom__net_watch_start(); /* last: it reads the bounds above */
}

size_t loom__net_eager_max(void)
{
    return loom__job.nnodes > 1 ? loom__net.eager_max : 0;
}

int loom__net_finalize_met(void)
{
    struct loom_job *j = &loom__job;
    if (j->nnodes <= 1)
        return 1;
    if (loom__exchange_acq_rel(&loom__net.bye_sent, 1) == 0) {
        struct loom_net_hdr h = {.type = LOOM_NET_BYE, .node = j->node};
        for (int n = 0; n < j->nnodes; n++)
            if (n != j->node && loom__net_post(n, &h, NULL, 0) != 0)
                loom__net_abort(1, "out of memory saying goodbye to the other node processes");
    }
    return loom__load_acquire(&loom__net.byes) == j->nnodes - 1;
}

void loom__net_job_fini(void)
{
    struct loom_job *j = &loom__job;
    char err[256];
    free(j->node_first);
    j->node_first = NULL;
    if (loom__net.fab) {
        /* What this process sent must leave before it closes: with manual progress nothing
         * moves unless someone reads the queue. Bounded: a peer that never takes it has
         * failed, and the launcher ends the job. */
        struct timespec start, now;
        clock_gettime(CLOCK_MONOTONIC, &start);
        for (;;) {
            loom__net_poll();
            pthread_mutex_lock(&loom__net.send_lock);
            int idle = loom__net.backlog == NULL && loom__fabric_inflight(loom__net.fab) == 0;
            pthread_mutex_unlock(&loom__net.send_lock);
            if (idle)
                break;
            clock_gettime(CLOCK_MONOTONIC, &now);
            if (now.tv_sec - start.tv_sec > 60) {
                loom__log("warning: network messages still in flight after 60 s at the end");
                break;
            }
            sched_yield();
        }
        /* ...and every node process is done before any closes its endpoint. */
        if (loom__pmi_fence(err, sizeof err) != 0)
            loom__log("warning: %s", err);
        /* no thread waits any more (ranks and progress threads are gone) */
        loom__wait_block = NULL;
        loom__wait_unblock = NULL;
        if (loom__net.wake_fd >= 0)
            close(loom__net.wake_fd);
        loom__net.wake_fd = -1;
        loom__fabric_close(loom__net.fab);
        loom__net.fab = NULL;
        /* every message was handled before the last BYE, so nothing is held */
        free(loom__net.seq_out);
        free(loom__net.seq_in);
        free(loom__net.held);
        loom__net.seq_out = loom__net.seq_in = NULL;
        loom__net.held = NULL;
        loom__net_ctx_fini();
    }
    if (loom__load_acquire(&loom__net.pmi_up)) {
        if (loom__pmi_finalize(err, sizeof err) != 0)
            loom__log("warning: %s", err);
        loom__store_release(&loom__net.pmi_up, 0);
    }
}

_Noreturn void loom__net_abort(int code, const char *why)
{
    fflush(NULL);
    if (loom__load_acquire(&loom__net.pmi_up))
        loom__pmi_abort(code, why);
    _exit(code & 0xff);
}

_Noreturn void loom__net_unsupported(const char *what)
{
    loom__log("%s over ranks of several node processes is not supported yet "
              "(docs/multinode.md); ending the job", what);
    loom__net_abort(1, what);
}

_Noreturn void loom__net_peer_failed(int peer, const char *why)
{
    struct loom_job *j = &loom__job;
    if (peer >= 0 && peer < j->nnodes && j->node_first)
        loom__log("node process %d (ranks %d-%d) failed: %s; ending the job", peer,
                  j->node_first[peer], j->node_first[peer + 1] - 1, why);
    else
        loom__log("the network failed: %s; ending the job", why);
    loom__net_abort(1, why);
}
