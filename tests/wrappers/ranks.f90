! Every rank prints "fortran R of N" (tests/wrappers/run.sh fortran, and the FindMPI project).
! rank and size are a main program's variables, which gfortran makes static: each rank has its
! own only when the program was compiled with loom's privatization plugin (mpifort's default),
! so the check after the barrier fails if they were shared.
program ranks
  use mpi
  implicit none
  integer :: rank = -1, size = -1, ierr
  call MPI_Init(ierr)
  call MPI_Comm_rank(MPI_COMM_WORLD, rank, ierr)
  call MPI_Comm_size(MPI_COMM_WORLD, size, ierr)
  call MPI_Barrier(MPI_COMM_WORLD, ierr)
  call check_own(rank)
  print '(A,I0,A,I0)', 'fortran ', rank, ' of ', size
  call MPI_Finalize(ierr)
contains
  subroutine check_own(seen)
    integer, intent(in) :: seen
    integer :: mine, err
    call MPI_Comm_rank(MPI_COMM_WORLD, mine, err)
    if (seen /= mine) then
      print '(A,I0,A,I0)', 'fortran: rank ', mine, ' reads the rank of ', seen
      call MPI_Abort(MPI_COMM_WORLD, 1, err)
    end if
  end subroutine
end program ranks
