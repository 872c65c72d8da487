/* coll/model.h — the split-tree performance model (2019 paper, Section 6.2, Eqs. 3-9) and
 * the choice of the split point S that LOOM_SPLIT_TREE=auto uses; plus a small deterministic
 * simulator of folded binomial trees (model_sim.c) that loom-model --simulate runs.
 *
 * Units: one unit is the point-to-point transfer time of one buffer of the collective's size
 * (for gather/scatter: of one rank's block). Nothing here depends on the hardware.
 *
 * What N and P mean. The paper's figures are drawn "on 64 cores": N_proc = 64 cores in all,
 * N of them run MPI ranks and the other P(N) = N_proc - N are communication cores. Every
 * function below takes N (ranks) and P (communication cores) and uses N_proc = N + P; so the
 * paper's point "N = 51 on 64 cores" is (N = 51, P = 13).
 *
 * The printed equations, taken literally, do not give the paper's stated results; the
 * default (flags 0) is the fixed model, which does (docs/model.md has the reasoning):
 *   - Eq. 4 C(N) = N/N_proc * C(N_proc) is fixed to C(N) = N_proc/N * C(N_proc): the
 *     experiment keeps the total work fixed (strong scaling), so fewer ranks compute longer;
 *   - Eq. 5 F(N,i) = ceil(N/2^i + 1/2) is fixed to ceil(N/2^i - 1/2), the number of edges of
 *     level i of a real binomial tree over N leaves (N - 1 edges in all; 8 on level 1 for
 *     N = 16, as Figs. 8-9 draw).
 * The LOOM_MODEL_PRINTED_* flags bring back the printed forms, for comparison only.
 *
 * All functions are pure: any thread, any time, no allocation (except the simulator). */
#ifndef LOOM_COLL_MODEL_H
#define LOOM_COLL_MODEL_H

/* flags for the *_v functions; 0 = the fixed model */
enum {
    LOOM_MODEL_PRINTED_EQ4 = 1, /* C(N) = N/N_proc * C(N_proc), as printed */
    LOOM_MODEL_PRINTED_EQ5 = 2, /* F(N,i) = ceil(N/2^i + 1/2), as printed */
};

/* H(N) = ceil(log2 N), the height of the binomial tree over N leaves; 0 for N <= 1. */
int loom__model_height(int N);
/* F(N,i): point-to-point transfers on level i (1 = leaves, H(N) = root), 1 <= i <= H(N);
 * 0 outside that range. Fixed form ceil(N/2^i - 1/2) unless flags has PRINTED_EQ5. */
int loom__model_edges_v(int N, int i, unsigned flags);
int loom__model_edges(int N, int i);

/* C(N): computation time of each of N ranks when the total work is sized so that on all
 * N_proc = N + P cores it equals the blocking collective (C(N_proc) = T_blocking(N_proc)).
 * N >= 1. */
double loom__model_comp_v(int N, int P, int growing, unsigned flags);
double loom__model_comp(int N, int P, int growing);

/* T_blocking(N): the blocking collective on the N ranks themselves (Eq. 3): H(N) for a
 * constant buffer (growing = 0: bcast, reduce), W_H(N) = 2^H(N) - 1 for a buffer that doubles
 * at each level (growing = 1: gather, scatter). P is unused (kept for a uniform signature).
 * Fig. 14's "blocking" curve is T_blocking + C(N) (loom__model_t_blocking_total). */
double loom__model_t_blocking(int N, int P, int growing);
double loom__model_t_blocking_total(int N, int P, int growing);

/* T_nonblocking(S,N) (Eq. 6; Eq. 8 when growing): the first S levels on the ranks' own cores,
 * the other H(N) - S levels folded level by level on P communication cores. S >= 0 (S above
 * H(N) is the same as H(N)). INFINITY when P = 0 and levels are left for communication cores. */
double loom__model_t_nonblocking_v(int S, int N, int P, int growing, unsigned flags);
double loom__model_t_nonblocking(int S, int N, int P, int growing);

/* T_overlapped(S,N) (Eq. 7; Eq. 9 when growing): the S application levels cannot overlap, the
 * folded part overlaps C(N): min(S,H) + max(C(N), folded part). INFINITY as above. */
double loom__model_t_overlapped_v(int S, int N, int P, int growing, unsigned flags);
double loom__model_t_overlapped(int S, int N, int P, int growing);

/* The S in 0..H(nranks) with the least T_overlapped for nranks ranks and comm_cores
 * communication cores (the smallest such S on a tie: more of the tree overlaps). What
 * LOOM_SPLIT_TREE=auto uses. nranks <= 1 gives 0; comm_cores <= 0 gives H(nranks) (no core
 * to fold on: the whole tree runs on the ranks, as a blocking call does). */
int loom__model_best_split_v(int nranks, int comm_cores, int growing_buffer, unsigned flags);
int loom__model_best_split(int nranks, int comm_cores, int growing_buffer);

/* ---- simulator (model_sim.c) ----------------------------------------------------------- */

/* Which collective the simulator runs, root 0. */
enum loom_model_coll {
    LOOM_MODEL_BCAST,   /* one-to-all, constant buffer */
    LOOM_MODEL_REDUCE,  /* all-to-one, constant buffer */
    LOOM_MODEL_GATHER,  /* all-to-one, the block count of a subtree */
    LOOM_MODEL_SCATTER, /* one-to-all, the block count of a subtree */
};

/* How the folded part is scheduled. */
enum loom_model_sim_mode {
    LOOM_MODEL_SIM_STEP,   /* step by step: a tree level starts when the previous one has
                            * ended, its transfers list-scheduled on the cores (what Eq. 6
                            * assumes; the paper's measured switch points agree with it) */
    LOOM_MODEL_SIM_GREEDY, /* no barrier between levels: a transfer starts as soon as both of
                            * its ranks' schedules have reached it and a core is free */
};

/* What a simulation found. */
struct loom_model_sim {
    int app_time;   /* time of the levels on the application cores (not overlappable) */
    int comm_time;  /* makespan of the part folded on the communication cores */
    int transfers;  /* transfers in the tree (N - 1) */
    int comm_transfers; /* of which on communication cores */
};

/* Where the simulated schedules come from. */
enum loom_model_tree {
    LOOM_MODEL_TREE_LIBRARY, /* loom's own builders (coll/alg_*.c) and split (coll/split.c),
                              * each rank's schedule built as a real call would build it */
    LOOM_MODEL_TREE_OWN,     /* model_plan.c's generator, which mirrors them: rank r > 0 talks
                              * to r - lowbit(r) on level ctz(r) + 1, one transfer a round */
};

/* Every rank's rounds of one collective, as the simulator sees them (model_plan.c builds it,
 * model_sim.c runs it). Global round g of rank k lies in [rank_first[k], rank_first[k+1]);
 * call_end/task_end are rank-relative round numbers as in coll/sched.h. A transfer names its
 * two ranks, the global round it sits in on each side, its cost and its tree level. */
struct loom_model_plan {
    int n, nrounds, ntr;
    int *rank_first;              /* [n + 1] */
    int *call_end, *task_end;     /* [n] */
    int *tr_from, *tr_to;         /* [ntr] sender, receiver */
    int *tr_round_from, *tr_round_to; /* [ntr] */
    int *tr_cost, *tr_level;      /* [ntr] */
};

/* Build the plan of `coll` (root 0) over N ranks split at S from `tree`. 0, LOOM_ERR_ARG
 * (N < 1, S < 0), LOOM_ERR_NOMEM, or LOOM_ERR_UNSUPPORTED when `tree` is the library and its
 * builders are not available. Free with loom__model_plan_free. */
int loom__model_plan(enum loom_model_coll coll, enum loom_model_tree tree, int S, int N,
                     struct loom_model_plan *out);
void loom__model_plan_free(struct loom_model_plan *p);

/* Simulate a plan on P communication cores with unit-cost transfers (a gather/scatter transfer
 * of k blocks costs k): its call and wait parts run on the ranks' own cores (one core per
 * rank), its task part is list-scheduled on P cores as `mode` says (model_sim.c). 0,
 * LOOM_ERR_ARG when P <= 0 and the task part is not empty, LOOM_ERR_INTERN for a plan that is
 * not a tree (a transfer cut by the split, or a deadlock), LOOM_ERR_NOMEM. */
int loom__model_run_plan(const struct loom_model_plan *p, enum loom_model_sim_mode mode, int P,
                         struct loom_model_sim *out);

/* Plan and run: what loom-model --simulate prints for one (S, N). */
int loom__model_simulate(enum loom_model_coll coll, enum loom_model_tree tree,
                         enum loom_model_sim_mode mode, int S, int N, int P,
                         struct loom_model_sim *out);

/* ---- plan assembly, for model_plan*.c only ------------------------------------------------ */
struct loom_model_pb_op {
    int rank, send, peer, cost, level, round;
};
struct loom_model_pb {
    struct loom_model_plan plan;
    int n, cur_rank;
    struct loom_model_pb_op *ops;
    int nops, capops;
};
/* Start an empty plan of n ranks; then, for each rank k in order: pb_rank(k), and for each of
 * its rounds pb_round() followed by that round's sends and receives (pb_op); set
 * plan.call_end[k] / plan.task_end[k]; finally pb_finish matches sends with receives and
 * hands the plan over (or frees it on error). */
int loom__model_pb_init(struct loom_model_pb *b, int n);
void loom__model_pb_rank(struct loom_model_pb *b, int k);
void loom__model_pb_round(struct loom_model_pb *b);
int loom__model_pb_op(struct loom_model_pb *b, int send, int peer, int cost, int level);
int loom__model_pb_finish(struct loom_model_pb *b, struct loom_model_plan *out);
/* The library's builders as a plan source (model_plan_lib.c). */
int loom__model_plan_lib(enum loom_model_coll coll, int S, int N, struct loom_model_plan *out);

#endif
