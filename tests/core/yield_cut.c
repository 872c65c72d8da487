/* A wait whose yield hands its core to a thread that computes stops yielding and sleeps, and
 * the same thread's next waits sleep without yielding at all (core/event.c, "Yields that are
 * too dear"); with the rule off (a job that oversubscribes its cores) it yields as before.
 *
 * A hog thread spins on the first CPU the process may use; the waiter, bound there too, waits with 5 spins and 20
 * yields. Its first yield gives the core to the hog, which keeps it for a scheduler slice
 * (0.75 ms or more, far above the rule's 0.1 ms): so the wait must count exactly one long
 * yield and then sleep. The main thread (on another CPU when there is one) sees the waiter
 * asleep (the event's sleepers), makes the condition true and notifies. A second wait with
 * the hog still there must sleep without a yield (the count stays at one). With the rule
 * off, a third wait yields all 20 times before it sleeps, and counts none. */
#include <pthread.h>
#include <sched.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include "check.h"
#include "core/event.h"

static struct loom_event ev;
static atomic_int hog_running, hog_stop, flag, waits_done, waits_wanted;

static int first_cpu; /* the first CPU the process may run on: the hog's and the waiter's */

static void bind_first_cpu(void)
{
    cpu_set_t set;
    CPU_ZERO(&set);
    CPU_SET(first_cpu, &set);
    CHECK(pthread_setaffinity_np(pthread_self(), sizeof set, &set) == 0);
}

static void *hog(void *arg)
{
    (void)arg;
    bind_first_cpu();
    atomic_store(&hog_running, 1);
    while (!atomic_load_explicit(&hog_stop, memory_order_relaxed))
        ;
    return NULL;
}

static int flag_set(void *arg)
{
    return atomic_load(&flag) == *(int *)arg;
}

static void *waiter(void *arg)
{
    (void)arg;
    bind_first_cpu();
    for (int i = 1; i <= 3; i++) {
        while (atomic_load(&waits_wanted) < i)
            sched_yield();
        loom__wait_until(&ev, flag_set, &i);
        atomic_store(&waits_done, i);
    }
    return NULL;
}

/* Let wait i run until its thread sleeps, then end it. */
static void run_wait(int i)
{
    atomic_store(&waits_wanted, i);
    while (atomic_load(&ev.sleepers) == 0)
        sched_yield();
    atomic_store(&flag, i);
    loom__event_notify(&ev);
    while (atomic_load(&waits_done) < i)
        sched_yield();
}

int main(void)
{
    cpu_set_t allowed;
    CHECK(sched_getaffinity(0, sizeof allowed, &allowed) == 0);
    while (!CPU_ISSET(first_cpu, &allowed))
        first_cpu++;
    loom__event_init(&ev);
    loom__wait_spin = 5;
    loom__wait_yield = 20;
    loom__wait_yield_cut = 1;
    pthread_t h, w;
    CHECK(pthread_create(&h, NULL, hog, NULL) == 0);
    while (!atomic_load(&hog_running))
        sched_yield();
    CHECK(pthread_create(&w, NULL, waiter, NULL) == 0);

    run_wait(1); /* one long yield, then asleep */
    CHECK_INT(atomic_load(&loom__wait_long_yields), 1);
    run_wait(2); /* asleep without a yield */
    CHECK_INT(atomic_load(&loom__wait_long_yields), 1);
    loom__wait_yield_cut = 0; /* as in a job with more ranks than cores */
    run_wait(3);
    CHECK_INT(atomic_load(&loom__wait_long_yields), 1);

    atomic_store(&hog_stop, 1);
    pthread_join(w, NULL);
    pthread_join(h, NULL);
    printf("core_yield_cut: ok\n");
    return 0;
}
