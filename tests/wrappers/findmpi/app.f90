! Built with FindMPI's MPI::MPI_Fortran (only when loom has its Fortran bindings).
program app
  call run
contains
  subroutine run
    use mpi
    integer :: rank, size, ierr
    call MPI_Init(ierr)
    call MPI_Comm_rank(MPI_COMM_WORLD, rank, ierr)
    call MPI_Comm_size(MPI_COMM_WORLD, size, ierr)
    print '(A,I0,A,I0)', 'findmpi-fortran ', rank, ' of ', size
    call MPI_Finalize(ierr)
  end subroutine run
end program app
