/* threads.c — how loom uses an endpoint: in each of 2 processes, 2 threads post sends at the
 * same time, taking slots as they come back, while a third thread polls (and runs on_recv).
 * The receiver checks that each sending thread's messages arrive complete and in its order.
 * argv[1] "domain" opens at FI_THREAD_DOMAIN: the same through the endpoint's own lock. */
#include "net_test.h"

#include <pthread.h>
#include <rdma/fabric.h>
#include <sched.h>
#include <stdio.h>
#include <string.h>

#define SENDERS 2
#define PER_THREAD 3000

struct sender {
    struct nt *t;
    int id;
};

static atomic_int stop_polling;

static void *poller(void *arg)
{
    struct nt *t = arg;
    /* Acquire: pairs with the main thread's release store once everything has arrived. */
    while (!atomic_load_explicit(&stop_polling, memory_order_acquire))
        if (nt_poll(t) == 0)
            sched_yield();
    return NULL;
}

static void *sender(void *arg)
{
    struct sender *s = arg;
    struct nt *t = s->t;
    char err[256];
    double give_up = nt_now() + NT_GIVE_UP;
    for (uint32_t seq = 0; seq < PER_THREAD; seq++) {
        void *slot;
        /* No polling here: the poller gives the slots back. */
        while (!(slot = loom__fabric_slot(t->f))) {
            CHECK(nt_now() < give_up);
            sched_yield();
        }
        struct nt_hdr h = {.type = NT_THREAD, .from = (uint32_t)t->rank, .seq = seq,
                           .aux = (uint32_t)s->id};
        memcpy(slot, &h, sizeof h);
        int rc;
        while ((rc = loom__fabric_send(t->f, 1 - t->rank, slot, sizeof h, err, sizeof err)) ==
               1) {
            CHECK(nt_now() < give_up);
            sched_yield();
        }
        if (rc) {
            fprintf(stderr, "process %d thread %d: %s\n", t->rank, s->id, err);
            _exit(99);
        }
    }
    return NULL;
}

static void body(struct nt *t)
{
    pthread_t poll_thread, send_threads[SENDERS];
    struct sender s[SENDERS];
    CHECK(pthread_create(&poll_thread, NULL, poller, t) == 0);
    for (int i = 0; i < SENDERS; i++) {
        s[i] = (struct sender){t, i};
        CHECK(pthread_create(&send_threads[i], NULL, sender, &s[i]) == 0);
    }
    for (int i = 0; i < SENDERS; i++)
        CHECK(pthread_join(send_threads[i], NULL) == 0);
    double give_up = nt_now() + NT_GIVE_UP;
    /* Relaxed: thread_got is a counter; the join of the poller orders the rest. */
    while (atomic_load_explicit(&t->thread_got, memory_order_relaxed) < SENDERS * PER_THREAD) {
        CHECK(nt_now() < give_up);
        sched_yield();
    }
    atomic_store_explicit(&stop_polling, 1, memory_order_release);
    CHECK(pthread_join(poll_thread, NULL) == 0);
    for (int i = 0; i < SENDERS; i++)
        CHECK_INT(t->next_tseq[1 - t->rank][i], PER_THREAD);
    printf("process %d: %d messages from each of %d threads, in each thread's order\n", t->rank,
           PER_THREAD, SENDERS);
    nt_barrier(t, 1);
    nt_drain(t);
}

int main(int argc, char **argv)
{
    int threading = argc > 1 && !strcmp(argv[1], "domain") ? FI_THREAD_DOMAIN : FI_THREAD_SAFE;
    return nt_job(2, 256, 16, 16, threading, body);
}
