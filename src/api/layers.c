/* api/layers.c — the order in which loom's layers start and stop, for the job and for each
 * rank. The core runtime calls these hooks; it knows nothing of the layers above it. */
#include <stdio.h>
#include "comm/comm.h"
#include "core/config.h"
#include "core/error.h"
#include "p2p/bsend.h"
#include "p2p/p2p.h"
#include "core/quarantine.h"
#include "core/runtime.h"
#include "api/layers.h"

int loom__layers_job_init(char *err, size_t errlen)
{
    loom__p2p_eager_max = (size_t)loom__config_int(LOOM_CFG_EAGER_MAX);
    int rc = loom__comm_job_init(loom__job.nranks);
    if (rc != 0) {
        snprintf(err, errlen, "cannot set up MPI_COMM_WORLD: %s", loom__error_reason(rc));
        return rc;
    }
    return 0;
}

void loom__layers_job_fini(void)
{
    loom__comm_job_fini();
    loom__quarantine_drain();
}

static void rank_fini(void)
{
    loom__bsend_rank_fini();
    loom__comm_rank_fini();
}

int loom__layers_rank_init(void)
{
    loom__rank_fini_hook = rank_fini;
    return loom__comm_rank_init();
}
