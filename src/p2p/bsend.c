/* p2p/bsend.c — buffered sends.
 * A buffered send packs its data into a segment of the rank's attached buffer and sends it
 * from there as bytes; the segment is given back when that internal send completes, by
 * whichever thread completes it. Segments cost MPI_BSEND_OVERHEAD bytes each in the
 * accounting (their bookkeeping lives outside the user's buffer).
 * Lock: `lock` protects every field but `pending`'s waiters; it is taken by the rank's own
 * threads (attach, detach, bsend) and by the threads completing its buffered sends. */
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
    struct segment *next;      /* in-use segments sorted by offset */
    struct bsend *owner;
};

struct bsend {
    struct loom_lock lock;
    char *buf;                 /* NULL when nothing is attached */
    size_t size;
    struct segment *used;
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

static void give_back(struct loom_request *r)
{
    struct segment *seg = r->on_complete_arg, **pp;
    struct bsend *b = seg->owner;
    struct loom_rank *rank = b->rank;
    loom__lock(&b->lock);
    for (pp = &b->used; *pp != seg; pp = &(*pp)->next)
        ;
    *pp = seg->next;
    loom__unlock(&b->lock);
    free(seg);
    loom__event_notify(&rank->event);
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
    free(r->p2p);
    r->p2p = NULL;
}
