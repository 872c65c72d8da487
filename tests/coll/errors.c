/* Bad arguments to the collectives get the right error class (MPI_ERRORS_RETURN), and a bad
 * call on one rank does not start anything that the others would have to match. */
#include "coll_check.h"
#include "class_check.h"

static _Thread_local int rank, size; /* ranks are threads: globals are shared */

int main(int argc, char **argv)
{
    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &size);
    MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_RETURN);
    MPI_Comm w = MPI_COMM_WORLD;
    int a[8] = {0}, b[8] = {0}, counts[64], displs[64];
    double d[8] = {0};
    MPI_Request r = MPI_REQUEST_NULL;
    for (int i = 0; i < 64; i++) {
        counts[i] = 1;
        displs[i] = i;
    }
    /* communicator */
    EXPECT(MPI_Barrier(MPI_COMM_NULL), MPI_ERR_COMM);
    EXPECT(MPI_Ibarrier(MPI_COMM_NULL, &r), MPI_ERR_COMM);
    /* root */
    EXPECT(MPI_Bcast(a, 1, MPI_INT, size, w), MPI_ERR_ROOT);
    EXPECT(MPI_Bcast(a, 1, MPI_INT, -1, w), MPI_ERR_ROOT);
    EXPECT(MPI_Reduce(a, b, 1, MPI_INT, MPI_SUM, size, w), MPI_ERR_ROOT);
    EXPECT(MPI_Igather(a, 1, MPI_INT, b, 1, MPI_INT, -5, w, &r), MPI_ERR_ROOT);
    EXPECT(MPI_Scatterv(a, counts, displs, MPI_INT, b, 1, MPI_INT, size + 3, w), MPI_ERR_ROOT);
    /* count */
    EXPECT(MPI_Bcast(a, -1, MPI_INT, 0, w), MPI_ERR_COUNT);
    EXPECT(MPI_Allreduce(a, b, -2, MPI_INT, MPI_SUM, w), MPI_ERR_COUNT);
    EXPECT(MPI_Iallgather(a, -1, MPI_INT, b, 1, MPI_INT, w, &r), MPI_ERR_COUNT);
    counts[size - 1] = -1;
    EXPECT(MPI_Alltoallv(a, counts, displs, MPI_INT, b, counts, displs, MPI_INT, w),
           MPI_ERR_COUNT);
    EXPECT(MPI_Reduce_scatter(a, b, counts, MPI_INT, MPI_SUM, w), MPI_ERR_COUNT);
    counts[size - 1] = 1;
    EXPECT(MPI_Reduce_scatter_block(a, b, -1, MPI_INT, MPI_SUM, w), MPI_ERR_COUNT);
    /* datatype */
    EXPECT(MPI_Bcast(a, 1, MPI_DATATYPE_NULL, 0, w), MPI_ERR_TYPE);
    MPI_Datatype nc;
    OK(MPI_Type_contiguous(2, MPI_INT, &nc));
    EXPECT(MPI_Allreduce(a, b, 1, nc, MPI_SUM, w), MPI_ERR_TYPE); /* not committed */
    EXPECT(MPI_Iscan(a, b, 1, nc, MPI_SUM, w, &r), MPI_ERR_TYPE);
    OK(MPI_Type_free(&nc));
    /* operation */
    EXPECT(MPI_Allreduce(a, b, 1, MPI_INT, MPI_OP_NULL, w), MPI_ERR_OP);
    EXPECT(MPI_Reduce(d, d + 4, 1, MPI_DOUBLE, MPI_LAND, 0, w), MPI_ERR_OP);
    EXPECT(MPI_Iexscan(d, d + 4, 1, MPI_DOUBLE, MPI_BXOR, w, &r), MPI_ERR_OP);
    EXPECT(MPI_Allreduce(a, b, 1, MPI_INT, MPI_MINLOC, w), MPI_ERR_OP);
    /* buffers: aliasing where the standard asks for MPI_IN_PLACE, MPI_IN_PLACE where it is
     * not allowed, NULL with data */
    EXPECT(MPI_Allreduce(a, a, 1, MPI_INT, MPI_SUM, w), MPI_ERR_BUFFER);
    EXPECT(MPI_Iallreduce(a, a, 1, MPI_INT, MPI_SUM, w, &r), MPI_ERR_BUFFER);
    EXPECT(MPI_Scan(a, a, 1, MPI_INT, MPI_SUM, w), MPI_ERR_BUFFER);
    EXPECT(MPI_Alltoall(a, 1, MPI_INT, a, 1, MPI_INT, w), MPI_ERR_BUFFER);
    EXPECT(MPI_Allgather(a, 1, MPI_INT, a, 1, MPI_INT, w), MPI_ERR_BUFFER);
    EXPECT(MPI_Bcast(MPI_IN_PLACE, 1, MPI_INT, 0, w), MPI_ERR_BUFFER);
    EXPECT(MPI_Allreduce(a, MPI_IN_PLACE, 1, MPI_INT, MPI_SUM, w), MPI_ERR_BUFFER);
    EXPECT(MPI_Bcast(NULL, 3, MPI_INT, 0, w), MPI_ERR_BUFFER);
    if (rank == 0) { /* at the root only: the other ranks never call */
        EXPECT(MPI_Reduce(a, a, 1, MPI_INT, MPI_SUM, 0, w), MPI_ERR_BUFFER);
        EXPECT(MPI_Gather(a, 1, MPI_INT, a, 1, MPI_INT, 0, w), MPI_ERR_BUFFER);
        EXPECT(MPI_Gatherv(a, 1, MPI_INT, b, NULL, displs, MPI_INT, 0, w), MPI_ERR_ARG);
    }
    if (size > 1 && rank == 1) /* MPI_IN_PLACE as sendbuf is for the root only */
        EXPECT(MPI_Reduce(MPI_IN_PLACE, b, 1, MPI_INT, MPI_SUM, 0, w), MPI_ERR_BUFFER);
    /* request */
    EXPECT(MPI_Ibarrier(w, NULL), MPI_ERR_ARG);
    EXPECT(MPI_Ibcast(a, 1, MPI_INT, 0, w, NULL), MPI_ERR_ARG);
    CHECK(r == MPI_REQUEST_NULL);
    /* after all that, the collectives still match */
    int v = 1, sum = 0;
    OK(MPI_Allreduce(&v, &sum, 1, MPI_INT, MPI_SUM, w));
    CHECK_INT(sum, size);
    MPI_Finalize();
    return 0;
}
