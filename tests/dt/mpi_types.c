/* MPI_Type_* through the API: sizes, extents and true extents of each constructor, commit,
 * dup, free, names (every predefined type is named after its handle), MPI_Get_address and
 * the MPI_Aint helpers. Datatype calls are local: every rank runs the same checks. */
#include <mpi.h>
#include "comm_check.h"

static void shape(MPI_Datatype t, MPI_Aint lb, MPI_Aint ext, MPI_Aint tlb, MPI_Aint text,
                  int size)
{
    MPI_Aint a, b;
    int s;
    MPI_Count sx;
    OK(MPI_Type_get_extent(t, &a, &b));
    CHECK_INT(a, lb);
    CHECK_INT(b, ext);
    OK(MPI_Type_get_true_extent(t, &a, &b));
    CHECK_INT(a, tlb);
    CHECK_INT(b, text);
    OK(MPI_Type_size(t, &s));
    CHECK_INT(s, size);
    OK(MPI_Type_size_x(t, &sx));
    CHECK_INT(sx, size);
}

static void predefined_names(void)
{
    char name[MPI_MAX_OBJECT_NAME];
    int len;
#define X(handle, sym)                                                                         \
    OK(MPI_Type_get_name(handle, name, &len));                                                 \
    CHECK_STR(name, #handle);                                                                  \
    CHECK_INT(len, (int)strlen(#handle));
    LOOM_FOREACH_PREDEFINED_TYPE(X)
#undef X
    OK(MPI_Type_get_name(MPI_LONG_LONG, name, &len));
    CHECK_STR(name, "MPI_LONG_LONG_INT");
}

int main(int argc, char **argv)
{
    MPI_Init(&argc, &argv);
    predefined_names();
    shape(MPI_INT, 0, 4, 0, 4, 4);
    shape(MPI_DOUBLE_INT, 0, 16, 0, 12, 12);
    shape(MPI_SHORT_INT, 0, 8, 0, 8, 6);
    shape(MPI_2INT, 0, 8, 0, 8, 8);
    shape(MPI_C_DOUBLE_COMPLEX, 0, 16, 0, 16, 16);

    MPI_Datatype c, v, hv, ix, hix, ib, hib, st, rs, sa, dup;
    OK(MPI_Type_contiguous(5, MPI_INT, &c));
    shape(c, 0, 20, 0, 20, 20);
    OK(MPI_Type_vector(3, 2, 4, MPI_DOUBLE, &v));
    shape(v, 0, 80, 0, 80, 48);
    OK(MPI_Type_create_hvector(3, 1, -12, MPI_INT, &hv));
    shape(hv, -24, 28, -24, 28, 12);
    int bl[] = {2, 1}, di[] = {3, 0};
    OK(MPI_Type_indexed(2, bl, di, MPI_INT, &ix));
    shape(ix, 0, 20, 0, 20, 12);
    MPI_Aint da[] = {10, 0};
    OK(MPI_Type_create_hindexed(2, bl, da, MPI_INT, &hix));
    shape(hix, 0, 18, 0, 18, 12);
    int dib[] = {4, 1};
    OK(MPI_Type_create_indexed_block(2, 2, dib, MPI_SHORT, &ib));
    shape(ib, 2, 10, 2, 10, 8);
    MPI_Aint dhb[] = {-8, 8};
    OK(MPI_Type_create_hindexed_block(2, 3, dhb, MPI_CHAR, &hib));
    shape(hib, -8, 19, -8, 19, 6);
    int sbl[] = {1, 3};
    MPI_Aint sd[] = {0, 8};
    MPI_Datatype sty[] = {MPI_DOUBLE, MPI_CHAR};
    OK(MPI_Type_create_struct(2, sbl, sd, sty, &st));
    shape(st, 0, 16, 0, 11, 11);
    OK(MPI_Type_create_resized(MPI_INT, -4, 12, &rs));
    shape(rs, -4, 12, 0, 4, 4);
    int sizes[] = {4, 6}, subs[] = {2, 3}, starts[] = {1, 2};
    OK(MPI_Type_create_subarray(2, sizes, subs, starts, MPI_ORDER_C, MPI_FLOAT, &sa));
    shape(sa, 0, 96, 32, 36, 24);
    OK(MPI_Type_dup(v, &dup));
    shape(dup, 0, 80, 0, 80, 48);

    /* names of derived types */
    char name[MPI_MAX_OBJECT_NAME];
    int len = -1;
    OK(MPI_Type_get_name(c, name, &len));
    CHECK_INT(len, 0);
    OK(MPI_Type_set_name(c, "five ints"));
    OK(MPI_Type_get_name(c, name, &len));
    CHECK_STR(name, "five ints");
    CHECK_INT(len, 9);

    /* commit, and freeing a type its parents still use */
    MPI_Datatype all[] = {c, v, hv, ix, hix, ib, hib, st, rs, sa, dup};
    for (int k = 0; k < 11; k++)
        OK(MPI_Type_commit(&all[k]));
    MPI_Datatype outer;
    OK(MPI_Type_contiguous(2, v, &outer));
    OK(MPI_Type_free(&v));
    CHECK(v == MPI_DATATYPE_NULL);
    shape(outer, 0, 160, 0, 160, 96);
    OK(MPI_Type_commit(&outer));
    OK(MPI_Type_free(&outer));
    for (int k = 0; k < 11; k++)
        if (k != 1) {
            OK(MPI_Type_free(&all[k]));
            CHECK(all[k] == MPI_DATATYPE_NULL);
        }
    OK(MPI_Type_commit(&(MPI_Datatype){MPI_INT})); /* committing a predefined type is fine */

    /* addresses */
    double arr[4];
    MPI_Aint a0, a3;
    OK(MPI_Get_address(&arr[0], &a0));
    OK(MPI_Get_address(&arr[3], &a3));
    CHECK_INT(MPI_Aint_diff(a3, a0), 3 * sizeof(double));
    CHECK_INT(MPI_Aint_add(a0, 3 * sizeof(double)), a3);
    MPI_Finalize();
    return 0;
}
