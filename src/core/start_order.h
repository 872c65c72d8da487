/* core/start_order.h — ranks run the code before their MPI_Init one at a time, in rank order.
 *
 * Programs parse their options with getopt before MPI_Init in every rank, and getopt keeps
 * its state in libc's own globals (optind, optarg and hidden ones), which privatization cannot
 * reach. So loom_run starts rank r only once rank r-1 has left that part of its main (it
 * called MPI_Init, or ended), and resets getopt's state before each rank starts. */
#ifndef LOOM_CORE_START_ORDER_H
#define LOOM_CORE_START_ORDER_H
#include "core/rank.h"

/* Called by loom_run's thread just before it starts rank r: reset libc's getopt state (for
 * r > 0: optind = 0 makes glibc and musl re-initialize on the next getopt call, which sets it
 * back to 1). */
void loom__start_order_before(const struct loom_rank *r);

/* Called by loom_run's thread just after it started rank r: wait until r has called MPI_Init
 * (its state left LOOM_RANK_STARTED) or ended. */
void loom__start_order_wait(struct loom_rank *r);
#endif
