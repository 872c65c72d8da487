/* threads.c — several threads of each rank at once (MPI_THREAD_MULTIPLE): thread t of every
 * rank makes its own communicator of all ranks with MPI_Comm_create_from_group (string tag
 * "loom.test.t<t>", the threads racing in the registry), its own intercommunicator between
 * the halves of world with MPI_Intercomm_create_from_groups, then plays ping-pong with its
 * partner across it and runs an allreduce and a barrier on it, in a loop. */
#include <pthread.h>
#include <stdio.h>
#include "comm_check.h"

#define THREADS 3
#define ROUNDS 10

struct work {
    int t, me, n, low;
    int done;
};

static void *run(void *p)
{
    struct work *w = p;
    int high = w->me >= w->low;
    MPI_Group wg, lg, hg;
    OK(MPI_Comm_group(MPI_COMM_WORLD, &wg));
    int lr[1][3] = {{0, w->low - 1, 1}}, hr[1][3] = {{w->low, w->n - 1, 1}};
    OK(MPI_Group_range_incl(wg, 1, lr, &lg));
    OK(MPI_Group_range_incl(wg, 1, hr, &hg));
    char tag[32];
    for (int i = 0; i < ROUNDS; i++) {
        MPI_Comm all, ic;
        snprintf(tag, sizeof tag, "loom.test.t%d", w->t);
        OK(MPI_Comm_create_from_group(wg, tag, MPI_INFO_NULL, MPI_ERRORS_RETURN, &all));
        int sum = 0, one = 1;
        OK(MPI_Allreduce(&one, &sum, 1, MPI_INT, MPI_SUM, all));
        CHECK_INT(sum, w->n);
        snprintf(tag, sizeof tag, "loom.test.inter.t%d", w->t);
        OK(MPI_Intercomm_create_from_groups(high ? hg : lg, 0, high ? lg : hg, 0, tag,
                                            MPI_INFO_NULL, MPI_ERRORS_RETURN, &ic));
        int lrank, rsize;
        OK(MPI_Comm_rank(ic, &lrank));
        OK(MPI_Comm_remote_size(ic, &rsize));
        if (lrank < rsize) { /* ping-pong with the partner of the same rank */
            int v = 100 * w->t + i, got = -1;
            MPI_Status st;
            if (!high) {
                OK(MPI_Send(&v, 1, MPI_INT, lrank, w->t, ic));
                OK(MPI_Recv(&got, 1, MPI_INT, lrank, w->t, ic, &st));
            } else {
                OK(MPI_Recv(&got, 1, MPI_INT, MPI_ANY_SOURCE, w->t, ic, &st));
                OK(MPI_Send(&got, 1, MPI_INT, lrank, w->t, ic));
            }
            CHECK_INT(got, v);
            CHECK_INT(st.MPI_SOURCE, lrank);
        }
        int remote_sum = 0;
        OK(MPI_Allreduce(&one, &remote_sum, 1, MPI_INT, MPI_SUM, ic));
        CHECK_INT(remote_sum, rsize);
        OK(MPI_Barrier(ic));
        OK(MPI_Comm_free(&ic));
        OK(MPI_Comm_free(&all));
        w->done++;
    }
    OK(MPI_Group_free(&lg));
    OK(MPI_Group_free(&hg));
    OK(MPI_Group_free(&wg));
    return NULL;
}

int main(int argc, char **argv)
{
    int provided;
    OK(MPI_Init_thread(&argc, &argv, MPI_THREAD_MULTIPLE, &provided));
    CHECK_INT(provided, MPI_THREAD_MULTIPLE);
    int n = world_size();
    if (n >= 2) {
        struct work w[THREADS];
        pthread_t th[THREADS];
        for (int t = 0; t < THREADS; t++) {
            w[t] = (struct work){t, world_rank(), n, n / 2, 0};
            CHECK_INT(pthread_create(&th[t], NULL, run, &w[t]), 0);
        }
        for (int t = 0; t < THREADS; t++) {
            CHECK_INT(pthread_join(th[t], NULL), 0);
            CHECK_INT(w[t].done, ROUNDS);
        }
    }
    OK(MPI_Finalize());
    return 0;
}
