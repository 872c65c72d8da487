/* Many threads of each rank create and free communicators at once (MPI_THREAD_MULTIPLE on
 * different communicators): thread t of every rank works on its own dup of MPI_COMM_WORLD,
 * splitting, duplicating, creating by group and freeing in a loop. Totals are checked after
 * the join. */
#include <pthread.h>
#include "comm_check.h"

#define THREADS 4
#define ROUNDS 25

struct work {
    MPI_Comm comm; /* this thread's dup of the world */
    int rank, size, tag;
    int done;      /* rounds completed */
};

static void *run(void *p)
{
    struct work *w = p;
    int r, n, cmp;
    MPI_Group gw, mine;
    OK(MPI_Comm_group(w->comm, &gw));
    int range[1][3] = {{w->rank % 2, w->size - 1 - ((w->size - 1) % 2 != w->rank % 2), 2}};
    OK(MPI_Group_range_incl(gw, 1, range, &mine));
    for (int i = 0; i < ROUNDS; i++) {
        MPI_Comm s, d, g;
        OK(MPI_Comm_split(w->comm, w->rank % 2, w->rank, &s));
        OK(MPI_Comm_rank(s, &r));
        CHECK_INT(r, w->rank / 2);
        OK(MPI_Comm_dup(s, &d));
        OK(MPI_Comm_compare(s, d, &cmp));
        CHECK_INT(cmp, MPI_CONGRUENT);
        OK(MPI_Comm_free(&s));
        OK(MPI_Comm_create_group(w->comm, mine, w->tag, &g));
        OK(MPI_Comm_size(g, &n));
        CHECK_INT(n, w->rank % 2 ? w->size / 2 : (w->size + 1) / 2);
        OK(MPI_Barrier(g));
        OK(MPI_Comm_compare(d, g, &cmp));
        CHECK_INT(cmp, MPI_CONGRUENT);
        OK(MPI_Comm_free(&g));
        OK(MPI_Barrier(d));
        OK(MPI_Comm_free(&d));
        w->done++;
    }
    OK(MPI_Group_free(&mine));
    OK(MPI_Group_free(&gw));
    return NULL;
}

int main(int argc, char **argv)
{
    int provided;
    MPI_Init_thread(&argc, &argv, MPI_THREAD_MULTIPLE, &provided);
    CHECK_INT(provided, MPI_THREAD_MULTIPLE);
    struct work w[THREADS];
    pthread_t th[THREADS];
    for (int t = 0; t < THREADS; t++) {
        w[t] = (struct work){MPI_COMM_NULL, world_rank(), world_size(), 0, 0};
        OK(MPI_Comm_dup(MPI_COMM_WORLD, &w[t].comm));
    }
    for (int t = 0; t < THREADS; t++)
        CHECK_INT(pthread_create(&th[t], NULL, run, &w[t]), 0);
    for (int t = 0; t < THREADS; t++)
        CHECK_INT(pthread_join(th[t], NULL), 0);
    for (int t = 0; t < THREADS; t++) {
        CHECK_INT(w[t].done, ROUNDS);
        OK(MPI_Comm_free(&w[t].comm));
    }
    MPI_Finalize();
    return 0;
}
