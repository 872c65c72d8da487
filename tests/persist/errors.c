/* Every persistent-collective call with each bad argument it takes gets the standard's error
 * class under MPI_ERRORS_RETURN, and nothing starts that other ranks would have to match:
 * communicator, info (freed), request pointer, root, counts, datatypes, operation, buffers;
 * MPI_Start / MPI_Startall of an active persistent collective or of a nonpersistent request,
 * MPI_Request_free of an active one (MPI_ERR_REQUEST). The generalized-request calls:
 * NULL request or callback (MPI_ERR_ARG), completing a null, non-generalized or already
 * completed request (MPI_ERR_REQUEST). Good calls work afterwards. */
#include "coll_check.h"
#include "greq_state.h"
#include "class_check.h"

int main(int argc, char **argv)
{
    OK(MPI_Init(&argc, &argv));
    int rank, size;
    OK(MPI_Comm_rank(MPI_COMM_WORLD, &rank));
    OK(MPI_Comm_size(MPI_COMM_WORLD, &size));
    OK(MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_RETURN));
    MPI_Comm w = MPI_COMM_WORLD, nc = MPI_COMM_NULL;
    MPI_Info ni = MPI_INFO_NULL, bad, info;
    OK(MPI_Info_create(&info));
    bad = info;
    OK(MPI_Info_free(&info)); /* bad: a freed info */
    int *a = calloc(64, sizeof *a), *b = calloc(64, sizeof *b), counts[64], displs[64];
    int negc[64];
    MPI_Datatype types[64], nulltypes[64];
    CHECK(a && b);
    for (int i = 0; i < 64; i++) {
        counts[i] = 1;
        negc[i] = i == size - 1 ? -1 : 1;
        displs[i] = i;
        types[i] = MPI_INT;
        nulltypes[i] = MPI_DATATYPE_NULL;
    }
    MPI_Datatype uncommitted;
    OK(MPI_Type_contiguous(2, MPI_INT, &uncommitted));
    MPI_Request r = MPI_REQUEST_NULL;

    /* Barrier_init */
    EXPECT(MPI_Barrier_init(nc, ni, &r), MPI_ERR_COMM);
    EXPECT(MPI_Barrier_init(w, bad, &r), MPI_ERR_INFO);
    EXPECT(MPI_Barrier_init(w, ni, NULL), MPI_ERR_ARG);
    /* Bcast_init */
    EXPECT(MPI_Bcast_init(a, 1, MPI_INT, 0, nc, ni, &r), MPI_ERR_COMM);
    EXPECT(MPI_Bcast_init(a, 1, MPI_INT, 0, w, bad, &r), MPI_ERR_INFO);
    EXPECT(MPI_Bcast_init(a, 1, MPI_INT, 0, w, ni, NULL), MPI_ERR_ARG);
    EXPECT(MPI_Bcast_init(a, 1, MPI_INT, size, w, ni, &r), MPI_ERR_ROOT);
    EXPECT(MPI_Bcast_init(a, 1, MPI_INT, -1, w, ni, &r), MPI_ERR_ROOT);
    EXPECT(MPI_Bcast_init(a, -1, MPI_INT, 0, w, ni, &r), MPI_ERR_COUNT);
    EXPECT(MPI_Bcast_init(a, 1, MPI_DATATYPE_NULL, 0, w, ni, &r), MPI_ERR_TYPE);
    EXPECT(MPI_Bcast_init(a, 1, uncommitted, 0, w, ni, &r), MPI_ERR_TYPE);
    EXPECT(MPI_Bcast_init(NULL, 1, MPI_INT, 0, w, ni, &r), MPI_ERR_BUFFER);
    /* Reduce_init */
    EXPECT(MPI_Reduce_init(a, b, 1, MPI_INT, MPI_SUM, 0, nc, ni, &r), MPI_ERR_COMM);
    EXPECT(MPI_Reduce_init(a, b, 1, MPI_INT, MPI_SUM, 0, w, bad, &r), MPI_ERR_INFO);
    EXPECT(MPI_Reduce_init(a, b, 1, MPI_INT, MPI_SUM, 0, w, ni, NULL), MPI_ERR_ARG);
    EXPECT(MPI_Reduce_init(a, b, 1, MPI_INT, MPI_SUM, size, w, ni, &r), MPI_ERR_ROOT);
    EXPECT(MPI_Reduce_init(a, b, -1, MPI_INT, MPI_SUM, 0, w, ni, &r), MPI_ERR_COUNT);
    EXPECT(MPI_Reduce_init(a, b, 1, MPI_INT, MPI_OP_NULL, 0, w, ni, &r), MPI_ERR_OP);
    EXPECT(MPI_Reduce_init(a, b, 1, uncommitted, MPI_SUM, 0, w, ni, &r), MPI_ERR_TYPE);
    if (rank == 0)
        EXPECT(MPI_Reduce_init(a, a, 1, MPI_INT, MPI_SUM, 0, w, ni, &r), MPI_ERR_BUFFER);
    /* Allreduce_init, Scan_init, Exscan_init */
    EXPECT(MPI_Allreduce_init(a, b, 1, MPI_INT, MPI_SUM, nc, ni, &r), MPI_ERR_COMM);
    EXPECT(MPI_Allreduce_init(a, b, 1, MPI_INT, MPI_SUM, w, bad, &r), MPI_ERR_INFO);
    EXPECT(MPI_Allreduce_init(a, b, 1, MPI_INT, MPI_SUM, w, ni, NULL), MPI_ERR_ARG);
    EXPECT(MPI_Allreduce_init(a, b, -2, MPI_INT, MPI_SUM, w, ni, &r), MPI_ERR_COUNT);
    EXPECT(MPI_Allreduce_init(a, b, 1, MPI_INT, MPI_OP_NULL, w, ni, &r), MPI_ERR_OP);
    EXPECT(MPI_Allreduce_init(a, b, 1, MPI_DATATYPE_NULL, MPI_SUM, w, ni, &r), MPI_ERR_TYPE);
    EXPECT(MPI_Allreduce_init(a, a, 1, MPI_INT, MPI_SUM, w, ni, &r), MPI_ERR_BUFFER);
    EXPECT(MPI_Allreduce_init(a, NULL, 1, MPI_INT, MPI_SUM, w, ni, &r), MPI_ERR_BUFFER);
    EXPECT(MPI_Scan_init(a, b, 1, MPI_INT, MPI_SUM, nc, ni, &r), MPI_ERR_COMM);
    EXPECT(MPI_Scan_init(a, b, 1, MPI_INT, MPI_SUM, w, bad, &r), MPI_ERR_INFO);
    EXPECT(MPI_Scan_init(a, b, 1, MPI_INT, MPI_SUM, w, ni, NULL), MPI_ERR_ARG);
    EXPECT(MPI_Scan_init(a, b, -1, MPI_INT, MPI_SUM, w, ni, &r), MPI_ERR_COUNT);
    EXPECT(MPI_Scan_init(a, b, 1, MPI_INT, MPI_OP_NULL, w, ni, &r), MPI_ERR_OP);
    EXPECT(MPI_Scan_init(a, b, 1, uncommitted, MPI_SUM, w, ni, &r), MPI_ERR_TYPE);
    EXPECT(MPI_Exscan_init(a, b, 1, MPI_INT, MPI_SUM, nc, ni, &r), MPI_ERR_COMM);
    EXPECT(MPI_Exscan_init(a, b, 1, MPI_INT, MPI_SUM, w, bad, &r), MPI_ERR_INFO);
    EXPECT(MPI_Exscan_init(a, b, 1, MPI_INT, MPI_SUM, w, ni, NULL), MPI_ERR_ARG);
    EXPECT(MPI_Exscan_init(a, b, -1, MPI_INT, MPI_SUM, w, ni, &r), MPI_ERR_COUNT);
    EXPECT(MPI_Exscan_init(a, b, 1, MPI_INT, MPI_OP_NULL, w, ni, &r), MPI_ERR_OP);
    EXPECT(MPI_Exscan_init(a, a, 1, MPI_INT, MPI_SUM, w, ni, &r), MPI_ERR_BUFFER);
    /* Reduce_scatter_init, Reduce_scatter_block_init */
    EXPECT(MPI_Reduce_scatter_init(a, b, counts, MPI_INT, MPI_SUM, nc, ni, &r), MPI_ERR_COMM);
    EXPECT(MPI_Reduce_scatter_init(a, b, counts, MPI_INT, MPI_SUM, w, bad, &r), MPI_ERR_INFO);
    EXPECT(MPI_Reduce_scatter_init(a, b, counts, MPI_INT, MPI_SUM, w, ni, NULL), MPI_ERR_ARG);
    EXPECT(MPI_Reduce_scatter_init(a, b, NULL, MPI_INT, MPI_SUM, w, ni, &r), MPI_ERR_ARG);
    EXPECT(MPI_Reduce_scatter_init(a, b, negc, MPI_INT, MPI_SUM, w, ni, &r), MPI_ERR_COUNT);
    EXPECT(MPI_Reduce_scatter_init(a, b, counts, MPI_INT, MPI_OP_NULL, w, ni, &r), MPI_ERR_OP);
    EXPECT(MPI_Reduce_scatter_block_init(a, b, 1, MPI_INT, MPI_SUM, nc, ni, &r), MPI_ERR_COMM);
    EXPECT(MPI_Reduce_scatter_block_init(a, b, 1, MPI_INT, MPI_SUM, w, bad, &r), MPI_ERR_INFO);
    EXPECT(MPI_Reduce_scatter_block_init(a, b, 1, MPI_INT, MPI_SUM, w, ni, NULL),
           MPI_ERR_ARG);
    EXPECT(MPI_Reduce_scatter_block_init(a, b, -1, MPI_INT, MPI_SUM, w, ni, &r),
           MPI_ERR_COUNT);
    EXPECT(MPI_Reduce_scatter_block_init(a, b, 1, MPI_DATATYPE_NULL, MPI_SUM, w, ni, &r),
           MPI_ERR_TYPE);
    /* Gather_init, Gatherv_init, Scatter_init, Scatterv_init */
    EXPECT(MPI_Gather_init(a, 1, MPI_INT, b, 1, MPI_INT, 0, nc, ni, &r), MPI_ERR_COMM);
    EXPECT(MPI_Gather_init(a, 1, MPI_INT, b, 1, MPI_INT, 0, w, bad, &r), MPI_ERR_INFO);
    EXPECT(MPI_Gather_init(a, 1, MPI_INT, b, 1, MPI_INT, 0, w, ni, NULL), MPI_ERR_ARG);
    EXPECT(MPI_Gather_init(a, 1, MPI_INT, b, 1, MPI_INT, -5, w, ni, &r), MPI_ERR_ROOT);
    EXPECT(MPI_Gather_init(a, -1, MPI_INT, b, 1, MPI_INT, 0, w, ni, &r), MPI_ERR_COUNT);
    EXPECT(MPI_Gather_init(a, 1, MPI_DATATYPE_NULL, b, 1, MPI_INT, 0, w, ni, &r),
           MPI_ERR_TYPE);
    EXPECT(MPI_Gatherv_init(a, 1, MPI_INT, b, counts, displs, MPI_INT, 0, nc, ni, &r),
           MPI_ERR_COMM);
    EXPECT(MPI_Gatherv_init(a, 1, MPI_INT, b, counts, displs, MPI_INT, 0, w, bad, &r),
           MPI_ERR_INFO);
    EXPECT(MPI_Gatherv_init(a, 1, MPI_INT, b, counts, displs, MPI_INT, 0, w, ni, NULL),
           MPI_ERR_ARG);
    EXPECT(MPI_Gatherv_init(a, 1, MPI_INT, b, counts, displs, MPI_INT, size, w, ni, &r),
           MPI_ERR_ROOT);
    EXPECT(MPI_Gatherv_init(a, -1, MPI_INT, b, counts, displs, MPI_INT, 0, w, ni, &r),
           MPI_ERR_COUNT);
    if (rank == 0) {
        EXPECT(MPI_Gatherv_init(a, 1, MPI_INT, b, NULL, displs, MPI_INT, 0, w, ni, &r),
               MPI_ERR_ARG);
        EXPECT(MPI_Gatherv_init(a, 1, MPI_INT, b, negc, displs, MPI_INT, 0, w, ni, &r),
               MPI_ERR_COUNT);
    }
    EXPECT(MPI_Scatter_init(a, 1, MPI_INT, b, 1, MPI_INT, 0, nc, ni, &r), MPI_ERR_COMM);
    EXPECT(MPI_Scatter_init(a, 1, MPI_INT, b, 1, MPI_INT, 0, w, bad, &r), MPI_ERR_INFO);
    EXPECT(MPI_Scatter_init(a, 1, MPI_INT, b, 1, MPI_INT, 0, w, ni, NULL), MPI_ERR_ARG);
    EXPECT(MPI_Scatter_init(a, 1, MPI_INT, b, 1, MPI_INT, size, w, ni, &r), MPI_ERR_ROOT);
    EXPECT(MPI_Scatter_init(a, 1, MPI_INT, b, -1, MPI_INT, 0, w, ni, &r), MPI_ERR_COUNT);
    EXPECT(MPI_Scatterv_init(a, counts, displs, MPI_INT, b, 1, MPI_INT, 0, nc, ni, &r),
           MPI_ERR_COMM);
    EXPECT(MPI_Scatterv_init(a, counts, displs, MPI_INT, b, 1, MPI_INT, 0, w, bad, &r),
           MPI_ERR_INFO);
    EXPECT(MPI_Scatterv_init(a, counts, displs, MPI_INT, b, 1, MPI_INT, 0, w, ni, NULL),
           MPI_ERR_ARG);
    EXPECT(MPI_Scatterv_init(a, counts, displs, MPI_INT, b, 1, MPI_INT, -1, w, ni, &r),
           MPI_ERR_ROOT);
    EXPECT(MPI_Scatterv_init(a, counts, displs, MPI_INT, b, -1, MPI_INT, 0, w, ni, &r),
           MPI_ERR_COUNT);
    if (rank == 0)
        EXPECT(MPI_Scatterv_init(a, counts, NULL, MPI_INT, b, 1, MPI_INT, 0, w, ni, &r),
               MPI_ERR_ARG);
    /* Allgather_init, Allgatherv_init */
    EXPECT(MPI_Allgather_init(a, 1, MPI_INT, b, 1, MPI_INT, nc, ni, &r), MPI_ERR_COMM);
    EXPECT(MPI_Allgather_init(a, 1, MPI_INT, b, 1, MPI_INT, w, bad, &r), MPI_ERR_INFO);
    EXPECT(MPI_Allgather_init(a, 1, MPI_INT, b, 1, MPI_INT, w, ni, NULL), MPI_ERR_ARG);
    EXPECT(MPI_Allgather_init(a, -1, MPI_INT, b, 1, MPI_INT, w, ni, &r), MPI_ERR_COUNT);
    EXPECT(MPI_Allgather_init(a, 1, MPI_INT, b, 1, uncommitted, w, ni, &r), MPI_ERR_TYPE);
    EXPECT(MPI_Allgatherv_init(a, 1, MPI_INT, b, counts, displs, MPI_INT, nc, ni, &r),
           MPI_ERR_COMM);
    EXPECT(MPI_Allgatherv_init(a, 1, MPI_INT, b, counts, displs, MPI_INT, w, bad, &r),
           MPI_ERR_INFO);
    EXPECT(MPI_Allgatherv_init(a, 1, MPI_INT, b, counts, displs, MPI_INT, w, ni, NULL),
           MPI_ERR_ARG);
    EXPECT(MPI_Allgatherv_init(a, 1, MPI_INT, b, negc, displs, MPI_INT, w, ni, &r),
           MPI_ERR_COUNT);
    EXPECT(MPI_Allgatherv_init(a, 1, MPI_INT, b, counts, NULL, MPI_INT, w, ni, &r),
           MPI_ERR_ARG);
    /* Alltoall_init, Alltoallv_init, Alltoallw_init */
    EXPECT(MPI_Alltoall_init(a, 1, MPI_INT, b, 1, MPI_INT, nc, ni, &r), MPI_ERR_COMM);
    EXPECT(MPI_Alltoall_init(a, 1, MPI_INT, b, 1, MPI_INT, w, bad, &r), MPI_ERR_INFO);
    EXPECT(MPI_Alltoall_init(a, 1, MPI_INT, b, 1, MPI_INT, w, ni, NULL), MPI_ERR_ARG);
    EXPECT(MPI_Alltoall_init(a, 1, MPI_INT, b, -1, MPI_INT, w, ni, &r), MPI_ERR_COUNT);
    EXPECT(MPI_Alltoall_init(a, 1, MPI_INT, a, 1, MPI_INT, w, ni, &r), MPI_ERR_BUFFER);
    EXPECT(MPI_Alltoallv_init(a, counts, displs, MPI_INT, b, counts, displs, MPI_INT, nc, ni,
                              &r),
           MPI_ERR_COMM);
    EXPECT(MPI_Alltoallv_init(a, counts, displs, MPI_INT, b, counts, displs, MPI_INT, w, bad,
                              &r),
           MPI_ERR_INFO);
    EXPECT(MPI_Alltoallv_init(a, counts, displs, MPI_INT, b, counts, displs, MPI_INT, w, ni,
                              NULL),
           MPI_ERR_ARG);
    EXPECT(MPI_Alltoallv_init(a, negc, displs, MPI_INT, b, counts, displs, MPI_INT, w, ni, &r),
           MPI_ERR_COUNT);
    EXPECT(MPI_Alltoallv_init(a, counts, NULL, MPI_INT, b, counts, displs, MPI_INT, w, ni, &r),
           MPI_ERR_ARG);
    EXPECT(MPI_Alltoallw_init(a, counts, displs, types, b, counts, displs, types, nc, ni, &r),
           MPI_ERR_COMM);
    EXPECT(MPI_Alltoallw_init(a, counts, displs, types, b, counts, displs, types, w, bad, &r),
           MPI_ERR_INFO);
    EXPECT(MPI_Alltoallw_init(a, counts, displs, types, b, counts, displs, types, w, ni, NULL),
           MPI_ERR_ARG);
    EXPECT(MPI_Alltoallw_init(a, counts, displs, NULL, b, counts, displs, types, w, ni, &r),
           MPI_ERR_ARG);
    EXPECT(MPI_Alltoallw_init(a, counts, displs, types, b, counts, displs, nulltypes, w, ni,
                              &r),
           MPI_ERR_TYPE);
    EXPECT(MPI_Alltoallw_init(a, counts, displs, types, b, negc, displs, types, w, ni, &r),
           MPI_ERR_COUNT);

    /* MPI_Start / MPI_Startall / MPI_Request_free */
    MPI_Request p, q, nb;
    OK(MPI_Allreduce_init(a, b, 1, MPI_INT, MPI_SUM, w, ni, &p));
    OK(MPI_Barrier_init(w, ni, &q));
    EXPECT(MPI_Start(NULL), MPI_ERR_ARG);
    OK(MPI_Start(&p));
    EXPECT(MPI_Start(&p), MPI_ERR_REQUEST);              /* active */
    EXPECT(MPI_Request_free(&p), MPI_ERR_REQUEST);       /* active */
    MPI_Request both[2] = {q, p};
    EXPECT(MPI_Startall(2, both), MPI_ERR_REQUEST);       /* q starts, p is active */
    OK(MPI_Waitall(2, both, MPI_STATUSES_IGNORE));
    EXPECT(MPI_Startall(-1, both), MPI_ERR_COUNT);
    EXPECT(MPI_Startall(1, NULL), MPI_ERR_ARG);
    OK(MPI_Iallreduce(a, b, 1, MPI_INT, MPI_SUM, w, &nb));
    EXPECT(MPI_Start(&nb), MPI_ERR_REQUEST);             /* not persistent */
    OK(MPI_Wait(&nb, MPI_STATUS_IGNORE));

    /* MPI_Grequest_start, MPI_Grequest_complete (errors raised on MPI_COMM_SELF) */
    OK(MPI_Comm_set_errhandler(MPI_COMM_SELF, MPI_ERRORS_RETURN));
    struct greq g;
    greq_init(&g, 0, 0, 0);
    MPI_Request gr;
    EXPECT(MPI_Grequest_start(greq_query, greq_free, greq_cancel, &g, NULL), MPI_ERR_ARG);
    EXPECT(MPI_Grequest_start(NULL, greq_free, greq_cancel, &g, &gr), MPI_ERR_ARG);
    EXPECT(MPI_Grequest_start(greq_query, NULL, greq_cancel, &g, &gr), MPI_ERR_ARG);
    EXPECT(MPI_Grequest_start(greq_query, greq_free, NULL, &g, &gr), MPI_ERR_ARG);
    EXPECT(MPI_Grequest_complete(MPI_REQUEST_NULL), MPI_ERR_REQUEST);
    EXPECT(MPI_Grequest_complete(p), MPI_ERR_REQUEST); /* a persistent collective */
    OK(MPI_Grequest_start(greq_query, greq_free, greq_cancel, &g, &gr));
    OK(MPI_Grequest_complete(gr));
    EXPECT(MPI_Grequest_complete(gr), MPI_ERR_REQUEST); /* twice */
    OK(MPI_Wait(&gr, MPI_STATUS_IGNORE));
    CHECK_INT(atomic_load(&g.frees), 1);

    /* good calls still work */
    a[0] = rank + 1;
    OK(MPI_Start(&p));
    OK(MPI_Wait(&p, MPI_STATUS_IGNORE));
    CHECK_INT(b[0], size * (size + 1) / 2);
    OK(MPI_Request_free(&p));
    OK(MPI_Request_free(&q));
    OK(MPI_Type_free(&uncommitted));
    free(a);
    free(b);
    OK(MPI_Finalize());
    return 0;
}
