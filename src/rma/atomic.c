/* rma/atomic.c — one element of an accumulate, atomically.
 *
 * The standard (MPI 4.1 section 12.7.1) makes concurrent accumulates on one location with the
 * same predefined type element-wise atomic, and a fetching read (MPI_Get_accumulate or
 * MPI_Fetch_and_op with MPI_NO_OP) atomic with them. Every rank's memory is in this process,
 * so the origin updates the target element itself:
 *   - an element of 1, 2, 4 or 8 bytes in memory, aligned to its size (every basic integer,
 *     float, double, and the pairs MPI_2INT, MPI_FLOAT_INT, MPI_SHORT_INT), with hardware
 *     atomics: an exchange for MPI_REPLACE, a load for MPI_NO_OP, otherwise a
 *     compare-and-swap loop around the operation's own kernel (coll/op_kernels.c) applied to a
 *     copy — so every predefined operation on every such type is atomic, including mixes of
 *     operations on one location;
 *   - any other element (long double, the complex types of 16 bytes and more, MPI_DOUBLE_INT,
 *     MPI_LONG_INT, MPI_LONG_DOUBLE_INT, or a misaligned element), under a lock striped by
 *     address: one of STRIPES locks chosen by the element's cache line (two, in address order,
 *     when it straddles lines), so unrelated elements rarely share a lock.
 * Which of the two an element takes depends only on its type and address, so every atomic
 * access to one element goes the same way. Atomics are acq_rel: an accumulate orders like
 * the synchronization a program may build from it (a fetch-and-op ticket). */
#include <stdint.h>
#include <string.h>
#include "coll/op.h"
#include "core/lock.h"
#include "dt/dt.h"
#include "rma/rma.h"

enum { STRIPES = 256, LINE = 64 };

/* The locks of the elements no instruction covers; each on a line of its own. */
static struct {
    struct loom_lock l;
} __attribute__((aligned(LINE))) stripes[STRIPES];

static unsigned stripe_of(uintptr_t a)
{
    return (unsigned)((a / LINE) % STRIPES);
}

static void stripes_lock(const char *p, size_t n, unsigned *first, unsigned *last)
{
    unsigned a = stripe_of((uintptr_t)p), b = stripe_of((uintptr_t)p + n - 1);
    *first = a < b ? a : b;
    *last = a < b ? b : a;
    loom__lock(&stripes[*first].l);
    if (*last != *first)
        loom__lock(&stripes[*last].l);
}

static void stripes_unlock(unsigned first, unsigned last)
{
    if (last != first)
        loom__unlock(&stripes[last].l);
    loom__unlock(&stripes[first].l);
}

/* next = cur op in, in the element's memory layout. */
static void combine(const struct loom_rma_elem *e, const void *in, void *next)
{
    if (e->kind == LOOM_OP_REPLACE)
        memcpy(next, in, e->foot);
    else
        e->kernel(in, next, 1, e->foot, e->boff);
}

/* The update of an element of one width, T an unsigned integer of that width. The frequent
 * operations have an instruction of their own (an exchange, a load, an add or a bitwise
 * operation on an integer); a sum of floating values is an add inside the compare-and-swap
 * loop; everything else runs the operation's kernel on a copy inside that loop. R is 1 when
 * F is the floating type of this width (0 and F unused for the others). */
#define UPDATE(T, F, R)                                                                         \
    static void update_##T(const struct loom_rma_elem *e, T *q, const void *in, void *old)      \
    {                                                                                          \
        T v, cur, next;                                                                        \
        memcpy(&v, in, sizeof v);                                                              \
        switch (e->integer ? e->kind : e->kind == LOOM_OP_REPLACE || e->kind == LOOM_OP_NO_OP  \
                                           ? e->kind                                           \
                                           : -1) {                                             \
        case LOOM_OP_NO_OP: cur = __atomic_load_n(q, __ATOMIC_ACQUIRE); break;                 \
        case LOOM_OP_REPLACE: cur = __atomic_exchange_n(q, v, __ATOMIC_ACQ_REL); break;        \
        case LOOM_OP_SUM: cur = __atomic_fetch_add(q, v, __ATOMIC_ACQ_REL); break;             \
        case LOOM_OP_BAND: cur = __atomic_fetch_and(q, v, __ATOMIC_ACQ_REL); break;            \
        case LOOM_OP_BOR: cur = __atomic_fetch_or(q, v, __ATOMIC_ACQ_REL); break;              \
        case LOOM_OP_BXOR: cur = __atomic_fetch_xor(q, v, __ATOMIC_ACQ_REL); break;            \
        default:                                                                               \
            cur = __atomic_load_n(q, __ATOMIC_ACQUIRE);                                        \
            do {                                                                               \
                if (R && e->real == (int)sizeof(T) && e->kind == LOOM_OP_SUM) {                \
                    F a, b;                                                                    \
                    memcpy(&a, &cur, sizeof a);                                                \
                    memcpy(&b, in, sizeof b);                                                  \
                    a += b;                                                                    \
                    memcpy(&next, &a, sizeof next);                                            \
                } else {                                                                       \
                    next = cur;                                                                \
                    combine(e, in, &next);                                                     \
                }                                                                              \
            } while (!__atomic_compare_exchange_n(q, &cur, next, 1, __ATOMIC_ACQ_REL,          \
                                                  __ATOMIC_ACQUIRE));                          \
        }                                                                                      \
        memcpy(old, &cur, sizeof cur);                                                         \
    }

UPDATE(uint8_t, uint8_t, 0)
UPDATE(uint16_t, uint16_t, 0)
UPDATE(uint32_t, float, 1)
UPDATE(uint64_t, double, 1)

void loom__rma_elem_update(const struct loom_rma_elem *e, char *p, const void *in, void *old)
{
    if (e->foot <= 8 && (e->foot & (e->foot - 1)) == 0 && (uintptr_t)p % e->foot == 0) {
        switch (e->foot) {
        case 1: update_uint8_t(e, (uint8_t *)(void *)p, in, old); return;
        case 2: update_uint16_t(e, (uint16_t *)(void *)p, in, old); return;
        case 4: update_uint32_t(e, (uint32_t *)(void *)p, in, old); return;
        case 8: update_uint64_t(e, (uint64_t *)(void *)p, in, old); return;
        }
    }
    unsigned first, last;
    stripes_lock(p, e->foot, &first, &last);
    memcpy(old, p, e->foot);
    if (e->kind != LOOM_OP_NO_OP)
        combine(e, in, p);
    stripes_unlock(first, last);
}

#define CAS_ONCE(T)                                                                            \
    do {                                                                                       \
        T cur, want;                                                                           \
        memcpy(&cur, compare, sizeof cur);                                                     \
        memcpy(&want, origin, sizeof want);                                                    \
        __atomic_compare_exchange_n((T *)(void *)p, &cur, want, 0, __ATOMIC_ACQ_REL,           \
                                    __ATOMIC_ACQUIRE);                                         \
        memcpy(result, &cur, sizeof cur); /* the old value, whether it matched or not */       \
        return;                                                                                \
    } while (0)

void loom__rma_compare_swap(char *p, const struct loom_datatype *t, const void *origin,
                            const void *compare, void *result)
{
    size_t n = t->size;
    if (n <= 8 && (n & (n - 1)) == 0 && (uintptr_t)p % n == 0) {
        switch (n) {
        case 1: CAS_ONCE(uint8_t);
        case 2: CAS_ONCE(uint16_t);
        case 4: CAS_ONCE(uint32_t);
        case 8: CAS_ONCE(uint64_t);
        }
    }
    unsigned first, last;
    stripes_lock(p, n, &first, &last);
    memcpy(result, p, n);
    if (memcmp(p, compare, n) == 0)
        memcpy(p, origin, n);
    stripes_unlock(first, last);
}
