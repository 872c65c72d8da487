/* rma/word.h — MPI_Fetch_and_op and MPI_Compare_and_swap on one word: a 4- or 8-byte integer
 * or a double (dt.h, enum loom_dt_word), done inline in the calls' entry points.
 *
 * Why: a fetch-and-op is what counters, tickets and work queues are built on, and its cost is
 * the call's. The element is updated under the lock of its stripe like every accumulate
 * (rma.h, docs/rma.md "Atomicity"), so it stays atomic with respect to all of them; what this
 * saves is the generic path's element lookup and its kernel call through a pointer. An
 * operation not listed in loom__rma_word_has takes the generic path. */
#ifndef LOOM_RMA_WORD_H
#define LOOM_RMA_WORD_H
#include <stdint.h>
#include <string.h>
#include "coll/op.h"
#include "dt/dt.h"
#include "rma/rma.h"

/* 1 if op `kind` (enum loom_op_kind, -1 for a user's op) on word type `word` is done here:
 * on the integers MAX, MIN, SUM, BAND, BOR, BXOR, REPLACE, NO_OP (every one defined on every
 * integer type that has a word); on the doubles SUM, REPLACE and NO_OP. */
static inline int loom__rma_word_has(enum loom_dt_word word, int kind)
{
    enum {
        INT_OPS = 1u << LOOM_OP_MAX | 1u << LOOM_OP_MIN | 1u << LOOM_OP_SUM | 1u << LOOM_OP_BAND |
                  1u << LOOM_OP_BOR | 1u << LOOM_OP_BXOR | 1u << LOOM_OP_REPLACE |
                  1u << LOOM_OP_NO_OP,
        F64_OPS = 1u << LOOM_OP_SUM | 1u << LOOM_OP_REPLACE | 1u << LOOM_OP_NO_OP,
    };
    unsigned ops = word == LOOM_DT_WORD_NONE ? 0u : word == LOOM_DT_WORD_F64 ? F64_OPS : INT_OPS;
    return (unsigned)kind < 32 && ((ops >> kind) & 1u);
}

/* One integer element's new value, o op v, for every op but MPI_NO_OP (the unsigned twin U
 * makes a sum wrap). */
#define LOOM_RMA_WORD_INT(T, U, kind, o, v)                                                   \
    ((kind) == LOOM_OP_SUM       ? (T)((U)(o) + (U)(v))                                       \
     : (kind) == LOOM_OP_MAX     ? ((v) > (o) ? (v) : (o))                                    \
     : (kind) == LOOM_OP_MIN     ? ((v) < (o) ? (v) : (o))                                    \
     : (kind) == LOOM_OP_BAND    ? (T)((o) & (v))                                             \
     : (kind) == LOOM_OP_BOR     ? (T)((o) | (v))                                             \
     : (kind) == LOOM_OP_BXOR    ? (T)((o) ^ (v))                                             \
                                 : (v)) /* MPI_REPLACE */

/* Under p's stripe: `out` gets the element's old value, and the element becomes old op *in
 * (in is not read for MPI_NO_OP). p is aligned to the word; loom__rma_word_has(word, kind). */
#define LOOM_RMA_WORD_FOP(T, U, kind, p, in, out, lock)                                       \
    do {                                                                                       \
        T v_ = 0, o_;                                                                          \
        if ((kind) != LOOM_OP_NO_OP)                                                           \
            memcpy(&v_, (in), sizeof v_);                                                      \
        loom__lock(lock);                                                                      \
        memcpy(&o_, (p), sizeof o_); /* memcpy: the window's memory may have another type */ \
        if ((kind) != LOOM_OP_NO_OP) {                                                         \
            T n_ = LOOM_RMA_WORD_INT(T, U, kind, o_, v_);                                      \
            memcpy((p), &n_, sizeof n_);                                                       \
        }                                                                                      \
        loom__unlock(lock);                                                                    \
        memcpy((out), &o_, sizeof o_);                                                         \
    } while (0)

static inline __attribute__((always_inline)) void loom__rma_word_fop(enum loom_dt_word word,
                                                                     int kind, char *p,
                                                                     const void *in, void *out)
{
    struct loom_lock *l = &loom__rma_stripes[loom__rma_stripe_of(p)].l;
    switch (word) {
    case LOOM_DT_WORD_I32:
        LOOM_RMA_WORD_FOP(int32_t, uint32_t, kind, p, in, out, l);
        break;
    case LOOM_DT_WORD_U32:
        LOOM_RMA_WORD_FOP(uint32_t, uint32_t, kind, p, in, out, l);
        break;
    case LOOM_DT_WORD_I64:
        LOOM_RMA_WORD_FOP(int64_t, uint64_t, kind, p, in, out, l);
        break;
    case LOOM_DT_WORD_U64:
        LOOM_RMA_WORD_FOP(uint64_t, uint64_t, kind, p, in, out, l);
        break;
    case LOOM_DT_WORD_F64: {
        double v = 0, o;
        if (kind != LOOM_OP_NO_OP)
            memcpy(&v, in, sizeof v);
        loom__lock(l);
        memcpy(&o, p, sizeof o);
        if (kind != LOOM_OP_NO_OP) {
            double n = kind == LOOM_OP_SUM ? o + v : v;
            memcpy(p, &n, sizeof n);
        }
        loom__unlock(l);
        memcpy(out, &o, sizeof o);
        break;
    }
    case LOOM_DT_WORD_NONE:
        break;
    }
}

/* Under p's stripe: `out` gets the old value of the integer at p (aligned), which becomes *in
 * if it equalled *compare. word is an integer word. */
#define LOOM_RMA_WORD_CAS(T, p, in, compare, out, lock)                                       \
    do {                                                                                       \
        T v_, c_, o_;                                                                          \
        memcpy(&v_, (in), sizeof v_);                                                          \
        memcpy(&c_, (compare), sizeof c_);                                                     \
        loom__lock(lock);                                                                      \
        memcpy(&o_, (p), sizeof o_);                                                           \
        if (o_ == c_)                                                                          \
            memcpy((p), &v_, sizeof v_);                                                       \
        loom__unlock(lock);                                                                    \
        memcpy((out), &o_, sizeof o_);                                                         \
    } while (0)

static inline __attribute__((always_inline)) void loom__rma_word_cas(enum loom_dt_word word,
                                                                     char *p, const void *in,
                                                                     const void *compare,
                                                                     void *out)
{
    struct loom_lock *l = &loom__rma_stripes[loom__rma_stripe_of(p)].l;
    if (word == LOOM_DT_WORD_I64 || word == LOOM_DT_WORD_U64)
        LOOM_RMA_WORD_CAS(uint64_t, p, in, compare, out, l);
    else
        LOOM_RMA_WORD_CAS(uint32_t, p, in, compare, out, l);
}
#endif
