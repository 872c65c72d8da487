/* MPI_Type_get_extent_x, MPI_Type_get_true_extent_x, MPI_Status_set_elements_x and
 * MPI_Get_elements_x on basic and derived types, with partial elements: a struct of an int
 * and a double counts its members one by one, a count that ends inside a basic element is
 * MPI_UNDEFINED, and a count set through one type reads back through another. */
#include <mpi.h>
#include "comm_check.h"

static void extents(MPI_Datatype t, MPI_Count lb, MPI_Count ext, MPI_Count tlb, MPI_Count text)
{
    MPI_Count a, b;
    MPI_Aint c, d;
    OK(MPI_Type_get_extent_x(t, &a, &b));
    CHECK_INT(a, lb);
    CHECK_INT(b, ext);
    OK(MPI_Type_get_extent(t, &c, &d)); /* the same numbers as the MPI_Aint call */
    CHECK_INT(c, a);
    CHECK_INT(d, b);
    OK(MPI_Type_get_true_extent_x(t, &a, &b));
    CHECK_INT(a, tlb);
    CHECK_INT(b, text);
}

int main(int argc, char **argv)
{
    MPI_Init(&argc, &argv);
    OK(MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_RETURN));
    extents(MPI_DOUBLE, 0, 8, 0, 8);
    MPI_Datatype v, r, s;
    OK(MPI_Type_vector(3, 2, -5, MPI_INT, &v)); /* blocks at 0, -20, -40 bytes */
    extents(v, -40, 48, -40, 48);
    OK(MPI_Type_create_resized(v, -100, 1000, &r));
    extents(r, -100, 1000, -40, 48);

    /* a struct { int; double; } of 12 data bytes, 3 basic elements in 2 of it */
    struct { int i; double d; } x;
    int bl[] = {1, 1};
    MPI_Aint disp[] = {0, (MPI_Aint)((char *)&x.d - (char *)&x)};
    MPI_Datatype ty[] = {MPI_INT, MPI_DOUBLE};
    OK(MPI_Type_create_struct(2, bl, disp, ty, &s));
    extents(s, 0, (MPI_Count)sizeof x, 0, (MPI_Count)sizeof x);
    MPI_Status st;
    MPI_Count n;
    int cnt;
    for (MPI_Count e = 0; e <= 5; e++) {
        OK(MPI_Status_set_elements_x(&st, s, e));
        OK(MPI_Get_elements_x(&st, s, &n));
        CHECK_INT(n, e);
        OK(MPI_Get_count(&st, s, &cnt));
        CHECK_INT(cnt, e % 2 ? MPI_UNDEFINED : (int)(e / 2));
    }
    /* 3 elements of the struct are int, double, int: 16 bytes, 4 ints */
    OK(MPI_Status_set_elements_x(&st, s, 3));
    OK(MPI_Get_elements_x(&st, MPI_INT, &n));
    CHECK_INT(n, 4);
    /* 6 bytes end inside the struct's double: undefined; 4 end after its int */
    OK(MPI_Status_set_elements_x(&st, MPI_BYTE, 6));
    OK(MPI_Get_elements_x(&st, s, &n));
    CHECK_INT(n, MPI_UNDEFINED);
    OK(MPI_Status_set_elements_x(&st, MPI_SHORT, 2));
    OK(MPI_Get_elements_x(&st, s, &n));
    CHECK_INT(n, 1);
    /* the vector of ints counts ints across its own elements */
    OK(MPI_Status_set_elements_x(&st, v, 7));
    OK(MPI_Get_elements_x(&st, MPI_INT, &n));
    CHECK_INT(n, 7);
    OK(MPI_Get_count(&st, v, &cnt));
    CHECK_INT(cnt, MPI_UNDEFINED);
    /* a count beyond int's range */
    OK(MPI_Status_set_elements_x(&st, MPI_CHAR, (MPI_Count)3 << 31));
    OK(MPI_Get_elements_x(&st, MPI_CHAR, &n));
    CHECK_INT(n, (MPI_Count)3 << 31);
    OK(MPI_Get_elements(&st, MPI_CHAR, &cnt));
    CHECK_INT(cnt, MPI_UNDEFINED);
    OK(MPI_Type_free(&s));
    OK(MPI_Type_free(&r));
    OK(MPI_Type_free(&v));
    MPI_Finalize();
    return 0;
}
