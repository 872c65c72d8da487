/* For kill.sh: every rank enters a receive that nothing will satisfy, after the last rank has
 * written its node process's pid to the file named by argv[1]. The job can only end when
 * someone kills a node process. */
#include <mpi.h>
#include <stdio.h>
#include <unistd.h>

int main(int argc, char **argv)
{
    MPI_Init(&argc, &argv);
    int me, n;
    MPI_Comm_rank(MPI_COMM_WORLD, &me);
    MPI_Comm_size(MPI_COMM_WORLD, &n);
    MPI_Barrier(MPI_COMM_WORLD);
    if (me == n - 1 && argc > 1) {
        FILE *f = fopen(argv[1], "w");
        if (f) {
            fprintf(f, "%ld\n", (long)getpid());
            fclose(f);
        }
    }
    int x;
    MPI_Recv(&x, 1, MPI_INT, (me + 1) % n, 77, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
    MPI_Finalize();
    return 0;
}
