/* The error classes of the big-count collectives that the bad-argument walk (bindings_walk)
 * cannot reach: negative MPI_Count counts that an int would have read as something else (no
 * value narrows on the way down), negative entries of MPI_Count arrays, NULL arrays, a
 * reduce_scatter_block whose counts add up past what a buffer can hold, the operations'
 * calls; and after all that the collectives still match. MPI_ERRORS_RETURN. */
#include "coll_check.h"
#include "class_check.h"

static void fn_c(void *in, void *inout, MPI_Count *len, MPI_Datatype *type)
{
    (void)in, (void)inout, (void)len, (void)type;
}

int main(int argc, char **argv)
{
    MPI_Init(&argc, &argv);
    int me, n;
    MPI_Comm_rank(MPI_COMM_WORLD, &me);
    MPI_Comm_size(MPI_COMM_WORLD, &n);
    MPI_Comm w = MPI_COMM_WORLD;
    MPI_Comm_set_errhandler(w, MPI_ERRORS_RETURN);
    int a[64] = {0}, b[64] = {0};
    MPI_Count cc[64];
    MPI_Aint cd[64];
    MPI_Datatype types[64];
    for (int i = 0; i < 64; i++) {
        cc[i] = 1;
        cd[i] = i;
        types[i] = MPI_INT;
    }
    MPI_Request r = MPI_REQUEST_NULL;
    /* -2^32: an int would have read 0 (a valid count) */
    const MPI_Count minus_2_32 = -((MPI_Count)1 << 32);
    EXPECT(MPI_Bcast_c(a, minus_2_32, MPI_INT, 0, w), MPI_ERR_COUNT);
    EXPECT(MPI_Ibcast_c(a, -1, MPI_INT, 0, w, &r), MPI_ERR_COUNT);
    EXPECT(MPI_Allreduce_c(a, b, minus_2_32, MPI_INT, MPI_SUM, w), MPI_ERR_COUNT);
    EXPECT(MPI_Allgather_c(a, minus_2_32 + 1, MPI_INT, b, 1, MPI_INT, w), MPI_ERR_COUNT);
    EXPECT(MPI_Alltoall_init_c(a, 1, MPI_INT, b, minus_2_32, MPI_INT, w, MPI_INFO_NULL, &r),
           MPI_ERR_COUNT);
    EXPECT(MPI_Reduce_scatter_block_c(a, b, minus_2_32, MPI_INT, MPI_SUM, w), MPI_ERR_COUNT);
    EXPECT(MPI_Scan_c(a, b, -1, MPI_INT, MPI_SUM, w), MPI_ERR_COUNT);
    /* a count that passes INT_MAX is no error in itself: it reaches the buffer check */
    EXPECT(MPI_Bcast_c(NULL, (MPI_Count)1 << 32, MPI_INT, 0, w), MPI_ERR_BUFFER);
    /* arrays: a negative MPI_Count entry, -2^32 included */
    cc[n - 1] = minus_2_32;
    EXPECT(MPI_Alltoallv_c(a, cc, cd, MPI_INT, b, cc, cd, MPI_INT, w), MPI_ERR_COUNT);
    EXPECT(MPI_Alltoallw_c(a, cc, cd, types, b, cc, cd, types, w), MPI_ERR_COUNT);
    EXPECT(MPI_Allgatherv_c(a, 1, MPI_INT, b, cc, cd, MPI_INT, w), MPI_ERR_COUNT);
    EXPECT(MPI_Reduce_scatter_c(a, b, cc, MPI_INT, MPI_SUM, w), MPI_ERR_COUNT);
    EXPECT(MPI_Ireduce_scatter_c(a, b, cc, MPI_INT, MPI_SUM, w, &r), MPI_ERR_COUNT);
    if (me == 0) { /* significant at the root only: the others never call */
        EXPECT(MPI_Gatherv_c(a, 1, MPI_INT, b, cc, cd, MPI_INT, 0, w), MPI_ERR_COUNT);
        EXPECT(MPI_Scatterv_c(a, cc, cd, MPI_INT, b, 1, MPI_INT, 0, w), MPI_ERR_COUNT);
        EXPECT(MPI_Gatherv_c(a, 1, MPI_INT, b, NULL, cd, MPI_INT, 0, w), MPI_ERR_ARG);
        EXPECT(MPI_Scatterv_init_c(a, cc, NULL, MPI_INT, b, 1, MPI_INT, 0, w, MPI_INFO_NULL,
                                   &r), MPI_ERR_ARG);
    }
    cc[n - 1] = 1;
    EXPECT(MPI_Alltoallv_c(a, cc, cd, MPI_INT, b, NULL, cd, MPI_INT, w), MPI_ERR_ARG);
    EXPECT(MPI_Reduce_scatter_c(a, b, NULL, MPI_INT, MPI_SUM, w), MPI_ERR_ARG);
    if (n > 1) /* the counts add up past what any buffer holds */
        EXPECT(MPI_Reduce_scatter_block_c(a, b, (MPI_Count)1 << 62, MPI_INT, MPI_SUM, w),
               MPI_ERR_COUNT);
    /* neighbor collectives on a ring */
    int dims[1] = {n}, periods[1] = {1};
    MPI_Comm ring;
    OK(MPI_Cart_create(w, 1, dims, periods, 0, &ring));
    MPI_Comm_set_errhandler(ring, MPI_ERRORS_RETURN);
    EXPECT(MPI_Neighbor_allgather_c(a, minus_2_32, MPI_INT, b, 1, MPI_INT, ring),
           MPI_ERR_COUNT);
    cc[1] = -1;
    EXPECT(MPI_Neighbor_alltoallv_c(a, cc, cd, MPI_INT, b, cc, cd, MPI_INT, ring),
           MPI_ERR_COUNT);
    EXPECT(MPI_Ineighbor_alltoallw_c(a, cc, cd, types, b, cc, cd, types, ring, &r),
           MPI_ERR_COUNT);
    EXPECT(MPI_Neighbor_allgatherv_init_c(a, 1, MPI_INT, b, cc, cd, MPI_INT, ring,
                                          MPI_INFO_NULL, &r), MPI_ERR_COUNT);
    cc[1] = 1;
    EXPECT(MPI_Neighbor_alltoallw_c(a, cc, cd, NULL, b, cc, cd, types, ring), MPI_ERR_ARG);
    OK(MPI_Comm_free(&ring));
    /* the operations: errors go to MPI_COMM_WORLD's handler */
    MPI_Op op = MPI_OP_NULL;
    EXPECT(MPI_Op_create_c(NULL, 1, &op), MPI_ERR_ARG);
    EXPECT(MPI_Op_create_c(fn_c, 1, NULL), MPI_ERR_ARG);
    EXPECT(MPI_Reduce_local_c(a, b, minus_2_32, MPI_INT, MPI_SUM), MPI_ERR_COUNT);
    EXPECT(MPI_Reduce_local_c(a, b, 1, MPI_INT, MPI_OP_NULL), MPI_ERR_OP);
    EXPECT(MPI_Reduce_local_c(a, b, 1, MPI_DATATYPE_NULL, MPI_SUM), MPI_ERR_TYPE);
    EXPECT(MPI_Reduce_local_c(NULL, b, (MPI_Count)1 << 33, MPI_INT, MPI_SUM), MPI_ERR_BUFFER);
    OK(MPI_Op_create_c(fn_c, 0, &op));
    EXPECT(MPI_Reduce_local_c(a, b, 1, MPI_INT, MPI_REPLACE), MPI_ERR_OP);
    OK(MPI_Op_free(&op));
    EXPECT(MPI_Allreduce_c(a, b, 1, MPI_INT, op, w), MPI_ERR_OP); /* freed: MPI_OP_NULL */
    CHECK(r == MPI_REQUEST_NULL);
    /* nothing was started: the collectives still match */
    MPI_Count one = 1;
    int v = 1, sum = 0;
    OK(MPI_Allreduce_c(&v, &sum, one, MPI_INT, MPI_SUM, w));
    CHECK_INT(sum, n);
    MPI_Finalize();
    return 0;
}
