/* core/runtime.h — the rank runtime: starting the ranks, their end, and finalization.
 * Used by loom_run (core/run.c), exit() (core/exit.c) and MPI_Init/MPI_Finalize (api/). */
#ifndef LOOM_CORE_RUNTIME_H
#define LOOM_CORE_RUNTIME_H
#include "core/rank.h"

/* Hooks the upper layers provide (api/layers.c): set up and tear down what the job and each
 * rank need, in layer order. 0 or a negative loom code; err gets a one-line reason. */
int loom__layers_job_init(char *err, size_t errlen);
void loom__layers_job_fini(void);

/* Record that rank r is over with status `code`, after finalizing it if its main returned
 * without MPI_Finalize. Called by r's own thread. */
void loom__rank_finish(struct loom_rank *r, int code);

/* Finalize the calling rank: announce it, wait until every rank has at least entered
 * MPI_Finalize (or ended), then let the layers drop the rank's state. */
void loom__rank_finalize(struct loom_rank *r);
/* Set at job start: the layers' per-rank teardown, run by loom__rank_finalize after every rank
 * arrived; and what must run first, while the rank may still call MPI (the standard deletes
 * MPI_COMM_SELF's attributes at the start of MPI_Finalize). */
extern void (*loom__rank_fini_hook)(void);
extern void (*loom__rank_prefini_hook)(void);
#endif
