/* p2p/part.c — partitioned point-to-point: matching of the init calls, the channel a matched
 * pair shares, and who moves a partition (part.h says what; this file says how).
 *
 * The stream. Both sides see the whole message as one packed byte stream: send partition i is
 * bytes [i*sb, (i+1)*sb) of it, receive partition j bytes [j*rb, (j+1)*rb) (sb, rb: the bytes
 * of one partition on each side), so the two sides may cut it differently. Only the first
 * L = min(send total, receive total) bytes move; a longer send truncates (MPI_ERR_TRUNCATE on
 * the receive). Send partition i overlaps receive partition j when their ranges meet inside
 * [0, L); a receive partition has arrived when every send partition overlapping it has been
 * copied (one with no byte in [0, L) arrives with the whole round).
 *
 * Rounds. Each side counts its MPI_Starts (`round`). The sender can be one round ahead of the
 * receiver and the receiver one round ahead of the sender, never more: a side's round k ends
 * only when every send partition of round k has been copied, which needs both sides in round
 * k. A send partition of round k may therefore be copied exactly when both rounds are k.
 * Counters never reset: `ready[i]` holds the round in which partition i was last made ready,
 * `claimed[i]` the round in which it was last copied, `copied` and `arrived[j]` count copies
 * over all rounds. So a Start resets nothing the other side may be reading.
 *
 * Who copies (a Dekker pair, both halves seq_cst):
 *   sender, MPI_Pready:   ready[i] = k;        then read r.round: == k ? copy(i)
 *   receiver, MPI_Start:  r.round = k;         then for each i, read ready[i]: == k ? copy(i)
 * In the single order of seq_cst operations one of the two reads comes after the other side's
 * write, so at least one side sees the partition movable; copy() claims it with a CAS on
 * claimed[i] (k-1 -> k), so exactly one side copies. The copier adds one to arrived[j] of each
 * receive partition it overlaps (release: MPI_Parrived's acquire then sees the data) and to
 * `copied` (acq_rel); the one that brings `copied` to k * sparts ends the round for both
 * requests: the receive's status, then COMPLETE on the receive and on the send
 * (loom__req_complete).
 *
 * Lifetime. The channel is made by the first of the two init calls, waits in a shard of the
 * pending table until the second binds it, and is freed by the last of its two requests to be
 * freed (`refs`). A request may be freed only when inactive (api/partitioned.c refuses an
 * active one), so neither request nor its buffer goes away during a round. */
#include <limits.h>
#include <stdlib.h>
#include <string.h>
#include "core/error.h"
#include "core/lock.h"
#include "core/rank.h"
#include "dt/dt.h"
#include "p2p/p2p.h"
#include "p2p/part.h"

/* One side of a channel: written by that side's init before it is published (put in the
 * pending table or bound, both under the shard lock), read-only afterwards, except `round`. */
struct part_side {
    struct loom_request *req;
    void *buf;
    struct loom_datatype *type; /* kept alive by req (its reference is req's) */
    size_t count;               /* elements of type in the whole buffer */
    size_t pbytes;              /* bytes of one partition */
    size_t total;               /* bytes of the whole buffer */
    int parts;
    _Atomic uint64_t round;     /* MPI_Starts so far: the owner's Start stores it (seq_cst,
                                   the Dekker write above); any thread reads it */
};

struct loom_part {
    struct loom_part *next;       /* pending list of its shard (under the shard's lock) */
    const struct loom_p2p_ctx *ctx; /* the key it matches by (read-only) */
    int src, dst, tag;
    int proc_null;                /* a side whose peer is MPI_PROC_NULL: never matched,
                                     completes at Start (read-only) */
    _Atomic int refs;             /* requests using it: 1 while pending, 2 once bound */
    _Atomic int bound;            /* 1 once both sides are set: stored seq_cst under the shard
                                     lock by the second init, read seq_cst (receiver's Start,
                                     Parrived) */
    struct part_side s, r;
    _Atomic uint64_t *ready;      /* [s.parts] sender's threads exchange (seq_cst) */
    _Atomic uint64_t *claimed;    /* [s.parts] CAS by the copier (acq_rel) */
    _Atomic uint64_t *arrived;    /* [r.parts] copier adds (release), Parrived reads (acquire) */
    _Atomic uint64_t copied;      /* send partitions copied, all rounds (acq_rel) */
};

/* The pending table: channels made by an init whose peer has not come yet, in init order,
 * sharded by (context, receiver). Any rank's thread; `lock` protects head, the `next`
 * links of the channels in the list and their binding (the second side's fields, refs). */
enum { SHARDS = 64 };
static struct shard {
    struct loom_lock lock;
    struct loom_part *head; /* oldest first; appended at the end (a list holds the inits that
                               wait for their peer: short) */
} __attribute__((aligned(64))) shards[SHARDS];

static struct shard *shard_of(const struct loom_p2p_ctx *ctx, int dst)
{
    uintptr_t h = ((uintptr_t)ctx >> 6) * 31u + (unsigned)dst;
    return &shards[h % SHARDS];
}

static int is_send(const struct loom_request *r)
{
    return r->kind == LOOM_REQ_PSEND;
}

static struct part_side *side_of(struct loom_part *ch, const struct loom_request *r)
{
    return is_send(r) ? &ch->s : &ch->r;
}

static void side_fill(struct part_side *sd, struct loom_request *r, int parts)
{
    sd->req = r;
    sd->buf = r->buf;
    sd->type = r->type;
    sd->parts = parts;
    sd->count = r->count;
    sd->total = loom__dt_stream_size(r->type, r->count);
    sd->pbytes = sd->total / (size_t)parts;
    /* `round` stays as calloc made it (0): the other side may already be reading it */
}

static _Atomic uint64_t *counters(int n)
{
    _Atomic uint64_t *a = malloc(sizeof *a * (size_t)n);
    for (int i = 0; a && i < n; i++)
        atomic_init(&a[i], 0);
    return a;
}

/* Drop one reference; the last frees the channel. */
static void chan_put(struct loom_part *ch)
{
    if (atomic_fetch_sub_explicit(&ch->refs, 1, memory_order_acq_rel) != 1)
        return;
    free(ch->ready);
    free(ch->claimed);
    free(ch->arrived);
    free(ch);
}

/* on_complete of a partitioned request: run by its destroy (MPI_Request_free of an inactive
 * request, request.c). Unlinks a channel still pending, then lets go of it. */
static void part_release(struct loom_request *r)
{
    struct loom_part *ch = r->on_complete_arg;
    if (!ch->proc_null) {
        struct shard *sh = shard_of(ch->ctx, ch->dst);
        loom__lock(&sh->lock);
        if (!atomic_load_explicit(&ch->bound, memory_order_relaxed)) { /* written under lock */
            struct loom_part **pp = &sh->head;
            while (*pp != ch)
                pp = &(*pp)->next;
            *pp = ch->next;
        }
        loom__unlock(&sh->lock);
    }
    chan_put(ch);
}

int loom__part_partitions(const struct loom_request *r)
{
    struct loom_part *ch = r->on_complete_arg;
    return is_send(r) ? ch->s.parts : ch->r.parts;
}

int loom__part_init(struct loom_request *r, int partitions)
{
    r->count *= (size_t)partitions;
    if (r->peer == MPI_PROC_NULL) { /* a channel of one side, never in the table */
        struct loom_part *ch = calloc(1, sizeof *ch);
        if (ch == NULL) {
            r->count /= (size_t)partitions;
            return LOOM_ERR_NOMEM;
        }
        ch->proc_null = 1;
        atomic_init(&ch->refs, 1);
        side_fill(side_of(ch, r), r, partitions);
        r->on_complete = part_release;
        r->on_complete_arg = ch;
        return 0;
    }
    int send = is_send(r);
    int src = send ? r->me : r->peer, dst = send ? r->peer : r->me;
    /* what this side brings, made before the lock */
    _Atomic uint64_t *a = counters(partitions), *b = send ? counters(partitions) : NULL;
    struct loom_part *fresh = calloc(1, sizeof *fresh);
    if (a == NULL || (send && b == NULL) || fresh == NULL) {
        free(a);
        free(b);
        free(fresh);
        r->count /= (size_t)partitions;
        return LOOM_ERR_NOMEM;
    }
    struct shard *sh = shard_of(r->ctx, dst);
    loom__lock(&sh->lock);
    struct loom_part **pp = &sh->head, *ch;
    for (; (ch = *pp) != NULL; pp = &ch->next) /* the oldest waiting peer with our key */
        if (ch->ctx == r->ctx && ch->src == src && ch->dst == dst && ch->tag == r->tag &&
            (ch->s.req == NULL) == send)
            break;
    if (ch) {
        *pp = ch->next;
        ch->next = NULL;
        free(fresh);
    } else {
        ch = fresh;
        ch->ctx = r->ctx;
        ch->src = src;
        ch->dst = dst;
        ch->tag = r->tag;
        atomic_init(&ch->copied, 0);
        atomic_init(&ch->bound, 0);
        atomic_init(&ch->refs, 0);
    }
    side_fill(side_of(ch, r), r, partitions);
    if (send) {
        ch->ready = a;
        ch->claimed = b;
    } else {
        ch->arrived = a;
    }
    atomic_fetch_add_explicit(&ch->refs, 1, memory_order_relaxed); /* under the lock */
    if (ch != fresh) {
        atomic_store_explicit(&ch->bound, 1, memory_order_seq_cst);
    } else {
        *pp = ch; /* pp is the end of the list */
    }
    loom__unlock(&sh->lock);
    r->on_complete = part_release;
    r->on_complete_arg = ch;
    return 0;
}

/* The round of both sides is k, send partition i is ready in it: copy it unless the other
 * side does; the copy that ends the round completes both requests. */
static void try_copy(struct loom_part *ch, int i, uint64_t k)
{
    uint64_t expect = k - 1;
    if (!atomic_compare_exchange_strong_explicit(&ch->claimed[i], &expect, k,
                                                 memory_order_acq_rel, memory_order_relaxed))
        return; /* the other side took it */
    size_t len = ch->s.total < ch->r.total ? ch->s.total : ch->r.total;
    size_t lo = (size_t)i * ch->s.pbytes, hi = lo + ch->s.pbytes;
    if (hi > len)
        hi = len;
    if (lo < hi) {
        loom__dt_copy(ch->r.buf, ch->r.type, ch->r.count, ch->s.buf, ch->s.type, ch->s.count,
                      lo, hi - lo);
        size_t jlast = (hi - 1) / ch->r.pbytes;
        for (size_t j = lo / ch->r.pbytes; j <= jlast; j++)
            atomic_fetch_add_explicit(&ch->arrived[j], 1, memory_order_release);
    }
    uint64_t n = atomic_fetch_add_explicit(&ch->copied, 1, memory_order_acq_rel) + 1;
    if (n != k * (uint64_t)ch->s.parts)
        return;
    /* The round is over. Both requests are active until we complete them; read them first:
     * once the receive is complete its owner may free it (and with it its hold on ch). */
    struct loom_request *sreq = ch->s.req, *rreq = ch->r.req;
    loom__p2p_status_set(&rreq->status, ch->src, ch->tag, len);
    rreq->error = ch->s.total > ch->r.total ? MPI_ERR_TRUNCATE : MPI_SUCCESS;
    loom__req_complete(rreq);
    loom__req_complete(sreq); /* still holds ch: sreq is not complete until now */
}

void loom__part_start(struct loom_request *r)
{
    struct loom_part *ch = r->on_complete_arg;
    if (ch->proc_null) { /* nothing to move */
        loom__p2p_status_empty(&r->status, MPI_PROC_NULL);
        atomic_store_explicit(&r->flags, LOOM_REQ_COMPLETE, memory_order_release);
        return;
    }
    struct part_side *sd = side_of(ch, r);
    if (is_send(r)) {
        loom__p2p_status_empty(&r->status, MPI_ANY_SOURCE);
        /* the sender's threads read their round in Pready, after this Start (user order) */
        atomic_fetch_add_explicit(&sd->round, 1, memory_order_seq_cst);
        return;
    }
    uint64_t k = atomic_fetch_add_explicit(&sd->round, 1, memory_order_seq_cst) + 1;
    if (!atomic_load_explicit(&ch->bound, memory_order_seq_cst))
        return; /* no sender yet: its Preadys will see our round */
    for (int i = 0; i < ch->s.parts; i++)
        if (atomic_load_explicit(&ch->ready[i], memory_order_seq_cst) == k)
            try_copy(ch, i, k);
}

int loom__part_pready(struct loom_request *r, int i)
{
    struct loom_part *ch = r->on_complete_arg;
    if (ch->proc_null)
        return 0;
    uint64_t k = atomic_load_explicit(&ch->s.round, memory_order_relaxed); /* ours */
    if (atomic_exchange_explicit(&ch->ready[i], k, memory_order_seq_cst) == k)
        return 1;
    if (atomic_load_explicit(&ch->r.round, memory_order_seq_cst) == k)
        try_copy(ch, i, k);
    return 0;
}

int loom__part_parrived(struct loom_request *r, int j)
{
    struct loom_part *ch = r->on_complete_arg;
    if (ch->proc_null || loom__req_is_complete(r))
        return 1;
    if (!atomic_load_explicit(&ch->bound, memory_order_seq_cst))
        return 0;
    uint64_t k = atomic_load_explicit(&ch->r.round, memory_order_relaxed); /* ours */
    if (atomic_load_explicit(&ch->copied, memory_order_acquire) >= k * (uint64_t)ch->s.parts)
        return 1;
    size_t len = ch->s.total < ch->r.total ? ch->s.total : ch->r.total;
    size_t lo = (size_t)j * ch->r.pbytes, hi = lo + ch->r.pbytes;
    if (hi > len)
        hi = len;
    if (lo >= hi)
        return 0; /* no byte of it moves: it arrives with the round */
    uint64_t over = (hi - 1) / ch->s.pbytes - lo / ch->s.pbytes + 1;
    return atomic_load_explicit(&ch->arrived[j], memory_order_acquire) >= k * over;
}
