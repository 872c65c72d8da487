/* A wait's condition is never asked again once it has held: loom__wait_until may be given a
 * condition that takes what it finds (MPI_Mprobe's unlinks the message it matched), and a
 * second true answer thrown away would lose that message and wait for another forever.
 *
 * No spinning and no yielding, so the wait reaches its sleep step at once; the condition
 * turns true on its Nth call for N = 1..3, which puts that call at each place the wait asks
 * it: before the loop, at the top of the loop, and in the sleep step (after announcing
 * itself asleep), the case that lost messages. The wait must return after exactly one true
 * answer. (A later N would sleep for good: nobody notifies in this test.) */
#include <stdio.h>
#include <stdlib.h>
#include "core/event.h"

struct taker {
    int calls;  /* how many times the condition was asked */
    int true_at; /* the call from which it holds */
    int taken;  /* how many times it answered true (took the "message") */
};

static int take_once(void *arg)
{
    struct taker *t = arg;
    if (++t->calls < t->true_at)
        return 0;
    t->taken++;
    return 1;
}

int main(void)
{
    struct loom_event ev;
    loom__event_init(&ev);
    loom__wait_spin = 0;
    loom__wait_yield = 0;
    for (int n = 1; n <= 3; n++) {
        struct taker t = {0, n, 0};
        loom__wait_until(&ev, take_once, &t);
        if (t.taken != 1 || t.calls != n) {
            fprintf(stderr, "wait_once: condition true from call %d: asked %d times, true %d "
                            "times (expected %d and 1)\n", n, t.calls, t.taken, n);
            return 1;
        }
    }
    printf("wait_once: ok\n");
    return 0;
}
