/* The schedules the builders make, without running them: the tree levels of each round, the
 * split-tree boundaries for given S (all-to-one: leaf levels in the call; one-to-all: leaf
 * levels in the wait), the merging of send rounds; the LOOM_SPLIT_TREE validator; and
 * LOOM_COLL_<NAME>_ALGO forcing exactly the algorithm it names, for every word of every row. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "check.h"
#include "coll/coll.h"
#include "coll/sched.h"
#include "coll/split.h"
#include "comm/comm.h"
#include "core/config.h"

static struct loom_comm_shared sh;
static struct loom_comm comm;
static int buf[64], buf2[64];

static struct loom_sched *sched(int n, int me)
{
    sh.size = n;
    comm.sh = &sh;
    comm.rank = me;
    struct loom_sched *s = loom__sched_new(&comm, NULL);
    CHECK(s != NULL);
    return s;
}

static void cut(struct loom_sched *s, int S)
{
    loom__coll_split_apply(s, S);
    loom__sched_merge_sends(s);
    CHECK(!s->nomem);
}

/* kinds of the ops of round r, as a string: s(end) r(ecv) c(opy) x (reduce) */
static const char *ops_of(struct loom_sched *s, int r)
{
    static char out[64];
    int k = 0;
    for (int i = r ? s->rend[r - 1] : 0; i < s->rend[r] && k < 63; i++)
        out[k++] = "?srcx"[s->ops[i].kind];
    out[k] = 0;
    return out;
}

#define CHECK_ROUND(s, r, want)                                                                \
    do {                                                                                       \
        const char *got_ = ops_of((s), (r));                                                   \
        if (strcmp(got_, (want)) != 0) {                                                       \
            fprintf(stderr, "%s:%d: round %d is \"%s\", expected \"%s\"\n", __FILE__,          \
                    __LINE__, (r), got_, (want));                                              \
            exit(99);                                                                          \
        }                                                                                      \
    } while (0)

static void bcast_cases(void)
{
    struct loom_coll_args a = {.rbuf = buf, .rcount = 4, .rtype = MPI_INT, .root = 0};
    /* root of 16, no split: its four sends start together */
    struct loom_sched *s = sched(16, 0);
    loom__alg_bcast_binomial(s, &a);
    CHECK_INT(s->nrounds, 4);
    for (int r = 0; r < 4; r++) {
        CHECK_INT(s->rdir[r], LOOM_ROUND_DOWN);
        CHECK_INT(s->rlevel[r], 4 - r); /* largest subtree first */
    }
    cut(s, 0);
    CHECK_INT(s->nrounds, 1);
    CHECK_ROUND(s, 0, "ssss");
    CHECK_INT(s->call_end, 0);
    CHECK_INT(s->task_end, 1);
    loom__sched_free(s);
    /* S = 2: levels 4 and 3 on the progress thread, 2 and 1 in the wait */
    s = sched(16, 0);
    loom__alg_bcast_binomial(s, &a);
    cut(s, 2);
    CHECK_INT(s->nrounds, 2);
    CHECK_INT(s->call_end, 0);
    CHECK_INT(s->task_end, 1);
    loom__sched_free(s);
    /* rank 8: receives on level 4, sends on 3 (task), 2 and 1 (wait) */
    s = sched(16, 8);
    loom__alg_bcast_binomial(s, &a);
    cut(s, 2);
    CHECK_INT(s->nrounds, 3);
    CHECK_ROUND(s, 0, "r");
    CHECK_ROUND(s, 1, "s");
    CHECK_ROUND(s, 2, "ss");
    CHECK_INT(s->task_end, 2);
    loom__sched_free(s);
    /* a leaf: everything in the wait */
    s = sched(16, 1);
    loom__alg_bcast_binomial(s, &a);
    cut(s, 2);
    CHECK_INT(s->nrounds, 1);
    CHECK_INT(s->rlevel[0], 1);
    CHECK_INT(s->task_end, 0);
    loom__sched_free(s);
    /* another root: relative ranks; rank 5 with root 5 is the root */
    a.root = 5;
    s = sched(7, 5);
    loom__alg_bcast_binomial(s, &a);
    CHECK_INT(s->nrounds, 3);
    CHECK_INT(s->ops[0].peer, (4 + 5) % 7);
    loom__sched_free(s);
}

static void reduce_cases(void)
{
    struct loom_coll_args a = {.sbuf = buf, .rbuf = buf2, .scount = 4, .stype = MPI_INT,
                               .rcount = 4, .rtype = MPI_INT, .op = MPI_SUM, .root = 0};
    /* the root of 16 with S = 1: level 1 in the call, the rest on the progress thread */
    struct loom_sched *s = sched(16, 0);
    loom__alg_reduce_binomial(s, &a);
    cut(s, 1);
    CHECK_INT(s->nrounds, 5);
    CHECK_ROUND(s, 0, "cr");
    CHECK_ROUND(s, 1, "xr");
    CHECK_ROUND(s, 4, "x"); /* the result lands in recvbuf itself: no copy */
    CHECK_INT(s->call_end, 1);
    CHECK_INT(s->task_end, 5);
    loom__sched_free(s);
    /* a leaf sends its input as it is, inside the call */
    s = sched(16, 1);
    loom__alg_reduce_binomial(s, &a);
    cut(s, 1);
    CHECK_INT(s->nrounds, 1);
    CHECK_ROUND(s, 0, "s");
    CHECK(s->ops[0].buf == buf);
    CHECK_INT(s->call_end, 1);
    loom__sched_free(s);
    /* non-commutative, root 3: the tree is rooted at 0, which sends the result to 3 */
    struct loom_op *saved = a.op;
    a.op = MPI_REPLACE; /* predefined and not commutative */
    a.root = 3;
    s = sched(4, 0);
    loom__alg_reduce_binomial(s, &a);
    CHECK_ROUND(s, s->nrounds - 1, "xs");
    CHECK_INT(s->ops[s->nops - 1].peer, 3);
    loom__sched_free(s);
    s = sched(4, 3);
    loom__alg_reduce_binomial(s, &a);
    CHECK_ROUND(s, 0, "s"); /* its own part goes to rank 2 */
    CHECK_INT(s->ops[0].peer, 2);
    CHECK_ROUND(s, 1, "r"); /* then the result comes from 0 */
    CHECK_INT(s->ops[1].peer, 0);
    loom__sched_free(s);
    a.op = saved;
    a.root = 0;
    /* allreduce as reduce + bcast on 8, S = 1: the call's level 1, the wait's level 1 */
    s = sched(8, 0);
    loom__alg_allreduce_reduce_bcast(s, &a);
    cut(s, 1);
    CHECK_INT(s->call_end, 1);
    CHECK_INT(s->nrounds, 5);
    CHECK_ROUND(s, 3, "xss"); /* last reduction, then the level 3 and 2 sends */
    CHECK_INT(s->task_end, 4);
    CHECK_ROUND(s, 4, "s");
    loom__sched_free(s);
}

static void gather_cases(void)
{
    struct loom_coll_args a = {.sbuf = buf, .scount = 2, .stype = MPI_INT, .rbuf = buf2,
                               .rcount = 2, .rtype = MPI_INT, .root = 0};
    struct loom_sched *s = sched(16, 4); /* subtree 4..7 */
    loom__alg_gather_binomial(s, &a);
    cut(s, 2);
    CHECK_INT(s->nrounds, 3);
    CHECK_ROUND(s, 0, "cr");
    CHECK_INT(s->ops[1].count, 2 * sizeof(int)); /* rank 5's block */
    CHECK_ROUND(s, 1, "r");
    CHECK_INT(s->ops[2].count, 4 * sizeof(int)); /* ranks 6 and 7 */
    CHECK_ROUND(s, 2, "s");
    CHECK_INT(s->ops[3].count, 8 * sizeof(int));
    CHECK_INT(s->call_end, 2);
    loom__sched_free(s);
    /* scatter, rank 6 of 7 (root 0): its subtree is cut short by the end of the ranks */
    struct loom_coll_args b = {.sbuf = buf, .scount = 2, .stype = MPI_INT, .rbuf = buf2,
                               .rcount = 2, .rtype = MPI_INT, .root = 0};
    s = sched(7, 6);
    loom__alg_scatter_binomial(s, &b);
    CHECK_INT(s->nrounds, 1);
    CHECK_ROUND(s, 0, "r");
    CHECK_INT(s->ops[0].peer, 4);
    CHECK_INT(s->rlevel[0], 2);
    loom__sched_free(s);
}

static void validator(void)
{
    char err[128];
    CHECK_INT(loom__coll_split_check("auto", err, sizeof err), 0);
    CHECK_INT(loom__coll_split_check("off", err, sizeof err), 0);
    CHECK_INT(loom__coll_split_check("0", err, sizeof err), 0);
    CHECK_INT(loom__coll_split_check("3", err, sizeof err), 0);
    CHECK_INT(loom__coll_split_check("64", err, sizeof err), 0);
    CHECK_INT(loom__coll_split_check("65", err, sizeof err), -1);
    CHECK_INT(loom__coll_split_check("-1", err, sizeof err), -1);
    CHECK_INT(loom__coll_split_check("", err, sizeof err), -1);
    CHECK_INT(loom__coll_split_check("2x", err, sizeof err), -1);
}

static void forcing(void)
{
    static const struct {
        enum loom_coll_kind kind;
        enum loom_config_id id;
    } rows[] = {
        {LOOM_COLL_BARRIER, LOOM_CFG_COLL_BARRIER_ALGO},
        {LOOM_COLL_BCAST, LOOM_CFG_COLL_BCAST_ALGO},
        {LOOM_COLL_REDUCE, LOOM_CFG_COLL_REDUCE_ALGO},
        {LOOM_COLL_ALLREDUCE, LOOM_CFG_COLL_ALLREDUCE_ALGO},
        {LOOM_COLL_GATHER, LOOM_CFG_COLL_GATHER_ALGO},
        {LOOM_COLL_GATHERV, LOOM_CFG_COLL_GATHERV_ALGO},
        {LOOM_COLL_SCATTER, LOOM_CFG_COLL_SCATTER_ALGO},
        {LOOM_COLL_SCATTERV, LOOM_CFG_COLL_SCATTERV_ALGO},
        {LOOM_COLL_ALLGATHER, LOOM_CFG_COLL_ALLGATHER_ALGO},
        {LOOM_COLL_ALLGATHERV, LOOM_CFG_COLL_ALLGATHERV_ALGO},
        {LOOM_COLL_ALLTOALL, LOOM_CFG_COLL_ALLTOALL_ALGO},
        {LOOM_COLL_ALLTOALLV, LOOM_CFG_COLL_ALLTOALLV_ALGO},
        {LOOM_COLL_ALLTOALLW, LOOM_CFG_COLL_ALLTOALLW_ALGO},
        {LOOM_COLL_REDUCE_SCATTER, LOOM_CFG_COLL_REDUCE_SCATTER_ALGO},
        {LOOM_COLL_REDUCE_SCATTER_BLOCK, LOOM_CFG_COLL_REDUCE_SCATTER_BLOCK_ALGO},
        {LOOM_COLL_SCAN, LOOM_CFG_COLL_SCAN_ALGO},
        {LOOM_COLL_EXSCAN, LOOM_CFG_COLL_EXSCAN_ALGO},
    };
    CHECK_INT(sizeof rows / sizeof rows[0], LOOM_COLL_NKINDS_);
    char err[256];
    for (size_t i = 0; i < sizeof rows / sizeof rows[0]; i++) {
        const struct loom_config_row *row = loom__config_row(rows[i].id);
        char words[256];
        snprintf(words, sizeof words, "%s", row->accepts);
        char *save = NULL;
        int k = 0;
        for (char *w = strtok_r(words, "|", &save); w; w = strtok_r(NULL, "|", &save), k++) {
            if (k == 0) {
                CHECK(strcmp(w, "auto") == 0);
                continue;
            }
            setenv(row->name, w, 1);
            CHECK_INT(loom__config_load(NULL, err, sizeof err), 0);
            for (int n = 1; n <= 64; n *= 4) {
                enum loom_coll_alg alg = loom__coll_select(rows[i].kind, n, 1 << 20, 1, 0);
                if (strcmp(loom__coll_alg_name(alg), w) != 0) {
                    fprintf(stderr, "%s=%s chose %s\n", row->name, w, loom__coll_alg_name(alg));
                    exit(99);
                }
            }
            unsetenv(row->name);
        }
        CHECK(k >= 2);
    }
    CHECK_INT(loom__config_load(NULL, err, sizeof err), 0);
}

int main(void)
{
    bcast_cases();
    reduce_cases();
    gather_cases();
    validator();
    forcing();
    printf("ok\n");
    return 0;
}
