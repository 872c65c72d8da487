# Background progress: a large MPI_Rput completes while its origin computes outside MPI
# (someone else copies its chunks); every policy, 2, 3 and 8 ranks.
rma_test(rma_progress SOURCES progress.c NP 2 3 8)
