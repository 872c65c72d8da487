/* A program whose main loom did not start (its file was not compiled by loomcc and does not
 * rename main, as with objects built by a plain compiler): MPI_Init stops the program with a
 * message that says what to do, instead of crashing. */
#define LOOM_NO_MAIN_RENAME
#include <mpi.h>
#include <stdio.h>

int main(int argc, char **argv)
{
    MPI_Init(&argc, &argv);
    printf("MPI_Init returned outside loom\n");
    return 0;
}
