/* net/fabric_wait.c — blocking until the endpoint has something to read: the queue's file
 * descriptor (FI_WAIT_FD, fabric.c), armed by fi_trywait, polled together with a descriptor of
 * the caller's (net/'s eventfd, written when a rank notifies the blocked thread). What the
 * last waiting thread of a node process does instead of sleeping a short while and polling:
 * it wakes when a message comes, not up to a bound later, and burns no core in between. */
#include "net/fabric_impl.h"

#include <poll.h>
#include <rdma/fi_eq.h>
#include <rdma/fi_errno.h>
#include <time.h>

int loom__fabric_can_block(const struct loom_fabric *f)
{
    return f->wait_fd >= 0;
}

int loom__fabric_wait(struct loom_fabric *f, int other_fd, long ns)
{
    if (f->wait_fd < 0)
        return -1;
    /* fi_trywait: FI_SUCCESS when the descriptor will signal what comes next; -FI_EAGAIN when
     * something is already there (or the provider has work to do first): poll instead. */
    struct fid *fids[1] = {&f->cq->fid};
    fab_enter(f);
    int rc = fi_trywait(f->fabric, fids, 1);
    fab_leave(f);
    if (rc != FI_SUCCESS)
        return 0;
    struct pollfd p[2] = {{.fd = f->wait_fd, .events = POLLIN}, {.fd = other_fd, .events = POLLIN}};
    struct timespec limit = {ns / 1000000000L, ns % 1000000000L};
    int ready = ppoll(p, other_fd >= 0 ? 2 : 1, ns > 0 ? &limit : NULL, NULL);
    return ready > 0 && other_fd >= 0 && (p[1].revents & POLLIN) ? 1 : 0;
}
