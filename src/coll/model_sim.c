/* coll/model_sim.c — a deterministic simulator of a tree collective split at S and folded on P
 * communication cores, for loom-model --simulate and the model's tests: it plays each rank's
 * rounds with unit-cost transfers, so it checks the model's level-by-level sum (Eq. 6)
 * against real schedules.
 *
 * The input is a plan (model.h): for each rank its rounds, each round's transfers, and the
 * split boundaries call_end/task_end exactly as coll/sched.h defines them:
 *   rounds [0, call_end)         on the rank's own core, inside the MPI_I* call,
 *   rounds [call_end, task_end)  on the communication cores,
 *   rounds [task_end, nrounds)   on the rank's own core, in the wait.
 * The three parts run one after the other, so each is simulated on its own and the times add
 * up, as in the model. In a part, a transfer starts when both of its ranks have reached its
 * round (every transfer of their earlier rounds done) and a core is free (one per rank for
 * the ranks' own parts, P for the communication part); step mode also runs the tree levels
 * one after the other (Eq. 6's assumption). Ties: earliest ready, then lower level, then the
 * order of the plan.
 *
 * Plans come from model_plan.c: loom's own binomial builders (coll/alg_*.c) when they are
 * linked in, or the generator below that mirrors them. Everything is local to one call. */
#include "coll/model.h"

#include <limits.h>
#include <stdlib.h>
#include <string.h>

#include "core/error.h"

enum { WAITING, READY, RUNNING, DONE, OUTSIDE };

struct run {
    const struct loom_model_plan *p;
    int *pos;   /* [n] the current round of each rank (global index), or its part's end */
    int *lim;   /* [n] the end of the part being run, per rank (global index) */
    int *left;  /* [nrounds] transfers of the round not done, in this part and filter */
    int *state; /* [ntr] */
    int *ready; /* [ntr] time it became ready */
    int *end;   /* [ntr] time it ends while running */
};

/* Move rank k past rounds with nothing left to do in this part. */
static void skip(struct run *r, int k)
{
    while (r->pos[k] < r->lim[k] && r->left[r->pos[k]] == 0)
        r->pos[k]++;
}

static void mark_ready(struct run *r, int t)
{
    const struct loom_model_plan *p = r->p;
    for (int i = 0; i < p->ntr; i++)
        if (r->state[i] == WAITING && r->pos[p->tr_from[i]] == p->tr_round_from[i] &&
            r->pos[p->tr_to[i]] == p->tr_round_to[i]) {
            r->state[i] = READY;
            r->ready[i] = t;
        }
}

/* In which part (0 call, 1 task, 2 wait) round g of rank k lies. */
static int part_of(const struct loom_model_plan *p, int k, int g)
{
    int rel = g - p->rank_first[k];
    return rel < p->call_end[k] ? 0 : rel < p->task_end[k] ? 1 : 2;
}

/* Run part `part` of the plan, only the levels in [lo, hi], on `cores` cores. Returns the
 * makespan (>= 0) or a negative loom code (a plan whose transfer straddles two parts, or one
 * that cannot finish). *count gets the transfers run. */
static int run_part(struct run *r, int part, int lo, int hi, int cores, int *count)
{
    const struct loom_model_plan *p = r->p;
    int todo = 0, busy = 0, t = 0;
    memset(r->left, 0, sizeof(int) * (size_t)(p->nrounds > 0 ? p->nrounds : 1));
    for (int k = 0; k < p->n; k++) {
        int first = p->rank_first[k];
        int b0 = part == 0 ? 0 : part == 1 ? p->call_end[k] : p->task_end[k];
        int b1 = part == 0 ? p->call_end[k] : part == 1 ? p->task_end[k]
                                                        : p->rank_first[k + 1] - first;
        r->pos[k] = first + b0;
        r->lim[k] = first + b1;
    }
    for (int i = 0; i < p->ntr; i++) {
        int pf = part_of(p, p->tr_from[i], p->tr_round_from[i]);
        int pt = part_of(p, p->tr_to[i], p->tr_round_to[i]);
        if (pf != pt)
            return LOOM_ERR_INTERN; /* the split cut a transfer in two */
        if (pf != part || p->tr_level[i] < lo || p->tr_level[i] > hi) {
            r->state[i] = OUTSIDE;
            continue;
        }
        r->state[i] = WAITING;
        r->left[p->tr_round_from[i]]++;
        r->left[p->tr_round_to[i]]++;
        todo++;
    }
    *count = todo;
    for (int k = 0; k < p->n; k++)
        skip(r, k);
    mark_ready(r, 0);
    while (todo > 0) {
        while (busy < cores) { /* start the best ready transfer while a core is free */
            int best = -1;
            for (int i = 0; i < p->ntr; i++)
                if (r->state[i] == READY &&
                    (best < 0 || r->ready[i] < r->ready[best] ||
                     (r->ready[i] == r->ready[best] && p->tr_level[i] < p->tr_level[best])))
                    best = i;
            if (best < 0)
                break;
            r->state[best] = RUNNING;
            r->end[best] = t + p->tr_cost[best];
            busy++;
        }
        if (busy == 0)
            return LOOM_ERR_INTERN; /* nothing runs and nothing is ready: not a tree */
        int next = INT_MAX;
        for (int i = 0; i < p->ntr; i++)
            if (r->state[i] == RUNNING && r->end[i] < next)
                next = r->end[i];
        t = next;
        for (int i = 0; i < p->ntr; i++) {
            if (r->state[i] != RUNNING || r->end[i] != t)
                continue;
            r->state[i] = DONE;
            busy--;
            todo--;
            r->left[p->tr_round_from[i]]--;
            r->left[p->tr_round_to[i]]--;
        }
        for (int k = 0; k < p->n; k++)
            skip(r, k);
        mark_ready(r, t);
    }
    return t;
}

/* One part, greedy or level by level (the sum over levels run each on its own). */
static int run_mode(struct run *r, enum loom_model_sim_mode mode, int part, int cores,
                    int *count)
{
    const struct loom_model_plan *p = r->p;
    if (mode == LOOM_MODEL_SIM_GREEDY)
        return run_part(r, part, INT_MIN, INT_MAX, cores, count);
    int lo = INT_MAX, hi = INT_MIN, t = 0;
    for (int i = 0; i < p->ntr; i++) {
        lo = p->tr_level[i] < lo ? p->tr_level[i] : lo;
        hi = p->tr_level[i] > hi ? p->tr_level[i] : hi;
    }
    *count = 0;
    for (int level = lo; level <= hi; level++) {
        int c, dt = run_part(r, part, level, level, cores, &c);
        if (dt < 0)
            return dt;
        t += dt;
        *count += c;
    }
    return t;
}

int loom__model_run_plan(const struct loom_model_plan *p, enum loom_model_sim_mode mode, int P,
                         struct loom_model_sim *out)
{
    struct run r = {.p = p};
    size_t n = (size_t)p->n, nt = (size_t)(p->ntr > 0 ? p->ntr : 1);
    r.pos = malloc(sizeof(int) * n);
    r.lim = malloc(sizeof(int) * n);
    r.left = malloc(sizeof(int) * (size_t)(p->nrounds > 0 ? p->nrounds : 1));
    r.state = malloc(sizeof(int) * nt);
    r.ready = malloc(sizeof(int) * nt);
    r.end = malloc(sizeof(int) * nt);
    int rc = LOOM_ERR_NOMEM;
    if (!r.pos || !r.lim || !r.left || !r.state || !r.ready || !r.end)
        goto out_with_arrays;
    if (P <= 0) /* then nothing may be left for the communication cores */
        for (int i = 0; i < p->ntr; i++)
            if (part_of(p, p->tr_from[i], p->tr_round_from[i]) == 1) {
                rc = LOOM_ERR_ARG;
                goto out_with_arrays;
            }
    int c0, c1 = 0, c2;
    int t0 = run_mode(&r, mode, 0, INT_MAX, &c0);
    int t1 = P > 0 ? run_mode(&r, mode, 1, P, &c1) : 0;
    int t2 = run_mode(&r, mode, 2, INT_MAX, &c2);
    rc = t0 < 0 ? t0 : t1 < 0 ? t1 : t2 < 0 ? t2 : 0;
    if (rc == 0) {
        out->app_time = t0 + t2;
        out->comm_time = t1;
        out->transfers = c0 + c1 + c2;
        out->comm_transfers = c1;
    }
out_with_arrays:
    free(r.pos);
    free(r.lim);
    free(r.left);
    free(r.state);
    free(r.ready);
    free(r.end);
    return rc;
}
