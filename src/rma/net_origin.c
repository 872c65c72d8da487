/* rma/net_origin.c — one-sided operations on a member of another node process, the origin's
 * side: each operation is cut into requests that fit a network message (rma/net_msg.h) and
 * counted until the target node process has answered every one.
 *
 * Who touches what: an operation's record (struct netop) is made by the issuing thread and
 * answered by the thread that polls this node process's network (rma/net_target.c calls
 * loom__rma_net_answered). `left` counts the answers still to come, plus one that the issuer
 * holds while it posts, so that an answer that comes before the last piece is posted cannot
 * finish the record. The answer that brings it to 0 finishes it: completes the request, then
 * decrements the window's `pending` with release and wakes the origin, whose flush waits for
 * 0 with acquire, so that what the answers brought (a get's data) is in place after the
 * flush. The origin's data is packed into the requests when they are posted, so a put's
 * buffer is free as soon as the call returns; but a put or an accumulate larger than a
 * message (by_read) exposes the buffer itself when it is contiguous, and the target's node
 * process reads it later: that buffer is free after a flush, as the standard has it for every
 * put and accumulate. */
#include <pthread.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include "coll/op.h"
#include "core/atomic.h"
#include "core/event.h"
#include "core/fhandle.h"
#include "core/fhandle_fixed.h"
#include "core/rank.h"
#include "dt/dt.h"
#include "net/net.h"
#include "p2p/request.h"
#include "rma/net_msg.h"
#include "rma/rma.h"

struct netop {
    _Atomic size_t left;
    struct loom_win *w;
    int target;                  /* the window rank it goes to */
    struct loom_rank *owner;     /* whose flushes wait */
    struct loom_request *req;    /* NULL, or completed with the last answer */
    void *raddr;                 /* where DATA answers land: a get's origin buffer, a */
    size_t rcount;               /* fetching accumulate's result buffer */
    struct loom_datatype *rt;
    int acc_read;                /* an accumulate read by the target: counted in acc_reads */
    int exposed;                 /* a put read by the target: its data's registration, and */
    struct loom_net_region region; /* the packed copy of a noncontiguous origin (or NULL) */
    void *tmp;
};

static struct netop *op_new(struct loom_win *w, int target, struct loom_request *req,
                            void *raddr, size_t rcount, struct loom_datatype *rt)
{
    struct netop *o = malloc(sizeof *o); /* freed by its last answer */
    if (o == NULL)
        return NULL;
    atomic_init(&o->left, 1);
    o->w = w;
    o->target = target;
    o->owner = loom__self;
    o->req = req;
    o->raddr = raddr;
    o->rcount = rcount;
    o->rt = rt;
    o->acc_read = 0;
    o->exposed = 0;
    o->tmp = NULL;
    if (rt)
        loom__dt_retain(rt);
    loom__fetch_add_relaxed(&w->pending, 1); /* before any answer can come */
    return o;
}

/* One answer (or the issuer's hold) less; the last finishes the operation. */
static void answered(struct netop *o)
{
    if (atomic_fetch_sub_explicit(&o->left, 1, memory_order_acq_rel) != 1)
        return;
    if (o->rt)
        loom__dt_release(o->rt);
    if (o->exposed) /* the target has read it */
        loom__net_unexpose(&o->region);
    free(o->tmp);
    if (o->req)
        loom__req_complete(o->req);
    if (o->acc_read) /* release: as pending's below */
        loom__fetch_sub_acq_rel(&o->w->acc_reads, 1);
    struct loom_rank *owner = o->owner;
    _Atomic long *pending = &o->w->pending;
    free(o);
    /* release: the data the answers brought is in place before a flush sees 0. The window
     * may be freed once it is seen: nothing of it is touched afterwards. */
    loom__fetch_sub_acq_rel(pending, 1);
    loom__event_notify(&owner->event);
}

void loom__rma_net_answered(uint64_t cookie, const void *data, size_t offset, size_t len)
{
    struct netop *o = (struct netop *)(uintptr_t)cookie;
    if (data != NULL && len > 0)
        loom__dt_unpack(o->raddr, o->rt, o->rcount, (const char *)data - offset, offset, len);
    answered(o);
}

void loom__rma_net_refused(uint64_t cookie, uint64_t addr)
{
    struct netop *o = (struct netop *)(uintptr_t)cookie;
    struct loom_win *w = o->w; /* alive: o is still counted in its pending */
    pthread_mutex_lock(&w->attr_lock);
    if (!atomic_load_explicit(&w->refused, memory_order_relaxed)) {
        w->refused_target = o->target;
        w->refused_addr = addr;
        atomic_store_explicit(&w->refused, 1, memory_order_relaxed);
    }
    pthread_mutex_unlock(&w->attr_lock);
    answered(o); /* its release publishes the refusal to the flush that sees pending 0 */
}

int loom__rma_net_refusal(struct loom_win *w, int *target, uint64_t *addr)
{
    if (!atomic_load_explicit(&w->refused, memory_order_relaxed))
        return 0;
    pthread_mutex_lock(&w->attr_lock);
    int was = atomic_load_explicit(&w->refused, memory_order_relaxed);
    *target = w->refused_target;
    *addr = w->refused_addr;
    atomic_store_explicit(&w->refused, 0, memory_order_relaxed);
    pthread_mutex_unlock(&w->attr_lock);
    return was;
}

/* What one operation sends: its kind, where it goes, its element type and operation. */
struct plan {
    struct loom_rma_msg m;       /* the fields every piece shares */
    int node;
    int carries;                 /* pieces carry the origin's data */
    int fetches;                 /* answers carry data */
    const void *oaddr;           /* the origin's data, when carried */
    size_t ocount;
    const struct loom_datatype *ot;
};

/* A request that cannot be posted (no memory for the backlog) after others of its operation
 * were: they cannot be taken back, so the job ends. */
static _Noreturn void lost(void)
{
    loom__rma_net_nomem("sending a one-sided operation to another node process");
}

/* The stream bytes of run i (u units of it taken) that fit in a piece holding nruns runs and
 * len bytes already; 0 when none does. */
static size_t fits(const struct plan *p, const struct loom_rma_runs *R, size_t room,
                   size_t nruns, size_t len, size_t avail)
{
    size_t need = (nruns + 1) * sizeof(struct loom_rma_run) + (p->carries ? len : 0);
    if (need >= room || (p->fetches && len >= room))
        return 0;
    size_t fit = room - need; /* in the request (a get's runs only need to fit) */
    if (!p->carries)
        fit = SIZE_MAX;
    if (p->fetches && room - len < fit)
        fit = room - len; /* in the answer */
    size_t k = fit == SIZE_MAX ? avail : fit / R->unit;
    return k < avail ? k : avail;
}

/* Post the pieces of the runs in R, each with its runs and, when carried, its part of the
 * origin's packed stream; then let go of the issuer's hold. */
static void send_pieces(struct plan *p, const struct loom_rma_runs *R, struct netop *o)
{
    const size_t hdr = sizeof(struct loom_rma_msg), runsz = sizeof(struct loom_rma_run);
    size_t room = loom__net_eager_max() - hdr; /* checked: room for a run and an element */
    /* the largest piece this operation makes: a small one's buffer is small */
    size_t need = R->n * runsz + (p->carries ? p->ocount * p->ot->size : 0);
    char *buf = malloc(hdr + (need < room ? need : room));
    if (buf == NULL && R->n > 0)
        lost();
    size_t i = 0, u = 0, off = 0;
    while (i < R->n) {
        struct loom_rma_run *runs = (struct loom_rma_run *)(buf + hdr);
        size_t nruns = 0, len = 0, k;
        while (i < R->n && (k = fits(p, R, room, nruns, len, R->v[i].n - u)) > 0) {
            runs[nruns++] = (struct loom_rma_run){R->v[i].addr + u * R->step, k};
            len += k * R->unit;
            u += k;
            if (u == R->v[i].n) {
                i++;
                u = 0;
            }
        }
        struct loom_rma_msg m = p->m;
        m.cookie = (uint64_t)(uintptr_t)o;
        m.offset = off;
        m.len = len;
        m.nruns = nruns;
        memcpy(buf, &m, hdr);
        size_t total = hdr + nruns * runsz;
        if (p->carries && len > 0) {
            /* the packed side's byte `off` is at buf + total */
            loom__dt_pack(buf + total - off, p->oaddr, p->ot, p->ocount, off, len);
            total += len;
        }
        atomic_fetch_add_explicit(&o->left, 1, memory_order_relaxed);
        if (loom__net_rma_send(p->node, 0, buf, total) != 0)
            lost();
        off += len;
    }
    free(buf);
    answered(o);
}

/* On a dynamic window, the target bytes of count elements of t at taddr, which the target's
 * node process checks against the regions attached there (rma/net_target.c). The origin's
 * check (rma/target.c) already refused a range that overflows. */
static void plan_span(struct plan *p, const struct loom_win *w, const struct loom_datatype *t,
                      size_t count, const char *taddr)
{
    ptrdiff_t lo, hi;
    if (w->sh->flavor != MPI_WIN_FLAVOR_DYNAMIC || count == 0 || t->size == 0 ||
        loom__rma_span(t, count, &lo, &hi) != 0)
        return;
    p->m.span_lo = (uint64_t)(uintptr_t)taddr + (uint64_t)lo;
    p->m.span_hi = (uint64_t)(uintptr_t)taddr + (uint64_t)hi;
}

static void plan_init(struct plan *p, struct loom_win *w, int r, int kind)
{
    memset(p, 0, sizeof *p);
    p->m.kind = (uint32_t)kind;
    p->m.target = r;
    p->m.origin = w->rank;
    p->m.win = w->sh->net_id;
    p->node = w->sh->seg[r].node;
}

/* The one request of an operation moved by a read: header m (its kind and, for a put or an
 * accumulate, where the data is exposed) and all the runs of R, for len bytes of stream; then
 * the issuer's hold goes. */
static void send_runs(const struct plan *p, struct loom_rma_msg *m,
                      const struct loom_rma_runs *R, struct netop *o, size_t len)
{
    const size_t hdr = sizeof *m, runsz = sizeof(struct loom_rma_run);
    char *buf = malloc(hdr + R->n * runsz);
    if (buf == NULL)
        lost();
    m->cookie = (uint64_t)(uintptr_t)o;
    m->len = len;
    m->nruns = R->n;
    memcpy(buf, m, hdr);
    memcpy(buf + hdr, R->v, R->n * runsz);
    atomic_fetch_add_explicit(&o->left, 1, memory_order_relaxed);
    if (loom__net_rma_send(p->node, 0, buf, hdr + R->n * runsz) != 0)
        lost();
    free(buf);
    answered(o);
}

/* A put or an accumulate whose data takes more than one message, and whose runs fit in one:
 * exposed (the origin's buffer itself when contiguous, else a packed copy) for the target's
 * node process to read, as loom's rendezvous does for messages. 1 when sent so; 0 to send
 * pieces instead (the runs do not fit, or the data cannot be exposed). */
static int by_read(struct plan *p, const struct loom_rma_runs *R, struct netop *o)
{
    const size_t hdr = sizeof(struct loom_rma_msg), runsz = sizeof(struct loom_rma_run);
    if ((p->m.kind != LOOM_RMA_M_PUT && p->m.kind != LOOM_RMA_M_ACC) || !p->carries)
        return 0;
    size_t room = loom__net_eager_max() - hdr, len = p->ocount * p->ot->size;
    if (len + runsz <= room || R->n * runsz > room)
        return 0;
    const void *data = (const char *)p->oaddr + p->ot->true_lb;
    if (!p->ot->contig) {
        if ((o->tmp = malloc(len)) == NULL)
            return 0;
        loom__dt_pack(o->tmp, p->oaddr, p->ot, p->ocount, 0, len);
        data = o->tmp;
    }
    if (loom__net_expose(data, len, &o->region) != 0) {
        free(o->tmp);
        o->tmp = NULL;
        return 0;
    }
    o->exposed = 1;
    if (p->m.kind == LOOM_RMA_M_ACC) {
        o->acc_read = 1;
        loom__fetch_add_relaxed(&o->w->acc_reads, 1);
    }
    struct loom_rma_msg m = p->m;
    m.kind = p->m.kind == LOOM_RMA_M_PUT ? LOOM_RMA_M_PUT_READ : LOOM_RMA_M_ACC_READ;
    m.raddr = o->region.addr;
    m.rkey = o->region.key;
    send_runs(p, &m, R, o, len);
    return 1;
}

/* A get whose data takes more than one message, and whose runs fit in one: the target's node
 * process exposes the data and this one reads it (loom__rma_net_exposed), into the origin's
 * buffer when it is contiguous, else into a copy unpacked when it lands. 1 when sent so; 0
 * to send pieces instead. */
static int get_by_read(struct plan *p, const struct loom_rma_runs *R, struct netop *o)
{
    const size_t hdr = sizeof(struct loom_rma_msg), runsz = sizeof(struct loom_rma_run);
    if (p->m.kind != LOOM_RMA_M_GET)
        return 0;
    size_t room = loom__net_eager_max() - hdr, len = o->rcount * o->rt->size;
    if (len <= room || R->n * runsz > room)
        return 0;
    if (!o->rt->contig && (o->tmp = malloc(len)) == NULL)
        return 0;
    struct loom_rma_msg m = p->m;
    m.kind = LOOM_RMA_M_GET_READ;
    send_runs(p, &m, R, o, len);
    return 1;
}

/* The read of a get's data that the target's node process exposed. Freed when it lands. */
struct get_read {
    struct loom_net_read read; /* first: what the completion calls */
    struct netop *o;
    int node;
    size_t len;
    struct loom_rma_msg done;  /* the GET_DONE that lets the target's copy go */
};

static void get_landed(struct loom_net_read *read)
{
    struct get_read *g = (struct get_read *)read;
    struct netop *o = g->o;
    if (o->tmp)
        loom__dt_unpack(o->raddr, o->rt, o->rcount, o->tmp, 0, g->len);
    if (loom__net_rma_send(g->node, 0, &g->done, sizeof g->done) != 0)
        lost();
    free(g);
    answered(o); /* the answer of its GET_READ */
}

void loom__rma_net_exposed(int node, const struct loom_rma_msg *m)
{
    struct netop *o = (struct netop *)(uintptr_t)m->cookie;
    struct get_read *g = malloc(sizeof *g); /* freed when landed */
    if (g == NULL)
        loom__rma_net_nomem("reading a one-sided get");
    g->read.done = get_landed;
    g->o = o;
    g->node = node;
    g->len = (size_t)m->len;
    memset(&g->done, 0, sizeof g->done);
    g->done.kind = LOOM_RMA_M_GET_DONE;
    g->done.target = o->target;
    g->done.origin = o->w->rank;
    g->done.win = o->w->sh->net_id;
    g->done.cookie = m->offset;
    void *local = o->tmp ? o->tmp : (char *)o->raddr + o->rt->true_lb;
    if (loom__net_rma_read(node, local, g->len, m->raddr, m->rkey, &g->read) != 0)
        loom__rma_net_nomem("reading a one-sided get");
}

/* The runs of the target side, or why not; then the operation's record (nothing is sent
 * when either fails), then its pieces. */
static int issue(struct plan *p, struct loom_win *w, const struct loom_datatype *tt,
                 size_t tcount, char *taddr, const struct loom_datatype *atom,
                 struct loom_request *req, void *raddr, size_t rcount, struct loom_datatype *rt)
{
    struct loom_rma_runs R;
    plan_span(p, w, tt, tcount, taddr);
    int rc = loom__rma_runs(&R, tt, tcount, (uintptr_t)taddr, atom);
    if (rc == 0 && loom__net_eager_max() < sizeof(struct loom_rma_msg) +
                                               sizeof(struct loom_rma_run) + R.unit)
        rc = LOOM_ERR_NOMEM; /* no network message holds one element */
    struct netop *o = rc == 0 ? op_new(w, p->m.target, req, raddr, rcount, rt) : NULL;
    if (rc == 0 && o == NULL)
        rc = LOOM_ERR_NOMEM;
    if (rc == 0 && !by_read(p, &R, o) && !get_by_read(p, &R, o))
        send_pieces(p, &R, o);
    free(R.v);
    return rc;
}

int loom__rma_net_xfer(struct loom_win *w, int r, int get, void *oaddr, size_t ocount,
                       struct loom_datatype *ot, char *taddr, size_t tcount,
                       struct loom_datatype *tt, struct loom_request *req)
{
    struct plan p;
    plan_init(&p, w, r, get ? LOOM_RMA_M_GET : LOOM_RMA_M_PUT);
    p.carries = !get;
    p.fetches = get;
    p.oaddr = oaddr;
    p.ocount = ocount;
    p.ot = ot;
    return issue(&p, w, tt, tcount, taddr, NULL, req, get ? oaddr : NULL, ocount,
                 get ? ot : NULL);
}

static int acc_reads_done(void *arg)
{
    struct loom_win *w = arg;
    return loom__load_acquire(&w->acc_reads) == 0; /* pairs with the release in answered() */
}

/* Accumulates of one origin on a target are carried out in the order they were issued (the
 * default accumulate_ordering, which loom always keeps). Messages from one node process are
 * carried out in order, but an accumulate read by the target (by_read) is applied when its
 * read lands, which may be after later messages: so an accumulate waits until this origin's
 * read accumulates have been answered. */
static void acc_in_order(struct loom_win *w)
{
    if (loom__load_relaxed(&w->acc_reads) != 0)
        loom__wait_until(&loom__self->event, acc_reads_done, w);
}

/* The fixed Fortran handle of a predefined object: the same number in every node process. */
static int32_t fixed_id(void *obj)
{
    int32_t id = loom__fhandle_of(obj);
    return id > 0 && id <= LOOM_FHANDLE_FIXED_LAST ? id : -1;
}

int loom__rma_net_acc(struct loom_win *w, int r, const void *oaddr, size_t ocount,
                      struct loom_datatype *ot, void *raddr, size_t rcount,
                      struct loom_datatype *rt, char *taddr, size_t tcount,
                      struct loom_datatype *tt, struct loom_op *op, struct loom_request *req)
{
    const struct loom_datatype *et = loom__op_elem_type(tt);
    int32_t type = et ? fixed_id((void *)et) : -1, opid = fixed_id(op);
    if (type < 0 || opid < 0)
        return LOOM_ERR_TYPE; /* checked before: a predefined type and operation */
    acc_in_order(w);
    struct plan p;
    plan_init(&p, w, r, rt ? LOOM_RMA_M_GACC : LOOM_RMA_M_ACC);
    p.m.type = type;
    p.m.op = opid;
    p.carries = ot != NULL;
    p.m.flags = p.carries;
    p.fetches = rt != NULL;
    p.oaddr = oaddr;
    p.ocount = ocount;
    p.ot = ot;
    return issue(&p, w, tt, tcount, taddr, et, req, raddr, rcount, rt);
}

/* A compare-and-swap: one element, the origin's value and the compare value. */
struct cas_msg {
    struct loom_rma_msg m;
    struct loom_rma_run run;
    char values[2 * LOOM_RMA_MAX_ELEM];
};

int loom__rma_net_cas(struct loom_win *w, int r, const void *origin, const void *compare,
                      void *result, struct loom_datatype *t, char *taddr)
{
    int32_t type = fixed_id(t);
    if (type < 0)
        return LOOM_ERR_TYPE;
    acc_in_order(w);
    struct plan p;
    plan_init(&p, w, r, LOOM_RMA_M_CAS);
    plan_span(&p, w, t, 1, taddr);
    struct cas_msg msg;
    memset(&msg, 0, sizeof msg);
    msg.m = p.m;
    msg.m.type = type;
    msg.m.len = t->size;
    msg.m.nruns = 1;
    msg.run = (struct loom_rma_run){(uintptr_t)taddr, 1};
    memcpy(msg.values, origin, t->size);
    memcpy(msg.values + t->size, compare, t->size);
    struct netop *o = op_new(w, r, NULL, result, 1, t);
    if (o == NULL)
        return LOOM_ERR_NOMEM;
    msg.m.cookie = (uint64_t)(uintptr_t)o;
    atomic_fetch_add_explicit(&o->left, 1, memory_order_relaxed);
    if (loom__net_rma_send(p.node, 0, &msg, offsetof(struct cas_msg, values) + 2 * t->size))
        lost();
    answered(o);
    return 0;
}
