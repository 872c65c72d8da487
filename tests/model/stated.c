/* The fixed model gives the numbers the 2019 paper states for 64 cores (Section 6.2
 * "Discussion and tuning", Section 7 "Comparing performance results to model" and "Comparing
 * MPI implementations"), and the printed equations do not (docs/model.md). */
#include "model_check.h"

/* The N (1..cores-1) of least T_overlapped at its best S; *s_out gets that S. */
static int argmin_n(int cores, int growing, unsigned flags, int *s_out, double *t_out)
{
    int best_n = 0;
    double best_t = INFINITY;
    for (int n = 1; n < cores; n++) {
        int s = loom__model_best_split_v(n, cores - n, growing, flags);
        double t = loom__model_t_overlapped_v(s, n, cores - n, growing, flags);
        if (t < best_t) {
            best_t = t;
            best_n = n;
            *s_out = s;
        }
    }
    *t_out = best_t;
    return best_n;
}

/* The least N whose best S is s on `cores` cores, 0 if none. */
static int first_n_with(int cores, int s, unsigned flags)
{
    for (int n = 1; n < cores; n++)
        if (loom__model_best_split_v(n, cores - n, 0, flags) == s)
            return n;
    return 0;
}

int main(void)
{
    int s;
    double t;
    /* "the absolute minimum time is reached for S = 0 and N = 51" */
    CHECK_INT(argmin_n(64, 0, 0, &s, &t), 51);
    CHECK_INT(s, 0);
    CHECK_DBL(t, 6.0 * 64 / 51); /* min(0,6) + max(C(51) = 64/51 * 6, 7 folded) */
    /* "With 7 cores dedicated to communications (N = 57), the optimal is S = 1; for 4 cores
     * (N = 60), S = 2; and finally S = 3 for N = 62 (2 communication cores)." */
    CHECK_INT(loom__model_best_split(57, 7, 0), 1);
    CHECK_INT(loom__model_best_split(60, 4, 0), 2);
    CHECK_INT(loom__model_best_split(62, 2, 0), 3);
    /* "we switch from S = 0 to S = 1 for 52 MPI tasks, from S = 1 to S = 2 for 58 MPI tasks,
     * and from S = 2 to S = 3 for 62 MPI tasks" */
    CHECK_INT(first_n_with(64, 1, 0), 52);
    CHECK_INT(first_n_with(64, 2, 0), 58);
    CHECK_INT(first_n_with(64, 3, 0), 62);
    for (int n = 2; n <= 51; n++)
        CHECK_INT(loom__model_best_split(n, 64 - n, 0), 0);
    for (int n = 52; n <= 57; n++)
        CHECK_INT(loom__model_best_split(n, 64 - n, 0), 1);
    for (int n = 58; n <= 61; n++)
        CHECK_INT(loom__model_best_split(n, 64 - n, 0), 2);
    CHECK_INT(loom__model_best_split(63, 1, 0), 3);

    /* The 48-core Skylake: the model's optimum is N = 38, where Section 7 measured the best
     * performance ("38 cores on the SKL"). */
    CHECK_INT(argmin_n(48, 0, 0, &s, &t), 38);
    CHECK_INT(s, 0);

    /* The pieces: C(N) = N_proc/N * C(N_proc), C(N_proc) = T_blocking(N_proc). */
    CHECK_DBL(loom__model_comp(64, 0, 0), 6.0);
    CHECK_DBL(loom__model_comp(32, 32, 0), 12.0);
    CHECK_DBL(loom__model_comp(32, 32, 1), 126.0); /* 64/32 * W_H(64) = 2 * 63 */
    CHECK_DBL(loom__model_t_blocking(51, 13, 0), 6.0);
    CHECK_DBL(loom__model_t_blocking(51, 13, 1), 63.0);
    CHECK_DBL(loom__model_t_blocking_total(51, 13, 0), 6.0 + 6.0 * 64 / 51);
    /* Eq. 6 by hand, N = 62 on 2 cores: levels of 31, 15, 8, 4, 2, 1 transfers */
    CHECK_DBL(loom__model_t_nonblocking(0, 62, 2, 0), 16 + 8 + 4 + 2 + 1 + 1);
    CHECK_DBL(loom__model_t_nonblocking(3, 62, 2, 0), 3 + 2 + 1 + 1);
    CHECK_DBL(loom__model_t_overlapped(3, 62, 2, 0), 3 + 6.0 * 64 / 62);
    /* Eq. 8 by hand, N = 16 on 2 cores, S = 1: W(16,1) = 1, then 2*2 + 1*4 + 1*8 */
    CHECK_DBL(loom__model_t_nonblocking(1, 16, 2, 1), 1 + 4 + 4 + 8);
    /* S beyond H(N) is H(N); no communication core: only S >= H(N) is finite */
    CHECK_DBL(loom__model_t_nonblocking(9, 16, 2, 0), 4.0);
    CHECK(isinf(loom__model_t_nonblocking(3, 16, 0, 0)));
    CHECK_DBL(loom__model_t_nonblocking(4, 16, 0, 0), 4.0);
    CHECK_INT(loom__model_best_split(16, 0, 0), 4);
    CHECK_INT(loom__model_best_split(1, 5, 0), 0);
    CHECK_INT(loom__model_best_split(0, 5, 1), 0);

    /* The printed equations miss the stated results: with Eq. 5 as printed the optimum is at
     * N = 50 and the switch to S = 2 at N = 57; with Eq. 4 as printed the least time is at
     * N = 1 (computation shrinks with the rank count). */
    CHECK_INT(argmin_n(64, 0, LOOM_MODEL_PRINTED_EQ5, &s, &t), 50);
    CHECK_INT(first_n_with(64, 2, LOOM_MODEL_PRINTED_EQ5), 57);
    CHECK_INT(argmin_n(64, 0, LOOM_MODEL_PRINTED_EQ4, &s, &t), 1);
    CHECK_INT(argmin_n(64, 0, LOOM_MODEL_PRINTED_EQ4 | LOOM_MODEL_PRINTED_EQ5, &s, &t), 1);
    return model_result();
}
