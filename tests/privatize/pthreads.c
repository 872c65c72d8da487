/* tests/privatize/pthreads.c — MPI + pthreads (MPI_THREAD_MULTIPLE): the threads a rank creates,
 * and the threads those create, share the rank's globals.
 *
 * Each rank duplicates MPI_COMM_WORLD into a static array, one communicator per thread, stores
 * its rank in a global and starts NT threads. Thread t finds its communicator in the array
 * (not MPI_COMM_NULL), exchanges messages around the ring on it and reduces over it, counts
 * its work in a global under a global mutex, and starts a thread of its own that reads the
 * same globals (the array, the rank, a pointer set at file scope to a per-rank variable) and
 * adds to the counters too. Threads wait for each other on a flag and a barrier kept in
 * globals, as the threads of an MPI process would. A `_Thread_local` variable stays per thread.
 * The rank thread checks the totals after the joins; the ranks check that their globals'
 * addresses differ. */
#include <mpi.h>
#include <pthread.h>
#include <stdint.h>
#include "check.h"
#include "own_address.h"

#define NT 4
#define ROUNDS 20

static MPI_Comm comms[NT];              /* the rank's communicators, one per thread */
int my_rank = -1, nranks;               /* set by the rank thread */
static pthread_mutex_t lock = PTHREAD_MUTEX_INITIALIZER; /* one per rank */
long work_done;                         /* under lock */
int grandchildren_ok;                   /* under lock */
static pthread_barrier_t barrier;       /* the rank's threads meet here */
int go;                                 /* set by the rank thread once all are started */
int *rank_ptr = &my_rank;               /* a per-rank address, fixed at start */
_Thread_local int whoami = -1;          /* per thread */

static void add_work(long n)
{
    pthread_mutex_lock(&lock);
    work_done += n;
    pthread_mutex_unlock(&lock);
}

static void *grandchild(void *p)
{
    int t = (int)(intptr_t)p;
    CHECK_INT(whoami, -1); /* a fresh thread-local */
    whoami = 100 + t;
    int ok = *rank_ptr == my_rank && my_rank >= 0 && comms[t] != MPI_COMM_NULL;
    int size = 0;
    MPI_Comm_size(comms[t], &size);
    ok = ok && size == nranks;
    pthread_mutex_lock(&lock);
    grandchildren_ok += ok;
    pthread_mutex_unlock(&lock);
    add_work(1);
    CHECK_INT(whoami, 100 + t);
    return NULL;
}

static void *worker(void *p)
{
    int t = (int)(intptr_t)p;
    whoami = t;
    while (!__atomic_load_n(&go, __ATOMIC_ACQUIRE)) /* a flag in a global, set by the rank */
        sched_yield();
    MPI_Comm comm = comms[t];
    CHECK(comm != MPI_COMM_NULL);
    int next = (my_rank + 1) % nranks, prev = (my_rank + nranks - 1) % nranks;
    for (int r = 0; r < ROUNDS; r++) {
        int out[2] = {my_rank, r * NT + t}, in[2] = {-1, -1};
        MPI_Sendrecv(out, 2, MPI_INT, next, t, in, 2, MPI_INT, prev, t, comm,
                     MPI_STATUS_IGNORE);
        CHECK_INT(in[0], prev);
        CHECK_INT(in[1], r * NT + t);
        int sum = 0;
        MPI_Allreduce(&my_rank, &sum, 1, MPI_INT, MPI_SUM, comm);
        CHECK_INT(sum, nranks * (nranks - 1) / 2);
        add_work(1);
    }
    pthread_t g;
    CHECK_INT(pthread_create(&g, NULL, grandchild, (void *)(intptr_t)t), 0);
    CHECK_INT(pthread_join(g, NULL), 0);
    pthread_barrier_wait(&barrier);
    CHECK_INT(whoami, t);
    return NULL;
}

int main(int argc, char **argv)
{
    int provided;
    MPI_Init_thread(&argc, &argv, MPI_THREAD_MULTIPLE, &provided);
    CHECK_INT(provided, MPI_THREAD_MULTIPLE);
    MPI_Comm_rank(MPI_COMM_WORLD, &my_rank);
    MPI_Comm_size(MPI_COMM_WORLD, &nranks);
    CHECK(rank_ptr == &my_rank);
    for (int t = 0; t < NT; t++)
        MPI_Comm_dup(MPI_COMM_WORLD, &comms[t]);
    CHECK_INT(pthread_barrier_init(&barrier, NULL, NT), 0);
    pthread_t th[NT];
    for (int t = 0; t < NT; t++)
        CHECK_INT(pthread_create(&th[t], NULL, worker, (void *)(intptr_t)t), 0);
    __atomic_store_n(&go, 1, __ATOMIC_RELEASE);
    for (int t = 0; t < NT; t++)
        CHECK_INT(pthread_join(th[t], NULL), 0);
    CHECK_INT(work_done, NT * ROUNDS + NT);
    CHECK_INT(grandchildren_ok, NT);
    CHECK_INT(whoami, -1);
    pthread_barrier_destroy(&barrier);
    for (int t = 0; t < NT; t++)
        MPI_Comm_free(&comms[t]);
    check_own_address(&work_done);
    MPI_Barrier(MPI_COMM_WORLD);
    if (my_rank == 0)
        printf("pthreads: %d ranks x %d threads (and theirs) share their rank's globals\n",
               nranks, NT);
    MPI_Finalize();
    return 0;
}
