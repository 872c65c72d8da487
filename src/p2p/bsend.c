/* p2p/bsend.c — buffered sends and their buffer owners (the rank's, a communicator's, a
 * session's; p2p/bsend.h).
 *
 * A buffered send packs its data into a segment of the buffer attached to its owner and sends
 * it from there as bytes; the segment is given back when that internal send completes, by
 * whichever thread completes it. Segments cost MPI_BSEND_OVERHEAD bytes each in the
 * accounting (their bookkeeping lives outside the user's buffer). With MPI_BUFFER_AUTOMATIC
 * a segment's data is a malloc'd block of exactly the packed size instead, freed when it is
 * given back; nothing limits their number but memory.
 * Flush waits, and an iflush request completes, once every buffered send started on the owner
 * before it has left the buffer (segments carry their order, `seq`).
 *
 * Which owner a send uses (loom__bsend_start): the communicator's if a buffer is attached to
 * it, else its session's if that has one, else the rank's: two pointer tests more than a
 * send that only ever had the rank's buffer (docs/p2p.md).
 *
 * Lock: an owner's `lock` protects every field but `refs` and `attached`'s relaxed reads; it
 * is taken by the owning rank's threads (attach, detach, bsend, flush) and by the threads
 * completing its buffered sends; nothing else is locked inside it but the pool of requests.
 * Lifetime: `refs` counts the holders (the rank, a communicator handle, a session and the
 * groups and communicators derived from it) plus one per segment in use, so a send in flight
 * keeps its owner alive whatever is freed meanwhile; the last release frees it. */
#include <stdint.h>
#include <stdlib.h>
#include "core/atomic.h"
#include "core/error.h"
#include "core/lock.h"
#include "core/rank.h"
#include "dt/dt.h"
#include "p2p/bsend.h"
#include "p2p/p2p.h"

struct segment {
    size_t off, len;           /* bytes [off, off+len) of the buffer, overhead included */
    char *heap;                /* automatic buffering: the data's own block, else NULL */
    unsigned long seq;         /* order of the buffered sends: a flush waits for the older */
    struct segment *next;      /* in-use segments, sorted by offset (user buffer) */
    struct loom_bsend *owner;  /* a reference, dropped when the segment is given back */
};

/* A flush request in flight: it completes once no segment older than upto is left (the thread
 * that gives back the last of them completes it). */
struct flush {
    unsigned long upto;
    struct loom_request *req;
    struct flush *next;
};

struct loom_bsend {
    struct loom_lock lock;
    _Atomic int attached;      /* 1 while a buffer is attached: written under lock, read
                                  relaxed as a hint by loom__bsend_start (which checks again
                                  under the lock) */
    int automatic;             /* MPI_BUFFER_AUTOMATIC is attached */
    char *buf;                 /* the user's buffer, NULL when none or automatic */
    size_t size;
    struct segment *used;
    unsigned long next_seq;    /* the seq of the next buffered send */
    struct flush *flushes;     /* iflush requests not yet complete */
    struct loom_rank *rank;    /* read-only: notified when a segment is given back */
    _Atomic int refs;
};

struct loom_bsend *loom__bsend_new(void)
{
    struct loom_bsend *b = calloc(1, sizeof *b); /* freed by the last loom__bsend_release */
    if (b == NULL)
        return NULL;
    b->rank = loom__self;
    atomic_init(&b->refs, 1);
    return b;
}

void loom__bsend_retain(struct loom_bsend *b)
{
    loom__fetch_add_relaxed(&b->refs, 1);
}

void loom__bsend_release(struct loom_bsend *b)
{
    if (b == NULL)
        return;
    /* acq_rel: the last release sees every other holder's use done before it frees */
    if (loom__fetch_sub_acq_rel(&b->refs, 1) != 1)
        return;
    while (b->flushes) { /* never complete: the program did not wait for them */
        struct flush *f = b->flushes;
        b->flushes = f->next;
        free(f);
    }
    free(b);
}

struct loom_bsend *loom__bsend_rank(int create)
{
    struct loom_rank *r = loom__self;
    void *b = loom__load_acquire(&r->p2p);
    if (b != NULL || !create)
        return b;
    struct loom_bsend *nb = loom__bsend_new();
    if (nb == NULL)
        return NULL;
    /* release: a thread of the rank that loads the pointer (acquire) sees it initialized */
    if (!loom__cas_acq_rel(&r->p2p, &b, (void *)nb)) {
        loom__bsend_release(nb); /* another thread of the rank installed one first: b */
        return b;
    }
    return nb;
}

int loom__bsend_attached(struct loom_bsend *b)
{
    return b && loom__load_relaxed(&b->attached);
}

int loom__bsend_attach(struct loom_bsend *b, void *buf, size_t size)
{
    loom__lock(&b->lock);
    int rc = loom__load_relaxed(&b->attached) ? LOOM_ERR_BUFFER : 0;
    if (rc == 0) {
        b->automatic = buf == MPI_BUFFER_AUTOMATIC;
        b->buf = b->automatic ? NULL : buf;
        b->size = b->automatic ? 0 : size;
        loom__store_relaxed(&b->attached, 1);
    }
    loom__unlock(&b->lock);
    return rc;
}

static int drained(void *arg)
{
    struct loom_bsend *b = arg;
    loom__lock(&b->lock);
    int empty = b->used == NULL;
    loom__unlock(&b->lock);
    return empty;
}

int loom__bsend_detach(struct loom_bsend *b, void **buf, size_t *size, size_t max)
{
    if (b == NULL)
        return LOOM_ERR_BUFFER;
    loom__lock(&b->lock);
    int rc = !loom__load_relaxed(&b->attached) ? LOOM_ERR_BUFFER
             : b->size > max                   ? LOOM_ERR_ARG
                                               : 0;
    if (rc == 0) { /* from now on no send takes room in it; then wait for those that did */
        *buf = b->automatic ? MPI_BUFFER_AUTOMATIC : b->buf;
        *size = b->size;
        b->buf = NULL;
        b->size = 0;
        b->automatic = 0;
        loom__store_relaxed(&b->attached, 0);
    }
    loom__unlock(&b->lock);
    if (rc == 0)
        loom__wait_until(&loom__self->event, drained, b);
    return rc;
}

void loom__bsend_drain(struct loom_bsend *b)
{
    void *buf;
    size_t size;
    if (loom__bsend_attached(b))
        (void)loom__bsend_detach(b, &buf, &size, SIZE_MAX);
}

/* 1 if a segment of a send started before seq `upto` is still in the buffer. Lock held. */
static int older_than(const struct loom_bsend *b, unsigned long upto)
{
    for (const struct segment *s = b->used; s; s = s->next)
        if (s->seq < upto)
            return 1;
    return 0;
}

static void give_back(struct loom_request *r)
{
    struct segment *seg = r->on_complete_arg, **pp;
    struct loom_bsend *b = seg->owner;
    struct loom_rank *rank = b->rank;
    struct flush *done = NULL, **fp;
    loom__lock(&b->lock);
    for (pp = &b->used; *pp != seg; pp = &(*pp)->next)
        ;
    *pp = seg->next;
    for (fp = &b->flushes; *fp;) { /* the iflushes this was the last of */
        struct flush *f = *fp;
        if (older_than(b, f->upto)) {
            fp = &f->next;
            continue;
        }
        *fp = f->next;
        f->next = done;
        done = f;
    }
    loom__unlock(&b->lock);
    free(seg->heap);
    free(seg);
    while (done) { /* outside the lock: completing may free a released request */
        struct flush *f = done;
        done = f->next;
        loom__req_complete(f->req);
        free(f);
    }
    loom__event_notify(&rank->event);
    loom__bsend_release(b); /* the segment's reference: may be the last */
}

struct flushed_arg {
    struct loom_bsend *b;
    unsigned long upto;
};

static int flushed(void *arg)
{
    struct flushed_arg *a = arg;
    loom__lock(&a->b->lock);
    int done = !older_than(a->b, a->upto);
    loom__unlock(&a->b->lock);
    return done;
}

void loom__bsend_flush(struct loom_bsend *b)
{
    if (b == NULL)
        return;
    loom__lock(&b->lock);
    struct flushed_arg a = {b, b->next_seq};
    loom__unlock(&b->lock);
    loom__wait_until(&loom__self->event, flushed, &a);
}

int loom__bsend_iflush(struct loom_bsend *b, struct loom_request *req)
{
    if (b == NULL)
        return 1;
    struct flush *f = malloc(sizeof *f); /* freed by give_back once complete, or with b */
    if (f == NULL)
        return LOOM_ERR_NOMEM;
    loom__lock(&b->lock);
    int now = !older_than(b, b->next_seq);
    if (!now) {
        f->upto = b->next_seq;
        f->req = req;
        f->next = b->flushes;
        b->flushes = f;
    }
    loom__unlock(&b->lock);
    if (now)
        free(f);
    return now;
}

/* First fit among the gaps between used segments. Lock held. Offset or (size_t)-1. */
static size_t find_gap(struct loom_bsend *b, size_t need, struct segment ***at)
{
    size_t start = 0;
    struct segment **pp = &b->used;
    for (; *pp; pp = &(*pp)->next) {
        if ((*pp)->off - start >= need)
            break;
        start = (*pp)->off + (*pp)->len;
    }
    if (*pp == NULL && b->size - start < need)
        return (size_t)-1;
    *at = pp;
    return start;
}

int loom__bsend_start(const struct loom_request *s, struct loom_bsend *comm_b,
                      struct loom_bsend *session_b)
{
    /* The owner: the first level that has a buffer attached (relaxed hints; the program
     * orders its attaches and detaches before the sends that must see them). */
    struct loom_bsend *b = loom__bsend_attached(comm_b)      ? comm_b
                           : loom__bsend_attached(session_b) ? session_b
                                                             : NULL;
    if (b == NULL)
        b = loom__load_acquire(&loom__self->p2p);
    size_t bytes = loom__dt_stream_size(s->type, s->count);
    /* A segment costs exactly bytes + MPI_BSEND_OVERHEAD, so that a buffer sized by the
     * standard's formula (sum of Pack_size + MPI_BSEND_OVERHEAD) holds its messages. The
     * data starts at the first 16-byte aligned address of the segment (aligned for any
     * basic type); the padding (< 16 bytes) comes out of the overhead. */
    size_t need = bytes + MPI_BSEND_OVERHEAD;
    if (b == NULL)
        return LOOM_ERR_BUFFER;
    struct segment *seg = malloc(sizeof *seg); /* freed by give_back */
    struct loom_request *r = loom__req_new(LOOM_REQ_SEND);
    if (!seg || !r) {
        free(seg);
        free(r);
        return LOOM_ERR_NOMEM;
    }
    seg->heap = NULL;
    char *data;
    loom__lock(&b->lock);
    while (b->automatic && seg->heap == NULL) { /* its own block, allocated outside the lock
                                                   (a large one is an mmap); then look again:
                                                   a detach may have come in between */
        loom__unlock(&b->lock);
        seg->heap = malloc(bytes ? bytes : 1); /* freed by give_back (or just below) */
        if (seg->heap == NULL) {
            free(seg);
            free(r);
            return LOOM_ERR_NOMEM;
        }
        loom__lock(&b->lock);
    }
    if (!b->automatic && seg->heap != NULL) { /* detached meanwhile: no block after all */
        free(seg->heap); /* free() under our lock: a leaf, never takes this lock */
        seg->heap = NULL;
    }
    if (b->automatic) {
        seg->off = seg->len = 0;
        seg->next = b->used;
        b->used = seg;
        data = seg->heap;
    } else {
        struct segment **at;
        size_t off = b->buf ? find_gap(b, need, &at) : (size_t)-1;
        if (off == (size_t)-1) {
            loom__unlock(&b->lock);
            free(seg);
            free(r);
            return LOOM_ERR_BUFFER;
        }
        seg->off = off;
        seg->len = need;
        seg->next = *at;
        *at = seg;
        data = (char *)(((uintptr_t)(b->buf + off) + 15) & ~(uintptr_t)15);
    }
    seg->seq = b->next_seq++;
    seg->owner = b;
    loom__bsend_retain(b); /* dropped by give_back */
    loom__unlock(&b->lock);

    if (bytes)
        loom__dt_pack(data, s->buf, s->type, s->count, 0, bytes);
    r->comm = s->comm;
    r->ctx = s->ctx;
    r->me = s->me;
    r->peer = s->peer;
    r->tag = s->tag;
    r->buf = data;
    r->count = bytes;
    r->type = MPI_BYTE;
    r->on_complete = give_back;
    r->on_complete_arg = seg;
    int rc = loom__p2p_start_send(r);
    loom__req_release(r); /* nobody waits for it: its completer frees it */
    return rc;
}

void loom__bsend_rank_fini(void)
{
    struct loom_rank *r = loom__self;
    loom__bsend_release(atomic_exchange_explicit(&r->p2p, NULL, memory_order_acq_rel));
}
