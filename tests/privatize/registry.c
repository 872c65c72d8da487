/* tests/privatize/registry.c — the run-time half of privatized globals (core/privatize.c):
 * registering runs the function at once on the calling thread; loom__privatize_rank_start
 * runs every registered one on the calling thread and records where the rank's variables are;
 * the count follows; a thread that a rank's thread creates (loom's pthread_create) gets the
 * distance to its rank's thread-local block in loom_privatize_delta, and so does the thread
 * that one creates; loom__privatize_enter/leave switch it for callbacks. */
#include <pthread.h>
#include <stdint.h>
#include "check.h"
#include "core/privatize.h"
#include "core/rank.h"

static _Thread_local int calls_a, calls_b;
static struct loom_rank rank; /* a rank as loom_run makes it, enough for these functions */
static int *rank_calls_a;     /* the rank thread's calls_a, as it sees it */

static void init_a(void)
{
    calls_a++;
}

static void init_b(void)
{
    calls_b++;
}

/* What the plugin's code computes: this thread's copy, moved to its rank's. */
static int *rank_copy(int *mine)
{
    return (int *)((char *)mine + loom_privatize_delta);
}

static void *grandchild(void *unused)
{
    (void)unused;
    CHECK(loom__self == &rank);
    CHECK(rank_copy(&calls_a) == rank_calls_a);
    return NULL;
}

static void *child(void *unused)
{
    (void)unused;
    CHECK(loom__self == &rank);
    CHECK(&calls_a != rank_calls_a);              /* its own copy is elsewhere */
    CHECK(rank_copy(&calls_a) == rank_calls_a);   /* the rank's is reached */
    CHECK_INT(*rank_copy(&calls_a), 1);           /* and holds what the rank's init stored */
    pthread_t t;
    CHECK(pthread_create(&t, NULL, grandchild, NULL) == 0);
    pthread_join(t, NULL);
    return NULL;
}

static void *rank_like(void *unused)
{
    (void)unused;
    CHECK_INT(calls_a, 0); /* a new thread starts with nothing run */
    loom__self = &rank;
    loom__privatize_rank_start(&rank);
    CHECK_INT(calls_a, 1);
    CHECK_INT(calls_b, 1);
    CHECK(rank.view != NULL);
    CHECK_INT(loom_privatize_delta, 0); /* a rank thread sees its own copies */
    CHECK_INT(loom__privatize_delta_to(&rank), 0);
    rank_calls_a = &calls_a;
#if !defined(__SANITIZE_THREAD__) && !defined(__SANITIZE_ADDRESS__)
    /* (Under a sanitizer this statically linked test gets the sanitizer's pthread_create, not
     * loom's; privatize_pthreads checks the inheritance through libloom.so there.) */
    pthread_t t;
    CHECK(pthread_create(&t, NULL, child, NULL) == 0);
    pthread_join(t, NULL);
#else
    (void)child;
#endif
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
    /* A thread of no rank sees its own copies, until it runs a callback for a rank. */
    CHECK_INT(loom_privatize_delta, 0);
    size_t saved = loom__privatize_enter(&rank);
    CHECK(rank_copy(&calls_a) == rank_calls_a);
    loom__privatize_leave(saved);
    CHECK(rank_copy(&calls_a) == &calls_a);
    printf("registry: ok\n");
    return 0;
}
