/* MPI_Isendrecv(_replace) from several threads of each rank at once (MPI_THREAD_MULTIPLE):
 * each thread shifts its own tag around the ring, a small and a large message in turn, and
 * checks what it got; the completions of the parts run on whichever thread does the work. */
#include <pthread.h>
#include <stdlib.h>
#include "small_check.h"

enum { THREADS = 4, ROUNDS = 40, BIG = 20000 };
/* The rank's place in the ring, given to its threads (every rank is a thread of one process:
 * no globals). */
struct ring {
    int rank, next, prev, t;
};

static void *worker(void *arg)
{
    const struct ring *g = arg;
    int rank = g->rank, next = g->next, prev = g->prev, t = g->t;
    int *s = malloc(sizeof(int) * BIG), *r = malloc(sizeof(int) * BIG);
    CHECK(s && r);
    for (int k = 0; k < ROUNDS; k++) {
        int n = k % 2 ? BIG : 3;
        for (int i = 0; i < n; i++)
            s[i] = rank * 100000 + t * 1000 + k + i;
        MPI_Request req;
        MPI_Status st;
        if (k % 3 == 2) { /* the replace form, in s */
            OK(MPI_Isendrecv_replace(s, n, MPI_INT, next, t, prev, t, MPI_COMM_WORLD, &req));
            OK(MPI_Wait(&req, &st));
            for (int i = 0; i < n; i++)
                CHECK_INT(s[i], prev * 100000 + t * 1000 + k + i);
        } else {
            OK(MPI_Isendrecv(s, n, MPI_INT, next, t, r, n, MPI_INT, prev, t, MPI_COMM_WORLD,
                             &req));
            int flag = 0;
            while (!flag)
                OK(MPI_Test(&req, &flag, &st));
            for (int i = 0; i < n; i++)
                CHECK_INT(r[i], prev * 100000 + t * 1000 + k + i);
        }
        CHECK_INT(st.MPI_SOURCE, prev);
        CHECK_INT(st.MPI_TAG, t);
    }
    free(s);
    free(r);
    return NULL;
}

int main(int argc, char **argv)
{
    int provided;
    MPI_Init_thread(&argc, &argv, MPI_THREAD_MULTIPLE, &provided);
    CHECK_INT(provided, MPI_THREAD_MULTIPLE);
    MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_RETURN);
    int rank, size;
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &size);
    pthread_t th[THREADS];
    struct ring g[THREADS];
    for (int t = 0; t < THREADS; t++) {
        g[t] = (struct ring){rank, (rank + 1) % size, (rank + size - 1) % size, t};
        CHECK_INT(pthread_create(&th[t], NULL, worker, &g[t]), 0);
    }
    for (int t = 0; t < THREADS; t++)
        CHECK_INT(pthread_join(th[t], NULL), 0);
    MPI_Finalize();
    return 0;
}
