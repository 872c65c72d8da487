/* Passive-target progress across node processes (MPI 4.1 sections 12.5.3 and 12.7): rank 0
 * computes outside MPI while every other rank locks its window, puts, accumulates and unlocks.
 * Rank 0 makes no MPI call at all until it sees the others' work in its own window memory, so
 * their epochs can only complete if its node process moves the operations while the rank
 * computes: under loom's default policy the network thread does it, under LOOM_PROGRESS=thread
 * the progress threads (tests/multinode/CMakeLists.txt does not run it under inline, where
 * only MPI calls move anything). A loom that left the operations to rank 0's own calls hangs
 * here, and rank 0 gives up after 60 s with a message instead of waiting for the test's
 * timeout.
 *
 * Every origin r does ROUNDS epochs of MPI_Win_lock(MPI_LOCK_EXCLUSIVE, 0), a put of a value
 * of (r, round) into its slot, an MPI_Accumulate(MPI_SUM, 1) on a counter, a flush and a get
 * of its slot back, MPI_Win_unlock; then one epoch with MPI_Fetch_and_op(MPI_SUM, 1) on a
 * "done" counter: the origin that fetches size - 2 is the last, every other origin's epochs
 * are complete, and it puts the flag in one more epoch. Rank 0 polls the flag (volatile, with
 * ~100 us sleeps) until it is set and "done" is size - 1, then checks the counter and every
 * slot under a lock on itself. Loads that see remote updates without an MPI call need the
 * unified memory model (MPI_WIN_MODEL is checked). At the end rank 0 prints `rma_passive: N
 * ranks ok`. Plain MPI (tests/support/abort_check.h: a failed check ends the whole job), at
 * least 2 ranks; MPICH passes it only with MPIR_CVAR_ASYNC_PROGRESS=1 (without, rank 0 gives
 * up). */
#define _POSIX_C_SOURCE 200809L
#include <mpi.h>
#include <stdio.h>
#include <stdlib.h>
#include <time.h>
#include "abort_check.h"

/* A call that must succeed (abort_check.h), by a short name: most lines here are one. */
#define OK(call) CHECK_OK(call)

enum { ROUNDS = 20, FLAG = 0, DONE = 1, OPS = 2, SLOTS = 3, GIVE_UP_S = 60 };

static int value(int r, int round)
{
    return r * 1000 + round + 7;
}

static double now(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + ts.tv_nsec * 1e-9;
}

int main(int argc, char **argv)
{
    OK(MPI_Init(&argc, &argv));
    int me, n;
    OK(MPI_Comm_rank(MPI_COMM_WORLD, &me));
    OK(MPI_Comm_size(MPI_COMM_WORLD, &n));
    CHECK_MSG(n >= 2, "rma_passive needs at least 2 ranks, not %d", n);
    int *mem; /* the window's memory, freed by MPI_Win_free */
    MPI_Win win;
    OK(MPI_Win_allocate((MPI_Aint)(SLOTS + n) * (MPI_Aint)sizeof(int), sizeof(int),
                        MPI_INFO_NULL, MPI_COMM_WORLD, &mem, &win));
    for (int i = 0; i < SLOTS + n; i++)
        mem[i] = i < SLOTS ? 0 : -1;
    /* the stores above come before any origin's first lock */
    OK(MPI_Barrier(MPI_COMM_WORLD));

    if (me == 0) {
        /* loads see remote updates without an MPI call only in the unified model */
        int *model, flag = 0;
        OK(MPI_Win_get_attr(win, MPI_WIN_MODEL, &model, &flag));
        CHECK_MSG(flag && *model == MPI_WIN_UNIFIED, "the window's memory model is not "
              "MPI_WIN_UNIFIED (flag %d, model %d)", flag, flag ? *model : -1);
        /* computing: no MPI call until the others are done */
        volatile int *w = mem;
        double start = now();
        unsigned long polls = 0;
        while (!(w[FLAG] == 1 && w[DONE] == n - 1)) {
            struct timespec nap = {0, 100 * 1000};
            nanosleep(&nap, NULL);
            polls++;
            CHECK_MSG(now() - start < GIVE_UP_S, "gave up after %d s (%lu polls): flag %d, done %d "
                  "of %d, %d operations: the others' epochs did not complete while this rank "
                  "computed", GIVE_UP_S, polls, w[FLAG], w[DONE], n - 1, w[OPS]);
        }
        OK(MPI_Win_lock(MPI_LOCK_SHARED, 0, 0, win));
        CHECK_MSG(mem[OPS] == (n - 1) * ROUNDS, "counter %d, expected %d", mem[OPS],
              (n - 1) * ROUNDS);
        for (int r = 1; r < n; r++)
            CHECK_MSG(mem[SLOTS + r] == value(r, ROUNDS - 1), "slot of %d: %d, expected %d", r,
                  mem[SLOTS + r], value(r, ROUNDS - 1));
        CHECK_MSG(mem[SLOTS] == -1, "rank 0's own slot was written: %d", mem[SLOTS]);
        OK(MPI_Win_unlock(0, win));
    } else {
        int one = 1, got, done = -1;
        for (int round = 0; round < ROUNDS; round++) {
            int v = value(me, round);
            OK(MPI_Win_lock(MPI_LOCK_EXCLUSIVE, 0, 0, win));
            OK(MPI_Put(&v, 1, MPI_INT, 0, SLOTS + me, 1, MPI_INT, win));
            OK(MPI_Accumulate(&one, 1, MPI_INT, 0, OPS, 1, MPI_INT, MPI_SUM, win));
            OK(MPI_Win_flush(0, win));
            OK(MPI_Get(&got, 1, MPI_INT, 0, SLOTS + me, 1, MPI_INT, win));
            OK(MPI_Win_unlock(0, win));
            CHECK_MSG(got == v, "round %d: got %d back from rank 0, expected %d", round, got, v);
        }
        OK(MPI_Win_lock(MPI_LOCK_EXCLUSIVE, 0, 0, win));
        OK(MPI_Fetch_and_op(&one, &done, MPI_INT, 0, DONE, MPI_SUM, win));
        OK(MPI_Win_unlock(0, win));
        CHECK_MSG(done >= 0 && done < n - 1, "fetched done %d, expected 0..%d", done, n - 2);
        if (done == n - 2) {
            OK(MPI_Win_lock(MPI_LOCK_EXCLUSIVE, 0, 0, win));
            OK(MPI_Put(&one, 1, MPI_INT, 0, FLAG, 1, MPI_INT, win));
            OK(MPI_Win_unlock(0, win));
        }
    }
    OK(MPI_Barrier(MPI_COMM_WORLD));
    OK(MPI_Win_free(&win));
    OK(MPI_Finalize());
    if (me == 0)
        printf("rma_passive: %d ranks ok\n", n);
    return 0;
}
