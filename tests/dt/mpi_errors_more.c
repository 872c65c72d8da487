/* Every call of the rest of the datatype chapter with each bad argument it takes, under
 * MPI_ERRORS_RETURN: the class each returns (MPI_ERR_TYPE for a NULL or freed type,
 * MPI_ERR_ARG for NULL outputs and bad values, MPI_ERR_COUNT, MPI_ERR_DIMS, MPI_ERR_KEYVAL,
 * MPI_ERR_TRUNCATE, MPI_ERR_CONVERSION), and that outputs are left alone on failure. */
#include <mpi.h>
#include "comm_check.h"

int main(int argc, char **argv)
{
    MPI_Init(&argc, &argv);
    OK(MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_RETURN));
    MPI_Datatype t = MPI_DATATYPE_NULL, freed, c3;
    OK(MPI_Type_contiguous(3, MPI_INT, &t));
    freed = t;
    OK(MPI_Type_free(&t));
    OK(MPI_Type_contiguous(3, MPI_INT, &c3)); /* uncommitted */
    int i1, i2, i3, i4, iv[8];
    MPI_Aint av[4], a1;
    MPI_Datatype dv[4];
    MPI_Count x1, x2;
    MPI_Status st;

    /* MPI_Type_get_envelope */
    CHECK_INT(MPI_Type_get_envelope(MPI_DATATYPE_NULL, &i1, &i2, &i3, &i4), MPI_ERR_TYPE);
    CHECK_INT(MPI_Type_get_envelope(freed, &i1, &i2, &i3, &i4), MPI_ERR_TYPE);
    CHECK_INT(MPI_Type_get_envelope(c3, NULL, &i2, &i3, &i4), MPI_ERR_ARG);
    CHECK_INT(MPI_Type_get_envelope(c3, &i1, NULL, &i3, &i4), MPI_ERR_ARG);
    CHECK_INT(MPI_Type_get_envelope(c3, &i1, &i2, NULL, &i4), MPI_ERR_ARG);
    CHECK_INT(MPI_Type_get_envelope(c3, &i1, &i2, &i3, NULL), MPI_ERR_ARG);

    /* MPI_Type_get_contents */
    CHECK_INT(MPI_Type_get_contents(MPI_DATATYPE_NULL, 1, 0, 1, iv, av, dv), MPI_ERR_TYPE);
    CHECK_INT(MPI_Type_get_contents(freed, 1, 0, 1, iv, av, dv), MPI_ERR_TYPE);
    CHECK_INT(MPI_Type_get_contents(MPI_INT, 1, 0, 1, iv, av, dv), MPI_ERR_ARG);
    CHECK_INT(MPI_Type_get_contents(c3, 0, 0, 1, iv, av, dv), MPI_ERR_ARG);
    CHECK_INT(MPI_Type_get_contents(c3, 1, 0, 0, iv, av, dv), MPI_ERR_ARG);
    CHECK_INT(MPI_Type_get_contents(c3, 1, 0, 1, NULL, av, dv), MPI_ERR_ARG);
    CHECK_INT(MPI_Type_get_contents(c3, 1, 0, 1, iv, av, NULL), MPI_ERR_ARG);

    /* MPI_Type_create_darray */
    int gs[] = {4, 4}, ds[] = {MPI_DISTRIBUTE_BLOCK, MPI_DISTRIBUTE_CYCLIC};
    int da[] = {MPI_DISTRIBUTE_DFLT_DARG, MPI_DISTRIBUTE_DFLT_DARG}, ps[] = {2, 2};
    int bad_gs[] = {4, 0}, bad_ps[] = {2, 0}, bad_ds[] = {MPI_DISTRIBUTE_BLOCK, 7};
    int small_da[] = {1, MPI_DISTRIBUTE_DFLT_DARG}, neg_da[] = {MPI_DISTRIBUTE_DFLT_DARG, 0};
    int none_ds[] = {MPI_DISTRIBUTE_NONE, MPI_DISTRIBUTE_CYCLIC};
    t = MPI_DATATYPE_NULL;
#define DARRAY(size, rank, nd, g, d, a, p, o, old, out)                                        \
    MPI_Type_create_darray(size, rank, nd, g, d, a, p, o, old, out)
    CHECK_INT(DARRAY(0, 0, 2, gs, ds, da, ps, MPI_ORDER_C, MPI_INT, &t), MPI_ERR_ARG);
    CHECK_INT(DARRAY(4, 4, 2, gs, ds, da, ps, MPI_ORDER_C, MPI_INT, &t), MPI_ERR_ARG);
    CHECK_INT(DARRAY(4, -1, 2, gs, ds, da, ps, MPI_ORDER_C, MPI_INT, &t), MPI_ERR_ARG);
    CHECK_INT(DARRAY(4, 0, 0, gs, ds, da, ps, MPI_ORDER_C, MPI_INT, &t), MPI_ERR_DIMS);
    CHECK_INT(DARRAY(4, 0, 0x7fffffff, gs, ds, da, ps, MPI_ORDER_C, MPI_INT, &t), MPI_ERR_DIMS);
    CHECK_INT(DARRAY(4, 0, 2, NULL, ds, da, ps, MPI_ORDER_C, MPI_INT, &t), MPI_ERR_ARG);
    CHECK_INT(DARRAY(4, 0, 2, gs, NULL, da, ps, MPI_ORDER_C, MPI_INT, &t), MPI_ERR_ARG);
    CHECK_INT(DARRAY(4, 0, 2, gs, ds, NULL, ps, MPI_ORDER_C, MPI_INT, &t), MPI_ERR_ARG);
    CHECK_INT(DARRAY(4, 0, 2, gs, ds, da, NULL, MPI_ORDER_C, MPI_INT, &t), MPI_ERR_ARG);
    CHECK_INT(DARRAY(4, 0, 2, bad_gs, ds, da, ps, MPI_ORDER_C, MPI_INT, &t), MPI_ERR_ARG);
    CHECK_INT(DARRAY(4, 0, 2, gs, ds, da, bad_ps, MPI_ORDER_C, MPI_INT, &t), MPI_ERR_ARG);
    CHECK_INT(DARRAY(4, 0, 2, gs, bad_ds, da, ps, MPI_ORDER_C, MPI_INT, &t), MPI_ERR_ARG);
    CHECK_INT(DARRAY(4, 0, 2, gs, ds, small_da, ps, MPI_ORDER_C, MPI_INT, &t), MPI_ERR_ARG);
    CHECK_INT(DARRAY(4, 0, 2, gs, ds, neg_da, ps, MPI_ORDER_C, MPI_INT, &t), MPI_ERR_ARG);
    CHECK_INT(DARRAY(4, 0, 2, gs, none_ds, da, ps, MPI_ORDER_C, MPI_INT, &t), MPI_ERR_ARG);
    CHECK_INT(DARRAY(3, 0, 2, gs, ds, da, ps, MPI_ORDER_C, MPI_INT, &t), MPI_ERR_ARG);
    CHECK_INT(DARRAY(4, 0, 2, gs, ds, da, ps, 3, MPI_INT, &t), MPI_ERR_ARG);
    CHECK_INT(DARRAY(4, 0, 2, gs, ds, da, ps, MPI_ORDER_C, MPI_DATATYPE_NULL, &t), MPI_ERR_TYPE);
    CHECK_INT(DARRAY(4, 0, 2, gs, ds, da, ps, MPI_ORDER_C, freed, &t), MPI_ERR_TYPE);
    CHECK_INT(DARRAY(4, 0, 2, gs, ds, da, ps, MPI_ORDER_C, MPI_INT, NULL), MPI_ERR_ARG);
    CHECK(t == MPI_DATATYPE_NULL);

    /* f90 types and match_size */
    CHECK_INT(MPI_Type_create_f90_integer(-1, &t), MPI_ERR_ARG);
    CHECK_INT(MPI_Type_create_f90_integer(40, &t), MPI_ERR_ARG);
    CHECK_INT(MPI_Type_create_f90_integer(4, NULL), MPI_ERR_ARG);
    CHECK_INT(MPI_Type_create_f90_real(MPI_UNDEFINED, MPI_UNDEFINED, &t), MPI_ERR_ARG);
    CHECK_INT(MPI_Type_create_f90_real(-2, 10, &t), MPI_ERR_ARG);
    CHECK_INT(MPI_Type_create_f90_real(5, -3, &t), MPI_ERR_ARG);
    CHECK_INT(MPI_Type_create_f90_real(60, MPI_UNDEFINED, &t), MPI_ERR_ARG);
    CHECK_INT(MPI_Type_create_f90_real(5, 10, NULL), MPI_ERR_ARG);
    CHECK_INT(MPI_Type_create_f90_complex(MPI_UNDEFINED, MPI_UNDEFINED, &t), MPI_ERR_ARG);
    CHECK_INT(MPI_Type_create_f90_complex(-2, 10, &t), MPI_ERR_ARG);
    CHECK_INT(MPI_Type_create_f90_complex(5, 100000, &t), MPI_ERR_ARG);
    CHECK_INT(MPI_Type_create_f90_complex(5, 10, NULL), MPI_ERR_ARG);
    CHECK_INT(MPI_Type_match_size(99, 4, &t), MPI_ERR_ARG);
    CHECK_INT(MPI_Type_match_size(MPI_TYPECLASS_INTEGER, -4, &t), MPI_ERR_ARG);
    CHECK_INT(MPI_Type_match_size(MPI_TYPECLASS_REAL, 3, &t), MPI_ERR_ARG);
    CHECK_INT(MPI_Type_match_size(MPI_TYPECLASS_INTEGER, 4, NULL), MPI_ERR_ARG);
    CHECK(t == MPI_DATATYPE_NULL);

    /* _x extents and elements */
    CHECK_INT(MPI_Type_get_extent_x(MPI_DATATYPE_NULL, &x1, &x2), MPI_ERR_TYPE);
    CHECK_INT(MPI_Type_get_extent_x(freed, &x1, &x2), MPI_ERR_TYPE);
    CHECK_INT(MPI_Type_get_extent_x(MPI_INT, NULL, &x2), MPI_ERR_ARG);
    CHECK_INT(MPI_Type_get_extent_x(MPI_INT, &x1, NULL), MPI_ERR_ARG);
    CHECK_INT(MPI_Type_get_true_extent_x(MPI_DATATYPE_NULL, &x1, &x2), MPI_ERR_TYPE);
    CHECK_INT(MPI_Type_get_true_extent_x(freed, &x1, &x2), MPI_ERR_TYPE);
    CHECK_INT(MPI_Type_get_true_extent_x(MPI_INT, NULL, &x2), MPI_ERR_ARG);
    CHECK_INT(MPI_Type_get_true_extent_x(MPI_INT, &x1, NULL), MPI_ERR_ARG);
    CHECK_INT(MPI_Status_set_elements_x(NULL, MPI_INT, 1), MPI_ERR_ARG);
    CHECK_INT(MPI_Status_set_elements_x(MPI_STATUS_IGNORE, MPI_INT, 1), MPI_ERR_ARG);
    CHECK_INT(MPI_Status_set_elements_x(&st, MPI_DATATYPE_NULL, 1), MPI_ERR_TYPE);
    CHECK_INT(MPI_Status_set_elements_x(&st, freed, 1), MPI_ERR_TYPE);
    CHECK_INT(MPI_Status_set_elements_x(&st, MPI_INT, -1), MPI_ERR_COUNT);
    CHECK_INT(MPI_Status_set_elements_x(&st, MPI_INT, (MPI_Count)1 << 62), MPI_ERR_COUNT);
    CHECK_INT(MPI_Get_elements_x(NULL, MPI_INT, &x1), MPI_ERR_ARG);
    CHECK_INT(MPI_Get_elements_x(&st, MPI_DATATYPE_NULL, &x1), MPI_ERR_TYPE);
    CHECK_INT(MPI_Get_elements_x(&st, MPI_INT, NULL), MPI_ERR_ARG);

    /* external32 */
    int data[3] = {1, 2, 3};
    char buf[64];
    MPI_Aint pos = 0;
    CHECK_INT(MPI_Pack_external_size(NULL, 1, MPI_INT, &a1), MPI_ERR_ARG);
    CHECK_INT(MPI_Pack_external_size("external", 1, MPI_INT, &a1), MPI_ERR_ARG);
    CHECK_INT(MPI_Pack_external_size("external32", -1, MPI_INT, &a1), MPI_ERR_COUNT);
    CHECK_INT(MPI_Pack_external_size("external32", 1, MPI_DATATYPE_NULL, &a1), MPI_ERR_TYPE);
    CHECK_INT(MPI_Pack_external_size("external32", 1, freed, &a1), MPI_ERR_TYPE);
    CHECK_INT(MPI_Pack_external_size("external32", 1, MPI_INT, NULL), MPI_ERR_ARG);
#define PACK(rep, in, n, ty, out, sz, p) MPI_Pack_external(rep, in, n, ty, out, sz, p)
    CHECK_INT(PACK(NULL, data, 1, MPI_INT, buf, 64, &pos), MPI_ERR_ARG);
    CHECK_INT(PACK("native", data, 1, MPI_INT, buf, 64, &pos), MPI_ERR_ARG);
    CHECK_INT(PACK("external32", data, -1, MPI_INT, buf, 64, &pos), MPI_ERR_COUNT);
    CHECK_INT(PACK("external32", data, 1, MPI_DATATYPE_NULL, buf, 64, &pos), MPI_ERR_TYPE);
    CHECK_INT(PACK("external32", data, 1, freed, buf, 64, &pos), MPI_ERR_TYPE);
    CHECK_INT(PACK("external32", data, 1, c3, buf, 64, &pos), MPI_ERR_TYPE);
    CHECK_INT(PACK("external32", data, 1, MPI_INT, buf, -1, &pos), MPI_ERR_ARG);
    CHECK_INT(PACK("external32", data, 1, MPI_INT, buf, 64, NULL), MPI_ERR_ARG);
    pos = -1;
    CHECK_INT(PACK("external32", data, 1, MPI_INT, buf, 64, &pos), MPI_ERR_ARG);
    pos = 0;
    CHECK_INT(PACK("external32", NULL, 1, MPI_INT, buf, 64, &pos), MPI_ERR_BUFFER);
    CHECK_INT(PACK("external32", data, 1, MPI_INT, NULL, 64, &pos), MPI_ERR_BUFFER);
    CHECK_INT(PACK("external32", data, 3, MPI_INT, buf, 11, &pos), MPI_ERR_TRUNCATE);
    pos = 62;
    CHECK_INT(PACK("external32", data, 1, MPI_INT, buf, 64, &pos), MPI_ERR_TRUNCATE);
    CHECK_INT(pos, 62);
    long big = -(1L << 35);
    pos = 0;
    CHECK_INT(PACK("external32", &big, 1, MPI_LONG, buf, 64, &pos), MPI_ERR_CONVERSION);
#define UNPACK(rep, in, sz, p, out, n, ty) MPI_Unpack_external(rep, in, sz, p, out, n, ty)
    pos = 0;
    CHECK_INT(UNPACK(NULL, buf, 64, &pos, data, 1, MPI_INT), MPI_ERR_ARG);
    CHECK_INT(UNPACK("EXTERNAL32", buf, 64, &pos, data, 1, MPI_INT), MPI_ERR_ARG);
    CHECK_INT(UNPACK("external32", buf, 64, &pos, data, -1, MPI_INT), MPI_ERR_COUNT);
    CHECK_INT(UNPACK("external32", buf, 64, &pos, data, 1, MPI_DATATYPE_NULL), MPI_ERR_TYPE);
    CHECK_INT(UNPACK("external32", buf, 64, &pos, data, 1, freed), MPI_ERR_TYPE);
    CHECK_INT(UNPACK("external32", buf, 64, &pos, data, 1, c3), MPI_ERR_TYPE);
    CHECK_INT(UNPACK("external32", buf, -5, &pos, data, 1, MPI_INT), MPI_ERR_ARG);
    CHECK_INT(UNPACK("external32", buf, 64, NULL, data, 1, MPI_INT), MPI_ERR_ARG);
    pos = -3;
    CHECK_INT(UNPACK("external32", buf, 64, &pos, data, 1, MPI_INT), MPI_ERR_ARG);
    pos = 0;
    CHECK_INT(UNPACK("external32", NULL, 64, &pos, data, 1, MPI_INT), MPI_ERR_BUFFER);
    CHECK_INT(UNPACK("external32", buf, 64, &pos, NULL, 1, MPI_INT), MPI_ERR_BUFFER);
    CHECK_INT(UNPACK("external32", buf, 8, &pos, data, 3, MPI_INT), MPI_ERR_TRUNCATE);
    CHECK_INT(pos, 0);

    /* type attributes */
    int kv = MPI_KEYVAL_INVALID, kcomm, flag;
    void *val;
    CHECK_INT(MPI_Type_create_keyval(MPI_TYPE_DUP_FN, MPI_TYPE_NULL_DELETE_FN, NULL, NULL),
              MPI_ERR_ARG);
    CHECK_INT(MPI_Type_free_keyval(NULL), MPI_ERR_ARG);
    CHECK_INT(MPI_Type_free_keyval(&kv), MPI_ERR_KEYVAL); /* MPI_KEYVAL_INVALID */
    kv = 1 << 28;
    CHECK_INT(MPI_Type_free_keyval(&kv), MPI_ERR_KEYVAL); /* never created */
    OK(MPI_Comm_create_keyval(MPI_COMM_DUP_FN, MPI_COMM_NULL_DELETE_FN, &kcomm, NULL));
    CHECK_INT(MPI_Type_free_keyval(&kcomm), MPI_ERR_KEYVAL); /* another kind */
    OK(MPI_Type_create_keyval(MPI_TYPE_DUP_FN, MPI_TYPE_NULL_DELETE_FN, &kv, NULL));
    int stale = kv;
    OK(MPI_Type_free_keyval(&kv));
    CHECK_INT(MPI_Type_free_keyval(&stale), MPI_ERR_KEYVAL); /* twice */
    OK(MPI_Type_create_keyval(MPI_TYPE_DUP_FN, MPI_TYPE_NULL_DELETE_FN, &kv, NULL));
    CHECK_INT(MPI_Type_set_attr(MPI_DATATYPE_NULL, kv, &flag), MPI_ERR_TYPE);
    CHECK_INT(MPI_Type_set_attr(freed, kv, &flag), MPI_ERR_TYPE);
    CHECK_INT(MPI_Type_set_attr(c3, MPI_KEYVAL_INVALID, &flag), MPI_ERR_KEYVAL);
    CHECK_INT(MPI_Type_set_attr(c3, kcomm, &flag), MPI_ERR_KEYVAL);
    CHECK_INT(MPI_Type_set_attr(c3, stale, &flag), MPI_ERR_KEYVAL);
    CHECK_INT(MPI_Type_set_attr(c3, MPI_TAG_UB, &flag), MPI_ERR_KEYVAL);
    CHECK_INT(MPI_Type_get_attr(MPI_DATATYPE_NULL, kv, &val, &flag), MPI_ERR_TYPE);
    CHECK_INT(MPI_Type_get_attr(freed, kv, &val, &flag), MPI_ERR_TYPE);
    CHECK_INT(MPI_Type_get_attr(c3, kv, NULL, &flag), MPI_ERR_ARG);
    CHECK_INT(MPI_Type_get_attr(c3, kv, &val, NULL), MPI_ERR_ARG);
    CHECK_INT(MPI_Type_get_attr(c3, kcomm, &val, &flag), MPI_ERR_KEYVAL);
    CHECK_INT(MPI_Type_get_attr(c3, stale, &val, &flag), MPI_ERR_KEYVAL);
    CHECK_INT(MPI_Type_delete_attr(MPI_DATATYPE_NULL, kv), MPI_ERR_TYPE);
    CHECK_INT(MPI_Type_delete_attr(freed, kv), MPI_ERR_TYPE);
    CHECK_INT(MPI_Type_delete_attr(c3, kcomm), MPI_ERR_KEYVAL);
    CHECK_INT(MPI_Type_delete_attr(c3, 12345678), MPI_ERR_KEYVAL);
    OK(MPI_Type_delete_attr(c3, stale)); /* a freed keyval still names its attributes */
    CHECK_INT(MPI_Comm_set_attr(MPI_COMM_WORLD, kv, &flag), MPI_ERR_KEYVAL);
    CHECK_INT(MPI_Comm_get_attr(MPI_COMM_WORLD, kv, &val, &flag), MPI_ERR_KEYVAL);
    CHECK_INT(MPI_Comm_delete_attr(MPI_COMM_WORLD, kv), MPI_ERR_KEYVAL);
    OK(MPI_Type_free_keyval(&kv));
    OK(MPI_Comm_free_keyval(&kcomm));
    OK(MPI_Type_free(&c3));
    MPI_Finalize();
    return 0;
}
