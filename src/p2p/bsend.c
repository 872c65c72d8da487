/* p2p/bsend.c — buffered sends.
 * A buffered send packs its data into a segment of the rank's attached buffer and sends it
 * from there as bytes; the segment is given back when that internal send completes, by
 * whichever thread completes it. Segments cost MPI_BSEND_OVERHEAD bytes each in the
 * accounting (their bookkeeping lives outside the user's buffer).
 * MPI_Buffer_flush waits, and MPI_Buffer_iflush's request completes, once every buffered send
 * started before it has left the buffer (segments carry their order, `seq`).
 * Lock: `lock` protects every field but `pending`'s waiters; it is taken by the rank's own
 * threads (attach, detach, bsend, flush) and by the threads completing its buffered sends. */
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
    unsigned long seq;         /* order of the buffered sends: a flush waits for the older */
    struct segment *next;      /* in-use segments sorted by offset */
    struct bsend *owner;
};

/* An MPI_Buffer_iflush in flight: its request completes once no segment older than upto is
 * left (the thread that gives back the last of them completes it). */
struct flush {
    unsigned long upto;
    struct loom_request *req;
    struct flush *next;
};

struct bsend {
    struct loom_lock lock;
    char *buf;                 /* NULL when nothing is attached */
    size_t size;
    struct segment *used;
    unsigned long next_seq;    /* the seq of the next buffered send */
    struct flush *flushes;     /* MPI_Buffer_iflush requests not yet complete */
    struct loom_rank *rank;    /* notified when a segment is given back (detach waits) */
};

static struct bsend *state(int create)
{
    struct loom_rank *r = loom__self;
    if (r->p2p == NULL && create) {
        struct bsend *b = calloc(1, sizeof *b);
        if (b)
            b->rank = r;
        r->p2p = b;
    }
    return r->p2p;
}

int loom__bsend_attach(void *buf, size_t size)
{
    struct bsend *b = state(1);
    if (b == NULL)
        return LOOM_ERR_NOMEM;
    loom__lock(&b->lock);
    int rc = b->buf ? LOOM_ERR_BUFFER : 0;
    if (rc == 0) {
        b->buf = buf;
        b->size = size;
    }
    loom__unlock(&b->lock);
    return rc;
}

static int drained(void *arg)
{
    struct bsend *b = arg;
    loom__lock(&b->lock);
    int empty = b->used == NULL;
    loom__unlock(&b->lock);
    return empty;
}

int loom__bsend_detach(void **buf, size_t *size)
{
    struct bsend *b = state(0);
    if (b == NULL || b->buf == NULL)
        return LOOM_ERR_BUFFER;
    loom__wait_until(&loom__self->event, drained, b);
    loom__lock(&b->lock);
    *buf = b->buf;
    *size = b->size;
    b->buf = NULL;
    b->size = 0;
    loom__unlock(&b->lock);
    return 0;
}

/* 1 if a segment of a send started before seq `upto` is still in the buffer. Lock held. */
static int older_than(const struct bsend *b, unsigned long upto)
{
    for (const struct segment *s = b->used; s; s = s->next)
        if (s->seq < upto)
            return 1;
    return 0;
}

static void give_back(struct loom_request *r)
{
    struct segment *seg = r->on_complete_arg, **pp;
    struct bsend *b = seg->owner;
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
    free(seg);
    while (done) { /* outside the lock: completing may free a released request */
        struct flush *f = done;
        done = f->next;
        loom__req_complete(f->req);
        free(f);
    }
    loom__event_notify(&rank->event);
}

struct flushed_arg {
    struct bsend *b;
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

void loom__bsend_flush(void)
{
    struct bsend *b = state(0);
    if (b == NULL)
        return;
    loom__lock(&b->lock);
    struct flushed_arg a = {b, b->next_seq};
    loom__unlock(&b->lock);
    loom__wait_until(&loom__self->event, flushed, &a);
}

int loom__bsend_iflush(struct loom_request *req)
{
    struct bsend *b = state(0);
    if (b == NULL)
        return 1;
    struct flush *f = malloc(sizeof *f); /* freed by give_back once complete, or at fini */
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
static size_t find_gap(struct bsend *b, size_t need, struct segment ***at)
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

int loom__bsend_start(const struct loom_request *s)
{
    struct bsend *b = state(0);
    size_t bytes = loom__dt_stream_size(s->type, s->count);
    /* A segment costs exactly bytes + MPI_BSEND_OVERHEAD, so that a buffer sized by the
     * standard's formula (sum of Pack_size + MPI_BSEND_OVERHEAD) holds its messages. The
     * data starts at the first 16-byte aligned address of the segment (aligned for any
     * basic type); the padding (< 16 bytes) comes out of the overhead. */
    size_t need = bytes + MPI_BSEND_OVERHEAD;
    if (b == NULL)
        return LOOM_ERR_BUFFER;
    struct segment *seg = malloc(sizeof *seg);
    struct loom_request *r = loom__req_new(LOOM_REQ_SEND);
    if (!seg || !r) {
        free(seg);
        free(r);
        return LOOM_ERR_NOMEM;
    }
    loom__lock(&b->lock);
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
    seg->seq = b->next_seq++;
    seg->owner = b;
    seg->next = *at;
    *at = seg;
    char *data = (char *)(((uintptr_t)(b->buf + off) + 15) & ~(uintptr_t)15);
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
    struct bsend *b = r->p2p;
    while (b && b->flushes) { /* never complete: the program did not wait for them */
        struct flush *f = b->flushes;
        b->flushes = f->next;
        free(f);
    }
    free(r->p2p);
    r->p2p = NULL;
}
