! f90_mpif_free.f90: mpif.h included in free form (it is valid in both forms), a few calls.
program f90mpiffree
  call run()
end program

subroutine run()
  implicit none
  include 'mpif.h'
  integer :: ierr, rank, nproc, total
  call MPI_Init(ierr)
  call MPI_Comm_rank(MPI_COMM_WORLD, rank, ierr)
  call MPI_Comm_size(MPI_COMM_WORLD, nproc, ierr)
  total = rank + 1
  call MPI_Allreduce(MPI_IN_PLACE, total, 1, MPI_INTEGER, MPI_SUM, MPI_COMM_WORLD, ierr)
  if (ierr /= MPI_SUCCESS .or. total /= nproc * (nproc + 1) / 2) then
    write (0, *) 'f90_mpif_free: FAILED: sum ', total
    call MPI_Abort(MPI_COMM_WORLD, 1, ierr)
  end if
  if (rank == 0) print '(a)', 'f90_mpif_free: ok'
  call MPI_Finalize(ierr)
end subroutine
