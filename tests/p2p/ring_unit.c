/* tests/p2p/ring_unit.c — the inline halves of a ring of cells (p2p/ring.h), without ranks:
 *  1. loom__cell_copy moves exactly n bytes for every n from 0 to LOOM_CELL_DATA, at every
 *     source and destination alignment, and touches nothing around them (each size class
 *     takes its own branch: bytes, 4-byte pairs, 8-byte pairs, 16-byte pairs, 32+8);
 *  2. loom__ring_try_put fills the 16 cells in order (envelope, data, sequence numbers),
 *     refuses a 17th without writing anything, and takes it once the consumer has released
 *     one cell (tail), refreshing its lower bound of the tail. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "check.h"
#include "p2p/ring.h"

#define AROUND 16

static void copy_sizes(void)
{
    unsigned char src[LOOM_CELL_DATA + 2 * AROUND], dst[LOOM_CELL_DATA + 2 * AROUND];
    for (size_t i = 0; i < sizeof src; i++)
        src[i] = (unsigned char)(i * 7 + 1);
    for (size_t n = 0; n <= LOOM_CELL_DATA; n++)
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
    struct loom_ring *g = aligned_alloc(64, sizeof *g);
    CHECK(g != NULL);
    memset(g, 0, sizeof *g);
    struct loom_match *to = (struct loom_match *)(void *)g; /* only stored, never followed */
    unsigned char msg[LOOM_CELL_DATA];
    for (int i = 0; i < LOOM_RING_CELLS; i++) {
        size_t len = (size_t)(i * 3) % (LOOM_CELL_DATA + 1);
        memset(msg, i + 1, sizeof msg);
        CHECK_INT(loom__ring_try_put(g, to, i, 100 + i, msg, len, MPI_BYTE, len), 1);
    }
    CHECK_INT((int)atomic_load(&g->prod.head), LOOM_RING_CELLS);
    CHECK_INT(atomic_load(&g->prod.lock.held), 0);
    for (int i = 0; i < LOOM_RING_CELLS; i++) {
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
    CHECK_INT(loom__ring_try_put(g, to, 7, 7, msg, 8, MPI_BYTE, 8), 0);
    CHECK(memcmp(&before, &g->cells[0], sizeof before) == 0);
    CHECK_INT((int)atomic_load(&g->prod.head), LOOM_RING_CELLS);
    CHECK_INT(atomic_load(&g->prod.lock.held), 0);
    /* The consumer read cell 0: the 17th message goes there, with sequence number 17. */
    atomic_store(&g->cons.tail, 1);
    CHECK_INT(loom__ring_try_put(g, to, 7, 7, msg, 8, MPI_BYTE, 8), 1);
    CHECK_INT((int)atomic_load(&g->cells[0].seq), LOOM_RING_CELLS + 1);
    CHECK_INT((int)atomic_load(&g->prod.tail_seen), 1);
    CHECK_INT(g->cells[0].tag, 7);
    CHECK_INT(g->cells[0].data[7], 0x55);
    CHECK_INT((int)atomic_load(&g->cells[1].seq), 2); /* the next one untouched */
    free(g);
}

int main(void)
{
    copy_sizes();
    put_until_full();
    printf("p2p_ring_unit: ok\n");
    return 0;
}
