/* coll/split.c — split-tree (the 2019 paper, Section 6): where a nonblocking tree collective
 * is cut between the application rank and the communication cores.
 *
 * LOOM_SPLIT_TREE = auto | off | S. S counts tree levels from the leaves: for all-to-one
 * trees (reduce, gather, the reduce half of allreduce) the S leaf levels run inside the
 * MPI_I* call, on the rank; for one-to-all trees (bcast, scatter, the bcast half of
 * allreduce) the S leaf levels run in the wait, on the rank; the H(N) - S levels between run
 * as the schedule's task on the progress thread. off is S = 0 (the whole tree on the
 * communication cores); auto asks the model (coll/model.h) for the S that minimizes
 * T_overlapped, given N ranks and P communication cores: the distinct CPU sets the job's
 * progress threads run on. Only in LOOM_PROGRESS=thread mode, where there is a progress
 * thread to hand levels to; elsewhere no split applies. */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "coll/coll.h"
#include "coll/model.h"
#include "coll/sched.h"
#include "coll/split.h"
#include "core/atomic.h"
#include "core/config.h"
#include "core/rank.h"
#include "topo/topo.h"

#define SPLIT_MAX 64

/* -2 auto, -1 not a valid value, else S. */
static int parse(const char *v)
{
    if (strcmp(v, "auto") == 0)
        return -2;
    if (strcmp(v, "off") == 0)
        return 0;
    char *end;
    errno = 0;
    long s = strtol(v, &end, 10);
    if (*v == '\0' || *end != '\0' || errno || s < 0 || s > SPLIT_MAX)
        return -1;
    return (int)s;
}

int loom__coll_split_check(const char *value, char *err, size_t errlen)
{
    if (parse(value) != -1)
        return 0;
    snprintf(err, errlen, "not auto, off or a number of tree levels in 0-%d", SPLIT_MAX);
    return -1;
}

/* The number of communication cores: distinct progress-thread sets of the job. Computed
 * once (the sets are read-only while ranks run); racing first callers compute the same. */
static int comm_cores(void)
{
    static _Atomic int cached = -1;
    int p = loom__load_relaxed(&cached);
    if (p >= 0)
        return p;
    struct loom_job *j = &loom__job;
    p = 0;
    for (int i = j->first; j->progress_sets && i < j->first + j->nlocal; i++) {
        int seen = 0;
        for (int k = j->first; k < i && !seen; k++)
            seen = loom__cpuset_equal(j->progress_sets[k], j->progress_sets[i]);
        p += !seen;
    }
    loom__store_relaxed(&cached, p);
    return p;
}

int loom__coll_split_s(enum loom_coll_kind kind, int nranks)
{
    if (loom__job.progress_mode != LOOM_PROGRESS_THREAD)
        return -1;
    int growing;
    switch (kind) {
    case LOOM_COLL_BCAST:
    case LOOM_COLL_REDUCE:
    case LOOM_COLL_ALLREDUCE:
        growing = 0;
        break;
    case LOOM_COLL_GATHER:
    case LOOM_COLL_SCATTER:
        growing = 1;
        break;
    default:
        return -1;
    }
    int s = parse(loom__config_str(LOOM_CFG_SPLIT_TREE));
    if (s == -2)
        s = loom__model_best_split(nranks, comm_cores(), growing);
    return s < 0 ? 0 : s;
}

void loom__coll_split_apply(struct loom_sched *s, int S)
{
    int n = s->nrounds;
    s->call_end = 0;
    s->task_end = n;
    if (S <= 0)
        return;
    while (s->call_end < n && s->rdir[s->call_end] == LOOM_ROUND_UP &&
           s->rlevel[s->call_end] <= S)
        s->call_end++;
    while (s->task_end > s->call_end && s->rdir[s->task_end - 1] == LOOM_ROUND_DOWN &&
           s->rlevel[s->task_end - 1] <= S)
        s->task_end--;
}
