/* core/atomic.h — the only way loom code touches C11 atomics.
 * Each wrapper names its memory order, so a reader sees the ordering at the call site; a
 * non-seq-cst use must say in a comment which operation it pairs with. */
#ifndef LOOM_CORE_ATOMIC_H
#define LOOM_CORE_ATOMIC_H
#include <stdatomic.h>

#define loom__load_relaxed(p) atomic_load_explicit((p), memory_order_relaxed)
#define loom__load_acquire(p) atomic_load_explicit((p), memory_order_acquire)
#define loom__load_seq_cst(p) atomic_load_explicit((p), memory_order_seq_cst)
#define loom__store_relaxed(p, v) atomic_store_explicit((p), (v), memory_order_relaxed)
#define loom__store_release(p, v) atomic_store_explicit((p), (v), memory_order_release)
#define loom__store_seq_cst(p, v) atomic_store_explicit((p), (v), memory_order_seq_cst)
#define loom__fetch_add_relaxed(p, v) atomic_fetch_add_explicit((p), (v), memory_order_relaxed)
#define loom__fetch_add_acq_rel(p, v) atomic_fetch_add_explicit((p), (v), memory_order_acq_rel)
#define loom__fetch_add_seq_cst(p, v) atomic_fetch_add_explicit((p), (v), memory_order_seq_cst)
#define loom__fetch_sub_relaxed(p, v) atomic_fetch_sub_explicit((p), (v), memory_order_relaxed)
#define loom__fetch_sub_acq_rel(p, v) atomic_fetch_sub_explicit((p), (v), memory_order_acq_rel)
#define loom__fetch_sub_seq_cst(p, v) atomic_fetch_sub_explicit((p), (v), memory_order_seq_cst)
#define loom__exchange_acq_rel(p, v) atomic_exchange_explicit((p), (v), memory_order_acq_rel)
#define loom__cas_acq_rel(p, expected, desired)                                                \
    atomic_compare_exchange_strong_explicit((p), (expected), (desired), memory_order_acq_rel,  \
                                            memory_order_acquire)

/* A pause for spin loops: tells the core we are spinning (x86 PAUSE, arm YIELD). */
static inline void loom__cpu_relax(void)
{
#if defined(__x86_64__) || defined(__i386__)
    __builtin_ia32_pause();
#elif defined(__aarch64__)
    __asm__ __volatile__("yield");
#endif
}
#endif
