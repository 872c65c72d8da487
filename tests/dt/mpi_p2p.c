/* Derived datatypes through point-to-point: a matrix column (vector) sent to a contiguous
 * receive and a struct received into a resized column; the send type freed while its
 * MPI_Isend is in flight. Each rank sends to the next (itself with one rank). */
#include <mpi.h>
#include "comm_check.h"

#define R 6
#define C 5

int main(int argc, char **argv)
{
    int rank, size;
    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &size);
    int to = (rank + 1) % size, from = (rank + size - 1) % size;

    double m[R][C], col[R];
    for (int r = 0; r < R; r++)
        for (int c = 0; c < C; c++)
            m[r][c] = 100 * rank + 10 * r + c;
    MPI_Datatype column;
    OK(MPI_Type_vector(R, 1, C, MPI_DOUBLE, &column));
    OK(MPI_Type_commit(&column));
    MPI_Request rq[2];
    OK(MPI_Irecv(col, R, MPI_DOUBLE, from, 1, MPI_COMM_WORLD, &rq[0]));
    OK(MPI_Isend(&m[0][2], 1, column, to, 1, MPI_COMM_WORLD, &rq[1]));
    OK(MPI_Type_free(&column)); /* the send still uses it */
    MPI_Status sts[2];
    OK(MPI_Waitall(2, rq, sts));
    for (int r = 0; r < R; r++)
        CHECK(col[r] == 100 * from + 10 * r + 2);

    /* contiguous doubles into column 4 of a matrix, through a resized column type */
    double out[R][C];
    memset(out, 0, sizeof out);
    MPI_Datatype c1, rcol;
    OK(MPI_Type_vector(R, 1, C, MPI_DOUBLE, &c1));
    OK(MPI_Type_create_resized(c1, 0, sizeof(double), &rcol));
    OK(MPI_Type_free(&c1));
    OK(MPI_Type_commit(&rcol));
    MPI_Status st;
    OK(MPI_Sendrecv(col, R, MPI_DOUBLE, to, 2, &out[0][4], 1, rcol, from, 2, MPI_COMM_WORLD,
                    &st));
    int n;
    OK(MPI_Get_count(&st, rcol, &n));
    CHECK_INT(n, 1);
    OK(MPI_Get_elements(&st, rcol, &n));
    CHECK_INT(n, R);
    int prev = (from + size - 1) % size; /* col holds the column of `from`'s sender */
    for (int r = 0; r < R; r++) {
        CHECK(out[r][4] == 100 * prev + 10 * r + 2);
        CHECK(out[r][3] == 0);
    }
    OK(MPI_Type_free(&rcol));
    MPI_Finalize();
    return 0;
}
