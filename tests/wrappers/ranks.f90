! Every rank prints "fortran R of N" (tests/wrappers/run.sh fortran, and the FindMPI project).
! The state lives in the subroutine's locals: without the plugin, a main program's variables
! would be static and shared by the ranks.
program ranks
  call run
contains
  subroutine run
    use mpi
    integer :: rank, size, ierr
    call MPI_Init(ierr)
    call MPI_Comm_rank(MPI_COMM_WORLD, rank, ierr)
    call MPI_Comm_size(MPI_COMM_WORLD, size, ierr)
    print '(A,I0,A,I0)', 'fortran ', rank, ' of ', size
    call MPI_Finalize(ierr)
  end subroutine run
end program ranks
