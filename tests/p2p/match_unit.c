/* tests/p2p/match_unit.c — how a drainer matches a cell (loom__p2p_match_cell), without
 * ranks: one ring, one receiving queue, receives made by hand.
 *  1. a cell nobody wants goes to the unexpected queue, whole (an envelope with its data);
 *  2. the receive being posted (`want`) takes a cell it matches while both queues are empty,
 *     and its completion is the plain one when the request is `unseen` (nobody else knows it);
 *  3. it does not take the cell while an older message it matches waits in the unexpected
 *     queue, even from the same sender (non-overtaking, MPI 4.1 section 3.5): the cell joins
 *     the queue behind it. This is the check that lets the first case go without the queue
 *     lock (the queue lengths, read after the cell was acquired); without it the receive
 *     would take the newer message;
 *  4. it does not take a cell of another tag: the cell goes to the queue. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "check.h"
#include "core/rank.h"
#include "p2p/p2p.h"
#include "p2p/request.h"
#include "p2p/ring.h"
#include "ring_check.h"

enum { TAG = 5 };

static struct loom_rank receiver; /* only its event is touched (a probe may wait on it) */

/* A context of one rank whose queues are empty. */
static struct loom_p2p_ctx *ctx_new(void)
{
    struct loom_p2p_ctx *ctx = aligned_alloc(64, sizeof *ctx + sizeof(struct loom_match));
    CHECK(ctx != NULL);
    memset(ctx, 0, sizeof *ctx + sizeof(struct loom_match));
    ctx->size = 1;
    struct loom_match *m = &ctx->match[0];
    m->posted_tail = &m->posted;
    m->unexpected_tail = &m->unexpected;
    m->rank = &receiver;
    return ctx;
}

/* Put message `fill` (8 bytes of it) from rank 0 with `tag` into g; its position. */
static uint32_t put(struct loom_ring *g, struct loom_match *m, int tag, unsigned char fill)
{
    unsigned char msg[8];
    memset(msg, fill, sizeof msg);
    uint32_t at = (uint32_t)atomic_load(&g->prod.head);
    CHECK_INT(loom__ring_try_put(g, m, 0, tag, msg, sizeof msg, MPI_BYTE, sizeof msg, 1, 0),
              LOOM_PUT_PUBLISHED);
    return at;
}

/* A receive of 8 bytes from rank 0 with `tag` into buf, being posted by this thread. */
static void recv_init(struct loom_request *r, struct loom_p2p_ctx *ctx, int tag,
                      unsigned char *buf)
{
    loom__req_init_stack(r, LOOM_REQ_RECV);
    r->ctx = ctx;
    r->me = 0;
    r->peer = 0;
    r->tag = tag;
    r->buf = buf;
    r->count = 8;
    r->type = MPI_BYTE;
    r->unseen = 1;
    memset(buf, 0, 8);
}

/* The messages in m's unexpected queue, oldest first, are the fills `want` (n of them); the
 * queue is freed. */
static void check_queue(struct loom_match *m, const unsigned char *want, int n)
{
    CHECK_INT(atomic_load(&m->nqueued), n);
    struct loom_envelope *e = m->unexpected;
    for (int i = 0; i < n; i++) {
        CHECK(e != NULL);
        CHECK_INT((int)e->bytes, 8);
        CHECK_INT(((unsigned char *)LOOM_ENVELOPE_DATA(e))[7], want[i]);
        struct loom_envelope *next = e->next;
        free(e);
        e = next;
    }
    CHECK(e == NULL);
    m->unexpected = NULL;
    m->unexpected_tail = &m->unexpected;
    atomic_store(&m->nqueued, 0);
}

int main(void)
{
    loom__ring_cells = LOOM_RING_MIN;
    struct loom_ring *g = ring_new();
    struct loom_p2p_ctx *ctx = ctx_new();
    struct loom_match *m = &ctx->match[0];
    struct loom_request r;
    unsigned char buf[8];

    /* 2: empty queues, the cell is taken, the request completes */
    uint32_t t = put(g, m, TAG, 'a');
    recv_init(&r, ctx, TAG, buf);
    CHECK_INT(loom__p2p_match_cell(g, t, &r), 1);
    CHECK(loom__req_is_complete(&r));
    CHECK_INT(buf[7], 'a');
    CHECK_INT(r.status.MPI_TAG, TAG);
    CHECK_INT(atomic_load(&m->nqueued), 0);

    /* 1 and 3: an older message waits in the queue; the newer cell joins it behind */
    t = put(g, m, TAG, 'b');
    CHECK_INT(loom__p2p_match_cell(g, t, NULL), 0);
    CHECK_INT(atomic_load(&m->nqueued), 1);
    t = put(g, m, TAG, 'c');
    recv_init(&r, ctx, TAG, buf);
    CHECK_INT(loom__p2p_match_cell(g, t, &r), 0);
    CHECK(!loom__req_is_complete(&r));
    CHECK_INT(buf[7], 0);
    check_queue(m, (const unsigned char *)"bc", 2);

    /* 4: another tag is not taken, with the queues empty or not */
    t = put(g, m, TAG + 1, 'd');
    recv_init(&r, ctx, TAG, buf);
    CHECK_INT(loom__p2p_match_cell(g, t, &r), 0);
    CHECK(!loom__req_is_complete(&r));
    check_queue(m, (const unsigned char *)"d", 1);

    free(ctx);
    free(g);
    printf("p2p_match_unit: ok\n");
    return 0;
}
