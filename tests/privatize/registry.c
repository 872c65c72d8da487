/* tests/privatize/registry.c — the registry of per-unit init functions (core/privatize.c):
 * registering runs the function at once on the calling thread; loom__privatize_rank_start
 * runs every registered one on the calling thread; the count follows. */
#include <pthread.h>
#include "check.h"
#include "core/privatize.h"

static _Thread_local int calls_a, calls_b;

static void init_a(void)
{
    calls_a++;
}

static void init_b(void)
{
    calls_b++;
}

static void *rank_like(void *unused)
{
    (void)unused;
    CHECK_INT(calls_a, 0); /* a new thread starts with nothing run */
    loom__privatize_rank_start();
    CHECK_INT(calls_a, 1);
    CHECK_INT(calls_b, 1);
    return NULL;
}

int main(void)
{
    int before = loom__privatize_count();
    loom_privatize_register(init_a);
    CHECK_INT(calls_a, 1);
    loom_privatize_register(init_b);
    CHECK_INT(calls_b, 1);
    CHECK_INT(loom__privatize_count(), before + 2);
    pthread_t t;
    CHECK(pthread_create(&t, NULL, rank_like, NULL) == 0);
    pthread_join(t, NULL);
    CHECK_INT(calls_a, 1); /* the other thread ran its own copies */
    printf("registry: ok\n");
    return 0;
}
