/* core/job.c — the job's globals and the way it ends abruptly (abort, fatal error, exit
 * before MPI_Finalize). */
#include <stdio.h>
#include <unistd.h>
#include "core/atomic.h"
#include "core/rank.h"
#include "net/net.h"

struct loom_job loom__job;
LOOM_TLS_FAST struct loom_rank *loom__self;
LOOM_TLS_FAST int loom__on_rank_thread;

_Noreturn void loom__job_abort(int code)
{
    /* Every rank shares this process: leaving it ends them all at once, wherever they are
     * blocked. stdio is flushed so that what ranks printed before is not lost; atexit
     * handlers are not run, since other ranks may still be using what they would tear down. */
    loom__store_seq_cst(&loom__job.ending, 1);
    fflush(NULL);
    /* Other node processes: the launcher ends them too (net/pmi.h). */
    if (loom__job.nnodes > 1)
        loom__net_abort(code, "a rank ended the job");
    _exit(code & 0xff);
}
