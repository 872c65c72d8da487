/* tests/support/ring_check.h — for the unit tests of rings of cells (p2p/ring.h): an empty ring
 * made by hand, as loom__inbox makes one, without ranks. */
#ifndef LOOM_TESTS_RING_CHECK_H
#define LOOM_TESTS_RING_CHECK_H
#include <stdlib.h>
#include <string.h>
#include "check.h"
#include "p2p/ring.h"

/* An empty ring of loom__ring_cells cells. */
static inline struct loom_ring *ring_new(void)
{
    size_t bytes = sizeof(struct loom_ring) + loom__ring_cells * sizeof(struct loom_cell);
    struct loom_ring *g = aligned_alloc(64, bytes);
    CHECK(g != NULL);
    memset(g, 0, bytes);
    return g;
}
#endif
