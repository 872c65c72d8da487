/* coll/model_plan_lib.c — the simulator's plans from loom's own builders: for each of the N
 * ranks, the schedule a root-0 MPI_Ibcast / Ireduce / Igather / Iscatter of one byte per rank
 * would build (coll/alg_tree.c's binomial builders, MPI_BYTE, MPI_SUM), cut at S and with
 * its send rounds merged as the library does before running it (loom__sched_merge_sends).
 * Nothing runs: the schedules are read and freed. No runtime is needed (the builders only
 * read s->me and s->size), so loom-model works without loomrun.
 *
 * The cut is the library's own, loom__coll_split_apply (coll/split.c): up rounds of levels
 * <= S run in the call, down rounds of levels <= S in the wait (coll/sched.h).
 * A transfer's level is the tag of the receiver's round (receives are never merged); its cost
 * is its size in blocks (1 for bcast/reduce). */
#include <stdlib.h>

#include "coll/coll.h"
#include "coll/model.h"
#include "coll/op.h"
#include "coll/sched.h"
#include "core/error.h"
#include "dt/dt.h"

/* Rank me's schedule of coll over n ranks, or NULL (out of memory). */
static struct loom_sched *build(enum loom_model_coll coll, int me, int n, unsigned char *buf)
{
    struct loom_sched *s = calloc(1, sizeof *s); /* freed by loom__sched_free */
    if (!s)
        return NULL;
    s->me = me;
    s->size = n;
    s->pending_round = 1;
    struct loom_datatype *byte = (struct loom_datatype *)MPI_BYTE;
    struct loom_coll_args a = {.sbuf = buf, .rbuf = buf + n, .scount = 1, .rcount = 1,
                               .stype = byte, .rtype = byte, .root = 0,
                               .op = (struct loom_op *)MPI_SUM};
    switch (coll) {
    case LOOM_MODEL_BCAST:
        loom__alg_bcast_binomial(s, &a);
        break;
    case LOOM_MODEL_REDUCE:
        loom__alg_reduce_binomial(s, &a);
        break;
    case LOOM_MODEL_GATHER:
        loom__alg_gather_binomial(s, &a);
        break;
    case LOOM_MODEL_SCATTER:
        loom__alg_scatter_binomial(s, &a);
        break;
    }
    if (s->nomem) {
        loom__sched_free(s);
        return NULL;
    }
    return s;
}

int loom__model_plan_lib(enum loom_model_coll coll, int S, int N, struct loom_model_plan *out)
{
    struct loom_model_pb b;
    /* the user buffers the builders point into (never touched): n bytes in, n bytes out */
    unsigned char *buf = calloc(2 * (size_t)N, 1); /* freed below */
    if (!buf)
        return LOOM_ERR_NOMEM;
    int rc = loom__model_pb_init(&b, N);
    if (rc != 0) {
        free(buf);
        loom__model_plan_free(&b.plan);
        return rc;
    }
    /* first pass: each rank's schedule, cut and merged, kept for the level lookup */
    struct loom_sched **sch = calloc((size_t)N, sizeof *sch);
    if (!sch)
        rc = LOOM_ERR_NOMEM;
    for (int k = 0; rc == 0 && k < N; k++) {
        sch[k] = build(coll, k, N, buf);
        if (!sch[k]) {
            rc = LOOM_ERR_NOMEM;
            break;
        }
        loom__coll_split_apply(sch[k], S);
        loom__sched_merge_sends(sch[k]);
    }
    for (int k = 0; rc == 0 && k < N; k++) {
        struct loom_sched *s = sch[k];
        loom__model_pb_rank(&b, k);
        for (int r = 0; rc == 0 && r < s->nrounds; r++) {
            loom__model_pb_round(&b);
            for (int i = r ? s->rend[r - 1] : 0; rc == 0 && i < s->rend[r]; i++) {
                const struct loom_sop *o = &s->ops[i];
                if (o->kind != LOOM_SOP_SEND && o->kind != LOOM_SOP_RECV)
                    continue;
                int send = o->kind == LOOM_SOP_SEND;
                int cost = coll == LOOM_MODEL_BCAST || coll == LOOM_MODEL_REDUCE
                               ? 1
                               : (int)loom__dt_stream_size(o->type, o->count);
                /* a merged send round carries the first level's tag only: pb_finish takes
                 * a transfer's level from its receive */
                rc = loom__model_pb_op(&b, send, o->peer, cost, s->rlevel[r]);
            }
        }
        b.plan.call_end[k] = s->call_end;
        b.plan.task_end[k] = s->task_end;
    }
    for (int k = 0; sch && k < N; k++)
        loom__sched_free(sch[k]);
    free(sch);
    free(buf);
    if (rc != 0) {
        free(b.ops);
        loom__model_plan_free(&b.plan);
        return rc;
    }
    return loom__model_pb_finish(&b, out);
}
