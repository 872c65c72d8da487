/* core/progress.h — who runs tasks for a rank: the policy of LOOM_PROGRESS, and progress
 * threads (thread mode, or started by MPIX_Start_progress_thread). */
#ifndef LOOM_CORE_PROGRESS_H
#define LOOM_CORE_PROGRESS_H
#include "core/rank.h"

/* Job start (main thread, before ranks run): the task engine on the job's topology, the
 * progress-thread placement of thread mode, the wait hooks of the policy. 0 or -1 + err. */
int loom__progress_job_init(char *err, size_t errlen);
void loom__progress_job_fini(void);
/* Rank start (its own thread, in MPI_Init): register the rank as a task worker and, in thread
 * mode, start its progress threads. 0 or a negative loom code. */
int loom__progress_rank_init(void);
/* Rank end (in MPI_Finalize, after every rank arrived): stop its progress threads. */
void loom__progress_rank_fini(void);
/* Start / stop one more progress thread for the calling rank, placed like thread mode's
 * (MPIX_Start_progress_thread / MPIX_Stop_progress_thread). 0 or a negative loom code. */
int loom__progress_thread_start(void);
int loom__progress_thread_stop(void);
#endif
