/* tests/privatize/omp.c — MPI + OpenMP (MPI_THREAD_FUNNELED): a rank's OpenMP threads share
 * the rank's globals, as the threads of an MPI process share its globals.
 *
 * Each rank fills a static table and scalars with values of its own, then, in parallel
 * regions of NT threads:
 *  - every thread reads the table and the scalars (the rank's values, not the initial ones);
 *  - a global counter is updated with `omp atomic`, another under `omp critical`, a third
 *    through a pointer initialized at file scope (`int *counter_ptr = &counter_c`);
 *  - a function keeps a function-local `static` count of its calls (`omp atomic capture`);
 *  - a global is a reduction variable, another is firstprivate, another lastprivate, another
 *    private (the rank's value is untouched), one is written by a `single` thread and read
 *    by all after the barrier;
 *  - a `_Thread_local` variable and a `threadprivate` one stay per thread.
 * After each region the rank thread checks the totals, and the ranks compare them with
 * MPI_Allreduce; every rank also checks that its globals' addresses are its own. */
#include <mpi.h>
#include <omp.h>
#include <stdint.h>
#include "check.h"
#include "own_address.h"

#define NT 4
#define N 1000

static int table[N];
double scale = 1.0;       /* set by each rank to its rank + 2 */
int counter_atomic;       /* omp atomic */
int counter_critical;     /* omp critical */
int counter_c;
int *counter_ptr = &counter_c; /* a per-rank address in an initializer */
long reduced;             /* reduction(+) */
int first = -1;           /* firstprivate: each thread starts from the rank's value */
int last = -1;            /* lastprivate */
int scratch = -7;         /* private: the rank's own stays -7 */
int broadcast_by_single;  /* written by one thread, read by all after the barrier */
_Thread_local int per_thread = -1;
int tp_var = -1;
#pragma omp threadprivate(tp_var)

static int calls(void)
{
    static int n; /* function-local static: one per rank */
    int v;
#pragma omp atomic capture
    v = ++n;
    return v;
}

static void region(int rank, int round, int *bad)
{
    int wrong = 0;
#pragma omp parallel num_threads(NT) reduction(+ : wrong)
    {
        int me = omp_get_thread_num();
        for (int i = 0; i < N; i++)
            if (table[i] != rank * 100000 + round * 1000 + i)
                wrong++;
        if (scale != rank + 2.0)
            wrong++;
#pragma omp atomic
        counter_atomic++;
#pragma omp critical
        counter_critical += 2;
#pragma omp atomic
        (*counter_ptr) += 3;
        calls();
        per_thread = me; /* each thread its own */
        tp_var = rank * 10 + me;
#pragma omp single
        broadcast_by_single = rank * 7 + round;
        /* implicit barrier */
        if (broadcast_by_single != rank * 7 + round)
            wrong++;
#pragma omp barrier
        if (per_thread != me || tp_var != rank * 10 + me)
            wrong++;
#pragma omp for reduction(+ : reduced) firstprivate(first) lastprivate(last) private(scratch)
        for (int i = 0; i < N; i++) {
            scratch = i;
            if (first != rank + round)
                wrong++;
            reduced += table[i] - rank * 100000 - round * 1000; /* sum of i */
            last = i + scratch;
        }
    }
    *bad += wrong;
}

int main(int argc, char **argv)
{
    int provided, rank, size;
    MPI_Init_thread(&argc, &argv, MPI_THREAD_FUNNELED, &provided);
    CHECK(provided >= MPI_THREAD_FUNNELED);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &size);
    CHECK(counter_ptr == &counter_c); /* the rank's own, fixed at start */
    CHECK_INT(per_thread, -1);
    scale = rank + 2.0;
    int bad = 0;
    const int rounds = 3;
    for (int round = 0; round < rounds; round++) {
        for (int i = 0; i < N; i++)
            table[i] = rank * 100000 + round * 1000 + i;
        first = rank + round;
        reduced = 0;
        region(rank, round, &bad);
        CHECK_INT(bad, 0);
        CHECK_INT(reduced, (long)N * (N - 1) / 2);
        CHECK_INT(last, 2 * (N - 1));
        CHECK_INT(scratch, -7);
        CHECK_INT(counter_atomic, NT * (round + 1));
        CHECK_INT(counter_critical, 2 * NT * (round + 1));
        CHECK_INT(counter_c, 3 * NT * (round + 1));
        CHECK_INT(broadcast_by_single, rank * 7 + round);
    }
    CHECK_INT(calls(), NT * rounds + 1);
    CHECK_INT(per_thread, 0); /* the rank thread is thread 0 of its team */
    /* Every rank came to the same totals, in its own variables. */
    int totals[3] = {counter_atomic, counter_critical, counter_c}, sum[3];
    MPI_Allreduce(totals, sum, 3, MPI_INT, MPI_SUM, MPI_COMM_WORLD);
    CHECK_INT(sum[0], size * NT * rounds);
    CHECK_INT(sum[2], 3 * size * NT * rounds);
    check_own_address(&counter_atomic);
    MPI_Barrier(MPI_COMM_WORLD);
    if (rank == 0)
        printf("omp: %d ranks x %d threads share their rank's globals\n", size, NT);
    MPI_Finalize();
    return 0;
}
