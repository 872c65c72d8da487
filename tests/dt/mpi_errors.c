/* Bad arguments to the datatype calls return the right class under MPI_ERRORS_RETURN: a
 * negative count MPI_ERR_COUNT, a negative block length, NULL arrays or outputs, bad
 * subarray sizes or order MPI_ERR_ARG, ndims < 1 MPI_ERR_DIMS, a NULL, freed or predefined
 * (for free) type MPI_ERR_TYPE. */
#include <mpi.h>
#include "comm_check.h"

int main(int argc, char **argv)
{
    MPI_Init(&argc, &argv);
    OK(MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_RETURN));
    MPI_Datatype t = MPI_DATATYPE_NULL, freed;
    int bl[] = {1, -1}, d[] = {0, 1};
    MPI_Aint ad[] = {0, 8};

    CHECK_INT(MPI_Type_contiguous(-1, MPI_INT, &t), MPI_ERR_COUNT);
    CHECK_INT(MPI_Type_contiguous(1, MPI_DATATYPE_NULL, &t), MPI_ERR_TYPE);
    CHECK_INT(MPI_Type_contiguous(1, MPI_INT, NULL), MPI_ERR_ARG);
    CHECK_INT(MPI_Type_vector(-3, 1, 1, MPI_INT, &t), MPI_ERR_COUNT);
    CHECK_INT(MPI_Type_vector(3, -1, 1, MPI_INT, &t), MPI_ERR_ARG);
    CHECK_INT(MPI_Type_create_hvector(3, -1, 8, MPI_INT, &t), MPI_ERR_ARG);
    CHECK_INT(MPI_Type_indexed(2, bl, d, MPI_INT, &t), MPI_ERR_ARG);
    CHECK_INT(MPI_Type_indexed(2, NULL, d, MPI_INT, &t), MPI_ERR_ARG);
    CHECK_INT(MPI_Type_indexed(-1, bl, d, MPI_INT, &t), MPI_ERR_COUNT);
    CHECK_INT(MPI_Type_create_hindexed(2, bl, ad, MPI_INT, &t), MPI_ERR_ARG);
    CHECK_INT(MPI_Type_create_indexed_block(2, -2, d, MPI_INT, &t), MPI_ERR_ARG);
    CHECK_INT(MPI_Type_create_hindexed_block(2, 1, NULL, MPI_INT, &t), MPI_ERR_ARG);
    MPI_Datatype ty[] = {MPI_INT, MPI_DATATYPE_NULL};
    int bl2[] = {1, 1};
    CHECK_INT(MPI_Type_create_struct(2, bl2, ad, ty, &t), MPI_ERR_TYPE);
    CHECK_INT(MPI_Type_create_struct(2, bl2, ad, NULL, &t), MPI_ERR_ARG);
    CHECK_INT(MPI_Type_create_resized(MPI_DATATYPE_NULL, 0, 4, &t), MPI_ERR_TYPE);

    int sizes[] = {4, 4}, subs[] = {2, 2}, starts[] = {1, 1};
    int bad_sizes[] = {0, 4}, big_subs[] = {5, 2}, bad_starts[] = {3, 1};
    CHECK_INT(MPI_Type_create_subarray(0, sizes, subs, starts, MPI_ORDER_C, MPI_INT, &t),
              MPI_ERR_DIMS);
    CHECK_INT(MPI_Type_create_subarray(2, bad_sizes, subs, starts, MPI_ORDER_C, MPI_INT, &t),
              MPI_ERR_ARG);
    CHECK_INT(MPI_Type_create_subarray(2, sizes, big_subs, starts, MPI_ORDER_C, MPI_INT, &t),
              MPI_ERR_ARG);
    CHECK_INT(MPI_Type_create_subarray(2, sizes, subs, bad_starts, MPI_ORDER_C, MPI_INT, &t),
              MPI_ERR_ARG);
    CHECK_INT(MPI_Type_create_subarray(2, sizes, subs, starts, 3, MPI_INT, &t), MPI_ERR_ARG);

    /* free: NULL, predefined, twice (a stale copy of the handle) */
    CHECK_INT(MPI_Type_free(NULL), MPI_ERR_ARG);
    t = MPI_INT;
    CHECK_INT(MPI_Type_free(&t), MPI_ERR_TYPE);
    CHECK(t == MPI_INT);
    t = MPI_DATATYPE_NULL;
    CHECK_INT(MPI_Type_free(&t), MPI_ERR_TYPE);
    OK(MPI_Type_contiguous(2, MPI_INT, &t));
    freed = t;
    OK(MPI_Type_free(&t));
    CHECK_INT(MPI_Type_free(&freed), MPI_ERR_TYPE);
    CHECK_INT(MPI_Type_commit(&freed), MPI_ERR_TYPE);
    int size;
    CHECK_INT(MPI_Type_size(freed, &size), MPI_ERR_TYPE);
    CHECK_INT(MPI_Type_contiguous(2, freed, &t), MPI_ERR_TYPE);

    /* queries */
    MPI_Aint lb, ext;
    CHECK_INT(MPI_Type_commit(NULL), MPI_ERR_ARG);
    CHECK_INT(MPI_Type_get_extent(MPI_DATATYPE_NULL, &lb, &ext), MPI_ERR_TYPE);
    CHECK_INT(MPI_Type_get_extent(MPI_INT, NULL, &ext), MPI_ERR_ARG);
    CHECK_INT(MPI_Type_get_true_extent(MPI_INT, &lb, NULL), MPI_ERR_ARG);
    CHECK_INT(MPI_Type_size(MPI_INT, NULL), MPI_ERR_ARG);
    CHECK_INT(MPI_Type_set_name(MPI_DATATYPE_NULL, "x"), MPI_ERR_TYPE);
    CHECK_INT(MPI_Type_set_name(MPI_INT, NULL), MPI_ERR_ARG);
    CHECK_INT(MPI_Get_address(&lb, NULL), MPI_ERR_ARG);

    /* an uncommitted type cannot be used to communicate */
    int rank;
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    OK(MPI_Type_contiguous(2, MPI_INT, &t));
    int buf[2] = {1, 2};
    CHECK_INT(MPI_Send(buf, 1, t, rank, 0, MPI_COMM_WORLD), MPI_ERR_TYPE);
    OK(MPI_Type_free(&t));
    MPI_Finalize();
    return 0;
}
