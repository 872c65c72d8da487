/* The persistent neighbor collectives' errors under MPI_ERRORS_RETURN, beyond what the
 * bindings walk reaches (it calls each with one bad argument on a Cartesian communicator):
 * a communicator without a topology (MPI_ERR_TOPOLOGY), a freed one (MPI_ERR_COMM), a freed
 * info (MPI_ERR_INFO), MPI_IN_PLACE (MPI_ERR_BUFFER, the standard has none here), a NULL
 * request pointer (MPI_ERR_ARG); MPI_Start, MPI_Startall and MPI_Request_free of an active
 * one (MPI_ERR_REQUEST). A run whose neighbours disagree on counts fails with
 * MPI_ERR_TRUNCATE on the ranks that receive the long block, at every start, while another
 * persistent neighbor collective of the same communicator keeps working; a failed init
 * leaves nothing that other ranks would have to match. */
#include "coll_check.h"
#include "class_check.h"

int main(int argc, char **argv)
{
    OK(MPI_Init(&argc, &argv));
    int rank, size;
    OK(MPI_Comm_rank(MPI_COMM_WORLD, &rank));
    OK(MPI_Comm_size(MPI_COMM_WORLD, &size));
    OK(MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_RETURN));
    MPI_Comm w = MPI_COMM_WORLD, ring, freed;
    /* a periodic ring: two neighbours, left (block 0) and right (block 1); inherits
     * MPI_ERRORS_RETURN */
    OK(MPI_Cart_create(w, 1, (int[]){size}, (int[]){1}, 0, &ring));
    OK(MPI_Cart_create(w, 1, (int[]){size}, (int[]){1}, 0, &freed));
    OK(MPI_Comm_free(&freed));
    MPI_Info ni = MPI_INFO_NULL, bad, info;
    OK(MPI_Info_create(&info));
    bad = info;
    OK(MPI_Info_free(&info)); /* bad: a freed info */
    int s[4] = {0}, r[4] = {0}, c[2] = {1, 1}, d[2] = {0, 1};
    MPI_Aint dw[2] = {0, sizeof(int)};
    MPI_Datatype t[2] = {MPI_INT, MPI_INT};
    MPI_Request q = MPI_REQUEST_NULL;

    /* no topology, freed communicator, freed info, in place, NULL request: each call */
    EXPECT(MPI_Neighbor_allgather_init(s, 1, MPI_INT, r, 1, MPI_INT, w, ni, &q),
           MPI_ERR_TOPOLOGY);
    EXPECT(MPI_Neighbor_allgather_init(s, 1, MPI_INT, r, 1, MPI_INT, freed, ni, &q),
           MPI_ERR_COMM);
    EXPECT(MPI_Neighbor_allgather_init(s, 1, MPI_INT, r, 1, MPI_INT, ring, bad, &q),
           MPI_ERR_INFO);
    EXPECT(MPI_Neighbor_allgather_init(MPI_IN_PLACE, 1, MPI_INT, r, 1, MPI_INT, ring, ni, &q),
           MPI_ERR_BUFFER);
    EXPECT(MPI_Neighbor_allgather_init(s, 1, MPI_INT, r, 1, MPI_INT, ring, ni, NULL),
           MPI_ERR_ARG);
    EXPECT(MPI_Neighbor_allgatherv_init(s, 1, MPI_INT, r, c, d, MPI_INT, w, ni, &q),
           MPI_ERR_TOPOLOGY);
    EXPECT(MPI_Neighbor_allgatherv_init(s, 1, MPI_INT, r, c, d, MPI_INT, freed, ni, &q),
           MPI_ERR_COMM);
    EXPECT(MPI_Neighbor_allgatherv_init(s, 1, MPI_INT, r, c, d, MPI_INT, ring, bad, &q),
           MPI_ERR_INFO);
    EXPECT(MPI_Neighbor_allgatherv_init(s, 1, MPI_INT, MPI_IN_PLACE, c, d, MPI_INT, ring, ni,
                                        &q),
           MPI_ERR_BUFFER);
    EXPECT(MPI_Neighbor_allgatherv_init(s, 1, MPI_INT, r, c, d, MPI_INT, ring, ni, NULL),
           MPI_ERR_ARG);
    EXPECT(MPI_Neighbor_alltoall_init(s, 1, MPI_INT, r, 1, MPI_INT, w, ni, &q),
           MPI_ERR_TOPOLOGY);
    EXPECT(MPI_Neighbor_alltoall_init(s, 1, MPI_INT, r, 1, MPI_INT, freed, ni, &q),
           MPI_ERR_COMM);
    EXPECT(MPI_Neighbor_alltoall_init(s, 1, MPI_INT, r, 1, MPI_INT, ring, bad, &q),
           MPI_ERR_INFO);
    EXPECT(MPI_Neighbor_alltoall_init(s, 1, MPI_INT, MPI_IN_PLACE, 1, MPI_INT, ring, ni, &q),
           MPI_ERR_BUFFER);
    EXPECT(MPI_Neighbor_alltoall_init(s, 1, MPI_INT, r, 1, MPI_INT, ring, ni, NULL),
           MPI_ERR_ARG);
    EXPECT(MPI_Neighbor_alltoallv_init(s, c, d, MPI_INT, r, c, d, MPI_INT, w, ni, &q),
           MPI_ERR_TOPOLOGY);
    EXPECT(MPI_Neighbor_alltoallv_init(s, c, d, MPI_INT, r, c, d, MPI_INT, freed, ni, &q),
           MPI_ERR_COMM);
    EXPECT(MPI_Neighbor_alltoallv_init(s, c, d, MPI_INT, r, c, d, MPI_INT, ring, bad, &q),
           MPI_ERR_INFO);
    EXPECT(MPI_Neighbor_alltoallv_init(MPI_IN_PLACE, c, d, MPI_INT, r, c, d, MPI_INT, ring, ni,
                                       &q),
           MPI_ERR_BUFFER);
    EXPECT(MPI_Neighbor_alltoallv_init(s, c, d, MPI_INT, r, c, d, MPI_INT, ring, ni, NULL),
           MPI_ERR_ARG);
    EXPECT(MPI_Neighbor_alltoallw_init(s, c, dw, t, r, c, dw, t, w, ni, &q), MPI_ERR_TOPOLOGY);
    EXPECT(MPI_Neighbor_alltoallw_init(s, c, dw, t, r, c, dw, t, freed, ni, &q), MPI_ERR_COMM);
    EXPECT(MPI_Neighbor_alltoallw_init(s, c, dw, t, r, c, dw, t, ring, bad, &q), MPI_ERR_INFO);
    EXPECT(MPI_Neighbor_alltoallw_init(s, c, dw, t, MPI_IN_PLACE, c, dw, t, ring, ni, &q),
           MPI_ERR_BUFFER);
    EXPECT(MPI_Neighbor_alltoallw_init(s, c, dw, t, r, c, dw, t, ring, ni, NULL), MPI_ERR_ARG);
    CHECK(q == MPI_REQUEST_NULL); /* no failed init returned a request */

    /* active: no second start, no free; Startall stops at it */
    MPI_Request p, both[2];
    OK(MPI_Neighbor_alltoall_init(s, 1, MPI_INT, r, 1, MPI_INT, ring, ni, &p));
    OK(MPI_Neighbor_allgather_init(s + 2, 1, MPI_INT, r + 2, 1, MPI_INT, ring, ni, &q));
    s[0] = 10 * rank, s[1] = 10 * rank + 1, s[2] = rank;
    OK(MPI_Start(&p));
    EXPECT(MPI_Start(&p), MPI_ERR_REQUEST);
    EXPECT(MPI_Request_free(&p), MPI_ERR_REQUEST);
    both[0] = q, both[1] = p;
    EXPECT(MPI_Startall(2, both), MPI_ERR_REQUEST); /* q starts, p is active */
    OK(MPI_Waitall(2, both, MPI_STATUSES_IGNORE));
    int left = (rank - 1 + size) % size, right = (rank + 1) % size;
    CHECK_INT(r[0], 10 * left + 1); /* the left's +1 block */
    CHECK_INT(r[1], 10 * right);
    CHECK_INT(r[2], left);
    CHECK_INT(r[3], right);

    /* truncation: rank 0 sends 2 ints to each neighbour, which receive 1. Every start
     * fails the same way on rank 0's neighbours only; the other request is untouched. */
    int two[2] = {5, 6}, one[2];
    MPI_Request tr;
    OK(MPI_Neighbor_allgather_init(two, rank == 0 ? 2 : 1, MPI_INT, one, 1, MPI_INT, ring, ni,
                                   &tr));
    int gets_long = left == 0 || right == 0;
    for (int run = 0; run < 3; run++) {
        OK(MPI_Start(&tr));
        if (gets_long)
            EXPECT(MPI_Wait(&tr, MPI_STATUS_IGNORE), MPI_ERR_TRUNCATE);
        else
            OK(MPI_Wait(&tr, MPI_STATUS_IGNORE));
        CHECK(tr != MPI_REQUEST_NULL);
        s[2] = rank + 100 * run;
        OK(MPI_Start(&q));
        OK(MPI_Wait(&q, MPI_STATUS_IGNORE));
        CHECK_INT(r[2], left + 100 * run);
        CHECK_INT(r[3], right + 100 * run);
    }
    OK(MPI_Request_free(&tr));
    OK(MPI_Request_free(&p));
    OK(MPI_Request_free(&q));
    OK(MPI_Comm_free(&ring));
    OK(MPI_Finalize());
    return 0;
}
