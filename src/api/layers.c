/* api/layers.c — the order in which loom's layers start and stop, for the job and for each
 * rank. The core runtime calls these hooks; it knows nothing of the layers above it. */
#include <stdio.h>
#include "coll/sched.h"
#include "comm/comm.h"
#include "comm/error_class.h"
#include "core/config.h"
#include "core/error.h"
#include "core/progress.h"
#include "p2p/batch.h"
#include "p2p/bsend.h"
#include "p2p/inbox.h"
#include "p2p/p2p.h"
#include "task/task.h"
#include "core/quarantine.h"
#include "core/runtime.h"
#include "core/trace.h"
#include "net/net.h"
#include "api/layers.h"
#include "api/type_attr.h"

/* The start of MPI_Finalize, while the rank may still use MPI and its progress threads run:
 * its nonblocking collectives still in flight (requests freed by the user) finish, then
 * MPI_COMM_SELF's attributes are deleted, as the standard asks. */
static void rank_prefini(void)
{
    loom__coll_rank_fini();
    (void)loom__comm_rank_free_self_attrs(); /* a failing delete callback was reported */
}

static void rank_fini(void)
{
    loom__progress_rank_fini();
    loom__bsend_rank_fini();
    loom__comm_rank_fini();
}

/* The wait hooks (core/event.h): a rank that waits first matches the small messages in its
 * rings (they may be what it waits for), then runs tasks. */
static int wait_progress(void)
{
    int moved = loom__inbox_poll();
    return loom__task_keypoint() | moved;
}

static int wait_has_work(void)
{
    return loom__inbox_pending() ? LOOM_WORK_RUNNABLE : loom__task_work_visible();
}

/* ...and counts the rank's threads that wait, for senders whose ring to it is full. */
static void wait_tend(int on)
{
    loom__inbox_tend(on);
    loom__task_tending(on);
}

int loom__layers_job_init(char *err, size_t errlen)
{
    loom__p2p_eager_max = (size_t)loom__config_int(LOOM_CFG_EAGER_MAX);
    loom__p2p_copy_chunk = (size_t)loom__config_int(LOOM_CFG_COPY_CHUNK);
    loom__p2p_copy_share = (int)loom__config_int(LOOM_CFG_COPY_SHARE);
    loom__p2p_copy_tasks = loom__config_int(LOOM_CFG_PROGRESS) != LOOM_PROGRESS_INLINE;
    /* before any rank runs: read-only afterwards */
    loom__rank_prefini_hook = rank_prefini;
    loom__rank_fini_hook = rank_fini;
    if (loom__trace_job_init(err, errlen) != 0) /* LOOM_STATS, LOOM_TRACE */
        return LOOM_ERR_OTHER;
    if (loom__progress_job_init(err, errlen) != 0)
        return LOOM_ERR_OTHER;
    loom__p2p_cells = (int)loom__config_int(LOOM_CFG_CELLS);
    loom__batching = (int)loom__config_int(LOOM_CFG_BATCH);
    if (loom__p2p_cells) {
        if (loom__inbox_job_init() != 0) {
            snprintf(err, errlen, "out of memory setting up the rings of cells");
            return LOOM_ERR_NOMEM;
        }
        loom__wait_progress = wait_progress;
        loom__wait_has_work = wait_has_work;
        loom__wait_tend = wait_tend;
    }
    if (loom__coll_job_init(loom__job.nranks) != 0) {
        snprintf(err, errlen, "out of memory setting up the collectives");
        return LOOM_ERR_NOMEM;
    }
    int rc = loom__comm_job_init(loom__job.nranks);
    if (rc != 0) {
        snprintf(err, errlen, "cannot set up MPI_COMM_WORLD: %s", loom__error_reason(rc));
        return rc;
    }
    loom__net_layers_init(); /* other node processes: every wait polls the network */
    return 0;
}

void loom__layers_job_fini(void)
{
    loom__net_layers_fini(); /* the network thread: before what its polls deliver to goes */
    loom__trace_job_fini(); /* stats lines, trace files: before progress threads' memory goes */
    loom__type_attr_job_fini(); /* attributes left on predefined types: before the keyvals */
    loom__comm_job_fini();
    loom__progress_job_fini();
    loom__quarantine_drain(); /* the last schedules, with their scratch */
    loom__coll_job_fini();
    loom__inbox_job_fini(); /* after the communicators: freeing them drains rings */
    loom__req_pool_drain(); /* last: the steps above may still retire requests */
    loom__error_user_fini(); /* the error classes and codes the program added */
}


int loom__layers_rank_init(void)
{
    int rc = loom__comm_rank_init();
    if (rc == 0)
        rc = loom__progress_rank_init();
    return rc;
}
