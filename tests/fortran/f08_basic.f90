! f08_basic.f90: the Fortran 2008 binding (use mpi_f08) end to end: handle types, TYPE
! (MPI_Status), LOGICAL and CHARACTER arguments, IERROR given and omitted. Every rank checks
! what it gets; a mismatch aborts the job. The program also keeps state in a main program's
! variable and a module's SAVE variable, which the privatization plugin gives to each rank.
program f08basic
  implicit none
  integer :: mine = -7 ! a main program's variable: static, and per rank
  call run(mine)
end program

module f08_ops
  use mpi_f08
  implicit none
  integer, save :: calls = 0 ! a module's SAVE variable: per rank
contains
  ! a user operation: elementwise a + b + 1 on INTEGERs, commutative
  subroutine combine(invec, inoutvec, len, datatype)
    use, intrinsic :: iso_c_binding, only: c_ptr, c_f_pointer
    type(c_ptr), value :: invec, inoutvec
    integer :: len
    type(MPI_Datatype) :: datatype
    integer, pointer :: a(:), b(:)
    call c_f_pointer(invec, a, [len])
    call c_f_pointer(inoutvec, b, [len])
    b = b + a + 1
  end subroutine

  subroutine check(ok, what)
    logical, intent(in) :: ok
    character(len=*), intent(in) :: what
    if (.not. ok) then
      write (0, *) 'f08_basic: FAILED: ', what
      call MPI_Abort(MPI_COMM_WORLD, 1)
    end if
  end subroutine
end module

subroutine run(mine)
  use mpi_f08
  use f08_ops
  implicit none
  integer, intent(inout) :: mine ! the main program's variable
  integer :: ierr, rank, nproc, left, right, i, n, cls, ival, color, srank, ssize, rlen
  integer :: sbuf(2), rbuf(2)
  integer(kind=MPI_COUNT_KIND) :: bigcount
  integer(kind=MPI_ADDRESS_KIND) :: attr
  integer :: key
  type(MPI_Comm) :: newcomm, comm1
  type(MPI_Op) :: op
  type(MPI_Status) :: status, status2, sts(2)
  integer :: fstatus(MPI_STATUS_SIZE)
  type(MPI_Request) :: reqs(2)
  double precision :: t1, t2, pair(2), best(2), expect
  logical :: flag, lval
  character(len=MPI_MAX_OBJECT_NAME) :: cname
  character(len=MPI_MAX_PROCESSOR_NAME) :: pname

  call MPI_Init(ierr)
  call check(ierr == MPI_SUCCESS, 'MPI_Init')
  t1 = MPI_Wtime()
  call MPI_Comm_rank(MPI_COMM_WORLD, rank)
  call MPI_Comm_size(MPI_COMM_WORLD, nproc, ierr)
  call check(rank >= 0 .and. rank < nproc, 'rank')
  ! per-rank state: each rank writes its own, all meet, each reads its own back
  call check(mine == -7 .and. calls == 0, 'main program and module variables start fresh')
  mine = 11 * rank
  calls = rank + 1
  call MPI_Barrier(MPI_COMM_WORLD)
  call check(mine == 11 * rank, 'main program variable per rank')
  call check(calls == rank + 1, 'module SAVE variable per rank')
  call MPI_Barrier(MPI_COMM_WORLD)
  right = mod(rank + 1, nproc)
  left = mod(rank + nproc - 1, nproc)

  ! point to point around the ring, the status read back
  sbuf = [rank * 3, -rank]
  call MPI_Sendrecv(sbuf, 2, MPI_INTEGER, right, 10 + rank, rbuf, 2, MPI_INTEGER, &
                    MPI_ANY_SOURCE, MPI_ANY_TAG, MPI_COMM_WORLD, status, ierr)
  call check(ierr == MPI_SUCCESS, 'MPI_Sendrecv')
  call check(all(rbuf == [left * 3, -left]), 'sendrecv data')
  call check(status%MPI_SOURCE == left .and. status%MPI_TAG == 10 + left, 'status')
  call check(status%MPI_ERROR == MPI_SUCCESS .or. .true., 'status error')
  call MPI_Get_count(status, MPI_INTEGER, n)
  call check(n == 2, 'MPI_Get_count')
  call MPI_Status_f082f(status, fstatus)
  call check(fstatus(MPI_SOURCE) == left .and. fstatus(MPI_TAG) == 10 + left, 'f082f')
  fstatus(MPI_TAG) = 77
  call MPI_Status_f2f08(fstatus, status2)
  call check(status2%MPI_SOURCE == left .and. status2%MPI_TAG == 77, 'f2f08')
  call MPI_Get_count(status2, MPI_INTEGER, n)
  call check(n == 2, 'MPI_Get_count after f2f08')
  call MPI_Get_count(status, MPI_INTEGER, bigcount) ! the _c form, by the kind of count
  call check(bigcount == 2_MPI_COUNT_KIND, 'MPI_Get_count_c')
  call MPI_Sendrecv(sbuf, 1, MPI_INTEGER, right, 5, rbuf, 1, MPI_INTEGER, left, 5, &
                    MPI_COMM_WORLD, MPI_STATUS_IGNORE)
  call check(rbuf(1) == left * 3, 'MPI_STATUS_IGNORE recv')

  ! nonblocking, completed by MPI_Waitall on an array of requests
  sbuf(1) = rank + 100
  call MPI_Irecv(rbuf, 1, MPI_INTEGER, left, 7, MPI_COMM_WORLD, reqs(1))
  call MPI_Isend(sbuf, 1, MPI_INTEGER, right, 7, MPI_COMM_WORLD, reqs(2))
  call MPI_Waitall(2, reqs, sts, ierr)
  call check(ierr == MPI_SUCCESS .and. rbuf(1) == left + 100, 'MPI_Waitall')
  call check(sts(1)%MPI_SOURCE == left .and. sts(1)%MPI_TAG == 7, 'waitall status')
  call check(all(reqs == MPI_REQUEST_NULL), 'requests freed')
  call MPI_Irecv(rbuf, 1, MPI_INTEGER, left, 8, MPI_COMM_WORLD, reqs(1))
  call MPI_Isend(sbuf, 1, MPI_INTEGER, right, 8, MPI_COMM_WORLD, reqs(2))
  call MPI_Waitall(2, reqs, MPI_STATUSES_IGNORE)
  call check(rbuf(1) == left + 100, 'statuses ignored')

  ! MPI_Test's LOGICAL flag, on a message to itself
  call MPI_Irecv(ival, 1, MPI_INTEGER, rank, 9, MPI_COMM_WORLD, reqs(1))
  call MPI_Test(reqs(1), flag, status)
  call check(.not. flag, 'MPI_Test before the send')
  call MPI_Send(rank, 1, MPI_INTEGER, rank, 9, MPI_COMM_WORLD)
  flag = .false.
  do while (.not. flag)
    call MPI_Test(reqs(1), flag, status)
  end do
  call check(ival == rank .and. reqs(1) == MPI_REQUEST_NULL, 'MPI_Test after the send')

  ! a broadcast, a reduction in place, MAXLOC on pairs, LAND on LOGICAL, a user op
  ival = merge(4242, -1, rank == 0)
  call MPI_Bcast(ival, 1, MPI_INTEGER, 0, MPI_COMM_WORLD)
  call check(ival == 4242, 'MPI_Bcast')
  ival = rank
  call MPI_Allreduce(MPI_IN_PLACE, ival, 1, MPI_INTEGER, MPI_SUM, MPI_COMM_WORLD)
  call check(ival == nproc * (nproc - 1) / 2, 'in place sum')
  pair = [dble(mod(rank * 7, 5)), dble(rank)]
  call MPI_Allreduce(pair, best, 1, MPI_2DOUBLE_PRECISION, MPI_MAXLOC, MPI_COMM_WORLD)
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
  call MPI_Allreduce(MPI_IN_PLACE, lval, 1, MPI_LOGICAL, MPI_LAND, MPI_COMM_WORLD)
  call check(lval, 'LAND of trues')
  lval = rank /= 0
  call MPI_Allreduce(MPI_IN_PLACE, lval, 1, MPI_LOGICAL, MPI_LAND, MPI_COMM_WORLD)
  call check(.not. lval, 'LAND with a false')
  call MPI_Op_create(combine, .true., op)
  ival = rank
  call MPI_Allreduce(MPI_IN_PLACE, ival, 1, MPI_INTEGER, op, MPI_COMM_WORLD)
  call check(ival == nproc * (nproc - 1) / 2 + nproc - 1, 'user op')
  call MPI_Op_free(op)
  call check(op == MPI_OP_NULL, 'MPI_Op_free')

  ! a split communicator, named and asked its name
  color = mod(rank, 2)
  call MPI_Comm_split(MPI_COMM_WORLD, color, -rank, newcomm)
  call MPI_Comm_rank(newcomm, srank)
  call MPI_Comm_size(newcomm, ssize)
  call check(ssize == (nproc - color + 1) / 2, 'split size')
  call check(srank == (nproc - 1 - rank) / 2, 'split rank')
  call MPI_Comm_set_name(newcomm, merge('evens', 'odds ', color == 0))
  cname = 'x'
  call MPI_Comm_get_name(newcomm, cname, rlen)
  call check(cname == merge('evens', 'odds ', color == 0) .and. rlen == 5 - color, 'name')
  call MPI_Comm_free(newcomm)
  call check(newcomm == MPI_COMM_NULL, 'MPI_Comm_free')

  ! attributes from mpi_f08: a predefined one, and one copied by MPI_COMM_DUP_FN
  call MPI_Comm_get_attr(MPI_COMM_WORLD, MPI_TAG_UB, attr, flag)
  call check(flag .and. attr >= 32767, 'MPI_TAG_UB')
  call MPI_Comm_create_keyval(MPI_COMM_DUP_FN, MPI_COMM_NULL_DELETE_FN, key, 0_MPI_ADDRESS_KIND)
  call MPI_Comm_dup(MPI_COMM_WORLD, comm1)
  call MPI_Comm_set_attr(comm1, key, 500_MPI_ADDRESS_KIND + rank)
  call MPI_Comm_dup(comm1, newcomm)
  attr = 0
  call MPI_Comm_get_attr(newcomm, key, attr, flag)
  call check(flag .and. attr == 500 + rank, 'attribute copied by MPI_COMM_DUP_FN')
  call MPI_Comm_free(newcomm)
  call MPI_Comm_delete_attr(comm1, key)
  call MPI_Comm_get_attr(comm1, key, attr, flag)
  call check(.not. flag, 'MPI_Comm_delete_attr')
  call MPI_Comm_free(comm1)
  call MPI_Comm_free_keyval(key)
  call check(key == MPI_KEYVAL_INVALID, 'MPI_Comm_free_keyval')

  call MPI_Get_processor_name(pname, rlen)
  call check(rlen > 0 .and. pname(1:rlen) /= ' ', 'MPI_Get_processor_name')

  ! a bad rank under MPI_ERRORS_RETURN: the class in IERROR, and no stop without it
  call MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_RETURN)
  call MPI_Send(ival, 1, MPI_INTEGER, nproc, 0, MPI_COMM_WORLD, ierr)
  call MPI_Error_class(ierr, cls)
  call check(cls == MPI_ERR_RANK, 'bad rank class')
  call MPI_Send(ival, 1, MPI_INTEGER, nproc, 0, MPI_COMM_WORLD)

  ! MPI_SIZEOF, its ierror given and omitted
  block
    integer :: bytes
    real(kind=16) :: q(2)
    call MPI_Sizeof(q, bytes, ierr)
    call check(bytes == 16 .and. ierr == MPI_SUCCESS, 'MPI_Sizeof(real(16) array)')
    call MPI_Sizeof(t1, bytes)
    call check(bytes == 8, 'MPI_Sizeof(double precision), ierror omitted')
  end block

  t2 = MPI_Wtime()
  call check(t2 >= t1, 'MPI_Wtime')
  call check(MPI_Wtick() > 0d0, 'MPI_Wtick')
  call MPI_Barrier(MPI_COMM_WORLD)
  if (rank == 0) print '(a)', 'f08_basic: ok'
  call MPI_Finalize(ierr)
  call check(ierr == MPI_SUCCESS, 'MPI_Finalize')
end subroutine
