/* H(N) and F(N,i) against a brute-force count of a real binomial tree over N leaves, for
 * N = 1..64: the tree is built as Figs. 8 and 11 draw it (on each level the surviving ranks
 * pair up in order, the lower of a pair survives, an odd last one goes up alone) and counted
 * again from the ranks (child c talks on level ctz(c) + 1). The printed Eq. 5 is checked to
 * differ where docs/model.md says it does. */
#include "model_check.h"

#define MAXN 64

int main(void)
{
    for (int n = 1; n <= MAXN; n++) {
        int alive[MAXN], na = n, level = 0, total = 0;
        for (int r = 0; r < n; r++)
            alive[r] = r;
        while (na > 1) {
            level++;
            int pairs = na / 2, next = 0;
            for (int k = 0; k < na; k += 2)
                alive[next++] = alive[k]; /* the lower rank of each pair goes up */
            /* the same level counted from the ranks */
            int by_rank = 0;
            for (int c = 1; c < n; c++)
                by_rank += __builtin_ctz((unsigned)c) + 1 == level;
            if (pairs != loom__model_edges(n, level) || by_rank != pairs)
                fprintf(stderr, "N = %d, level %d:\n", n, level);
            CHECK_INT(loom__model_edges(n, level), pairs);
            CHECK_INT(by_rank, pairs);
            total += pairs;
            na = next;
        }
        CHECK_INT(loom__model_height(n), level);
        CHECK_INT(total, n - 1);
        CHECK_INT(loom__model_edges(n, 0), 0);
        CHECK_INT(loom__model_edges(n, level + 1), 0);
    }
    /* Fig. 8/9: 16 ranks, 15 transfers, 8 on level 1. The printed Eq. 5 counts 9, 5, 3, 2. */
    CHECK_INT(loom__model_edges(16, 1), 8);
    CHECK_INT(loom__model_edges_v(16, 1, LOOM_MODEL_PRINTED_EQ5), 9);
    CHECK_INT(loom__model_edges_v(16, 2, LOOM_MODEL_PRINTED_EQ5), 5);
    CHECK_INT(loom__model_edges_v(16, 3, LOOM_MODEL_PRINTED_EQ5), 3);
    CHECK_INT(loom__model_edges_v(16, 4, LOOM_MODEL_PRINTED_EQ5), 2);
    /* Fig. 11: 23 ranks, levels of 11, 6, 3, 1, 1 transfers. */
    int fig11[] = {11, 6, 3, 1, 1};
    for (int i = 1; i <= 5; i++)
        CHECK_INT(loom__model_edges(23, i), fig11[i - 1]);
    CHECK_INT(loom__model_height(23), 5);
    CHECK_INT(loom__model_height(64), 6);
    CHECK_INT(loom__model_height(65), 7);
    CHECK_INT(loom__model_height(1), 0);
    CHECK_INT(loom__model_height(0), 0);
    /* the printed form over-counts every level of a power of two by one */
    for (int i = 1; i <= 6; i++)
        CHECK_INT(loom__model_edges_v(64, i, LOOM_MODEL_PRINTED_EQ5), loom__model_edges(64, i) + 1);
    return model_result();
}
