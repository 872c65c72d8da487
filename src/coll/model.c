/* coll/model.c — the split-tree model of the 2019 paper, Section 6.2 (Eqs. 3-9), with the two
 * fixes that make it give the paper's stated results (Eq. 4 and Eq. 5; see model.h and
 * docs/model.md), and the choice of S for LOOM_SPLIT_TREE=auto. Pure integer/double
 * arithmetic: no state, no locks, callable from any thread. */
#include "coll/model.h"

#include <math.h>

int loom__model_height(int N)
{
    int h = 0;
    while (N > 1 && (1L << h) < (long)N)
        h++;
    return h;
}

int loom__model_edges_v(int N, int i, unsigned flags)
{
    if (N < 2 || i < 1 || i > loom__model_height(N))
        return 0;
    long two_i = 1L << i, half = two_i / 2;
    if (flags & LOOM_MODEL_PRINTED_EQ5) /* ceil(N/2^i + 1/2) = ceil((2N + 2^i) / 2^(i+1)) */
        return (int)((2L * N + two_i + 2 * two_i - 1) / (2 * two_i));
    /* ceil(N/2^i - 1/2) = ceil((N - 2^(i-1)) / 2^i): the ranks r < N whose lowest set bit is
     * 2^(i-1), i.e. the children that talk to their parent on level i. N > 2^(i-1) here. */
    return (int)((N - half + two_i - 1) / two_i);
}

int loom__model_edges(int N, int i)
{
    return loom__model_edges_v(N, i, 0);
}

/* 2^k - 1 = sum_{i=1}^{k} 2^(i-1): W(N,k) of Section 6.2 */
static double weight(int k)
{
    return ldexp(1.0, k) - 1.0;
}

double loom__model_t_blocking(int N, int P, int growing)
{
    (void)P;
    int h = loom__model_height(N);
    return growing ? weight(h) : (double)h;
}

double loom__model_comp_v(int N, int P, int growing, unsigned flags)
{
    if (N < 1)
        return 0.0;
    int nproc = N + (P > 0 ? P : 0);
    double c_all = loom__model_t_blocking(nproc, 0, growing); /* C(N_proc) = T_blocking(N_proc) */
    if (flags & LOOM_MODEL_PRINTED_EQ4)
        return (double)N / nproc * c_all;
    return (double)nproc / N * c_all; /* fixed total work: fewer ranks compute longer */
}

double loom__model_comp(int N, int P, int growing)
{
    return loom__model_comp_v(N, P, growing, 0);
}

double loom__model_t_blocking_total(int N, int P, int growing)
{
    return loom__model_t_blocking(N, P, growing) + loom__model_comp(N, P, growing);
}

/* The levels S+1..H(N) folded on P cores, level after level: sum ceil(F(N,i)/P) * weight. */
static double folded(int S, int N, int P, int growing, unsigned flags)
{
    int h = loom__model_height(N);
    double t = 0.0;
    for (int i = (S < 0 ? 0 : S) + 1; i <= h; i++) {
        int f = loom__model_edges_v(N, i, flags);
        if (f == 0)
            continue;
        if (P <= 0)
            return INFINITY;
        double w = growing ? ldexp(1.0, i - 1) : 1.0;
        t += (double)((f + P - 1) / P) * w;
    }
    return t;
}

/* min(S, H(N)) levels, or their weight min(W(N,S), W_H(N)) */
static double app_part(int S, int N, int growing)
{
    int h = loom__model_height(N);
    int s = S < 0 ? 0 : (S < h ? S : h);
    return growing ? weight(s) : (double)s;
}

double loom__model_t_nonblocking_v(int S, int N, int P, int growing, unsigned flags)
{
    return app_part(S, N, growing) + folded(S, N, P, growing, flags);
}

double loom__model_t_nonblocking(int S, int N, int P, int growing)
{
    return loom__model_t_nonblocking_v(S, N, P, growing, 0);
}

double loom__model_t_overlapped_v(int S, int N, int P, int growing, unsigned flags)
{
    double c = loom__model_comp_v(N, P, growing, flags);
    double f = folded(S, N, P, growing, flags);
    return app_part(S, N, growing) + (f > c ? f : c);
}

double loom__model_t_overlapped(int S, int N, int P, int growing)
{
    return loom__model_t_overlapped_v(S, N, P, growing, 0);
}

int loom__model_best_split_v(int nranks, int comm_cores, int growing_buffer, unsigned flags)
{
    int h = loom__model_height(nranks);
    if (nranks <= 1)
        return 0;
    if (comm_cores <= 0)
        return h;
    int best = 0;
    double best_t = loom__model_t_overlapped_v(0, nranks, comm_cores, growing_buffer, flags);
    for (int s = 1; s <= h; s++) {
        double t = loom__model_t_overlapped_v(s, nranks, comm_cores, growing_buffer, flags);
        /* Strictly less: on a tie keep the smaller S. All values are sums of integers and
         * one ratio computed the same way for every S, so equal means equal. */
        if (t < best_t) {
            best_t = t;
            best = s;
        }
    }
    return best;
}

int loom__model_best_split(int nranks, int comm_cores, int growing_buffer)
{
    return loom__model_best_split_v(nranks, comm_cores, growing_buffer, 0);
}
