/* coll/select.c — which algorithm a collective call uses: LOOM_COLL_<NAME>_ALGO when set,
 * else the rule below. Every threshold lives here.
 *
 * The rule and why (single-copy transfers between threads of one process: a receive posted
 * before its send is filled by the sender's thread, so "linear" rounds copy in parallel; the
 * cost of a round is mostly the wake-up of the thread that waits for it):
 *   barrier            dissemination: ceil(log2 n) rounds, no root to queue on.
 *   bcast              binomial up to BCAST_TREE_MAX bytes (log2 n rounds, the root's queue
 *                      stays short); linear above (every receiver copies from the root's
 *                      buffer at once, in parallel, in one round).
 *   reduce             chain up to CHAIN_MAX_RANKS ranks (each rank folds its input into the
 *                      running partial once, no rank waits for several children), binomial
 *                      above (n - 1 steps in a row stop paying off; not measured there).
 *   allreduce          recursive doubling up to ALLREDUCE_RD_MAX bytes (log2 n rounds);
 *                      reduce then bcast above (2(n-1) transfers instead of n log2 n: less
 *                      memory traffic when the data is large).
 *   gather, scatter    binomial for blocks up to TREE_BLOCK_MAX bytes on more than
 *                      LINEAR_MAX_RANKS_ROOT ranks (fewer, larger messages at the root);
 *                      linear otherwise (each block copied once, all at once).
 *   allgather(v)       linear up to LINEAR_MAX_RANKS_ALL ranks (one round), ring above
 *                      (n - 1 rounds but one message per rank and round).
 *   alltoall(v,w)      linear up to LINEAR_MAX_RANKS_ALL ranks, pairwise above.
 *   reduce_scatter(_block) linear up to LINEAR_MAX_RANKS_ALL ranks (each rank reduces its own
 *                      block), reduce then scatterv above.
 *   scan, exscan       chain; gatherv, scatterv linear (the only ones).
 *   chain bcast is never chosen by the rule (it is there to be forced, for bench/hier.c).
 * A nonblocking tree collective in thread mode always takes the binomial tree (reduce then
 * bcast for allreduce): split-tree cuts trees. The bcast, reduce and allreduce thresholds
 * come from `python3 bench/run_algos.py` (bench/results/algos.md: 2, 4 and 8 ranks on 2
 * cores, the last two oversubscribed): 4 ranks, bcast 2 KiB binomial 1.7 us vs linear 3.3,
 * 32 KiB linear 4.7 vs 6.3; reduce 8 B chain 0.87 vs binomial 1.4, 4 MiB 652 vs 1610 us;
 * allreduce 8 KiB recursive doubling wins, 32 KiB reduce-bcast 15.8 vs 19.3 us. The others
 * are reasoned; allgather and alltoall measured linear-best up to 8 ranks, as the rule says. */
#include <string.h>
#include "coll/coll.h"
#include "core/config.h"

#define LINEAR_MAX_RANKS_ROOT 4
#define LINEAR_MAX_RANKS_ALL 8
#define BCAST_TREE_MAX (8u * 1024u)
#define CHAIN_MAX_RANKS 8
#define ALLREDUCE_RD_MAX (16u * 1024u)
#define TREE_BLOCK_MAX (8u * 1024u)

/* Each collective's configuration row and the algorithms its ACCEPTS lists after "auto". */
static const struct {
    enum loom_config_id cfg;
    enum loom_coll_alg algs[3];
} table[LOOM_COLL_NKINDS_] = {
    [LOOM_COLL_BARRIER] = {LOOM_CFG_COLL_BARRIER_ALGO, {LOOM_ALG_DISSEMINATION, LOOM_ALG_LINEAR}},
    [LOOM_COLL_BCAST] = {LOOM_CFG_COLL_BCAST_ALGO,
                         {LOOM_ALG_BINOMIAL, LOOM_ALG_LINEAR, LOOM_ALG_CHAIN}},
    [LOOM_COLL_REDUCE] = {LOOM_CFG_COLL_REDUCE_ALGO,
                         {LOOM_ALG_BINOMIAL, LOOM_ALG_LINEAR, LOOM_ALG_CHAIN}},
    [LOOM_COLL_ALLREDUCE] = {LOOM_CFG_COLL_ALLREDUCE_ALGO,
                             {LOOM_ALG_RECURSIVE_DOUBLING, LOOM_ALG_REDUCE_BCAST}},
    [LOOM_COLL_GATHER] = {LOOM_CFG_COLL_GATHER_ALGO, {LOOM_ALG_BINOMIAL, LOOM_ALG_LINEAR}},
    [LOOM_COLL_GATHERV] = {LOOM_CFG_COLL_GATHERV_ALGO, {LOOM_ALG_LINEAR}},
    [LOOM_COLL_SCATTER] = {LOOM_CFG_COLL_SCATTER_ALGO, {LOOM_ALG_BINOMIAL, LOOM_ALG_LINEAR}},
    [LOOM_COLL_SCATTERV] = {LOOM_CFG_COLL_SCATTERV_ALGO, {LOOM_ALG_LINEAR}},
    [LOOM_COLL_ALLGATHER] = {LOOM_CFG_COLL_ALLGATHER_ALGO, {LOOM_ALG_RING, LOOM_ALG_LINEAR}},
    [LOOM_COLL_ALLGATHERV] = {LOOM_CFG_COLL_ALLGATHERV_ALGO, {LOOM_ALG_RING, LOOM_ALG_LINEAR}},
    [LOOM_COLL_ALLTOALL] = {LOOM_CFG_COLL_ALLTOALL_ALGO, {LOOM_ALG_PAIRWISE, LOOM_ALG_LINEAR}},
    [LOOM_COLL_ALLTOALLV] = {LOOM_CFG_COLL_ALLTOALLV_ALGO, {LOOM_ALG_PAIRWISE, LOOM_ALG_LINEAR}},
    [LOOM_COLL_ALLTOALLW] = {LOOM_CFG_COLL_ALLTOALLW_ALGO, {LOOM_ALG_PAIRWISE, LOOM_ALG_LINEAR}},
    [LOOM_COLL_REDUCE_SCATTER] = {LOOM_CFG_COLL_REDUCE_SCATTER_ALGO,
                                  {LOOM_ALG_REDUCE_SCATTERV, LOOM_ALG_LINEAR}},
    [LOOM_COLL_REDUCE_SCATTER_BLOCK] = {LOOM_CFG_COLL_REDUCE_SCATTER_BLOCK_ALGO,
                                        {LOOM_ALG_REDUCE_SCATTERV, LOOM_ALG_LINEAR}},
    [LOOM_COLL_SCAN] = {LOOM_CFG_COLL_SCAN_ALGO, {LOOM_ALG_CHAIN}},
    [LOOM_COLL_EXSCAN] = {LOOM_CFG_COLL_EXSCAN_ALGO, {LOOM_ALG_CHAIN}},
};

static const char *const names[LOOM_ALG_NALGS_] = {
    [LOOM_ALG_AUTO] = "auto",
    [LOOM_ALG_BINOMIAL] = "binomial",
    [LOOM_ALG_LINEAR] = "linear",
    [LOOM_ALG_DISSEMINATION] = "dissemination",
    [LOOM_ALG_RECURSIVE_DOUBLING] = "recursive-doubling",
    [LOOM_ALG_REDUCE_BCAST] = "reduce-bcast",
    [LOOM_ALG_RING] = "ring",
    [LOOM_ALG_PAIRWISE] = "pairwise",
    [LOOM_ALG_CHAIN] = "chain",
    [LOOM_ALG_REDUCE_SCATTERV] = "reduce-scatterv",
    [LOOM_ALG_SHM] = "shm",
};

const char *loom__coll_alg_name(enum loom_coll_alg alg)
{
    return alg >= 0 && alg < LOOM_ALG_NALGS_ ? names[alg] : "?";
}

static enum loom_coll_alg rule(enum loom_coll_kind kind, int n, size_t bytes, int split)
{
    switch (kind) {
    case LOOM_COLL_BARRIER:
        return LOOM_ALG_DISSEMINATION;
    case LOOM_COLL_BCAST:
        return split || bytes <= BCAST_TREE_MAX ? LOOM_ALG_BINOMIAL : LOOM_ALG_LINEAR;
    case LOOM_COLL_REDUCE:
        return split || n > CHAIN_MAX_RANKS ? LOOM_ALG_BINOMIAL : LOOM_ALG_CHAIN;
    case LOOM_COLL_ALLREDUCE:
        return !split && bytes <= ALLREDUCE_RD_MAX ? LOOM_ALG_RECURSIVE_DOUBLING
                                                   : LOOM_ALG_REDUCE_BCAST;
    case LOOM_COLL_GATHER:
    case LOOM_COLL_SCATTER:
        return split || (n > LINEAR_MAX_RANKS_ROOT && bytes <= TREE_BLOCK_MAX)
                   ? LOOM_ALG_BINOMIAL
                   : LOOM_ALG_LINEAR;
    case LOOM_COLL_ALLGATHER:
    case LOOM_COLL_ALLGATHERV:
        return n <= LINEAR_MAX_RANKS_ALL ? LOOM_ALG_LINEAR : LOOM_ALG_RING;
    case LOOM_COLL_ALLTOALL:
    case LOOM_COLL_ALLTOALLV:
    case LOOM_COLL_ALLTOALLW:
        return n <= LINEAR_MAX_RANKS_ALL ? LOOM_ALG_LINEAR : LOOM_ALG_PAIRWISE;
    case LOOM_COLL_REDUCE_SCATTER:
    case LOOM_COLL_REDUCE_SCATTER_BLOCK:
        return n <= LINEAR_MAX_RANKS_ALL ? LOOM_ALG_LINEAR : LOOM_ALG_REDUCE_SCATTERV;
    case LOOM_COLL_SCAN:
    case LOOM_COLL_EXSCAN:
        return LOOM_ALG_CHAIN;
    default:
        return LOOM_ALG_LINEAR;
    }
}

enum loom_config_id loom__coll_algo_cfg(enum loom_coll_kind kind)
{
    return table[kind].cfg;
}

enum loom_coll_alg loom__coll_select(enum loom_coll_kind kind, int nranks, size_t bytes,
                                     int commutative, int split)
{
    (void)commutative; /* every algorithm here keeps rank order */
    long long forced = loom__config_int(table[kind].cfg);
    /* "shm", last of every row: blocking calls run it (coll.c); others fall to the builders */
    if (forced > 0 && strcmp(loom__config_str(table[kind].cfg), "shm") == 0)
        return LOOM_ALG_SHM;
    if (forced > 0 && forced <= 3 && table[kind].algs[forced - 1] != LOOM_ALG_AUTO)
        return table[kind].algs[forced - 1];
    return rule(kind, nranks, bytes, split);
}
