/* The simulator on hand-worked cases (the paper's Figs. 9 and 10) and, in step mode, equal to
 * the fixed model's Eqs. 6 and 8 wherever the subtrees are full. */
#include "model_check.h"

#include "core/error.h"

static enum loom_model_tree tree = LOOM_MODEL_TREE_OWN;

static struct loom_model_sim sim(enum loom_model_coll c, enum loom_model_sim_mode m, int s,
                                 int n, int p)
{
    struct loom_model_sim r = {-1, -1, -1, -1};
    int rc = loom__model_simulate(c, tree, m, s, n, p, &r);
    if (rc != 0) {
        fprintf(stderr, "simulate(coll %d, mode %d, S %d, N %d, P %d): got %d, expected 0\n",
                (int)c, (int)m, s, n, p, rc);
        model_failures++;
    }
    return r;
}

/* Every check, on the schedules of one source. */
static void checks(void)
{
    struct loom_model_sim r;
    for (int m = LOOM_MODEL_SIM_STEP; m <= LOOM_MODEL_SIM_GREEDY; m++) {
        /* Fig. 9: 16 ranks, everything on 2 communication cores: 15 transfers, 8 rounds
         * (level 1 alone takes 4). One core: 15 rounds. */
        r = sim(LOOM_MODEL_REDUCE, m, 0, 16, 2);
        CHECK_INT(r.app_time, 0);
        CHECK_INT(r.comm_time, 8);
        CHECK_INT(r.transfers, 15);
        CHECK_INT(r.comm_transfers, 15);
        r = sim(LOOM_MODEL_REDUCE, m, 0, 16, 1);
        CHECK_INT(r.comm_time, 15);
        r = sim(LOOM_MODEL_BCAST, m, 0, 16, 2);
        CHECK_INT(r.comm_time, 8);
        /* Fig. 10: S = 2 on 18 cores: 2 levels (12 transfers) on the ranks, then levels 3
         * and 4 (2 + 1 transfers) on 2 cores: 2 + 2 = 4, as fast as blocking. */
        r = sim(LOOM_MODEL_REDUCE, m, 2, 16, 2);
        CHECK_INT(r.app_time, 2);
        CHECK_INT(r.comm_time, 2);
        CHECK_INT(r.comm_transfers, 3);
        r = sim(LOOM_MODEL_BCAST, m, 2, 16, 2);
        CHECK_INT(r.app_time, 2);
        CHECK_INT(r.comm_time, 2);
        /* S = 1 ("twice as fast as running everything on communication cores" on 1 core):
         * 1 + (4 + 2 + 1) = 8 against 15 */
        r = sim(LOOM_MODEL_REDUCE, m, 1, 16, 1);
        CHECK_INT(r.app_time + r.comm_time, 8);
        /* gather, 16 ranks on 2 cores, S = 0: 8 x 1 -> 4, 4 x 2 -> 4, 2 x 4 -> 4, 1 x 8 -> 8 */
        r = sim(LOOM_MODEL_GATHER, m, 0, 16, 2);
        CHECK_INT(r.comm_time, 20);
        r = sim(LOOM_MODEL_SCATTER, m, 4, 16, 2);
        CHECK_INT(r.app_time, 15);
        CHECK_INT(r.comm_time, 0);
        /* one rank: nothing to do */
        r = sim(LOOM_MODEL_REDUCE, m, 0, 1, 1);
        CHECK_INT(r.app_time + r.comm_time + r.transfers, 0);
    }
    /* Greedy can start a level before the previous one has ended: N = 3 on 1 core, S = 0, is
     * 2 transfers in a row either way; N = 6 on 2 cores: levels of 3, 1, 1 transfers. Step
     * mode: 2 + 1 + 1 = 4; greedy: (1->0, 3->2), (5->4, 2->0), (4->0) = 3. */
    CHECK_INT(sim(LOOM_MODEL_REDUCE, LOOM_MODEL_SIM_GREEDY, 0, 3, 1).comm_time, 2);
    CHECK_INT(sim(LOOM_MODEL_REDUCE, LOOM_MODEL_SIM_STEP, 0, 6, 2).comm_time, 4);
    CHECK_INT(sim(LOOM_MODEL_REDUCE, LOOM_MODEL_SIM_GREEDY, 0, 6, 2).comm_time, 3);

    /* Step mode is Eq. 6 exactly for constant buffers, every N and S on 64 and 48 cores; and
     * Eq. 8 for gather/scatter where N is a power of two (full subtrees). Greedy is never
     * slower than step. */
    int cores[] = {64, 48};
    for (int k = 0; k < 2; k++)
        for (int n = 1; n < cores[k]; n++)
            for (int s = 0; s <= 6; s++) {
                int p = cores[k] - n;
                for (int c = LOOM_MODEL_BCAST; c <= LOOM_MODEL_REDUCE; c++) {
                    struct loom_model_sim st = sim(c, LOOM_MODEL_SIM_STEP, s, n, p);
                    struct loom_model_sim gr = sim(c, LOOM_MODEL_SIM_GREEDY, s, n, p);
                    CHECK_DBL(st.app_time + st.comm_time, loom__model_t_nonblocking(s, n, p, 0));
                    CHECK(gr.app_time + gr.comm_time <= st.app_time + st.comm_time);
                    CHECK_INT(st.transfers, n - 1);
                }
                if ((n & (n - 1)) == 0) {
                    struct loom_model_sim g = sim(LOOM_MODEL_GATHER, LOOM_MODEL_SIM_STEP, s, n, p);
                    CHECK_DBL(g.app_time + g.comm_time, loom__model_t_nonblocking(s, n, p, 1));
                }
            }
    /* Bad arguments */
    CHECK_INT(loom__model_simulate(LOOM_MODEL_REDUCE, tree, LOOM_MODEL_SIM_STEP, 0, 0, 1, &r),
              LOOM_ERR_ARG);
    CHECK_INT(loom__model_simulate(LOOM_MODEL_REDUCE, tree, LOOM_MODEL_SIM_STEP, -1, 4, 1, &r),
              LOOM_ERR_ARG);
    CHECK_INT(loom__model_simulate(LOOM_MODEL_REDUCE, tree, LOOM_MODEL_SIM_STEP, 1, 4, 0, &r),
              LOOM_ERR_ARG);
    CHECK_INT(loom__model_simulate(LOOM_MODEL_REDUCE, tree, LOOM_MODEL_SIM_STEP, 2, 4, 0, &r), 0);
    CHECK_INT(r.app_time, 2);
}

int main(void)
{
    checks();
    struct loom_model_plan p;
    int rc = loom__model_plan(LOOM_MODEL_REDUCE, LOOM_MODEL_TREE_LIBRARY, 0, 2, &p);
    if (rc == 0) {
        loom__model_plan_free(&p);
        tree = LOOM_MODEL_TREE_LIBRARY;
        checks();
    } else {
        printf("the library's builders are not available (%d): own generator only\n", rc);
    }
    return model_result();
}
