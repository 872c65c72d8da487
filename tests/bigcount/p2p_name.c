/* An error in a call that shares its implementation with its big-count twin names the call
 * the program made: `p2p_name int` fails in MPI_Send, `p2p_name c` in MPI_Send_c (rank out
 * of range, MPI_ERRORS_ARE_FATAL: the message is the job's last words). */
#include <string.h>
#include "p2p_check.h"

int main(int argc, char **argv)
{
    OK(MPI_Init(&argc, &argv));
    int x = 0, size = p2p_size();
    if (argc > 1 && strcmp(argv[1], "c") == 0)
        MPI_Send_c(&x, 1, MPI_INT, size, 0, MPI_COMM_WORLD);
    else
        MPI_Send(&x, 1, MPI_INT, size, 0, MPI_COMM_WORLD);
    fprintf(stderr, "the bad send returned\n");
    return 99;
}
