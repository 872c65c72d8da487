/* tests/privatize/main_elsewhere.c — a program whose main lives in a file that does not
 * include mpi.h: its MPI calls are wrapped in another module (main_elsewhere_mpi.c), as in
 * several well-known mini-apps. loomcc's plugin makes this main the rank's main, so it runs
 * once per rank; its globals are per rank like any other. */
#include <stdio.h>
#include <stdlib.h>

int app_start(int *argc, char ***argv); /* main_elsewhere_mpi.c: returns the rank */
int app_size(void);
long app_sum(long mine);
void app_end(void);

static long steps; /* per rank */

int main(int argc, char **argv)
{
    int rank = app_start(&argc, &argv);
    for (int i = 0; i <= rank; i++)
        steps++;
    long total = app_sum(steps);
    int size = app_size();
    if (steps != rank + 1 || total != (long)size * (size + 1) / 2) {
        fprintf(stderr, "rank %d: steps %ld, total %ld\n", rank, steps, total);
        return 1;
    }
    if (rank == 0)
        printf("main without mpi.h: %d ranks ran it, total %ld\n", size, total);
    app_end();
    return 0;
}
