/* MPI_Add_error_class / _code / _string: new values above MPI_ERR_LASTCODE, distinct across
 * every rank and thread of the job (added at once), known to MPI_Error_class and
 * MPI_Error_string ("" before a string is set, the string after), MPI_LASTUSEDCODE on
 * MPI_COMM_WORLD following the largest; MPI_Comm_call_errhandler hands a user's code to a
 * user's handler and returns MPI_SUCCESS. */
#include <pthread.h>
#include <stdlib.h>
#include "misc_check.h"

#define THREADS 4
#define PER_THREAD 25

static void *adder(void *arg)
{
    int *vals = arg;
    for (int i = 0; i < PER_THREAD; i++)
        OK(MPI_Add_error_class(&vals[i]));
    return NULL;
}

static _Thread_local int handled_code = -1; /* the rank thread runs its handler */
static void handler(MPI_Comm *comm, int *code, ...)
{
    (void)comm;
    handled_code = *code;
}

static int lastused(void)
{
    int *v, flag = 0;
    OK(MPI_Comm_get_attr(MPI_COMM_WORLD, MPI_LASTUSEDCODE, &v, &flag));
    CHECK(flag);
    return *v;
}

static int cmp_int(const void *a, const void *b)
{
    return *(const int *)a - *(const int *)b;
}

int main(int argc, char **argv)
{
    OK(MPI_Init(&argc, &argv));
    int rank, size;
    OK(MPI_Comm_rank(MPI_COMM_WORLD, &rank));
    OK(MPI_Comm_size(MPI_COMM_WORLD, &size));
    CHECK(lastused() >= MPI_ERR_LASTCODE);

    /* a class, two codes in it, a code in a predefined class */
    int cls, code1, code2, argcode, got = -1, len = -1;
    char text[MPI_MAX_ERROR_STRING], want[64];
    OK(MPI_Add_error_class(&cls));
    CHECK(cls > MPI_ERR_LASTCODE);
    OK(MPI_Add_error_code(cls, &code1));
    OK(MPI_Add_error_code(cls, &code2));
    OK(MPI_Add_error_code(MPI_ERR_ARG, &argcode));
    CHECK(code1 > cls && code2 > code1 && argcode > code2);
    CHECK(lastused() >= argcode);
    OK(MPI_Error_class(cls, &got));
    CHECK_INT(got, cls);
    OK(MPI_Error_class(code2, &got));
    CHECK_INT(got, cls);
    OK(MPI_Error_class(argcode, &got));
    CHECK_INT(got, MPI_ERR_ARG);
    OK(MPI_Error_string(code1, text, &len));
    CHECK_INT(len, 0);
    CHECK_STR(text, "");
    snprintf(want, sizeof want, "rank %d's first code", rank);
    OK(MPI_Add_error_string(code1, want));
    OK(MPI_Error_string(code1, text, &len));
    CHECK_STR(text, want);
    CHECK_INT(len, (int)strlen(want));
    OK(MPI_Add_error_string(code1, "replaced")); /* a later string replaces it */
    OK(MPI_Error_string(code1, text, &len));
    CHECK_STR(text, "replaced");
    OK(MPI_Add_error_string(cls, "the class"));
    OK(MPI_Error_string(cls, text, &len));
    CHECK_STR(text, "the class");
    OK(MPI_Error_string(code2, text, &len)); /* a code has its own string, not its class's */
    CHECK_STR(text, "");

    /* the error handler gets the program's code */
    MPI_Errhandler eh;
    OK(MPI_Comm_create_errhandler(handler, &eh));
    OK(MPI_Comm_set_errhandler(MPI_COMM_WORLD, eh));
    OK(MPI_Comm_call_errhandler(MPI_COMM_WORLD, code2));
    CHECK_INT(handled_code, code2);
    OK(MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_RETURN));
    OK(MPI_Errhandler_free(&eh));
    OK(MPI_Comm_call_errhandler(MPI_COMM_WORLD, code1));

    /* every thread of every rank at once: all values distinct, the attribute the largest */
    int *vals = malloc(sizeof(int) * THREADS * PER_THREAD);
    int *all = malloc(sizeof(int) * THREADS * PER_THREAD * (size_t)size);
    CHECK(vals && all);
    pthread_t th[THREADS];
    for (int t = 0; t < THREADS; t++)
        CHECK(pthread_create(&th[t], NULL, adder, &vals[t * PER_THREAD]) == 0);
    for (int t = 0; t < THREADS; t++)
        CHECK(pthread_join(th[t], NULL) == 0);
    OK(MPI_Allgather(vals, THREADS * PER_THREAD, MPI_INT, all, THREADS * PER_THREAD, MPI_INT,
                     MPI_COMM_WORLD));
    int n = THREADS * PER_THREAD * size;
    qsort(all, (size_t)n, sizeof *all, cmp_int);
    for (int i = 1; i < n; i++)
        CHECK(all[i] > all[i - 1]);
    CHECK(all[0] > MPI_ERR_LASTCODE);
    CHECK(lastused() >= all[n - 1]);
    OK(MPI_Barrier(MPI_COMM_WORLD)); /* every rank has added all it will */
    int mine = lastused(), max = 0;
    OK(MPI_Allreduce(&mine, &max, 1, MPI_INT, MPI_MAX, MPI_COMM_WORLD));
    CHECK_INT(mine, max);
    for (int i = 0; i < THREADS * PER_THREAD; i++) {
        OK(MPI_Error_class(vals[i], &got));
        CHECK_INT(got, vals[i]);
    }
    free(vals);
    free(all);
    OK(MPI_Finalize());
    return 0;
}
