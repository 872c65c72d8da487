/* Bad arguments to the operation calls return the right class under MPI_ERRORS_RETURN:
 * MPI_Reduce_local with a NULL or freed op (MPI_ERR_OP), a NULL or uncommitted type
 * (MPI_ERR_TYPE), a negative count (MPI_ERR_COUNT), NULL or MPI_IN_PLACE buffers
 * (MPI_ERR_BUFFER), an op not defined on the type (MPI_ERR_OP); MPI_Op_create with a NULL
 * function or output (MPI_ERR_ARG); MPI_Op_free of NULL (MPI_ERR_ARG), MPI_OP_NULL, a
 * predefined or an already freed op (MPI_ERR_OP); MPI_Op_commutative with a bad op or NULL
 * output. */
#include <mpi.h>
#include "comm_check.h"

static void nothing(void *invec, void *inoutvec, int *len, MPI_Datatype *datatype)
{
    (void)invec;
    (void)inoutvec;
    (void)len;
    (void)datatype;
}

int main(int argc, char **argv)
{
    MPI_Init(&argc, &argv);
    OK(MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_RETURN));
    int a[2] = {1, 2}, b[2] = {3, 4};
    double d[2] = {1, 2}, e[2] = {3, 4};
    MPI_Op op, stale;

    /* MPI_Reduce_local */
    CHECK_INT(MPI_Reduce_local(a, b, 2, MPI_INT, MPI_OP_NULL), MPI_ERR_OP);
    OK(MPI_Op_create(nothing, 1, &op));
    stale = op;
    OK(MPI_Op_free(&op));
    CHECK_INT(MPI_Reduce_local(a, b, 2, MPI_INT, stale), MPI_ERR_OP);
    CHECK_INT(MPI_Reduce_local(a, b, 2, MPI_DATATYPE_NULL, MPI_SUM), MPI_ERR_TYPE);
    MPI_Datatype unc;
    OK(MPI_Type_contiguous(2, MPI_INT, &unc));
    CHECK_INT(MPI_Reduce_local(a, b, 1, unc, MPI_SUM), MPI_ERR_TYPE);
    OK(MPI_Type_free(&unc));
    CHECK_INT(MPI_Reduce_local(a, b, -1, MPI_INT, MPI_SUM), MPI_ERR_COUNT);
    CHECK_INT(MPI_Reduce_local(NULL, b, 2, MPI_INT, MPI_SUM), MPI_ERR_BUFFER);
    CHECK_INT(MPI_Reduce_local(a, NULL, 2, MPI_INT, MPI_SUM), MPI_ERR_BUFFER);
    CHECK_INT(MPI_Reduce_local(MPI_IN_PLACE, b, 2, MPI_INT, MPI_SUM), MPI_ERR_BUFFER);
    CHECK_INT(MPI_Reduce_local(d, e, 2, MPI_DOUBLE, MPI_LAND), MPI_ERR_OP);
    CHECK_INT(MPI_Reduce_local(d, e, 2, MPI_DOUBLE, MPI_BXOR), MPI_ERR_OP);
    CHECK_INT(MPI_Reduce_local(a, b, 1, MPI_2INT, MPI_SUM), MPI_ERR_OP);
    CHECK_INT(MPI_Reduce_local(a, b, 2, MPI_INT, MPI_MINLOC), MPI_ERR_OP);
    CHECK_INT(MPI_Reduce_local(a, b, 2, MPI_PACKED, MPI_SUM), MPI_ERR_OP);
    MPI_Datatype mixed;
    int bl[2] = {1, 1};
    MPI_Aint disp[2] = {0, 8};
    MPI_Datatype types[2] = {MPI_INT, MPI_DOUBLE};
    OK(MPI_Type_create_struct(2, bl, disp, types, &mixed));
    OK(MPI_Type_commit(&mixed));
    double s1[2] = {1, 2}, s2[2] = {0, 0};
    CHECK_INT(MPI_Reduce_local(s1, s2, 1, mixed, MPI_MAX), MPI_ERR_OP);
    /* MPI_REPLACE and MPI_NO_OP are for one-sided accumulates only */
    CHECK_INT(MPI_Reduce_local(s1, s2, 1, mixed, MPI_REPLACE), MPI_ERR_OP);
    CHECK_INT(MPI_Reduce_local(a, b, 2, MPI_INT, MPI_NO_OP), MPI_ERR_OP);
    CHECK(s2[1] == 0);
    OK(MPI_Type_free(&mixed));
    /* nothing was changed by the failed calls */
    CHECK(b[0] == 3 && b[1] == 4 && e[0] == 3 && e[1] == 4);

    /* MPI_Op_create */
    CHECK_INT(MPI_Op_create(NULL, 1, &op), MPI_ERR_ARG);
    CHECK_INT(MPI_Op_create(nothing, 1, NULL), MPI_ERR_ARG);

    /* MPI_Op_free */
    CHECK_INT(MPI_Op_free(NULL), MPI_ERR_ARG);
    op = MPI_OP_NULL;
    CHECK_INT(MPI_Op_free(&op), MPI_ERR_OP);
    op = MPI_SUM;
    CHECK_INT(MPI_Op_free(&op), MPI_ERR_OP);
    CHECK(op == MPI_SUM);
    CHECK_INT(MPI_Op_free(&stale), MPI_ERR_OP);

    /* MPI_Op_commutative */
    int c;
    CHECK_INT(MPI_Op_commutative(MPI_OP_NULL, &c), MPI_ERR_OP);
    CHECK_INT(MPI_Op_commutative(stale, &c), MPI_ERR_OP);
    CHECK_INT(MPI_Op_commutative(MPI_MAX, NULL), MPI_ERR_ARG);

    MPI_Finalize();
    return 0;
}
