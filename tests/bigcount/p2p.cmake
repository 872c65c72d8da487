# Point-to-point (MPI_Send_c ... MPI_Recv_init_c, MPI_Get_count_c, MPI_Get_elements_c).
bigcount_test(bigcount_p2p_calls SOURCES p2p_calls.c)
bigcount_huge_test(bigcount_p2p_huge SOURCES p2p_huge.c NP 2)
loom_mpi_test(bigcount_p2p_name SOURCES p2p_name.c NP 1 VARIANT int ARGS int EXPECT_EXIT 1
              EXPECT_STDERR "^loom: rank 0: MPI_Send: ")
loom_mpi_test(bigcount_p2p_name SOURCES p2p_name.c NP 1 VARIANT c ARGS c EXPECT_EXIT 1
              EXPECT_STDERR "^loom: rank 0: MPI_Send_c: ")
