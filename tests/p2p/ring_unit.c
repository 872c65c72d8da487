/* tests/p2p/ring_unit.c — the inline halves of a ring of cells (p2p/ring.h), without ranks:
 *  1. loom__cell_copy moves exactly n bytes for every n from 0 to 64 (a cell's payload), at
 *     every source and destination alignment, and touches nothing around them (each size
 *     class takes its own branch: bytes, 4-byte pairs, 8-byte pairs, 16-byte pairs, 32-byte
 *     pairs);
 *  2. loom__ring_try_put fills the ring's cells in order (envelope, data, sequence numbers),
 *     refuses one more without writing anything, and takes it once the consumer has released
 *     one cell (tail), refreshing its lower bound of the tail; for each ring size loom uses
 *     (16, 32, 64 cells), and the size chosen for a number of ranks is the documented one;
 *  3. a message of several cells (41 .. loom__cell_max bytes, at positions that wrap around
 *     the ring's end) takes loom__cell_count cells, at most a quarter of the ring: the first
 *     holds the envelope and 40 bytes, each continuation cell sequence word 0 and the next
 *     60; it is refused while
 *     fewer cells are free, whatever free cells there are, and the pieces read back in order
 *     are the message;
 *  4. batches (p2p/batch.h): a message put with `batch` opens a batch (then joins it) with
 *     its cells written and its first sequence word untouched, so that the ring reads empty;
 *     the batch is published, every message at once, by a message put without `batch`, by
 *     one with no room left in it (which opens the next), by reaching loom__batch_cells cells
 *     (one message that fills a batch alone is published as an unbatched one), by
 *     loom__batch_publish_mine and by a receiver's pull (not while the lock is held); a full
 *     ring refuses a batched message; the messages read back in order are the ones put. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "check.h"
#include "p2p/ring.h"
#include "ring_check.h"

#define AROUND 16

/* Put len bytes of msg (MPI_BYTE) into g, as the senders do (their cell count computed once). */
static enum loom_put ring_put(struct loom_ring *g, struct loom_match *to, int source, int tag,
                              const unsigned char *msg, size_t len, int batch)
{
    return loom__ring_try_put(g, to, source, tag, msg, len, MPI_BYTE, len, loom__cell_count(len),
                              batch);
}

/* The size rules: the most of 16, 32, 64 cells with which a ring from every rank fits in
 * LOOM_RING_BUDGET (256 KiB; a ring is 128 bytes and its cells); the rings a rank may have, as
 * many as fit in it, never fewer than the other ranks when the cells are above 16. */
static void ring_sizes(void)
{
    const int nlocal[] = {1, 2, 16, 62, 63, 64, 120, 121, 256, 1024, 4096};
    const int cells[] = {64, 64, 64, 64, 32, 32, 32, 16, 16, 16, 16};
    for (size_t i = 0; i < sizeof nlocal / sizeof nlocal[0]; i++) {
        CHECK_INT((int)loom__ring_cells_for(nlocal[i]), cells[i]);
        if (cells[i] > 16)
            CHECK(loom__ring_limit_for(cells[i]) >= nlocal[i]);
    }
    CHECK_INT(loom__ring_limit_for(64), 62);
    CHECK_INT(loom__ring_limit_for(32), 120);
    CHECK_INT(loom__ring_limit_for(16), 227);
}

static void copy_sizes(void)
{
    unsigned char src[64 + 2 * AROUND], dst[64 + 2 * AROUND];
    for (size_t i = 0; i < sizeof src; i++)
        src[i] = (unsigned char)(i * 7 + 1);
    for (size_t n = 0; n <= 64; n++)
        for (size_t so = 0; so < 8; so++)
            for (size_t d = 0; d < 8; d++) {
                memset(dst, 0xee, sizeof dst);
                loom__cell_copy(dst + AROUND + d, src + so, n);
                for (size_t k = 0; k < sizeof dst; k++) {
                    size_t at = k - AROUND - d; /* wraps below the copy: then >= n */
                    unsigned char want = at < n ? src[so + at] : 0xee;
                    if (dst[k] != want) {
                        fprintf(stderr,
                                "cell_copy n=%zu src+%zu dst+%zu: byte %td is 0x%02x, "
                                "expected 0x%02x\n",
                                n, so, d, (ptrdiff_t)k - AROUND - (ptrdiff_t)d, dst[k], want);
                        exit(1);
                    }
                }
            }
}

static void put_until_full(void)
{
    struct loom_ring *g = ring_new();
    struct loom_match *to = (struct loom_match *)(void *)g; /* only stored, never followed */
    unsigned char msg[LOOM_CELL_DATA];
    for (int i = 0; i < (int)loom__ring_cells; i++) {
        size_t len = (size_t)(i * 3) % (LOOM_CELL_DATA + 1);
        memset(msg, i + 1, sizeof msg);
        CHECK_INT(ring_put(g, to, i, 100 + i, msg, len, 0), LOOM_PUT_PUBLISHED);
    }
    CHECK_INT((int)atomic_load(&g->prod.head), (int)loom__ring_cells);
    CHECK_INT(atomic_load(&g->prod.lock.held), 0);
    for (int i = 0; i < (int)loom__ring_cells; i++) {
        struct loom_cell *c = &g->cells[i];
        size_t len = (size_t)(i * 3) % (LOOM_CELL_DATA + 1);
        CHECK_INT((int)atomic_load(&c->seq), i + 1);
        CHECK_INT((int)c->bytes, (int)len);
        CHECK_INT(c->source, i);
        CHECK_INT(c->tag, 100 + i);
        CHECK(c->to == to);
        for (size_t k = 0; k < len; k++)
            CHECK_INT(c->data[k], i + 1);
    }
    /* Full: nothing is written, the lock is given back. */
    struct loom_cell before = g->cells[0];
    memset(msg, 0x55, sizeof msg);
    CHECK_INT(ring_put(g, to, 7, 7, msg, 8, 0), LOOM_PUT_FULL);
    CHECK(memcmp(&before, &g->cells[0], sizeof before) == 0);
    CHECK_INT((int)atomic_load(&g->prod.head), (int)loom__ring_cells);
    CHECK_INT(atomic_load(&g->prod.lock.held), 0);
    /* The consumer read cell 0: the 17th message goes there, with sequence number 17. */
    atomic_store(&g->cons.tail, 1);
    CHECK_INT(ring_put(g, to, 7, 7, msg, 8, 0), LOOM_PUT_PUBLISHED);
    CHECK_INT((int)atomic_load(&g->cells[0].seq), (int)loom__ring_cells + 1);
    CHECK_INT((int)atomic_load(&g->prod.tail_seen), 1);
    CHECK_INT(g->cells[0].tag, 7);
    CHECK_INT(g->cells[0].data[7], 0x55);
    CHECK_INT((int)atomic_load(&g->cells[1].seq), 2); /* the next one untouched */
    free(g);
}

/* Message m's byte i (any size). */
static unsigned char byte_of(int m, size_t i)
{
    return (unsigned char)(m * 31 + i * 7 + 3);
}

static void several_cells(void)
{
    struct loom_ring *g = ring_new();
    struct loom_match *to = (struct loom_match *)(void *)g; /* only stored, never followed */
    unsigned char msg[LOOM_CELL_MAX], back[LOOM_CELL_MAX];
    CHECK_INT((int)loom__cell_count(0), 1);
    CHECK_INT((int)loom__cell_count(LOOM_CELL_DATA), 1);
    CHECK_INT((int)loom__cell_count(LOOM_CELL_DATA + 1), 2);
    CHECK_INT((int)loom__cell_count(LOOM_CELL_DATA + LOOM_CELL_MORE), 2);
    CHECK_INT((int)loom__cell_count(LOOM_CELL_DATA + LOOM_CELL_MORE + 1), 3);
    /* the most a message may take: a quarter of the ring, at most LOOM_CELL_SPAN_MAX */
    uint32_t span = loom__ring_cells == 16 ? 4 : loom__ring_cells == 32 ? 8 : 16;
    CHECK_INT((int)loom__cell_span_for(loom__ring_cells), (int)span);
    CHECK_INT((int)LOOM_CELL_SPAN_MAX, 16);
    size_t most = LOOM_CELL_BYTES(span);
    CHECK_INT((int)loom__cell_count(most), (int)span);
    CHECK_INT((int)loom__cell_count(most + 1), (int)span + 1);
    CHECK((int)most <= LOOM_CELL_MAX);
    /* Sizes walk from 41 up to the largest and around: the ring's positions wrap many times,
     * and a message is put only after the consumer released enough cells. */
    uint32_t tail = 0;
    int refused = 0, put = 0;
    size_t len = LOOM_CELL_DATA + 1;
    for (int m = 0; m < 200; m++, len = LOOM_CELL_DATA + 1 + (len * 37) % (most - 40)) {
        uint32_t k = loom__cell_count(len);
        for (size_t i = 0; i < len; i++)
            msg[i] = byte_of(m, i);
        uint32_t h = atomic_load(&g->prod.head);
        /* free cells: loom__ring_cells - (h - tail); release until exactly k - 1 are free, then
         * one more */
        while (loom__ring_cells - (h - tail) < k - 1) {
            tail += loom__cell_count(g->cells[tail & LOOM_RING_MASK].bytes);
            atomic_store(&g->cons.tail, tail);
        }
        if (loom__ring_cells - (h - tail) == k - 1) {
            CHECK_INT(ring_put(g, to, m, m, msg, len, 0), LOOM_PUT_FULL);
            CHECK_INT((int)atomic_load(&g->prod.head), (int)h);
            refused++;
            tail += loom__cell_count(g->cells[tail & LOOM_RING_MASK].bytes);
            atomic_store(&g->cons.tail, tail);
        }
        if (loom__ring_cells - (h - tail) < k)
            continue; /* the message released was smaller than this one needs: next round */
        CHECK_INT(ring_put(g, to, m, 1000 + m, msg, len, 0), LOOM_PUT_PUBLISHED);
        CHECK_INT((int)atomic_load(&g->prod.head), (int)(h + k));
        put++;
        struct loom_cell *c = &g->cells[h & LOOM_RING_MASK];
        CHECK_INT((int)atomic_load(&c->seq), (int)(h + 1));
        CHECK_INT((int)c->bytes, (int)len);
        CHECK_INT(c->tag, 1000 + m);
        for (uint32_t i = 1; i < k; i++)
            CHECK_INT((int)atomic_load(&g->cells[(h + i) & LOOM_RING_MASK].seq), 0);
        memset(back, 0, sizeof back);
        size_t covered = 0;
        for (uint32_t i = 0; i < k; i++) {
            size_t off, n;
            const unsigned char *at = loom__cell_piece(g, h, i, len, &off, &n);
            CHECK_INT((int)off, (int)covered); /* the pieces follow each other */
            CHECK(n > 0);
            memcpy(back + off, at, n);
            covered += n;
        }
        CHECK_INT((int)covered, (int)len);
        for (size_t i = 0; i < len; i++)
            if (back[i] != byte_of(m, i)) {
                fprintf(stderr, "message %d of %zu bytes at position %u: byte %zu is 0x%02x, "
                                "expected 0x%02x\n", m, len, h, i, back[i], byte_of(m, i));
                exit(1);
            }
    }
    CHECK(atomic_load(&g->prod.head) > 4 * loom__ring_cells); /* wrapped several times */
    CHECK(refused > 10 && put > 100);
    free(g);
}

/* Put message m (one cell of `len` bytes unless len > LOOM_CELL_DATA) with or without batch;
 * its tag is m. */
static enum loom_put put_msg(struct loom_ring *g, int m, size_t len, int batch)
{
    unsigned char msg[LOOM_CELL_MAX];
    for (size_t i = 0; i < len; i++)
        msg[i] = byte_of(m, i);
    struct loom_match *to = (struct loom_match *)(void *)g; /* only stored, never followed */
    return ring_put(g, to, 0, m, msg, len, batch);
}

/* The ring's cells from `from` to its head: all published, messages first .. in order; the
 * one at `from` says that `ahead` cells were published with it (its batch's), the others
 * none. */
static void check_published(struct loom_ring *g, uint32_t from, int first, int ahead)
{
    uint32_t h = atomic_load(&g->prod.head);
    CHECK_INT((int)atomic_load(&g->prod.published), (int)h);
    for (uint32_t t = from; t != h; first++) {
        struct loom_cell *c = &g->cells[t & LOOM_RING_MASK];
        CHECK_INT((int)atomic_load(&c->seq), (int)(t + 1));
        CHECK_INT(c->ahead, t == from ? ahead : 0);
        CHECK_INT(c->tag, first);
        size_t off, n;
        const unsigned char *at = loom__cell_piece(g, t, 0, c->bytes, &off, &n);
        for (size_t i = 0; i < n; i++)
            CHECK_INT(at[i], byte_of(first, i));
        t += loom__cell_count(c->bytes);
    }
}

/* Batched messages m .. m + n - 1 after position from: written, none published. */
static void check_batched(struct loom_ring *g, uint32_t from, int n)
{
    CHECK_INT((int)atomic_load(&g->prod.published), (int)from);
    CHECK_INT((int)atomic_load(&g->prod.head), (int)(from + (uint32_t)n));
    for (int i = 0; i < n; i++)
        CHECK(atomic_load(&g->cells[(from + (uint32_t)i) & LOOM_RING_MASK].seq) !=
              from + (uint32_t)i + 1);
    atomic_store(&g->cons.tail, from);
    CHECK(!loom__ring_ready(g)); /* a receiver sees nothing yet */
}

/* The consumer took every cell up to the head. */
static void consume_all(struct loom_ring *g)
{
    atomic_store(&g->cons.tail, atomic_load(&g->prod.head));
}

static void batches(void)
{
    struct loom_ring *g = ring_new();
    loom__batch_cells = loom__cell_span_for(loom__ring_cells);
    int b = (int)loom__batch_cells, m = 0;
    uint32_t from = 0;
    /* closed by a message put without batch */
    CHECK_INT(put_msg(g, m++, 8, 1), LOOM_PUT_BATCH_OPENED);
    CHECK(loom__batch_ring == g);
    CHECK_INT(put_msg(g, m++, 40, 1), LOOM_PUT_BATCHED);
    CHECK_INT(put_msg(g, m++, 1, 1), LOOM_PUT_BATCHED);
    check_batched(g, from, 3);
    CHECK_INT(put_msg(g, m++, 8, 0), LOOM_PUT_PUBLISHED);
    check_published(g, from, 0, 2);
    consume_all(g);
    /* messages of several cells join it too, up to b cells, which publish it */
    from = atomic_load(&g->prod.head);
    int first = m;
    CHECK_INT(put_msg(g, m++, 16, 1), LOOM_PUT_BATCH_OPENED);
    CHECK_INT(put_msg(g, m++, LOOM_CELL_DATA + 1, 1), LOOM_PUT_BATCHED); /* 2 cells */
    check_batched(g, from, 3);
    CHECK_INT(put_msg(g, m++, LOOM_CELL_BYTES(b - 3), 1), LOOM_PUT_BATCHED);
    check_published(g, from, first, b - 1);
    consume_all(g);
    /* a message with no room in the batch publishes it and opens the next; one that fills a
     * batch by itself is published at once, as an unbatched one (its sender wakes the
     * receiver) */
    from = atomic_load(&g->prod.head);
    first = m;
    CHECK_INT(put_msg(g, m++, LOOM_CELL_DATA + 1, 1), LOOM_PUT_BATCH_OPENED);
    CHECK_INT(put_msg(g, m++, LOOM_CELL_BYTES(b - 1), 1), LOOM_PUT_BATCH_OPENED);
    check_batched(g, from + 2, b - 1); /* the first batch went out */
    CHECK_INT(put_msg(g, m++, LOOM_CELL_BYTES(b), 1), LOOM_PUT_PUBLISHED);
    check_published(g, from, first, 0);
    consume_all(g);
    /* closed by its size: the b-th message publishes the batch */
    for (int round = 0; round < 3; round++) {
        from = atomic_load(&g->prod.head);
        first = m;
        for (int i = 0; i < b - 1; i++)
            CHECK_INT(put_msg(g, m++, 24, 1), i == 0 ? LOOM_PUT_BATCH_OPENED : LOOM_PUT_BATCHED);
        check_batched(g, from, b - 1);
        CHECK_INT(put_msg(g, m++, 24, 1), LOOM_PUT_BATCHED);
        check_published(g, from, first, b - 1);
        consume_all(g);
    }
    /* closed by the sender's next call */
    from = atomic_load(&g->prod.head);
    first = m;
    CHECK_INT(put_msg(g, m++, 8, 1), LOOM_PUT_BATCH_OPENED);
    CHECK_INT(put_msg(g, m++, 8, 1), LOOM_PUT_BATCHED);
    loom__batch_publish_mine();
    CHECK(loom__batch_ring == NULL);
    check_published(g, from, first, 1);
    consume_all(g);
    /* a full ring refuses a batched message and writes nothing; the batch survives */
    from = atomic_load(&g->prod.head);
    uint32_t tail = from + (uint32_t)b - 1 - loom__ring_cells; /* b - 1 cells left */
    atomic_store(&g->cons.tail, tail);
    atomic_store(&g->prod.tail_seen, tail);
    first = m;
    for (int i = 0; i < b - 1; i++)
        CHECK_INT(put_msg(g, m++, 8, 1), i == 0 ? LOOM_PUT_BATCH_OPENED : LOOM_PUT_BATCHED);
    CHECK_INT(put_msg(g, m, 8, 1), LOOM_PUT_FULL);
    check_batched(g, from, b - 1); /* the refused message moved nothing */
    atomic_store(&g->cons.tail, tail);
    loom__lock(&g->prod.lock); /* its producer is in a put: a receiver's pull leaves it */
    CHECK_INT(loom__batch_publish(g, 0), 1);
    check_batched(g, from, b - 1);
    loom__unlock(&g->prod.lock);
    CHECK_INT(loom__batch_publish(g, 0), 1); /* the pull publishes it */
    check_published(g, from, first, b - 2);
    CHECK_INT(loom__batch_publish(g, 0), 0); /* nothing left */
    free(g);
}

int main(void)
{
    copy_sizes();
    ring_sizes();
    for (uint32_t cells = LOOM_RING_MIN; cells <= LOOM_RING_MAX; cells *= 2) {
        loom__ring_cells = cells; /* as loom__inbox_job_init sets it, before any ring */
        put_until_full();
        several_cells();
        batches();
    }
    printf("p2p_ring_unit: ok\n");
    return 0;
}
