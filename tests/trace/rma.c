/* tests/trace/rma.c — the one-sided calls under LOOM_TRACE. Their fast paths (docs/rma.md, "The
 * latency-bound calls") skip LOOM_API_ENTER's bookkeeping, so each must give way to the traced
 * full path while a trace is recorded: the trace holds every call. Each rank does K of each
 * operation, each followed by MPI_Win_flush, on the next rank's window in one lock_all epoch,
 * then K times MPI_Win_lock / MPI_Put / MPI_Win_unlock; trace_rma.sh counts the calls in the
 * JSON trace. The values are checked too, so that a traced call also did its work.
 * Usage: trace_rma K */
#include <mpi.h>
#include <stdio.h>
#include <stdlib.h>

int main(int argc, char **argv)
{
    MPI_Init(&argc, &argv);
    int rank, size;
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &size);
    int k = argc > 1 ? atoi(argv[1]) : 5;
    long long *mem;
    MPI_Win win;
    MPI_Win_allocate(4 * sizeof(long long), sizeof(long long), MPI_INFO_NULL, MPI_COMM_WORLD,
                     &mem, &win);
    for (int i = 0; i < 4; i++)
        mem[i] = 0;
    MPI_Barrier(MPI_COMM_WORLD);
    int t = (rank + 1) % size;
    long long v = rank + 1, got = -1, one = 1, old = 0, seen = 0;
    int bad = 0;
    MPI_Win_lock_all(0, win);
    for (int i = 0; i < k; i++) {
        MPI_Put(&v, 1, MPI_LONG_LONG, t, 0, 1, MPI_LONG_LONG, win);
        MPI_Win_flush(t, win);
        MPI_Get(&got, 1, MPI_LONG_LONG, t, 0, 1, MPI_LONG_LONG, win);
        MPI_Win_flush(t, win);
        bad |= got != v;
        MPI_Fetch_and_op(&one, &old, MPI_LONG_LONG, t, 1, MPI_SUM, win);
        MPI_Win_flush(t, win);
        bad |= old != i;
        long long next = i + 1;
        MPI_Compare_and_swap(&next, &seen, &old, MPI_LONG_LONG, t, 2, win);
        MPI_Win_flush(t, win);
        bad |= old != i;
        seen = next;
    }
    MPI_Win_unlock_all(win);
    for (int i = 0; i < k; i++) {
        MPI_Win_lock(MPI_LOCK_SHARED, t, 0, win);
        MPI_Put(&v, 1, MPI_LONG_LONG, t, 3, 1, MPI_LONG_LONG, win);
        MPI_Win_unlock(t, win);
    }
    MPI_Barrier(MPI_COMM_WORLD);
    int from = (rank + size - 1) % size;
    bad |= mem[0] != from + 1 || mem[1] != k || mem[2] != k || mem[3] != from + 1;
    if (bad)
        fprintf(stderr, "trace_rma: rank %d: wrong values %lld %lld %lld %lld (from rank %d)\n",
                rank, mem[0], mem[1], mem[2], mem[3], from);
    MPI_Win_free(&win);
    MPI_Finalize();
    return bad;
}
