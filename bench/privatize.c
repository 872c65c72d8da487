/* bench/privatize.c — what a privatized global costs: the same loops over global variables,
 * built three ways (bench/run_privatize.py does it and writes the report):
 *   per rank  loomcc: the plugin routes every access through the rank's copy (docs/privatize.md)
 *   TLS       loomcc -fno-privatize -DGLOBAL=_Thread_local: every global thread-local, the
 *             access privatized globals had before they were per rank
 *   plain     loomcc -fno-privatize (and mpicc.mpich): ordinary shared globals
 *
 *   sum       s += a[i] over a global array of 4096 doubles (in L1), many times
 *   triad     a[i] = b[i] + 3 * c[i] over three global arrays of 4096 doubles
 *   counter   a global counter incremented by a function that is not inlined: the variable
 *             is found again at each call, the worst case of a privatized access
 *   bound     a loop whose condition reads a global scalar (`i < limit`) and whose body calls
 *             a function that is not inlined, so the bound is read again each time
 *   chase     p = next[p] over a global array of 1024 ints (a dependent load each step)
 *   stencil   a mini-app kernel: Jacobi sweeps of a 5-point stencil over global 2-D grids
 *             (128 x 128 doubles), sizes, coefficients and the residual in globals, a
 *             boundary routine and the residual reduction in functions of their own
 *
 * Each test runs RUNS times; the value printed is the median, in nanoseconds per element (per
 * call for counter and bound, per grid point for stencil). One rank is enough: the cost is per
 * access, not per rank.
 *
 *   loomrun -n 1 ./priv_per_rank   (or mpiexec.mpich -n 1 ./priv_mpich)
 * Output: CSV lines `test,ns_per_element` after comment lines. */
#include <mpi.h>
#include <stdio.h>
#include <stdlib.h>

#ifndef GLOBAL
#define GLOBAL /* per rank with loomcc's plugin, plain with -fno-privatize or another MPI */
#endif

#define N 4096
#define RUNS 15
#define NX 128
#define NY 128

GLOBAL double a[N], b[N], c[N];
GLOBAL long calls;
GLOBAL long limit;
GLOBAL int next_index[1024];
GLOBAL double grid[NY][NX], next_grid[NY][NX];
GLOBAL int nx = NX, ny = NY;
GLOBAL double weight = 0.25, residual;
GLOBAL volatile double sink;

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

__attribute__((noinline)) static void run_bound(void)
{
    for (long i = 0; i < limit; i++)
        count_call();
}

__attribute__((noinline)) static int run_chase(long n)
{
    int p = 0;
    for (long i = 0; i < n; i++)
        p = next_index[p];
    return p;
}

/* The stencil: boundaries held at fixed values, interior relaxed, residual summed. */
__attribute__((noinline)) static void set_boundary(void)
{
    for (int i = 0; i < nx; i++) {
        grid[0][i] = 1.0;
        grid[ny - 1][i] = 0.0;
    }
    for (int j = 0; j < ny; j++) {
        grid[j][0] = 0.5;
        grid[j][nx - 1] = 0.5;
    }
}

__attribute__((noinline)) static void sweep(void)
{
    for (int j = 1; j < ny - 1; j++)
        for (int i = 1; i < nx - 1; i++)
            next_grid[j][i] = weight * (grid[j - 1][i] + grid[j + 1][i] + grid[j][i - 1] +
                                        grid[j][i + 1]);
}

__attribute__((noinline)) static void update_residual(void)
{
    residual = 0;
    for (int j = 1; j < ny - 1; j++)
        for (int i = 1; i < nx - 1; i++) {
            double d = next_grid[j][i] - grid[j][i];
            residual += d * d;
            grid[j][i] = next_grid[j][i];
        }
}

__attribute__((noinline)) static void run_stencil(int iterations)
{
    for (int it = 0; it < iterations; it++) {
        set_boundary();
        sweep();
        update_residual();
    }
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
    const int reps = 2000, sweeps = 200;
    const long ncalls = 20 * 1000 * 1000;
    limit = ncalls;
    enum { NTESTS = 6 };
    double t[NTESTS][RUNS];
    for (int k = 0; k < RUNS; k++) {
        double t0 = MPI_Wtime();
        sink = run_sum(reps);
        double t1 = MPI_Wtime();
        run_triad(reps);
        double t2 = MPI_Wtime();
        run_counter(ncalls);
        double t3 = MPI_Wtime();
        run_bound();
        double t4 = MPI_Wtime();
        sink = run_chase(ncalls);
        double t5 = MPI_Wtime();
        run_stencil(sweeps);
        double t6 = MPI_Wtime();
        t[0][k] = (t1 - t0) * 1e9 / ((double)reps * N);
        t[1][k] = (t2 - t1) * 1e9 / ((double)reps * N);
        t[2][k] = (t3 - t2) * 1e9 / (double)ncalls;
        t[3][k] = (t4 - t3) * 1e9 / (double)ncalls;
        t[4][k] = (t5 - t4) * 1e9 / (double)ncalls;
        t[5][k] = (t6 - t5) * 1e9 / ((double)sweeps * NX * NY);
    }
    if (calls != 2L * RUNS * ncalls || !(residual >= 0)) {
        fprintf(stderr, "privatize bench: counter is %ld, expected %ld\n", calls,
                2L * RUNS * ncalls);
        return 1;
    }
    printf("# bench/privatize: median of %d runs, ns per element (per call for counter and "
           "bound, per grid point for stencil)\n",
           RUNS);
    printf("test,ns_per_element\n");
    const char *names[NTESTS] = {"sum", "triad", "counter", "bound", "chase", "stencil"};
    for (int k = 0; k < NTESTS; k++)
        printf("%s,%.4f\n", names[k], median(t[k], RUNS));
    MPI_Finalize();
    return 0;
}
