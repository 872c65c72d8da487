/* The lower bound an shm member keeps of the others' done (coll/shm_sync.c,
 * loom__shm_wait_all_done_from): after a wait it holds the least done it saw, never the
 * largest, so a later wait that only that bound satisfies returns at once, and one it does not
 * satisfy waits for the slowest member. Run on a slot of three members made by hand, member 0
 * waiting, the test playing the other two. */
#include <pthread.h>
#include <sched.h>
#include <signal.h>
#include <stdatomic.h>
#include <time.h>
#include <unistd.h>
#include "check.h"
#include "coll/shm.h"
#include "comm/comm.h"
#include "core/event.h"
#include "core/rank.h"

static struct loom_comm_shared sh;
static struct loom_comm comm;
static struct loom_rank self;
static struct loom_event ev[3];
static struct loom_event *events[3] = {&ev[0], &ev[1], &ev[2]};
static struct loom_shm_call k;
static atomic_int returned;

static void looked(int sig)
{
    (void)sig;
    static const char msg[] = "unit_shm_done_seen: a wait the bound met looked at the done\n";
    (void)!write(2, msg, sizeof msg - 1);
    _exit(1);
}

static void *waiter(void *want)
{
    loom__shm_wait_all_done_from(&k, (uint32_t)(uintptr_t)want);
    atomic_store(&returned, 1);
    return NULL;
}

int main(void)
{
    sh.size = 3;
    comm.sh = &sh;
    comm.rank = 0;
    loom__event_init(&self.event);
    k.m = &sh.shm;
    k.events = events;
    k.self = &self;
    k.me = 0;
    k.n = 3;
    k.seq = 20;
    k.done_seen = &comm.shm_done_seen;
    atomic_store(&sh.shm.e[1].done, 18);
    atomic_store(&sh.shm.e[2].done, 10);

    /* both are past 8: the bound becomes the slower one's 10, not the faster one's 18 */
    loom__shm_wait_all_done_from(&k, 8);
    CHECK(comm.shm_done_seen == 10);

    /* 12 is past member 2's done: the wait must last until member 2 gets there */
    pthread_t t;
    CHECK(pthread_create(&t, NULL, waiter, (void *)(uintptr_t)12) == 0);
    struct timespec pause = {0, 20000000};
    nanosleep(&pause, NULL);
    CHECK(atomic_load(&returned) == 0);
    atomic_store(&sh.shm.e[2].done, 12);
    loom__event_notify(&self.event);
    CHECK(pthread_join(t, NULL) == 0);
    CHECK(atomic_load(&returned) == 1);
    CHECK(comm.shm_done_seen == 12);

    /* met by the bound alone: returns without looking (a done moved back, which no member
     * does, is not seen; were it looked at, the wait would never end: the alarm says so) */
    atomic_store(&sh.shm.e[2].done, 2);
    signal(SIGALRM, looked);
    alarm(60);
    loom__shm_wait_all_done_from(&k, 11);
    alarm(0);
    CHECK(comm.shm_done_seen == 12);

    /* numbers wrap: a bound just below 2^32 is still below 6 */
    comm.shm_done_seen = 0xfffffff0u;
    atomic_store(&sh.shm.e[1].done, 0xfffffffeu);
    atomic_store(&sh.shm.e[2].done, 6);
    loom__shm_wait_all_done_from(&k, 0xfffffffcu);
    CHECK(comm.shm_done_seen == 0xfffffffeu);
    printf("unit_shm_done_seen: ok\n");
    return 0;
}
