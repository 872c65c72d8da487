/* MPI_Type_create_f90_integer / _real / _complex and MPI_Type_match_size: the type chosen for
 * a range, precision or size is gfortran's kind (a sized Fortran type), the same arguments
 * give the same handle, the types are predefined (cannot be freed) and usable (packed and
 * reduced like their Fortran type), and asking for what no type has is MPI_ERR_ARG. */
#include <float.h>
#include <mpi.h>
#include "comm_check.h"

static int size_of(MPI_Datatype t)
{
    int s;
    OK(MPI_Type_size(t, &s));
    return s;
}

int main(int argc, char **argv)
{
    MPI_Init(&argc, &argv);
    OK(MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_RETURN));
    MPI_Datatype t, u;

    /* integers: the smallest of 1, 2, 4, 8, 16 bytes holding r decimal digits */
    static const int rs[] = {0, 1, 2, 3, 4, 5, 9, 10, 18, 19, 38};
    static const int bytes[] = {1, 1, 1, 2, 2, 4, 4, 8, 8, 16, 16};
    for (int i = 0; i < 11; i++) {
        OK(MPI_Type_create_f90_integer(rs[i], &t));
        CHECK_INT(size_of(t), bytes[i]);
        OK(MPI_Type_create_f90_integer(rs[i], &u));
        CHECK(u == t);
    }
    CHECK_INT(MPI_Type_create_f90_integer(39, &t), MPI_ERR_ARG);
    OK(MPI_Type_create_f90_integer(3, &t));
    OK(MPI_Type_create_f90_integer(4, &u));
    CHECK(u != t); /* other arguments, another handle (get_contents tells them apart) */

    /* reals: float, double, long double, quad by precision and/or range */
    OK(MPI_Type_create_f90_real(FLT_DIG, MPI_UNDEFINED, &t));
    CHECK_INT(size_of(t), sizeof(float));
    OK(MPI_Type_create_f90_real(FLT_DIG + 1, MPI_UNDEFINED, &t));
    CHECK_INT(size_of(t), sizeof(double));
    OK(MPI_Type_create_f90_real(MPI_UNDEFINED, 300, &t));
    CHECK_INT(size_of(t), sizeof(double));
    OK(MPI_Type_create_f90_real(DBL_DIG + 1, 10, &t));
    CHECK_INT(size_of(t), sizeof(long double));
    OK(MPI_Type_create_f90_real(LDBL_DIG + 1, MPI_UNDEFINED, &t)); /* REAL(16) */
    CHECK_INT(size_of(t), 16);
    CHECK_INT(MPI_Type_create_f90_real(34, MPI_UNDEFINED, &t), MPI_ERR_ARG);
    CHECK_INT(MPI_Type_create_f90_real(MPI_UNDEFINED, MPI_UNDEFINED, &t), MPI_ERR_ARG);
    OK(MPI_Type_create_f90_complex(DBL_DIG, 30, &t));
    CHECK_INT(size_of(t), 2 * sizeof(double));
    OK(MPI_Type_create_f90_complex(3, MPI_UNDEFINED, &t));
    CHECK_INT(size_of(t), 2 * sizeof(float));

    /* predefined: cannot be freed; usable to pack like the C type */
    MPI_Datatype keep = t;
    CHECK_INT(MPI_Type_free(&t), MPI_ERR_TYPE);
    CHECK(t == keep);
    OK(MPI_Type_create_f90_integer(9, &t));
    int v[3] = {7, -8, 9}, w[3] = {0, 0, 0}, pos = 0;
    char buf[16];
    OK(MPI_Pack(v, 3, t, buf, sizeof buf, &pos, MPI_COMM_WORLD));
    CHECK_INT(pos, 12);
    pos = 0;
    OK(MPI_Unpack(buf, 12, &pos, w, 3, MPI_INT32_T, MPI_COMM_WORLD));
    CHECK(w[0] == 7 && w[1] == -8 && w[2] == 9);
    MPI_Status st;
    OK(MPI_Status_set_elements(&st, t, 3));
    int n;
    OK(MPI_Get_elements(&st, t, &n));
    CHECK_INT(n, 3);
    OK(MPI_Get_count(&st, MPI_INT32_T, &n));
    CHECK_INT(n, 3);
    /* reductions work on them as on their C type */
    int sum[3] = {1, 1, 1};
    OK(MPI_Reduce_local(v, sum, 3, t, MPI_SUM));
    CHECK(sum[0] == 8 && sum[1] == -7 && sum[2] == 10);
    MPI_Datatype dr;
    OK(MPI_Type_create_f90_real(DBL_DIG, MPI_UNDEFINED, &dr));
    double dx[2] = {1.5, -2.0}, dy[2] = {2.0, 4.0};
    OK(MPI_Reduce_local(dx, dy, 2, dr, MPI_PROD));
    CHECK(dy[0] == 3.0 && dy[1] == -8.0);
    MPI_Aint es;
    OK(MPI_Pack_external_size("external32", 2, t, &es));
    CHECK_INT(es, 8);

    /* match_size: the sized Fortran type of the class with exactly that size */
    static const struct { int cls, size; MPI_Datatype want; } m[] = {
        {MPI_TYPECLASS_INTEGER, 1, MPI_INTEGER1},
        {MPI_TYPECLASS_INTEGER, 2, MPI_INTEGER2},
        {MPI_TYPECLASS_INTEGER, 4, MPI_INTEGER4},
        {MPI_TYPECLASS_INTEGER, 8, MPI_INTEGER8},
        {MPI_TYPECLASS_INTEGER, 16, MPI_INTEGER16},
        {MPI_TYPECLASS_REAL, 4, MPI_REAL4},
        {MPI_TYPECLASS_REAL, 8, MPI_REAL8},
        {MPI_TYPECLASS_REAL, 16, MPI_REAL16},
        {MPI_TYPECLASS_COMPLEX, 8, MPI_COMPLEX8},
        {MPI_TYPECLASS_COMPLEX, 16, MPI_COMPLEX16},
        {MPI_TYPECLASS_COMPLEX, 32, MPI_COMPLEX32},
    };
    for (size_t i = 0; i < sizeof m / sizeof m[0]; i++) {
        OK(MPI_Type_match_size(m[i].cls, m[i].size, &t));
        CHECK(t == m[i].want);
    }
    CHECK_INT(MPI_Type_match_size(MPI_TYPECLASS_INTEGER, 3, &t), MPI_ERR_ARG);
    CHECK_INT(MPI_Type_match_size(MPI_TYPECLASS_REAL, 2, &t), MPI_ERR_ARG);
    CHECK_INT(MPI_Type_match_size(MPI_TYPECLASS_COMPLEX, 4, &t), MPI_ERR_ARG);
    CHECK_INT(MPI_Type_match_size(0, 4, &t), MPI_ERR_ARG);
    MPI_Finalize();
    return 0;
}
