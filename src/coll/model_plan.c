/* coll/model_plan.c — the plans the split-tree simulator runs (model.h, model_sim.c): every
 * rank's rounds of a root-0 binomial bcast/reduce/gather/scatter split at S, with each send
 * matched to its receive. Two sources:
 *   - the generator below, which mirrors loom's binomial builders: rank r > 0 talks to its
 *     parent r - lowbit(r) on level ctz(r) + 1 (level 1 = the leaves', as in the paper's
 *     Fig. 8); all-to-one: receive from r + 2^(j-1) for j = 1, 2, ... then send to the parent;
 *     one-to-all: receive from the parent, then send to r + 2^(j-1) from the highest j down
 *     (the largest subtree first); one transfer a round; a gather/scatter transfer carries the
 *     child's subtree, min(lowbit(c), N - c) blocks. Split as coll/sched.h says: all-to-one,
 *     the rounds of levels <= S run in the call; one-to-all, they run in the wait.
 *   - loom's own builders (model_plan_lib.c), when they are there.
 * A plan is private to its builder until freed. */
#include <stdlib.h>
#include <string.h>

#include "coll/model.h"
#include "core/error.h"

/* ---- plan assembly, shared with model_plan_lib.c ---------------------------------------- */

int loom__model_pb_init(struct loom_model_pb *b, int n)
{
    memset(b, 0, sizeof *b);
    b->n = n;
    b->plan.n = n;
    b->plan.rank_first = calloc((size_t)n + 1, sizeof(int));
    b->plan.call_end = calloc((size_t)n, sizeof(int));
    b->plan.task_end = calloc((size_t)n, sizeof(int));
    if (!b->plan.rank_first || !b->plan.call_end || !b->plan.task_end)
        return LOOM_ERR_NOMEM;
    return 0;
}

static int grow(void **arr, int *cap, int need, size_t size)
{
    if (need <= *cap)
        return 0;
    int ncap = *cap ? *cap : 16;
    while (ncap < need)
        ncap *= 2;
    void *p = realloc(*arr, (size_t)ncap * size);
    if (!p)
        return LOOM_ERR_NOMEM;
    *arr = p;
    *cap = ncap;
    return 0;
}

void loom__model_pb_rank(struct loom_model_pb *b, int k)
{
    b->cur_rank = k;
    b->plan.rank_first[k] = b->plan.nrounds;
    b->plan.rank_first[k + 1] = b->plan.nrounds;
}

void loom__model_pb_round(struct loom_model_pb *b)
{
    b->plan.nrounds++;
    b->plan.rank_first[b->cur_rank + 1] = b->plan.nrounds;
}

int loom__model_pb_op(struct loom_model_pb *b, int send, int peer, int cost, int level)
{
    if (grow((void **)&b->ops, &b->capops, b->nops + 1, sizeof *b->ops))
        return LOOM_ERR_NOMEM;
    b->ops[b->nops++] = (struct loom_model_pb_op){.rank = b->cur_rank, .send = send,
                                                  .peer = peer, .cost = cost, .level = level,
                                                  .round = b->plan.nrounds - 1};
    return 0;
}

/* Match each send k -> q with the receive at q from k of the same order, in plan order. */
int loom__model_pb_finish(struct loom_model_pb *b, struct loom_model_plan *out)
{
    struct loom_model_plan *p = &b->plan;
    int nsend = 0;
    for (int i = 0; i < b->nops; i++)
        nsend += b->ops[i].send;
    p->ntr = 0;
    size_t cap = (size_t)(nsend > 0 ? nsend : 1);
    p->tr_from = malloc(sizeof(int) * cap);
    p->tr_to = malloc(sizeof(int) * cap);
    p->tr_round_from = malloc(sizeof(int) * cap);
    p->tr_round_to = malloc(sizeof(int) * cap);
    p->tr_cost = malloc(sizeof(int) * cap);
    p->tr_level = malloc(sizeof(int) * cap);
    char *used = calloc((size_t)(b->nops > 0 ? b->nops : 1), 1);
    int rc = 0;
    if (!p->tr_from || !p->tr_to || !p->tr_round_from || !p->tr_round_to || !p->tr_cost ||
        !p->tr_level || !used) {
        rc = LOOM_ERR_NOMEM;
        goto out_with_used;
    }
    for (int i = 0; i < b->nops; i++) {
        const struct loom_model_pb_op *s = &b->ops[i];
        if (!s->send)
            continue;
        int j; /* the first unused receive at s->peer from s->rank, in the receiver's order */
        for (j = 0; j < b->nops; j++)
            if (!used[j] && !b->ops[j].send && b->ops[j].rank == s->peer &&
                b->ops[j].peer == s->rank)
                break;
        if (j == b->nops) {
            rc = LOOM_ERR_INTERN; /* a send nobody receives */
            goto out_with_used;
        }
        used[j] = 1;
        int t = p->ntr++;
        p->tr_from[t] = s->rank;
        p->tr_to[t] = s->peer;
        p->tr_round_from[t] = s->round;
        p->tr_round_to[t] = b->ops[j].round;
        p->tr_cost[t] = s->cost;
        p->tr_level[t] = b->ops[j].level; /* the receiver's round: never a merged one */
    }
    for (int j = 0; j < b->nops; j++)
        if (!b->ops[j].send && !used[j])
            rc = LOOM_ERR_INTERN; /* a receive nobody sends to */
out_with_used:
    free(used);
    free(b->ops);
    b->ops = NULL;
    if (rc == 0)
        *out = *p;
    else
        loom__model_plan_free(p);
    return rc;
}

void loom__model_plan_free(struct loom_model_plan *p)
{
    if (!p)
        return;
    free(p->rank_first);
    free(p->call_end);
    free(p->task_end);
    free(p->tr_from);
    free(p->tr_to);
    free(p->tr_round_from);
    free(p->tr_round_to);
    free(p->tr_cost);
    free(p->tr_level);
    memset(p, 0, sizeof *p);
}

/* ---- the generator ---------------------------------------------------------------------- */

static int level_of(int c)
{
    return __builtin_ctz((unsigned)c) + 1;
}

static int cost_of(enum loom_model_coll coll, int c, int n)
{
    if (coll == LOOM_MODEL_BCAST || coll == LOOM_MODEL_REDUCE)
        return 1;
    int lb = c & -c;
    return lb < n - c ? lb : n - c;
}

static int plan_own(enum loom_model_coll coll, int S, int n, struct loom_model_plan *out)
{
    struct loom_model_pb b;
    int rc = loom__model_pb_init(&b, n);
    int h = loom__model_height(n);
    int up = coll == LOOM_MODEL_REDUCE || coll == LOOM_MODEL_GATHER;
    for (int r = 0; rc == 0 && r < n; r++) {
        loom__model_pb_rank(&b, r);
        int top = r == 0 ? h : level_of(r) - 1; /* r's children are on levels 1..top */
        int nr = 0, low = 0;                    /* rounds, of which on levels <= S */
        if (!up && r > 0) {
            loom__model_pb_round(&b);
            rc |= loom__model_pb_op(&b, 0, r - (r & -r), cost_of(coll, r, n), level_of(r));
            nr++;
            low += level_of(r) <= S;
        }
        for (int j = 1; j <= top; j++) {
            int jj = up ? j : top + 1 - j;
            long c = (long)r + (1L << (jj - 1));
            if (c >= n)
                continue;
            loom__model_pb_round(&b);
            rc |= loom__model_pb_op(&b, up ? 0 : 1, (int)c, cost_of(coll, (int)c, n), jj);
            nr++;
            low += jj <= S;
        }
        if (up && r > 0) {
            loom__model_pb_round(&b);
            rc |= loom__model_pb_op(&b, 1, r - (r & -r), cost_of(coll, r, n), level_of(r));
            nr++;
            low += level_of(r) <= S;
        }
        /* up: the low levels come first, in the call; down: they come last, in the wait */
        b.plan.call_end[r] = up ? low : 0;
        b.plan.task_end[r] = up ? nr : nr - low;
    }
    if (rc != 0) {
        free(b.ops);
        loom__model_plan_free(&b.plan);
        return rc < 0 ? LOOM_ERR_NOMEM : rc;
    }
    return loom__model_pb_finish(&b, out);
}

int loom__model_plan(enum loom_model_coll coll, enum loom_model_tree tree, int S, int N,
                     struct loom_model_plan *out)
{
    if (N < 1 || S < 0 || !out)
        return LOOM_ERR_ARG;
    if (tree == LOOM_MODEL_TREE_LIBRARY)
        return loom__model_plan_lib(coll, S, N, out);
    return plan_own(coll, S, N, out);
}

int loom__model_simulate(enum loom_model_coll coll, enum loom_model_tree tree,
                         enum loom_model_sim_mode mode, int S, int N, int P,
                         struct loom_model_sim *out)
{
    struct loom_model_plan p;
    int rc = loom__model_plan(coll, tree, S, N, &p);
    if (rc != 0)
        return rc;
    rc = loom__model_run_plan(&p, mode, P, out);
    loom__model_plan_free(&p);
    return rc;
}
