/* MPI_Pack / MPI_Unpack with a running position (several packs into one buffer, unpacked
 * in order into other layouts), MPI_Pack_size, and the truncation errors. */
#include <mpi.h>
#include "comm_check.h"

int main(int argc, char **argv)
{
    MPI_Init(&argc, &argv);
    OK(MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_RETURN));

    /* a 4x5 matrix of ints; pack column 1 (vector), then a double, then row 2 */
    int m[4][5], out[4][5];
    for (int r = 0; r < 4; r++)
        for (int c = 0; c < 5; c++)
            m[r][c] = 10 * r + c;
    MPI_Datatype col;
    OK(MPI_Type_vector(4, 1, 5, MPI_INT, &col));
    OK(MPI_Type_commit(&col));
    int size, total = 0;
    OK(MPI_Pack_size(1, col, MPI_COMM_WORLD, &size));
    CHECK_INT(size, 16);
    total += size;
    OK(MPI_Pack_size(1, MPI_DOUBLE, MPI_COMM_WORLD, &size));
    CHECK_INT(size, 8);
    total += size;
    OK(MPI_Pack_size(5, MPI_INT, MPI_COMM_WORLD, &size));
    total += size;
    CHECK_INT(total, 44);

    char buf[64];
    int pos = 0;
    double x = 2.5, y = 0;
    OK(MPI_Pack(&m[0][1], 1, col, buf, sizeof buf, &pos, MPI_COMM_WORLD));
    CHECK_INT(pos, 16);
    OK(MPI_Pack(&x, 1, MPI_DOUBLE, buf, sizeof buf, &pos, MPI_COMM_WORLD));
    CHECK_INT(pos, 24);
    OK(MPI_Pack(m[2], 5, MPI_INT, buf, sizeof buf, &pos, MPI_COMM_WORLD));
    CHECK_INT(pos, 44);
    int first[4];
    memcpy(first, buf, sizeof first);
    for (int r = 0; r < 4; r++)
        CHECK_INT(first[r], 10 * r + 1);

    /* unpack: the column into a plain array, the double, the row into column 3 of out */
    memset(out, 0, sizeof out);
    int colvals[4];
    pos = 0;
    OK(MPI_Unpack(buf, 44, &pos, colvals, 4, MPI_INT, MPI_COMM_WORLD));
    OK(MPI_Unpack(buf, 44, &pos, &y, 1, MPI_DOUBLE, MPI_COMM_WORLD));
    CHECK(y == 2.5);
    /* 5 ints into a column of 4 rows does not fit the type; unpack 4 via col, skip one */
    OK(MPI_Unpack(buf, 44, &pos, &out[0][3], 1, col, MPI_COMM_WORLD));
    CHECK_INT(pos, 40);
    for (int r = 0; r < 4; r++) {
        CHECK_INT(colvals[r], 10 * r + 1);
        CHECK_INT(out[r][3], 20 + r);
        CHECK_INT(out[r][2], 0);
    }

    /* overflow: packing past outsize, unpacking past insize */
    pos = 40;
    CHECK_INT(MPI_Pack(&m[0][0], 1, col, buf, 44, &pos, MPI_COMM_WORLD), MPI_ERR_TRUNCATE);
    CHECK_INT(pos, 40);
    pos = 30;
    CHECK_INT(MPI_Unpack(buf, 44, &pos, colvals, 4, MPI_INT, MPI_COMM_WORLD), MPI_ERR_TRUNCATE);
    pos = 50;
    CHECK_INT(MPI_Unpack(buf, 44, &pos, colvals, 0, MPI_INT, MPI_COMM_WORLD), MPI_ERR_TRUNCATE);
    pos = 0;
    CHECK_INT(MPI_Pack(m, -1, MPI_INT, buf, 44, &pos, MPI_COMM_WORLD), MPI_ERR_COUNT);
    CHECK_INT(MPI_Pack(m, 1, MPI_INT, buf, 44, NULL, MPI_COMM_WORLD), MPI_ERR_ARG);
    CHECK_INT(MPI_Pack(m, 1, MPI_INT, buf, 44, &pos, MPI_COMM_NULL), MPI_ERR_COMM);
    CHECK_INT(MPI_Pack(m, 1, MPI_DATATYPE_NULL, buf, 44, &pos, MPI_COMM_WORLD), MPI_ERR_TYPE);
    CHECK_INT(MPI_Pack_size(-2, MPI_INT, MPI_COMM_WORLD, &size), MPI_ERR_COUNT);
    MPI_Datatype unc;
    OK(MPI_Type_contiguous(2, MPI_INT, &unc));
    CHECK_INT(MPI_Pack(m, 1, unc, buf, 44, &pos, MPI_COMM_WORLD), MPI_ERR_TYPE);
    OK(MPI_Type_free(&unc));
    OK(MPI_Type_free(&col));
    MPI_Finalize();
    return 0;
}
