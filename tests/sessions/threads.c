/* threads.c — several threads of each rank open sessions at once, before any MPI_Init (the
 * first brings the rank's MPI up, the others find it up; a first session, finalized at once,
 * reads the job's size and leaves the rank's MPI up): thread t of every rank makes its
 * own communicator from "mpi://WORLD" (tag "loom.test.sess.t<t>"), communicates on it, frees
 * it and finalizes its session, in a loop; one session of the rank's main thread stays open
 * throughout. Totals are checked after the threads joined. */
#include <pthread.h>
#include <stdlib.h>
#include "sess_check.h"

#define THREADS 3
#define ROUNDS 8

struct work {
    int t, n, done;
};

static void *run(void *p)
{
    struct work *w = p;
    for (int i = 0; i < ROUNDS; i++) {
        MPI_Session s;
        OK(MPI_Session_init(MPI_INFO_NULL, MPI_ERRORS_RETURN, &s));
        char tag[32];
        snprintf(tag, sizeof tag, "loom.test.sess.t%d", w->t);
        MPI_Comm c = sess_comm(s, "mpi://WORLD", tag);
        sess_talk(c, w->n, 1000 * w->t + i);
        OK(MPI_Comm_free(&c));
        OK(MPI_Session_finalize(&s));
        w->done++;
    }
    return NULL;
}

int main(int argc, char **argv)
{
    (void)argc, (void)argv;
    struct work w[THREADS];
    pthread_t th[THREADS];
    MPI_Session mine;
    MPI_Session probe; /* the job's size, from the pset's "mpi_size" */
    MPI_Info info;
    char val[16];
    int vlen = sizeof val, flag = 0;
    OK(MPI_Session_init(MPI_INFO_NULL, MPI_ERRORS_RETURN, &probe));
    OK(MPI_Session_get_pset_info(probe, "mpi://WORLD", &info));
    OK(MPI_Info_get_string(info, "mpi_size", &vlen, val, &flag));
    CHECK_INT(flag, 1);
    OK(MPI_Info_free(&info));
    OK(MPI_Session_finalize(&probe));
    int n = atoi(val);
    for (int t = 0; t < THREADS; t++) {
        w[t] = (struct work){t, n, 0};
        CHECK_INT(pthread_create(&th[t], NULL, run, &w[t]), 0);
    }
    OK(MPI_Session_init(MPI_INFO_NULL, MPI_ERRORS_RETURN, &mine));
    MPI_Comm c = sess_comm(mine, "mpi://WORLD", "loom.test.sess.main");
    int size;
    OK(MPI_Comm_size(c, &size));
    CHECK_INT(size, n);
    for (int t = 0; t < THREADS; t++)
        CHECK_INT(pthread_join(th[t], NULL), 0);
    int total = 0;
    for (int t = 0; t < THREADS; t++)
        total += w[t].done;
    CHECK_INT(total, THREADS * ROUNDS);
    sess_talk(c, n, 5);
    OK(MPI_Comm_free(&c));
    OK(MPI_Session_finalize(&mine));
    return 0;
}
