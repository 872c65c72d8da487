# Bad input to the one-sided calls. rma_errors: every class under MPI_ERRORS_RETURN, the
# window's own handler called, the window usable afterwards.
rma_test(rma_errors SOURCES errors.c NP 1 2 3 4)

# The default handler: one line naming the call, the rank and the reason, status 1.
set(RMA_FATAL_CASES
    "put|MPI_Put: target 0 is not in an access epoch"
    "range|MPI_Get: 1 elements of the target datatype at target_disp 4 .* outside target 0's window of 16 bytes"
    "lock|MPI_Win_lock: rank [0-9]+ out of range"
    "free|MPI_Win_free: MPI_Win_lock_all's epoch is open"
    "acc|MPI_Accumulate: the origin datatype is not made of MPI_DOUBLE"
    "fop|MPI_Fetch_and_op: op is MPI_OP_NULL"
    "unlock|MPI_Win_unlock: this origin holds no lock on target 0"
    "wait|MPI_Win_wait: no exposure epoch of MPI_Win_post is open"
    "win|MPI_Win_fence: window is MPI_WIN_NULL")
foreach(c ${RMA_FATAL_CASES})
  string(REPLACE "|" ";" parts "${c}")
  list(GET parts 0 call)
  list(GET parts 1 re)
  loom_mpi_test(rma_fatal_${call} SOURCES fatal.c NP 1 3 ARGS ${call} EXPECT_EXIT 1
                EXPECT_STDERR "^loom: rank [0-9]+: ${re}")
endforeach()
