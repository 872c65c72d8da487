! f90_basic.f90: the Fortran 90 binding (use mpi) end to end, with the module's explicit
! interfaces. Every rank checks what it gets; a mismatch aborts the job. The program also
! keeps state in module variables (f90_state), which the privatization plugin gives to each
! rank.
program f90basic
  call run()
end program

module f90_state
  implicit none
  integer :: myrank = -1           ! initialized module variable
  integer, allocatable :: seen(:)  ! allocated by each rank, to its own size
end module

module f90_ops
  implicit none
contains
  ! a user operation: elementwise a*b + a + b on INTEGERs, commutative
  subroutine combine(invec, inoutvec, len, datatype)
    integer, intent(in) :: len, datatype
    integer, intent(in) :: invec(len)
    integer, intent(inout) :: inoutvec(len)
    inoutvec = inoutvec + invec + 1
  end subroutine
end module

subroutine check(ok, what)
  use mpi
  logical, intent(in) :: ok
  character(len=*), intent(in) :: what
  integer :: ierr
  if (.not. ok) then
    write (0, *) 'f90_basic: FAILED: ', what
    call MPI_Abort(MPI_COMM_WORLD, 1, ierr)
  end if
end subroutine

subroutine run()
  use mpi
  use f90_ops
  use f90_state
  implicit none
  integer :: ierr, rank, nproc, left, right, i, n, cls, ival, newcomm, color, srank, ssize
  integer :: rlen, op
  integer :: status(MPI_STATUS_SIZE), sts(MPI_STATUS_SIZE, 2), reqs(2), sbuf(2), rbuf(2)
  double precision :: t1, t2, pair(2), best(2), expect
  logical :: flag, lval
  character(len=MPI_MAX_OBJECT_NAME) :: cname
  character(len=MPI_MAX_PROCESSOR_NAME) :: pname

  call MPI_Init(ierr)
  call check(ierr == MPI_SUCCESS, 'MPI_Init')
  t1 = MPI_Wtime()
  call MPI_Comm_rank(MPI_COMM_WORLD, rank, ierr)
  call MPI_Comm_size(MPI_COMM_WORLD, nproc, ierr)
  call check(rank >= 0 .and. rank < nproc, 'rank')
  ! per-rank module variables: each rank writes its own, all meet, each reads its own back
  call check(myrank == -1 .and. .not. allocated(seen), 'module variables start fresh')
  myrank = rank
  allocate(seen(rank + 1))
  seen = rank
  call MPI_Barrier(MPI_COMM_WORLD, ierr)
  call check(myrank == rank, 'module variable per rank')
  call check(size(seen) == rank + 1, 'module allocatable per rank')
  call check(all(seen == rank), 'module allocatable contents per rank')
  call MPI_Barrier(MPI_COMM_WORLD, ierr)
  deallocate(seen) ! (the rank's copy goes with the rank: docs/privatize.md)
  right = mod(rank + 1, nproc)
  left = mod(rank + nproc - 1, nproc)

  ! point to point around the ring, the status read back
  sbuf = [rank * 3, -rank]
  call MPI_Sendrecv(sbuf, 2, MPI_INTEGER, right, 10 + rank, rbuf, 2, MPI_INTEGER, &
                    MPI_ANY_SOURCE, MPI_ANY_TAG, MPI_COMM_WORLD, status, ierr)
  call check(ierr == MPI_SUCCESS, 'MPI_Sendrecv')
  call check(all(rbuf == [left * 3, -left]), 'sendrecv data')
  call check(status(MPI_SOURCE) == left .and. status(MPI_TAG) == 10 + left, 'status')
  call MPI_Get_count(status, MPI_INTEGER, n, ierr)
  call check(n == 2, 'MPI_Get_count')
  call MPI_Sendrecv(sbuf, 1, MPI_INTEGER, right, 5, rbuf, 1, MPI_INTEGER, left, 5, &
                    MPI_COMM_WORLD, MPI_STATUS_IGNORE, ierr)
  call check(rbuf(1) == left * 3, 'MPI_STATUS_IGNORE recv')

  ! nonblocking, completed by MPI_Waitall on an array of requests
  sbuf(1) = rank + 100
  call MPI_Irecv(rbuf, 1, MPI_INTEGER, left, 7, MPI_COMM_WORLD, reqs(1), ierr)
  call MPI_Isend(sbuf, 1, MPI_INTEGER, right, 7, MPI_COMM_WORLD, reqs(2), ierr)
  call MPI_Waitall(2, reqs, sts, ierr)
  call check(ierr == MPI_SUCCESS .and. rbuf(1) == left + 100, 'MPI_Waitall')
  call check(sts(MPI_SOURCE, 1) == left .and. sts(MPI_TAG, 1) == 7, 'waitall status')
  call check(all(reqs == MPI_REQUEST_NULL), 'requests freed')
  call MPI_Irecv(rbuf, 1, MPI_INTEGER, left, 8, MPI_COMM_WORLD, reqs(1), ierr)
  call MPI_Isend(sbuf, 1, MPI_INTEGER, right, 8, MPI_COMM_WORLD, reqs(2), ierr)
  call MPI_Waitall(2, reqs, MPI_STATUSES_IGNORE, ierr)
  call check(rbuf(1) == left + 100, 'statuses ignored')

  ! MPI_Test's LOGICAL flag, on a message to itself
  call MPI_Irecv(ival, 1, MPI_INTEGER, rank, 9, MPI_COMM_WORLD, reqs(1), ierr)
  call MPI_Test(reqs(1), flag, status, ierr)
  call check(.not. flag, 'MPI_Test before the send')
  call MPI_Send(rank, 1, MPI_INTEGER, rank, 9, MPI_COMM_WORLD, ierr)
  flag = .false.
  do while (.not. flag)
    call MPI_Test(reqs(1), flag, status, ierr)
  end do
  call check(ival == rank .and. reqs(1) == MPI_REQUEST_NULL, 'MPI_Test after the send')

  ! a broadcast, a reduction in place, MAXLOC on pairs, LAND on LOGICAL, a user op
  ival = merge(4242, -1, rank == 0)
  call MPI_Bcast(ival, 1, MPI_INTEGER, 0, MPI_COMM_WORLD, ierr)
  call check(ival == 4242, 'MPI_Bcast')
  ival = rank
  call MPI_Allreduce(MPI_IN_PLACE, ival, 1, MPI_INTEGER, MPI_SUM, MPI_COMM_WORLD, ierr)
  call check(ival == nproc * (nproc - 1) / 2, 'in place sum')
  pair = [dble(mod(rank * 7, 5)), dble(rank)]
  call MPI_Allreduce(pair, best, 1, MPI_2DOUBLE_PRECISION, MPI_MAXLOC, MPI_COMM_WORLD, ierr)
  expect = -1d0
  n = -1
  do i = 0, nproc - 1
    if (dble(mod(i * 7, 5)) > expect) then
      expect = dble(mod(i * 7, 5))
      n = i
    end if
  end do
  call check(best(1) == expect .and. best(2) == dble(n), 'MAXLOC')
  lval = .true.
  call MPI_Allreduce(MPI_IN_PLACE, lval, 1, MPI_LOGICAL, MPI_LAND, MPI_COMM_WORLD, ierr)
  call check(lval, 'LAND of trues')
  lval = rank /= 0
  call MPI_Allreduce(MPI_IN_PLACE, lval, 1, MPI_LOGICAL, MPI_LAND, MPI_COMM_WORLD, ierr)
  call check(.not. lval, 'LAND with a false')
  call MPI_Op_create(combine, .true., op, ierr)
  call check(ierr == MPI_SUCCESS, 'MPI_Op_create')
  ival = rank
  call MPI_Allreduce(MPI_IN_PLACE, ival, 1, MPI_INTEGER, op, MPI_COMM_WORLD, ierr)
  call check(ival == nproc * (nproc - 1) / 2 + nproc - 1, 'user op')
  call MPI_Op_free(op, ierr)
  call check(op == MPI_OP_NULL, 'MPI_Op_free')

  ! a split communicator, named and asked its name
  color = mod(rank, 2)
  call MPI_Comm_split(MPI_COMM_WORLD, color, -rank, newcomm, ierr)
  call MPI_Comm_rank(newcomm, srank, ierr)
  call MPI_Comm_size(newcomm, ssize, ierr)
  call check(ssize == (nproc - color + 1) / 2, 'split size')
  call check(srank == (nproc - 1 - rank) / 2, 'split rank')
  call MPI_Comm_set_name(newcomm, merge('evens', 'odds ', color == 0), ierr)
  cname = 'x'
  call MPI_Comm_get_name(newcomm, cname, rlen, ierr)
  call check(cname == merge('evens', 'odds ', color == 0) .and. rlen == 5 - color, 'name')
  call MPI_Comm_free(newcomm, ierr)
  call check(newcomm == MPI_COMM_NULL, 'MPI_Comm_free')

  call MPI_Get_processor_name(pname, rlen, ierr)
  call check(rlen > 0 .and. pname(1:rlen) /= ' ', 'MPI_Get_processor_name')

  ! a bad rank under MPI_ERRORS_RETURN: the class in IERROR
  call MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_RETURN, ierr)
  call MPI_Send(ival, 1, MPI_INTEGER, nproc, 0, MPI_COMM_WORLD, ierr)
  call MPI_Error_class(ierr, cls, i)
  call check(cls == MPI_ERR_RANK, 'bad rank class')

  ! MPI_SIZEOF on scalars and arrays of several types; MPI_F_SYNC_REG on a buffer
  block
    integer :: bytes
    double precision :: grid(3, 2)
    integer(kind=8) :: i8
    complex :: cx(4)
    logical(kind=1) :: l1
    call MPI_Sizeof(grid, bytes, ierr)
    call check(bytes == 8 .and. ierr == MPI_SUCCESS, 'MPI_Sizeof(double precision array)')
    call MPI_Sizeof(i8, bytes, ierr)
    call check(bytes == 8, 'MPI_Sizeof(integer(8))')
    call MPI_Sizeof(cx, bytes, ierr)
    call check(bytes == 8, 'MPI_Sizeof(complex array)')
    call MPI_Sizeof(l1, bytes, ierr)
    call check(bytes == 1, 'MPI_Sizeof(logical(1))')
    call MPI_Sizeof(rank, bytes, ierr)
    call check(bytes == 4, 'MPI_Sizeof(integer)')
    grid = 1d0
    call MPI_F_sync_reg(grid)
    call check(all(grid == 1d0), 'MPI_F_SYNC_REG keeps the buffer')
  end block

  t2 = MPI_Wtime()
  call check(t2 >= t1, 'MPI_Wtime')
  t2 = MPI_Wtick()
  call check(t2 > 0d0, 'MPI_Wtick')
  call MPI_Barrier(MPI_COMM_WORLD, ierr)
  if (rank == 0) print '(a)', 'f90_basic: ok'
  call MPI_Finalize(ierr)
  call check(ierr == MPI_SUCCESS, 'MPI_Finalize')
end subroutine
