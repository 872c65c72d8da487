/* Linked with libglob.so (built by mpicc -fPIC -shared): each rank stores its own value in the
 * library's global, through the library and directly, waits for every rank to have stored,
 * and reads back its own value; any rank that reads another's fails the job. */
#include <mpi.h>
#include <stdio.h>

extern int glob_value;
void glob_set(int v);
int glob_get(void);

int main(int argc, char **argv)
{
    int rank, size, bad = 0, total;
    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &size);
    if (glob_get() != 7) {
        printf("rank %d: the library's global starts at %d, expected 7\n", rank, glob_get());
        bad = 1;
    }
    glob_set(100 + rank);
    MPI_Barrier(MPI_COMM_WORLD);
    if (glob_value != 100 + rank || glob_get() != 100 + rank) {
        printf("rank %d: the library's global is %d (through the library %d), expected %d\n",
               rank, glob_value, glob_get(), 100 + rank);
        bad = 1;
    }
    glob_value = 200 + rank;
    MPI_Barrier(MPI_COMM_WORLD);
    if (glob_get() != 200 + rank) {
        printf("rank %d: the library reads %d, expected %d\n", rank, glob_get(), 200 + rank);
        bad = 1;
    }
    MPI_Allreduce(&bad, &total, 1, MPI_INT, MPI_SUM, MPI_COMM_WORLD);
    if (rank == 0 && total == 0)
        printf("the library's global is per rank in %d ranks\n", size);
    MPI_Finalize();
    return total != 0;
}
