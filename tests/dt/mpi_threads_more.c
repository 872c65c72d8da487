/* Threads of every rank at once on the shared parts of the new datatype calls: attributes on
 * one shared derived type and on the predefined MPI_INT (shared by all ranks of the job),
 * f90 types made on first use, and get_contents handing out new handles of one type while
 * other threads decode and free theirs. Each thread uses its own keyval; totals of the
 * callbacks are checked after the join. */
#include <pthread.h>
#include "comm_check.h"

#define THREADS 4
#define ROUNDS 50

struct work {
    MPI_Datatype shared; /* one struct type of the rank, read by all its threads */
    int keyval;          /* this thread's */
    int deletes;         /* its delete callback's calls (this thread's keyval only) */
};

static int on_delete(MPI_Datatype t, int keyval, void *val, void *extra)
{
    struct work *w = extra;
    (void)t, (void)keyval, (void)val;
    w->deletes++;
    return MPI_SUCCESS;
}

static void *run(void *p)
{
    struct work *w = p;
    int flag;
    void *val;
    for (int i = 0; i < ROUNDS; i++) {
        OK(MPI_Type_set_attr(w->shared, w->keyval, &w->deletes));
        OK(MPI_Type_set_attr(MPI_INT, w->keyval, w));
        OK(MPI_Type_get_attr(w->shared, w->keyval, &val, &flag));
        CHECK(flag && val == &w->deletes);
        OK(MPI_Type_get_attr(MPI_INT, w->keyval, &val, &flag));
        CHECK(flag && val == w);
        OK(MPI_Type_delete_attr(MPI_INT, w->keyval));

        MPI_Datatype f, g;
        OK(MPI_Type_create_f90_integer(i % 19, &f));
        OK(MPI_Type_create_f90_integer(i % 19, &g));
        CHECK(f == g);
        OK(MPI_Type_create_f90_real(i % 16, MPI_UNDEFINED, &f));

        int iv[4];
        MPI_Aint av[3];
        MPI_Datatype dv[3];
        OK(MPI_Type_get_contents(w->shared, 4, 3, 3, iv, av, dv));
        CHECK_INT(iv[0], 3);
        int ni, na, nd, comb;
        OK(MPI_Type_get_envelope(dv[1], &ni, &na, &nd, &comb));
        CHECK_INT(comb, MPI_COMBINER_VECTOR);
        OK(MPI_Type_free(&dv[1]));
    }
    return NULL;
}

int main(int argc, char **argv)
{
    int provided;
    MPI_Init_thread(&argc, &argv, MPI_THREAD_MULTIPLE, &provided);
    CHECK_INT(provided, MPI_THREAD_MULTIPLE);
    MPI_Datatype vec, s;
    OK(MPI_Type_vector(2, 1, 3, MPI_INT, &vec));
    MPI_Datatype ty[] = {MPI_CHAR, vec, MPI_DOUBLE};
    int bl[] = {1, 1, 2};
    MPI_Aint d[] = {0, 8, 32};
    OK(MPI_Type_create_struct(3, bl, d, ty, &s));
    OK(MPI_Type_free(&vec));
    struct work w[THREADS];
    pthread_t th[THREADS];
    for (int t = 0; t < THREADS; t++) {
        w[t] = (struct work){s, 0, 0};
        OK(MPI_Type_create_keyval(MPI_TYPE_NULL_COPY_FN, on_delete, &w[t].keyval, &w[t]));
    }
    for (int t = 0; t < THREADS; t++)
        CHECK_INT(pthread_create(&th[t], NULL, run, &w[t]), 0);
    for (int t = 0; t < THREADS; t++)
        CHECK_INT(pthread_join(th[t], NULL), 0);
    /* each round replaced the shared type's value (a delete) and deleted MPI_INT's */
    for (int t = 0; t < THREADS; t++)
        CHECK_INT(w[t].deletes, 2 * ROUNDS - 1);
    OK(MPI_Type_free(&s)); /* the last value of every keyval goes */
    for (int t = 0; t < THREADS; t++) {
        CHECK_INT(w[t].deletes, 2 * ROUNDS);
        OK(MPI_Type_free_keyval(&w[t].keyval));
    }
    MPI_Finalize();
    return 0;
}
