/* core/start_order.c — one rank at a time before MPI_Init (core/start_order.h).
 *
 * Only loom_run's thread runs this. Before MPI_Init a rank cannot talk to the others, so
 * nothing it does there waits for a rank that has not started yet: waiting for rank r to
 * reach MPI_Init before starting r+1 cannot deadlock. MPI_Init itself does not wait for the
 * other ranks (they meet in MPI_Finalize), and a rank that never calls it ends, which frees
 * the next one just the same. */
#include <time.h>
#include <unistd.h>
#include "core/atomic.h"
#include "core/start_order.h"

void loom__start_order_before(const struct loom_rank *r)
{
    /* The previous rank is past its MPI_Init (the acquire load in loom__start_order_wait
     * ordered its getopt calls before these stores); the new thread starts after them. */
    if (r->world_rank == 0)
        return; /* libc's state is still pristine */
    optind = 0;
    optarg = NULL;
    opterr = 1;
    optopt = '?';
}

void loom__start_order_wait(struct loom_rank *r)
{
    /* The wait is short (the rank's code before MPI_Init): poll, sleeping a little longer
     * each time, up to a millisecond. acquire: pairs with the release stores of the rank's
     * state in MPI_Init_thread and loom__rank_finish. */
    long ns = 1000;
    while (loom__load_acquire(&r->state) == LOOM_RANK_STARTED) {
        struct timespec ts = {0, ns};
        nanosleep(&ts, NULL);
        if (ns < 1000000)
            ns *= 2;
    }
}
