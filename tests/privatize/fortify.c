/* tests/privatize/fortify.c — run-time object-size checks (built with -D_FORTIFY_SOURCE=3, and
 * in the sanitizer build with -fsanitize=undefined, whose object-size check is one too) see a
 * per-rank array as the whole object it is, from the rank's thread and from a thread the rank
 * starts: a copy into it must not be taken for an overflow. */
#include <mpi.h>
#include <pthread.h>
#include <string.h>
#include "check.h"

char name[64];
double values[1000];

static void *child(void *arg)
{
    int rank = *(int *)arg;
    char text[64];
    snprintf(text, sizeof text, "rank %d", rank);
    memcpy(name, text, sizeof text); /* a checked copy of the whole array */
    CHECK(values[999] == rank);
    return NULL;
}

int main(int argc, char **argv)
{
    int provided, rank;
    MPI_Init_thread(&argc, &argv, MPI_THREAD_MULTIPLE, &provided);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    values[999] = rank;
    memset(name, 0, sizeof name);
    pthread_t t;
    CHECK_INT(pthread_create(&t, NULL, child, &rank), 0);
    CHECK_INT(pthread_join(t, NULL), 0);
    char want[64];
    snprintf(want, sizeof want, "rank %d", rank);
    CHECK(strcmp(name, want) == 0);
    MPI_Barrier(MPI_COMM_WORLD);
    if (rank == 0)
        printf("fortify: object sizes checked, no false overflow\n");
    MPI_Finalize();
    return 0;
}
