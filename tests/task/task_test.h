/* task_test.h — shared set-up for the engine's unit tests: a synthetic machine, workers on
 * chosen cores, and checks that print what they expected. */
#ifndef LOOM_TASK_TEST_H
#define LOOM_TASK_TEST_H
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include "task/task.h"
#include "topo/topo.h"

#define FIG1 "package:2 numa:1 l3:1 l2:2 core:2 pu:1"

#define EXPECT_EQ(got, want)                                                                   \
    do {                                                                                       \
        long long g_ = (long long)(got), w_ = (long long)(want);                               \
        if (g_ != w_) {                                                                        \
            fprintf(stderr, "%s:%d: %s is %lld, expected %lld\n", __FILE__, __LINE__, #got,    \
                    g_, w_);                                                                   \
            exit(1);                                                                           \
        }                                                                                      \
    } while (0)

static inline struct loom_topo *test_engine(const char *spec, int max_workers)
{
    char err[256];
    struct loom_topo *t;
    if (loom__topo_load(spec, &t, err, sizeof err) || loom__task_engine_init(t, max_workers)) {
        fprintf(stderr, "set-up failed: %s\n", err);
        exit(1);
    }
    return t;
}

/* Turns between a test's threads: each waits for its number in test_step, does its part,
 * then hands the turn on by storing the next one (release/acquire order the parts). */
static _Atomic int test_step __attribute__((unused));

static inline void turn(int mine)
{
    while (atomic_load_explicit(&test_step, memory_order_acquire) != mine)
        ;
}

static inline void pass(int next)
{
    atomic_store_explicit(&test_step, next, memory_order_release);
}

/* The queue of core `core`. */
static inline int core_queue(struct loom_topo *t, int core)
{
    return loom__task_queue_of(loom__topo_core_set(t, core));
}
#endif
