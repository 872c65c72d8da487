/* net/fabric_rma.c — memory peers may read, and reads of theirs.
 *
 * A read is cut into pieces of at most piece_max bytes, each with its own context pointing to
 * the read (its fab_read), and is reported once, when its last piece has landed. If the provider is busy at
 * the first piece nothing is posted and the caller hears "busy"; if it is busy at a later one
 * the read waits on the pending queue and poll posts the rest, so a caller never sees half a
 * read. Reads are counted under rma_lock: the polling thread may see a piece complete while
 * the posting thread is still posting the next ones. */
#include "net/fabric_impl.h"

#include <rdma/fi_errno.h>
#include <rdma/fi_rma.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

int loom__fabric_expose(struct loom_fabric *f, const void *buf, size_t len,
                        struct loom_fabric_mr *mr, char *err, size_t errlen)
{
    struct fid_mr *h = NULL;
    /* fi_mr_reg takes a non-const buffer; peers only read it (FI_REMOTE_READ). */
    int rc = loom__fabric_reg(f, (void *)(uintptr_t)buf, len, FI_REMOTE_READ, &h, NULL);
    if (rc) {
        snprintf(err, errlen, "loom__fabric_expose: %zu bytes at %p: %s", len, buf,
                 fi_strerror(-rc));
        return -1;
    }
    mr->handle = h;
    mr->key = fi_mr_key(h);
    mr->addr = f->mr_mode & FI_MR_VIRT_ADDR ? (uint64_t)(uintptr_t)buf : 0;
    return 0;
}

void loom__fabric_unexpose(struct loom_fabric *f, struct loom_fabric_mr *mr)
{
    if (!mr->handle)
        return;
    fab_enter(f);
    fi_close(&((struct fid_mr *)mr->handle)->fid);
    fab_leave(f);
    mr->handle = NULL;
}

/* Post r's next pieces until all are posted (0), the provider is busy (-FI_EAGAIN), or a piece
 * fails (r->failed set, the negative fi_errno returned). A read that failed already (a piece
 * came back with an error) posts nothing more. rma_lock held. */
static int post_pieces(struct loom_fabric *f, struct fab_read *r)
{
    while (!r->failed && r->posted < r->len) {
        size_t n = r->len - r->posted;
        if (n > f->piece_max)
            n = f->piece_max;
        fab_enter(f);
        ssize_t rc = fi_read(f->ep, r->local + r->posted, n, r->desc, f->peers[r->peer],
                             r->addr + r->posted, r->key,
                             &r->pieces[r->posted / f->piece_max].op);
        fab_leave(f);
        if (rc == -FI_EAGAIN)
            return -FI_EAGAIN;
        if (rc) {
            r->failed = 1;
            snprintf(r->why, sizeof r->why, "fi_read from node process %d: %s", r->peer,
                     fi_strerror((int)-rc));
            return (int)rc;
        }
        r->posted += n;
        r->inflight++;
    }
    return 0;
}

static int finished(const struct fab_read *r)
{
    return r->inflight == 0 && (r->failed || r->posted == r->len);
}

static void unlink_read(struct loom_fabric *f, struct fab_read *r)
{
    if (r->prev)
        r->prev->next = r->next;
    else
        f->reads = r->next;
    if (r->next)
        r->next->prev = r->prev;
}

static void free_read(struct loom_fabric *f, struct fab_read *r)
{
    if (r->mr) {
        fab_enter(f);
        fi_close(&r->mr->fid);
        fab_leave(f);
    }
    free(r);
}

int loom__fabric_read(struct loom_fabric *f, int peer, void *local, size_t len, uint64_t addr,
                      uint64_t key, void *ctx, char *err, size_t errlen)
{
    if (peer < 0 || peer >= f->npeers || len == 0 || !local) {
        snprintf(err, errlen, "loom__fabric_read: %s",
                 len == 0 || !local ? "nothing to read into" : "no such node process");
        return -1;
    }
    size_t npieces = (len + f->piece_max - 1) / f->piece_max;
    struct fab_read *r = calloc(1, sizeof *r + npieces * sizeof r->pieces[0]);
    if (!r) {
        snprintf(err, errlen, "loom__fabric_read: out of memory");
        return -1;
    }
    for (size_t i = 0; i < npieces; i++) {
        r->pieces[i].op.kind = FAB_OP_READ;
        r->pieces[i].read = r;
    }
    r->peer = peer;
    r->local = local;
    r->len = len;
    r->addr = addr;
    r->key = key;
    r->ctx = ctx;
    if (f->mr_mode & FI_MR_LOCAL) {
        int rc = loom__fabric_reg(f, local, len, FI_READ, &r->mr, &r->desc);
        if (rc) {
            free(r);
            snprintf(err, errlen, "loom__fabric_read: registering %zu bytes at %p: %s", len,
                     local, fi_strerror(-rc));
            return -1;
        }
    }

    pthread_mutex_lock(&f->rma_lock);
    /* Reads queued before this one go first: a new read behind them is "busy". */
    int rc = f->pending ? -FI_EAGAIN : post_pieces(f, r);
    if (r->posted == 0) {
        f->reads_busy += rc == -FI_EAGAIN;
        pthread_mutex_unlock(&f->rma_lock);
        if (rc != -FI_EAGAIN)
            snprintf(err, errlen, "loom__fabric_read: %s", r->why);
        free_read(f, r);
        return rc == -FI_EAGAIN ? 1 : -1;
    }
    /* Some pieces are out: from here on the read is reported through poll, even if a later
     * piece failed (poll reports on_error once the pieces in flight are back). */
    r->next = f->reads;
    if (f->reads)
        f->reads->prev = r;
    f->reads = r;
    if (rc == -FI_EAGAIN) {
        f->reads_queued++;
        if (f->pending_tail)
            f->pending_tail->next_pending = r;
        else
            f->pending = r;
        f->pending_tail = r;
    }
    pthread_mutex_unlock(&f->rma_lock);
    return 0;
}

void loom__fabric_post_pending(struct loom_fabric *f, struct fab_read **done)
{
    while (f->pending) {
        struct fab_read *r = f->pending;
        if (post_pieces(f, r) == -FI_EAGAIN)
            return;
        f->pending = r->next_pending;
        if (!f->pending)
            f->pending_tail = NULL;
        r->next_pending = NULL;
        if (finished(r)) {
            /* Failed with nothing in flight: no completion will come to report it. */
            unlink_read(f, r);
            r->next_pending = *done;
            *done = r;
        }
    }
}

int loom__fabric_read_piece_done(struct loom_fabric *f, struct fab_read *r, const char *why)
{
    r->inflight--;
    if (why && !r->failed) {
        r->failed = 1;
        snprintf(r->why, sizeof r->why, "%s", why);
    }
    /* A failed read still on the pending queue is finished by post_pending, which unlinks it
     * from the queue first. */
    int queued = r == f->pending || r->next_pending || r == f->pending_tail;
    if (!finished(r) || queued)
        return 0;
    unlink_read(f, r);
    return 1;
}

void loom__fabric_read_finish(struct loom_fabric *f, struct fab_read *r)
{
    if (r->failed)
        f->h.on_error(f->h.arg, r->ctx, r->peer, r->why);
    else
        f->h.on_read_done(f->h.arg, r->ctx);
    free_read(f, r);
}

void loom__fabric_reads_free(struct loom_fabric *f)
{
    while (f->reads) {
        struct fab_read *r = f->reads;
        f->reads = r->next;
        free_read(f, r);
    }
    f->pending = f->pending_tail = NULL;
}
