/* MPI_Get_count and MPI_Get_elements(_x) on statuses built with MPI_Status_set_elements:
 * whole and partial elements, types made of one basic type and of several; cancelled flag. */
#include <mpi.h>
#include "comm_check.h"

static int count_of(const MPI_Status *st, MPI_Datatype t)
{
    int n;
    OK(MPI_Get_count(st, t, &n));
    return n;
}

static int elements_of(const MPI_Status *st, MPI_Datatype t)
{
    int n;
    MPI_Count nx;
    OK(MPI_Get_elements(st, t, &n));
    OK(MPI_Get_elements_x(st, t, &nx));
    CHECK_INT(nx, n);
    return n;
}

int main(int argc, char **argv)
{
    MPI_Status st;
    MPI_Init(&argc, &argv);
    memset(&st, 0, sizeof st);

    OK(MPI_Status_set_elements(&st, MPI_INT, 6));
    CHECK_INT(count_of(&st, MPI_INT), 6);
    CHECK_INT(elements_of(&st, MPI_INT), 6);
    CHECK_INT(count_of(&st, MPI_SHORT), 12);

    MPI_Datatype pair, mixed;
    OK(MPI_Type_contiguous(4, MPI_INT, &pair)); /* 4 ints */
    OK(MPI_Type_commit(&pair));
    CHECK_INT(count_of(&st, pair), MPI_UNDEFINED); /* 6 ints: 1.5 elements */
    CHECK_INT(elements_of(&st, pair), 6);
    OK(MPI_Status_set_elements(&st, pair, 8));
    CHECK_INT(count_of(&st, pair), 2);

    /* struct { double; int; } (size 12): elements count the double and the int */
    int bl[] = {1, 1};
    MPI_Aint d[] = {0, 8};
    MPI_Datatype ty[] = {MPI_DOUBLE, MPI_INT};
    OK(MPI_Type_create_struct(2, bl, d, ty, &mixed));
    OK(MPI_Type_commit(&mixed));
    OK(MPI_Status_set_elements(&st, mixed, 5)); /* 2 whole + a double */
    CHECK_INT(st.loom_bytes, 32);
    CHECK_INT(count_of(&st, mixed), MPI_UNDEFINED);
    CHECK_INT(elements_of(&st, mixed), 5);
    CHECK_INT(elements_of(&st, MPI_INT), 8);
    CHECK_INT(elements_of(&st, MPI_DOUBLE_INT), 5);
    st.loom_bytes = 28; /* ends inside a double */
    CHECK_INT(elements_of(&st, mixed), MPI_UNDEFINED);
    st.loom_bytes = 0;
    CHECK_INT(count_of(&st, mixed), 0);
    CHECK_INT(elements_of(&st, mixed), 0);

    /* a type of size zero gives a count of zero */
    MPI_Datatype empty;
    OK(MPI_Type_contiguous(0, MPI_INT, &empty));
    OK(MPI_Type_commit(&empty));
    CHECK_INT(count_of(&st, empty), 0);

    int flag = 1;
    OK(MPI_Test_cancelled(&st, &flag));
    CHECK_INT(flag, 0);
    OK(MPI_Status_set_cancelled(&st, 1));
    OK(MPI_Test_cancelled(&st, &flag));
    CHECK_INT(flag, 1);

    OK(MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_RETURN));
    int n;
    CHECK_INT(MPI_Get_count(MPI_STATUS_IGNORE, MPI_INT, &n), MPI_ERR_ARG);
    CHECK_INT(MPI_Get_count(&st, MPI_DATATYPE_NULL, &n), MPI_ERR_TYPE);
    CHECK_INT(MPI_Get_elements(&st, MPI_INT, NULL), MPI_ERR_ARG);
    CHECK_INT(MPI_Status_set_elements(&st, MPI_INT, -1), MPI_ERR_COUNT);
    CHECK_INT(MPI_Test_cancelled(NULL, &flag), MPI_ERR_ARG);
    OK(MPI_Type_free(&pair));
    OK(MPI_Type_free(&mixed));
    OK(MPI_Type_free(&empty));
    MPI_Finalize();
    return 0;
}
