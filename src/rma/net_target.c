/* rma/net_target.c — one-sided operations from origins of other node processes, carried out
 * by this node process's poller on its members' memory (rma/net_msg.h), and the replies that
 * come back to this node process's origins.
 *
 * The thread that polls (any waiting rank, the network thread or a progress thread: whoever
 * holds the network's poll lock) runs these one message at a time, in the order each node
 * process sent them, never waiting: a put is a copy into the target's memory, an accumulate
 * the same element-wise operation under the same address stripes as a local origin's (so the
 * two never tear an element), a lock request one try of the lock word, queued on the lock
 * when it fails; the release that frees the lock grants it (loom__rma_net_grant). The target
 * rank takes no part: its memory changes while it computes, as with a local origin.
 *
 * Memory model: the poller's stores are made under the network's poll lock, before it posts
 * the answer; whatever the origin orders after the answer (its fence's barrier, its unlock, its
 * MPI_Win_complete) reaches this node process as a later message, handled under the same lock
 * after these stores, and reaches the target rank through that message's own release/acquire
 * (a barrier's, a lock word's, expo_done's). */
#include <stdlib.h>
#include <string.h>
#include "coll/op.h"
#include "core/atomic.h"
#include "core/event.h"
#include "core/fhandle.h"
#include "core/fhandle_fixed.h"
#include "core/lock.h"
#include "core/rank.h"
#include "dt/dt.h"
#include "net/net.h"
#include "rma/net_msg.h"
#include "rma/rma.h"

/* An origin of another node process waiting for a lock (on the lock's rwaiters, under wl). */
struct loom_rma_rwaiter {
    int node;
    int exclusive;
    uint64_t cookie;
    struct loom_rma_rwaiter *next;
};

_Noreturn void loom__rma_net_nomem(const char *doing)
{
    loom__log("out of memory %s; ending the job", doing);
    loom__net_abort(1, "out of memory");
}

/* A message no loom node process sends: the job ends, naming the sender. */
static _Noreturn void fail(int node, const char *why)
{
    loom__log("node process %d sent %s; ending the job", node, why);
    loom__net_abort(1, why);
}

/* Answer the piece of `cookie`: the header alone (buf NULL), or buf, which holds room for
 * the header in front of its len bytes of data. */
static void reply(int node, uint32_t kind, uint64_t cookie, size_t offset, size_t len,
                  char *buf)
{
    struct loom_rma_msg m = {0};
    m.kind = kind;
    m.cookie = cookie;
    m.offset = offset;
    m.len = len;
    int rc;
    if (buf == NULL) {
        rc = loom__net_rma_send(node, 1, &m, sizeof m);
    } else {
        memcpy(buf, &m, sizeof m);
        rc = loom__net_rma_send(node, 1, buf, sizeof m + len);
    }
    if (rc != 0)
        loom__rma_net_nomem("answering a one-sided operation");
}

static void *object(int32_t id, enum loom_magic kind, int node)
{
    void *o = id > 0 && id <= LOOM_FHANDLE_FIXED_LAST ? loom__fhandle_object(id, NULL) : NULL;
    if (o == NULL || !loom__object_is(o, kind))
        fail(node, "a one-sided message naming no predefined datatype or operation");
    return o;
}

/* The accumulate of n elements of t (packed at in, NULL for MPI_NO_OP) into the target's
 * elements at p, their old values packed at out (NULL: not asked). A type with holes goes
 * through its memory layout. */
static void acc_run(const struct loom_datatype *t, const struct loom_op *op, char *p,
                    const char *in, char *out, size_t n, int node)
{
    if (t->contig) {
        if (loom__rma_accumulate(in, n, in ? t : NULL, out, n, out ? t : NULL, p, n, t, op))
            fail(node, "a one-sided accumulate with an operation its type does not have");
        return;
    }
    size_t bytes = n * (size_t)t->extent;
    char *tin = in ? malloc(bytes) : NULL, *tout = out ? malloc(bytes) : NULL;
    if ((in && !tin) || (out && !tout))
        loom__rma_net_nomem("carrying out a one-sided accumulate");
    if (in)
        loom__dt_unpack(tin, t, n, in, 0, n * t->size);
    if (loom__rma_accumulate(tin, n, in ? t : NULL, tout, n, out ? t : NULL, p, n, t, op))
        fail(node, "a one-sided accumulate with an operation its type does not have");
    if (out)
        loom__dt_pack(out, tout, t, n, 0, n * t->size);
    free(tin);
    free(tout);
}

/* Run i of a message's runs (read where they lie: nothing is copied or allocated for them). */
static struct loom_rma_run run_at(const char *runs, uint64_t i)
{
    struct loom_rma_run r;
    memcpy(&r, runs + i * sizeof r, sizeof r);
    return r;
}

/* A dynamic window's target memory is known only here, where it was attached: a piece is
 * carried out only when its whole operation's target bytes lie inside one region the target
 * attached, as an origin of this node process checks (rma/target.c); every piece of an
 * operation carries the same range, so all of them are refused or none. 1 when refused. */
static int refused(int node, const struct loom_rma_msg *m, struct loom_win_seg *dyn)
{
    if (dyn == NULL || (m->span_lo < m->span_hi &&
                        loom__rma_in_region(dyn, (uintptr_t)m->span_lo,
                                            (uintptr_t)m->span_hi)))
        return 0;
    reply(node, LOOM_RMA_R_REFUSED, m->cookie, m->span_lo, 0, NULL);
    return 1;
}

/* Carry out `kind` (PUT, GET, ACC or GACC) over nruns runs (read where they lie) of units of
 * t's elements (bytes when t is NULL): stores from data, loads into out, or the accumulate of
 * op from data (NULL for MPI_NO_OP) with the old values into out (NULL: not asked); data and
 * out hold len bytes of stream. Pieces from the wire and data landed by a read go through it. */
static void carry(int node, uint32_t kind, const struct loom_datatype *t,
                  const struct loom_op *op, const char *runs, uint64_t nruns, const char *data,
                  char *out, size_t len)
{
    size_t unit = t ? t->size : 1, pos = 0;
    for (uint64_t i = 0; i < nruns; i++) {
        struct loom_rma_run r = run_at(runs, i);
        char *p = (char *)(uintptr_t)r.addr;
        size_t n = (size_t)r.n, bytes = n * unit;
        if (n > len / unit || pos + bytes > len)
            fail(node, "a one-sided message whose runs exceed its data");
        if (kind == LOOM_RMA_M_PUT)
            memcpy(p, data + pos, bytes);
        else if (kind == LOOM_RMA_M_GET)
            memcpy(out + pos, p, bytes);
        else
            acc_run(t, op, p, data ? data + pos : NULL, out ? out + pos : NULL, n, node);
        pos += bytes;
    }
}

/* The answers small enough to be built on the poller's stack (a fetch-and-op's, a small
 * get's); larger ones take the heap. */
enum { SMALL_ANSWER = 256 };

/* PUT, GET, ACC, GACC, CAS: carry out the piece, then answer it (dyn: the target's part of a
 * dynamic window, else NULL). */
static void operate(int node, const struct loom_rma_msg *m, const char *runs, const char *data,
                    struct loom_win_seg *dyn)
{
    const struct loom_datatype *t = NULL;
    const struct loom_op *op = NULL;
    if (m->kind == LOOM_RMA_M_ACC || m->kind == LOOM_RMA_M_GACC || m->kind == LOOM_RMA_M_CAS)
        t = object(m->type, LOOM_MAGIC_DATATYPE, node);
    if (m->kind == LOOM_RMA_M_ACC || m->kind == LOOM_RMA_M_GACC)
        op = object(m->op, LOOM_MAGIC_OP, node);
    int fetch = m->kind == LOOM_RMA_M_GET || m->kind == LOOM_RMA_M_GACC ||
                m->kind == LOOM_RMA_M_CAS;
    if (refused(node, m, dyn))
        return;
    _Alignas(16) char small[sizeof *m + SMALL_ANSWER];
    char *buf = NULL, *out = NULL;
    if (fetch) {
        buf = m->len <= SMALL_ANSWER ? small : malloc(sizeof *m + m->len);
        if (buf == NULL)
            loom__rma_net_nomem("answering a one-sided operation");
        out = buf + sizeof *m;
    }
    if (m->kind == LOOM_RMA_M_CAS) {
        loom__rma_compare_swap((char *)(uintptr_t)run_at(runs, 0).addr, t, data,
                               data + t->size, out);
    } else {
        int carries = m->kind == LOOM_RMA_M_PUT || m->kind == LOOM_RMA_M_ACC ||
                      (m->kind == LOOM_RMA_M_GACC && (m->flags & 1));
        carry(node, m->kind, t, op, runs, m->nruns, carries ? data : NULL, out, m->len);
    }
    reply(node, fetch ? LOOM_RMA_R_DATA : LOOM_RMA_R_ACK, m->cookie, m->offset,
          fetch ? m->len : 0, buf);
    if (buf != small)
        free(buf);
}

/* PUT_READ, ACC_READ: a read of the origin's data in flight, into the target's memory (a put
 * of one run) or a copy to scatter over the runs, or to accumulate from, once it has landed.
 * Freed by its completion, which the polling thread runs. */
struct data_read {
    struct loom_net_read read; /* first: what the completion calls */
    int node;
    uint64_t cookie;
    const struct loom_datatype *t; /* an accumulate's element type and operation; NULL for */
    const struct loom_op *op;      /* a put (its runs count bytes) */
    char *tmp;                     /* NULL when the read lands in place */
    size_t len, nruns;
    char runs[];                   /* as the message held them */
};

static void data_landed(struct loom_net_read *read)
{
    struct data_read *dr = (struct data_read *)read;
    if (dr->tmp != NULL)
        carry(dr->node, dr->t ? LOOM_RMA_M_ACC : LOOM_RMA_M_PUT, dr->t, dr->op, dr->runs,
              dr->nruns, dr->tmp, NULL, dr->len);
    free(dr->tmp);
    reply(dr->node, LOOM_RMA_R_ACK, dr->cookie, 0, 0, NULL);
    free(dr);
}

static void data_read(int node, const struct loom_rma_msg *m, const char *runs,
                      struct loom_win_seg *dyn)
{
    size_t n = (size_t)m->nruns, total = 0;
    const struct loom_datatype *t = NULL;
    const struct loom_op *op = NULL;
    if (m->kind == LOOM_RMA_M_ACC_READ) {
        t = object(m->type, LOOM_MAGIC_DATATYPE, node);
        op = object(m->op, LOOM_MAGIC_OP, node);
    }
    if (refused(node, m, dyn))
        return;
    size_t runsz = n * sizeof(struct loom_rma_run);
    struct data_read *dr = malloc(sizeof *dr + runsz); /* freed when landed */
    if (dr == NULL)
        loom__rma_net_nomem("carrying out a one-sided put or accumulate");
    memcpy(dr->runs, runs, runsz);
    for (size_t i = 0; i < n; i++)
        total += (size_t)run_at(runs, i).n;
    if (n == 0 || (t ? total > m->len / t->size || total * t->size != m->len : total != m->len))
        fail(node, "a one-sided put or accumulate whose runs do not hold its data");
    dr->read.done = data_landed;
    dr->len = m->len;
    dr->node = node;
    dr->cookie = m->cookie;
    dr->t = t;
    dr->op = op;
    dr->nruns = n;
    dr->tmp = n == 1 && t == NULL ? NULL : malloc(m->len);
    if (dr->tmp == NULL && (n > 1 || t != NULL))
        loom__rma_net_nomem("carrying out a one-sided put or accumulate");
    void *local = dr->tmp ? dr->tmp : (void *)(uintptr_t)run_at(runs, 0).addr;
    if (loom__net_rma_read(node, local, m->len, m->raddr, m->rkey, &dr->read) != 0)
        loom__rma_net_nomem("reading a one-sided put or accumulate");
}

/* GET_READ: the data a get asks for, exposed until the origin has read it (GET_DONE). */
struct lent {
    struct loom_net_region region;
    char *tmp; /* a packed copy of several runs, or NULL: the target's memory itself */
};

static void get_expose(int node, const struct loom_rma_msg *m, const char *runs,
                       struct loom_win_seg *dyn)
{
    size_t n = (size_t)m->nruns, total = 0;
    if (refused(node, m, dyn))
        return;
    for (size_t i = 0; i < n; i++)
        total += (size_t)run_at(runs, i).n;
    if (n == 0 || total != m->len)
        fail(node, "a one-sided get whose runs do not hold its data");
    struct lent *l = malloc(sizeof *l); /* freed by GET_DONE */
    if (l == NULL)
        loom__rma_net_nomem("exposing a one-sided get's data");
    l->tmp = NULL;
    const void *data = (const void *)(uintptr_t)run_at(runs, 0).addr;
    if (n > 1) {
        if ((l->tmp = malloc(m->len)) == NULL)
            loom__rma_net_nomem("exposing a one-sided get's data");
        carry(node, LOOM_RMA_M_GET, NULL, NULL, runs, n, NULL, l->tmp, m->len);
        data = l->tmp;
    }
    if (loom__net_expose(data, m->len, &l->region) != 0)
        loom__rma_net_nomem("exposing a one-sided get's data");
    struct loom_rma_msg a = {0};
    a.kind = LOOM_RMA_R_EXPOSED;
    a.cookie = m->cookie;
    a.offset = (uint64_t)(uintptr_t)l;
    a.len = m->len;
    a.raddr = l->region.addr;
    a.rkey = l->region.key;
    if (loom__net_rma_send(node, 1, &a, sizeof a) != 0)
        loom__rma_net_nomem("answering a one-sided get");
}

static void get_done(const struct loom_rma_msg *m)
{
    struct lent *l = (struct lent *)(uintptr_t)m->cookie;
    loom__net_unexpose(&l->region);
    free(l->tmp);
    free(l);
}

/* LOCK: take it now, or queue the request for a release to grant. Counted in nwaiters (seq_cst)
 * before it is queued, so that a release after that sees it (lock.c's rule); a release before
 * may have missed it, so it is tried once more on its behalf, as a release would. */
static void lock_request(int node, struct loom_rma_lock *l, int exclusive, uint64_t cookie)
{
    if (loom__rma_lock_try(l, exclusive)) {
        reply(node, LOOM_RMA_R_GRANT, cookie, 0, 0, NULL);
        return;
    }
    struct loom_rma_rwaiter *me = malloc(sizeof *me); /* freed when granted */
    if (me == NULL)
        loom__rma_net_nomem("queueing a lock request");
    *me = (struct loom_rma_rwaiter){node, exclusive, cookie, NULL};
    loom__lock(&l->wl);
    atomic_fetch_add_explicit(&l->nwaiters, 1, memory_order_seq_cst);
    struct loom_rma_rwaiter **tail = &l->rwaiters;
    while (*tail != NULL)
        tail = &(*tail)->next;
    *tail = me;
    loom__unlock(&l->wl);
    loom__rma_net_grant(l);
}

void loom__rma_net_grant(struct loom_rma_lock *l)
{
    struct loom_rma_rwaiter *granted = NULL, **gtail = &granted;
    loom__lock(&l->wl);
    /* oldest first; the first that cannot take it stops the others (no overtaking) */
    while (l->rwaiters != NULL && loom__rma_lock_try(l, l->rwaiters->exclusive)) {
        struct loom_rma_rwaiter *g = l->rwaiters;
        l->rwaiters = g->next;
        g->next = NULL;
        *gtail = g;
        gtail = &g->next;
        atomic_fetch_sub_explicit(&l->nwaiters, 1, memory_order_relaxed);
    }
    loom__unlock(&l->wl);
    while (granted != NULL) { /* posted outside wl, a leaf lock */
        struct loom_rma_rwaiter *g = granted;
        granted = g->next;
        reply(g->node, LOOM_RMA_R_GRANT, g->cookie, 0, 0, NULL);
        free(g);
    }
}

/* POST: `origin`, a rank of this node process, may take the epoch of `target`. */
static void posted(struct loom_win_shared *sh, int target, int origin)
{
    struct loom_win_seg *s = &sh->seg[target];
    loom__lock(&s->expo_lock);
    if (s->nrposts == s->caprposts) {
        int cap = s->caprposts ? 2 * s->caprposts : 4;
        int *v = realloc(s->rposts, (size_t)cap * sizeof *v); /* freed with the window */
        if (v == NULL)
            loom__rma_net_nomem("receiving MPI_Win_post");
        s->rposts = v;
        s->caprposts = cap;
    }
    s->rposts[s->nrposts++] = origin;
    loom__unlock(&s->expo_lock);
    loom__event_notify(&loom__job.ranks[sh->world_of[origin]].event);
}

static void request(int node, const struct loom_rma_msg *m, const char *rest, size_t restlen)
{
    struct loom_win_shared *sh = loom__win_net_enter(m->win);
    /* the member the message is for runs here: the origin of a POST, else the target */
    int here = m->kind == LOOM_RMA_M_POST ? m->origin : m->target;
    if (sh == NULL || m->target < 0 || m->target >= sh->size || m->origin < 0 ||
        m->origin >= sh->size || sh->seg[here].remote)
        fail(node, "a one-sided message for a window or rank this node process does not have");
    struct loom_win_seg *s = &sh->seg[m->target];
    struct loom_win_seg *dyn = sh->flavor == MPI_WIN_FLAVOR_DYNAMIC ? s : NULL;
    switch (m->kind) {
    case LOOM_RMA_M_PUT:
    case LOOM_RMA_M_GET:
    case LOOM_RMA_M_ACC:
    case LOOM_RMA_M_GACC:
    case LOOM_RMA_M_CAS: {
        size_t runs = (size_t)m->nruns * sizeof(struct loom_rma_run);
        int carries = m->kind != LOOM_RMA_M_GET &&
                      (m->kind != LOOM_RMA_M_GACC || (m->flags & 1));
        size_t data = m->kind == LOOM_RMA_M_CAS ? 2 * m->len : carries ? m->len : 0;
        if (m->nruns > restlen / sizeof(struct loom_rma_run) || runs + data > restlen ||
            (m->kind == LOOM_RMA_M_CAS && (m->nruns != 1 || m->len > LOOM_RMA_MAX_ELEM)))
            fail(node, "a one-sided message that does not hold what it says");
        operate(node, m, rest, rest + runs, dyn);
        break;
    }
    case LOOM_RMA_M_PUT_READ:
    case LOOM_RMA_M_ACC_READ:
        if (m->nruns > restlen / sizeof(struct loom_rma_run))
            fail(node, "a one-sided message that does not hold what it says");
        data_read(node, m, rest, dyn);
        break;
    case LOOM_RMA_M_GET_READ:
        if (m->nruns > restlen / sizeof(struct loom_rma_run))
            fail(node, "a one-sided message that does not hold what it says");
        get_expose(node, m, rest, dyn);
        break;
    case LOOM_RMA_M_GET_DONE:
        get_done(m);
        break;
    case LOOM_RMA_M_LOCK:
        lock_request(node, &s->lock, (int)(m->flags & 1), m->cookie);
        break;
    case LOOM_RMA_M_UNLOCK:
        loom__rma_lock_release(&s->lock, (int)(m->flags & 1));
        break;
    case LOOM_RMA_M_POST:
        posted(sh, m->target, m->origin);
        break;
    case LOOM_RMA_M_COMPLETE:
        /* release: the origin's operations, carried out before this message, happen before
         * the target's MPI_Win_wait returns (its acquire) */
        loom__fetch_add_acq_rel(&s->expo_done, 1);
        loom__event_notify(&loom__job.ranks[sh->world_of[m->target]].event);
        break;
    default:
        fail(node, "a one-sided message of an unknown kind");
    }
    loom__win_net_exit();
}

void loom__rma_net_recv(int node, int reply_, const void *msg, size_t len)
{
    struct loom_rma_msg m;
    if (len < sizeof m)
        fail(node, "a one-sided message shorter than its header");
    memcpy(&m, msg, sizeof m);
    const char *rest = (const char *)msg + sizeof m;
    if (!reply_) {
        request(node, &m, rest, len - sizeof m);
        return;
    }
    switch (m.kind) {
    case LOOM_RMA_R_ACK:
        loom__rma_net_answered(m.cookie, NULL, 0, 0);
        break;
    case LOOM_RMA_R_DATA:
        if (len - sizeof m < m.len)
            fail(node, "a one-sided reply shorter than its data");
        loom__rma_net_answered(m.cookie, rest, (size_t)m.offset, (size_t)m.len);
        break;
    case LOOM_RMA_R_GRANT:
        loom__rma_net_granted(m.cookie);
        break;
    case LOOM_RMA_R_EXPOSED:
        loom__rma_net_exposed(node, &m);
        break;
    case LOOM_RMA_R_REFUSED:
        loom__rma_net_refused(m.cookie, m.offset);
        break;
    default:
        fail(node, "a one-sided reply of an unknown kind");
    }
}
