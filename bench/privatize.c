/* bench/privatize.c — what a privatized global costs: the same loops over global variables,
 * built once with loomcc (globals per rank: thread-local storage) and once with
 * loomcc -fno-privatize (plain globals). docs/privatize.md reports the numbers.
 *
 *   sum      s += a[i] over a global array of 4096 doubles (in L1), many times
 *   triad    a[i] = b[i] + 3 * c[i] over three global arrays of 4096 doubles
 *   counter  a global counter incremented by a function that is not inlined (the variable's
 *            address is found again at each call)
 *   chase    p = next[p] over a global array of 1024 ints (a dependent load each step)
 *
 * Each test runs RUNS times; the value printed is the median, in nanoseconds per element (or
 * per call). One rank is enough: the cost is per access, not per rank.
 *
 *   loomcc -O2 -o priv_on bench/privatize.c
 *   loomcc -O2 -fno-privatize -o priv_off bench/privatize.c
 *   loomrun -n 1 ./priv_on; loomrun -n 1 ./priv_off
 * Output: CSV lines `test,ns_per_element` after comment lines. */
#include <mpi.h>
#include <stdio.h>
#include <stdlib.h>

#define N 4096
#define RUNS 15

double a[N], b[N], c[N];
static long calls;
int next_index[1024];
volatile double sink;

__attribute__((noinline)) static void count_call(void)
{
    calls++;
}

static int cmp(const void *x, const void *y)
{
    double d = *(const double *)x - *(const double *)y;
    return (d > 0) - (d < 0);
}

static double median(double *v, int n)
{
    qsort(v, (size_t)n, sizeof *v, cmp);
    return v[n / 2];
}

__attribute__((noinline)) static double run_sum(int reps)
{
    double s = 0;
    for (int r = 0; r < reps; r++)
        for (int i = 0; i < N; i++)
            s += a[i];
    return s;
}

__attribute__((noinline)) static void run_triad(int reps)
{
    for (int r = 0; r < reps; r++) {
        for (int i = 0; i < N; i++)
            a[i] = b[i] + 3.0 * c[i];
        __asm__ volatile("" ::: "memory"); /* keep every repetition */
    }
}

__attribute__((noinline)) static void run_counter(long n)
{
    for (long i = 0; i < n; i++)
        count_call();
}

__attribute__((noinline)) static int run_chase(long n)
{
    int p = 0;
    for (long i = 0; i < n; i++)
        p = next_index[p];
    return p;
}

int main(int argc, char **argv)
{
    MPI_Init(&argc, &argv);
    for (int i = 0; i < N; i++) {
        a[i] = i;
        b[i] = 1.0;
        c[i] = 2.0;
    }
    for (int i = 0; i < 1024; i++)
        next_index[i] = (i * 389 + 1) % 1024; /* one cycle through all entries */
    const int reps = 2000;
    const long ncalls = 20 * 1000 * 1000;
    double t[4][RUNS];
    for (int k = 0; k < RUNS; k++) {
        double t0 = MPI_Wtime();
        sink = run_sum(reps);
        double t1 = MPI_Wtime();
        run_triad(reps);
        double t2 = MPI_Wtime();
        run_counter(ncalls);
        double t3 = MPI_Wtime();
        sink = run_chase(ncalls);
        double t4 = MPI_Wtime();
        t[0][k] = (t1 - t0) * 1e9 / ((double)reps * N);
        t[1][k] = (t2 - t1) * 1e9 / ((double)reps * N);
        t[2][k] = (t3 - t2) * 1e9 / (double)ncalls;
        t[3][k] = (t4 - t3) * 1e9 / (double)ncalls;
    }
    if (calls != (long)RUNS * ncalls) {
        fprintf(stderr, "privatize bench: counter is %ld, expected %ld\n", calls,
                (long)RUNS * ncalls);
        return 1;
    }
    printf("# bench/privatize: median of %d runs, ns per element (per call for counter)\n",
           RUNS);
    printf("test,ns_per_element\n");
    const char *names[4] = {"sum", "triad", "counter", "chase"};
    for (int k = 0; k < 4; k++)
        printf("%s,%.4f\n", names[k], median(t[k], RUNS));
    MPI_Finalize();
    return 0;
}
