/* The timer variables loom_time_in_mpi and loom_time_waiting (class MPI_T_PVAR_CLASS_TIMER,
 * ns): nothing is timed while no handle is started (LOOM_STATS off), a started handle turns
 * the timing on; the time in MPI grows with MPI calls and never exceeds the wall-clock time
 * around them (only the rank's own thread calls MPI here); a wait for a message that comes
 * later is counted as waiting; a stopped handle does not move, reset gives 0, and the timing
 * goes off again when the last timer handle stops. No time is asserted beyond those bounds. */
#define _POSIX_C_SOURCE 200809L /* clock_gettime, nanosleep */
#include <time.h>

#include "mpit_check.h"

static unsigned long long now_ns(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (unsigned long long)ts.tv_sec * 1000000000ull + (unsigned long long)ts.tv_nsec;
}

static unsigned long long get(MPI_T_pvar_session s, MPI_T_pvar_handle h)
{
    unsigned long long v = 0;
    CHECK_OK(MPI_T_pvar_read(s, h, &v));
    return v;
}

int main(int argc, char **argv)
{
    int rank, size, provided, count;
    MPI_Init(&argc, &argv);
    CHECK_OK(MPI_T_init_thread(MPI_THREAD_SINGLE, &provided));
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &size);
    int in_mpi = -1, waiting = -1;
    CHECK_OK(MPI_T_pvar_get_index("loom_time_in_mpi", MPI_T_PVAR_CLASS_TIMER, &in_mpi));
    CHECK_OK(MPI_T_pvar_get_index("loom_time_waiting", MPI_T_PVAR_CLASS_TIMER, &waiting));
    CHECK_RC(MPI_T_pvar_get_index("loom_time_waiting", MPI_T_PVAR_CLASS_COUNTER, &waiting),
             MPI_T_ERR_INVALID_NAME);

    /* the variables are timers of unsigned long long, neither continuous nor read-only */
    for (int k = 0; k < 2; k++) {
        char name[64], desc[512];
        int nl = sizeof name, dl = sizeof desc, verb, cls, bind, ro, cont, atomic;
        MPI_Datatype type;
        MPI_T_enum en;
        CHECK_OK(MPI_T_pvar_get_info(k ? waiting : in_mpi, name, &nl, &verb, &cls, &type, &en,
                                     desc, &dl, &bind, &ro, &cont, &atomic));
        CHECK_INT(cls, MPI_T_PVAR_CLASS_TIMER);
        CHECK(type == MPI_UNSIGNED_LONG_LONG);
        CHECK(!ro && !cont);
    }

    MPI_T_pvar_session s;
    MPI_T_pvar_handle hm, hw;
    CHECK_OK(MPI_T_pvar_session_create(&s));
    CHECK_OK(MPI_T_pvar_handle_alloc(s, in_mpi, NULL, &hm, &count));
    CHECK_OK(MPI_T_pvar_handle_alloc(s, waiting, NULL, &hw, &count));

    /* not started: nothing is timed, whatever the rank does */
    for (int i = 0; i < 50; i++)
        MPI_Barrier(MPI_COMM_WORLD);
    CHECK(get(s, hm) == 0 && get(s, hw) == 0);

    /* started: calls are timed, within the wall-clock time around them */
    CHECK_OK(MPI_T_pvar_start(s, hm));
    CHECK_OK(MPI_T_pvar_start(s, hw));
    unsigned long long t0 = now_ns();
    int x = rank, y = 0;
    for (int i = 0; i < 50; i++)
        MPI_Allreduce(&x, &y, 1, MPI_INT, MPI_SUM, MPI_COMM_WORLD);
    unsigned long long t1 = now_ns(), m1 = get(s, hm);
    CHECK(m1 > 0);
    CHECK(m1 <= t1 - t0);

    /* a receive of a message sent after the sender slept is a wait; the receiver cannot
     * have the message before the sender has its go, so over a few rounds the receiver is
     * seen waiting (one round suffices unless it was descheduled for the whole sleep) */
    if (size > 1 && rank < 2) {
        int peer = 1 - rank, seen = 0;
        for (int round = 0; round < 20 && !seen; round++) {
            unsigned long long w0 = get(s, hw);
            if (rank == 0) {
                MPI_Send(&x, 1, MPI_INT, peer, round, MPI_COMM_WORLD); /* go */
                MPI_Recv(&y, 1, MPI_INT, peer, round, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
                seen = get(s, hw) > w0;
            } else {
                MPI_Recv(&y, 1, MPI_INT, peer, round, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
                nanosleep(&(struct timespec){0, 5000000}, NULL);
                MPI_Send(&x, 1, MPI_INT, peer, round, MPI_COMM_WORLD);
            }
            /* both ranks go on or stop together: rank 0 tells what it saw */
            if (rank == 0)
                MPI_Send(&seen, 1, MPI_INT, peer, 1000 + round, MPI_COMM_WORLD);
            else
                MPI_Recv(&seen, 1, MPI_INT, peer, 1000 + round, MPI_COMM_WORLD,
                         MPI_STATUS_IGNORE);
        }
        if (rank == 0)
            CHECK(seen);
    }
    MPI_Barrier(MPI_COMM_WORLD);

    /* stopped: frozen; reset: zero; the other handle still runs */
    CHECK_OK(MPI_T_pvar_stop(s, hm));
    unsigned long long m2 = get(s, hm);
    for (int i = 0; i < 20; i++)
        MPI_Barrier(MPI_COMM_WORLD);
    CHECK(get(s, hm) == m2);
    CHECK_OK(MPI_T_pvar_reset(s, hm));
    CHECK(get(s, hm) == 0);

    /* every timer handle stopped: nothing moves; started again, a reset handle counts anew */
    CHECK_OK(MPI_T_pvar_stop(s, hw));
    unsigned long long w2 = get(s, hw);
    for (int i = 0; i < 20; i++)
        MPI_Barrier(MPI_COMM_WORLD);
    CHECK(get(s, hw) == w2);
    CHECK_OK(MPI_T_pvar_start(s, hm));
    MPI_Barrier(MPI_COMM_WORLD);
    CHECK(get(s, hm) > 0);
    CHECK_OK(MPI_T_pvar_stop(s, hm));

    CHECK_OK(MPI_T_pvar_handle_free(s, &hm));
    CHECK_OK(MPI_T_pvar_handle_free(s, &hw));
    CHECK_OK(MPI_T_pvar_session_free(&s));
    CHECK_OK(MPI_T_finalize());
    MPI_Finalize();
    return 0;
}
