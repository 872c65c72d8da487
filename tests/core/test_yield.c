/* A thread whose tests keep missing yields every loom__wait_spin-th miss in a row when the job
 * oversubscribes its cores (loom__wait_yield_cut = 0), and never otherwise (core/event.c,
 * loom__test_missed). Two threads at once: each counts its own misses, so 4 x 16 misses of
 * each make exactly 8 yields, and 15 more of two new threads make none; one thread's 15 misses
 * then 1 more make one. */
#include <pthread.h>
#include <stdatomic.h>
#include <stdio.h>
#include "check.h"
#include "core/event.h"

static void *miss(void *arg)
{
    for (int i = 0; i < *(int *)arg; i++)
        loom__test_missed();
    return NULL;
}

static unsigned long misses_by_two(int n)
{
    unsigned long before = atomic_load(&loom__test_yields);
    pthread_t t[2];
    for (int i = 0; i < 2; i++)
        CHECK(pthread_create(&t[i], NULL, miss, &n) == 0);
    for (int i = 0; i < 2; i++)
        CHECK(pthread_join(t[i], NULL) == 0);
    return atomic_load(&loom__test_yields) - before;
}

int main(void)
{
    loom__wait_spin = 16;
    loom__wait_yield_cut = 1; /* every thread has a core: tests never yield */
    CHECK_INT(misses_by_two(1000), 0);
    loom__wait_yield_cut = 0; /* the job oversubscribes */
    CHECK_INT(misses_by_two(64), 8);
    CHECK_INT(misses_by_two(15), 0);
    /* the main thread's count goes on between calls: its 16th miss yields */
    int fifteen = 15, one = 1;
    unsigned long before = atomic_load(&loom__test_yields);
    miss(&fifteen);
    CHECK_INT(atomic_load(&loom__test_yields) - before, 0);
    miss(&one);
    CHECK_INT(atomic_load(&loom__test_yields) - before, 1);
    printf("core_test_yield: ok\n");
    return 0;
}
