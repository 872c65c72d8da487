# The big-count collectives (MPI_Xxx_c of chapter 6, the neighbor collectives of chapter 8,
# MPI_Op_create_c and MPI_Reduce_local_c): each gives what its int twin gives, at 1 to 8 ranks
# under each progress policy; the v and w forms also with every algorithm forced; beyond
# INT_MAX on real memory (RUN_SERIAL, at most about 4.5 GiB each).
bigcount_test(bigcount_coll_twins SOURCES coll_twins.c)
bigcount_test(bigcount_coll_neighbor SOURCES coll_neighbor.c)
bigcount_test(bigcount_coll_ops SOURCES coll_ops.c)
bigcount_test(bigcount_coll_inter SOURCES coll_inter.c NP 2 3 4 8)
bigcount_test(bigcount_coll_errors SOURCES coll_errors.c)
# The builders that read the arrays of counts and displacements, each forced: the ring,
# pairwise and reduce-scatterv set, the linear set, and the blocking calls by direct access.
loom_mpi_test(bigcount_coll_twins SOURCES coll_twins.c VARIANT algos-tree
              ENV LOOM_COLL_ALLGATHERV_ALGO=ring LOOM_COLL_ALLTOALLV_ALGO=pairwise
                  LOOM_COLL_ALLTOALLW_ALGO=pairwise LOOM_COLL_REDUCE_SCATTER_ALGO=reduce-scatterv
                  LOOM_COLL_REDUCE_SCATTER_BLOCK_ALGO=reduce-scatterv
                  LOOM_COLL_GATHER_ALGO=binomial LOOM_COLL_SCATTER_ALGO=binomial)
loom_mpi_test(bigcount_coll_twins SOURCES coll_twins.c VARIANT algos-linear
              ENV LOOM_COLL_GATHERV_ALGO=linear LOOM_COLL_SCATTERV_ALGO=linear
                  LOOM_COLL_ALLGATHERV_ALGO=linear LOOM_COLL_ALLTOALLV_ALGO=linear
                  LOOM_COLL_ALLTOALLW_ALGO=linear LOOM_COLL_REDUCE_SCATTER_ALGO=linear
                  LOOM_COLL_REDUCE_SCATTER_BLOCK_ALGO=linear)
loom_mpi_test(bigcount_coll_twins SOURCES coll_twins.c VARIANT algos-shm
              ENV LOOM_COLL_BCAST_ALGO=shm LOOM_COLL_GATHER_ALGO=shm LOOM_COLL_GATHERV_ALGO=shm
                  LOOM_COLL_SCATTER_ALGO=shm LOOM_COLL_SCATTERV_ALGO=shm
                  LOOM_COLL_ALLGATHER_ALGO=shm LOOM_COLL_ALLGATHERV_ALGO=shm
                  LOOM_COLL_ALLTOALL_ALGO=shm LOOM_COLL_ALLTOALLV_ALGO=shm
                  LOOM_COLL_ALLTOALLW_ALGO=shm LOOM_COLL_REDUCE_SCATTER_ALGO=shm
                  LOOM_COLL_REDUCE_SCATTER_BLOCK_ALGO=shm)
bigcount_huge_test(bigcount_coll_huge_bcast SOURCES coll_huge_bcast.c NP 2)
bigcount_huge_test(bigcount_coll_huge_gatherv SOURCES coll_huge_gatherv.c NP 2)
bigcount_huge_test(bigcount_coll_huge_reduce SOURCES coll_huge_reduce.c NP 1)
