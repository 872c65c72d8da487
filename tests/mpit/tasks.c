/* The task counters count every task a rank's threads run, by whom it was for: each rank
 * sends one 1 MiB message to the next, which moves as 16 tasks of LOOM_COPY_CHUNK=64K
 * (argv[1] is the expected number of tasks per message: 16, or 0 under
 * LOOM_PROGRESS=inline where copies are not tasks). Who runs which chunk varies from run to
 * run; the sum over all ranks and all three counters does not: size * argv[1]. */
#include <stdlib.h>

#include "mpit_check.h"

#define BYTES (1 << 20)

int main(int argc, char **argv)
{
    static const char *const names[3] = {"loom_tasks_own", "loom_tasks_same_numa",
                                         "loom_tasks_other_numa"};
    int rank, size, provided, count;
    CHECK(argc >= 2);
    long long per_message = atoll(argv[1]);
    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &size);
    CHECK_OK(MPI_T_init_thread(MPI_THREAD_SINGLE, &provided));
    MPI_T_pvar_session s;
    MPI_T_pvar_handle h[3];
    CHECK_OK(MPI_T_pvar_session_create(&s));
    for (int k = 0; k < 3; k++) {
        int cat = -1, ncat, idx = pvar_index(names[k]);
        CHECK_OK(MPI_T_pvar_handle_alloc(s, idx, NULL, &h[k], &count));
        /* listed in the "task" category */
        CHECK_OK(MPI_T_category_get_index("task", &cat));
        int list[16];
        CHECK_OK(MPI_T_category_get_info(cat, NULL, NULL, NULL, NULL, NULL, &ncat, NULL));
        CHECK_OK(MPI_T_category_get_pvars(cat, 16, list));
        int found = 0;
        for (int j = 0; j < ncat; j++)
            found += list[j] == idx;
        CHECK_INT(found, 1);
    }
    char *sbuf = calloc(BYTES, 1), *rbuf = calloc(BYTES, 1);
    CHECK(sbuf && rbuf);
    CHECK_OK(MPI_T_pvar_start(s, MPI_T_PVAR_ALL_HANDLES));
    unsigned long long before[3], after[3];
    for (int k = 0; k < 3; k++)
        CHECK_OK(MPI_T_pvar_read(s, h[k], &before[k]));
    /* Read before the barrier: once past it, another rank's chunks may run on our threads. */
    MPI_Barrier(MPI_COMM_WORLD);
    MPI_Request r[2];
    MPI_Irecv(rbuf, BYTES, MPI_CHAR, (rank + size - 1) % size, 0, MPI_COMM_WORLD, &r[0]);
    MPI_Isend(sbuf, BYTES, MPI_CHAR, (rank + 1) % size, 0, MPI_COMM_WORLD, &r[1]);
    MPI_Waitall(2, r, MPI_STATUSES_IGNORE);
    /* Every chunk was counted before it ran, so before its message completed; every rank's
     * messages are complete once all are past this barrier. */
    MPI_Barrier(MPI_COMM_WORLD);
    long long mine = 0, all = -1;
    for (int k = 0; k < 3; k++) {
        CHECK_OK(MPI_T_pvar_read(s, h[k], &after[k]));
        mine += (long long)(after[k] - before[k]);
    }
    MPI_Allreduce(&mine, &all, 1, MPI_LONG_LONG, MPI_SUM, MPI_COMM_WORLD);
    CHECK_INT(all, per_message * size);
    CHECK_OK(MPI_T_pvar_session_free(&s));
    CHECK_OK(MPI_T_finalize());
    free(sbuf);
    free(rbuf);
    MPI_Finalize();
    if (rank == 0)
        printf("mpit tasks: %lld tasks in all\n", all);
    return 0;
}
