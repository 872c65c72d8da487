/* coll/sched.c — building schedules: rounds, operations, scratch buffers, and what a schedule
 * keeps alive (types, the operation). The layout and the rules are in sched.h.
 *
 * Allocation failures while building do not stop the builder: they mark the schedule
 * (`nomem`) and hand out a harmless address, and the caller checks the mark once at the end,
 * so builders stay straight-line code. */
#include <stdlib.h>
#include <string.h>
#include "coll/op.h"
#include "coll/sched.h"
#include "coll/shm.h"
#include "comm/comm.h"
#include "core/atomic.h"
#include "core/rank.h"
#include "core/tls.h"
#include "dt/dt.h"
#include "p2p/p2p.h"

/* Where a builder's failed scratch points: never read or written, since a schedule marked
 * nomem never runs. */
static max_align_t dummy_scratch;

/* Allocations for schedules made by this thread (loom__coll_allocs_here): its own thread
 * only, so a plain thread-local. */
static LOOM_TLS_FAST unsigned long allocs_here;

void loom__coll_note_alloc(void)
{
    allocs_here++;
}

unsigned long loom__coll_allocs_here(void)
{
    return allocs_here;
}

struct loom_sched *loom__sched_new(struct loom_comm *c, MPI_Comm h)
{
    allocs_here++;
    struct loom_sched *s = calloc(1, sizeof *s); /* freed by loom__sched_free */
    if (!s)
        return NULL;
    s->ctx = c->sh->coll;
    s->shared = c->sh;
    s->comm = h;
    s->me = c->rank;
    s->size = c->sh->size;
    /* relaxed: only the owning rank's threads touch the counter, and MPI orders their
     * collective calls on one communicator */
    uint32_t seq = loom__fetch_add_relaxed(&c->coll_seq, 1u);
    s->tag = (int)(seq & (uint32_t)LOOM_TAG_UB);
    s->owner = loom__self;
    s->pending_round = 1;
    atomic_init(&s->busy, 0);
    atomic_init(&s->cur, 0);
    atomic_init(&s->started, 0);
    atomic_init(&s->done, 0);
    atomic_init(&s->waiting, 0);
    return s;
}

void loom__sched_free(struct loom_sched *s)
{
    if (!s)
        return;
    for (int i = 0; i < s->ntmps; i++)
        loom__coll_scratch_free(s->tmps[i]);
    for (int i = 0; i < s->ntypes; i++)
        loom__dt_release(s->types[i]);
    if (s->op)
        loom__op_release(s->op);
    free(s->tmps);
    free(s->types);
    free(s->ops);
    free(s->rend);
    free(s->rdir);
    free(s->rlevel);
    free(s);
}

/* Grow an array of elements of size `size` to hold n + 1; 0 or -1. */
static int grow(void **arr, int *cap, int n, size_t size)
{
    if (n < *cap)
        return 0;
    int ncap = *cap ? *cap * 2 : 8;
    allocs_here++;
    void *p = realloc(*arr, (size_t)ncap * size);
    if (!p)
        return -1;
    *arr = p;
    *cap = ncap;
    return 0;
}

void loom__sched_round(struct loom_sched *s, int dir, int level)
{
    s->pending_round = 1;
    s->next_dir = (uint8_t)dir;
    s->next_level = (uint8_t)level;
}

/* A new operation slot in the current round (opening one when asked), or NULL. */
static struct loom_sop *add(struct loom_sched *s, int kind)
{
    if (s->nomem)
        return NULL;
    if (s->pending_round || s->nrounds == 0) {
        int cap = s->caprounds;
        if (grow((void **)&s->rend, &cap, s->nrounds, sizeof *s->rend) != 0 ||
            grow((void **)&s->rdir, &(int){s->caprounds}, s->nrounds, 1) != 0 ||
            grow((void **)&s->rlevel, &(int){s->caprounds}, s->nrounds, 1) != 0) {
            s->nomem = 1;
            return NULL;
        }
        s->caprounds = cap;
        s->rend[s->nrounds] = s->nops;
        s->rdir[s->nrounds] = s->next_dir;
        s->rlevel[s->nrounds] = s->next_level;
        s->nrounds++;
        s->pending_round = 0;
    }
    if (grow((void **)&s->ops, &s->capops, s->nops, sizeof *s->ops) != 0) {
        s->nomem = 1;
        return NULL;
    }
    struct loom_sop *o = &s->ops[s->nops++];
    memset(o, 0, sizeof *o);
    o->kind = (uint8_t)kind;
    s->rend[s->nrounds - 1] = s->nops;
    return o;
}

static void p2p(struct loom_sched *s, int kind, const void *buf, size_t count,
                struct loom_datatype *type, int peer)
{
    struct loom_sop *o = add(s, kind);
    if (!o)
        return;
    o->buf = (void *)buf;
    o->count = count;
    o->type = type;
    o->peer = peer;
}

void loom__sched_send(struct loom_sched *s, const void *buf, size_t count,
                      struct loom_datatype *type, int peer)
{
    p2p(s, LOOM_SOP_SEND, buf, count, type, peer);
}

void loom__sched_recv(struct loom_sched *s, void *buf, size_t count, struct loom_datatype *type,
                      int peer)
{
    p2p(s, LOOM_SOP_RECV, buf, count, type, peer);
}

void loom__sched_copy(struct loom_sched *s, const void *src, size_t scount,
                      struct loom_datatype *stype, void *dst, size_t dcount,
                      struct loom_datatype *dtype)
{
    if (src == dst && scount == dcount && stype == dtype)
        return;
    if (loom__dt_stream_size(stype, scount) == 0 || loom__dt_stream_size(dtype, dcount) == 0)
        return;
    struct loom_sop *o = add(s, LOOM_SOP_COPY);
    if (!o)
        return;
    o->buf = dst;
    o->count = dcount;
    o->type = dtype;
    o->src = src;
    o->scount = scount;
    o->stype = stype;
}

void loom__sched_reduce(struct loom_sched *s, const void *in, void *inout, size_t count,
                        struct loom_datatype *type)
{
    if (count == 0)
        return;
    struct loom_sop *o = add(s, LOOM_SOP_REDUCE);
    if (!o)
        return;
    o->buf = inout;
    o->count = count;
    o->type = type;
    o->src = in;
    o->scount = count;
    o->stype = type;
}

void loom__sched_call(struct loom_sched *s, void (*fn)(void *arg), void *arg)
{
    struct loom_sop *o = add(s, LOOM_SOP_CALL);
    if (!o)
        return;
    o->fn = fn;
    o->buf = arg;
}

void *loom__sched_bytes(struct loom_sched *s, size_t n)
{
    if (n == 0 || s->nomem)
        return &dummy_scratch;
    /* from the rank's scratch cache: a schedule's temporaries go back to it when the
     * schedule ends (run.c), so repeated large collectives reuse the same pages */
    allocs_here++;
    void *p = loom__coll_scratch_get(s->owner, n);
    if (!p || grow((void **)&s->tmps, &s->captmps, s->ntmps, sizeof *s->tmps) != 0) {
        loom__coll_scratch_free(p);
        s->nomem = 1;
        return &dummy_scratch;
    }
    s->tmps[s->ntmps++] = p;
    return p;
}

void *loom__sched_scratch(struct loom_sched *s, size_t count, const struct loom_datatype *type)
{
    if (count == 0 || type->size == 0)
        return &dummy_scratch;
    /* count elements span true_extent + (count - 1) * extent bytes from the first data
     * byte; the buffer address is that byte minus true_lb */
    size_t span = (size_t)type->true_extent + (count - 1) * (size_t)type->extent;
    char *p = loom__sched_bytes(s, span);
    if (p == (char *)&dummy_scratch)
        return p;
    return p - type->true_lb;
}

void loom__sched_keep_type(struct loom_sched *s, struct loom_datatype *type)
{
    if (!type || type->predefined || s->nomem)
        return;
    for (int i = 0; i < s->ntypes; i++)
        if (s->types[i] == type)
            return;
    if (grow((void **)&s->types, &s->captypes, s->ntypes, sizeof *s->types) != 0) {
        s->nomem = 1;
        return;
    }
    loom__dt_retain(type);
    s->types[s->ntypes++] = type;
}

void loom__sched_keep_op(struct loom_sched *s, struct loom_op *op)
{
    if (s->op || !op)
        return;
    loom__op_retain(op);
    s->op = op;
}

/* 1 if ops [from, to) receive nothing (and, with only_sends, hold nothing but sends). */
static int only(const struct loom_sched *s, int from, int to, int only_sends)
{
    for (int i = from; i < to; i++) {
        if (s->ops[i].kind == LOOM_SOP_RECV)
            return 0;
        if (only_sends && s->ops[i].kind != LOOM_SOP_SEND)
            return 0;
    }
    return 1;
}

/* Which part of the split a round belongs to: 0 call, 1 task, 2 wait. */
static int side(const struct loom_sched *s, int r)
{
    return r < s->call_end ? 0 : r < s->task_end ? 1 : 2;
}

void loom__sched_merge_sends(struct loom_sched *s)
{
    if (s->nomem || s->nrounds < 2)
        return;
    int n = s->nrounds;
    allocs_here++;
    int *end = malloc((size_t)n * sizeof *end); /* the ends before merging; freed below */
    if (!end)
        return; /* merging is an optimization */
    memcpy(end, s->rend, (size_t)n * sizeof *end);
    int w = 0; /* rounds kept so far */
    int call_end = s->call_end, task_end = s->task_end;
    for (int r = 0; r < n; r++) {
        int from = r ? end[r - 1] : 0;
        /* round r (sends only) may start with round r - 1 when that one receives nothing:
         * the data r sends is final before r - 1 starts, or made by r - 1's local
         * operations, which run before any send of the merged round starts */
        if (r > 0 && only(s, from, end[r], 1) && only(s, r > 1 ? end[r - 2] : 0, end[r - 1], 0) &&
            side(s, r) == side(s, r - 1)) {
            s->rend[w - 1] = end[r]; /* round r joins the kept round before it */
            if (r < s->call_end)
                call_end--;
            if (r < s->task_end)
                task_end--;
            continue;
        }
        s->rend[w] = end[r];
        s->rdir[w] = s->rdir[r];
        s->rlevel[w] = s->rlevel[r];
        w++;
    }
    free(end);
    s->nrounds = w;
    s->call_end = call_end;
    s->task_end = task_end;
}
