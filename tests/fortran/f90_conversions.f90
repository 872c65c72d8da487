! f90_conversions.f90: the conversions of the generated entry points, each seen from
! Fortran (use mpi): 1-based indices (Waitany, Waitsome), arrays of handles (a struct type,
! MPI_Alltoallw's datatypes, whose length is the communicator's size), LOGICAL arrays
! (Cart_create, Cart_get, Cart_sub), CHARACTER in and out (Info), the sentinels MPI_BOTTOM,
! MPI_BUFFER_AUTOMATIC and MPI_UNWEIGHTED, and the hand-written calls: attributes
! (MPI_TAG_UB, a keyval copied by MPI_COMM_DUP_FN) and an error handler written in Fortran.
! Every rank checks what it gets; a mismatch aborts the job.
program f90conversions
  call run()
end program

module f90_conv_util
  implicit none
contains
  subroutine check(ok, what)
    use mpi
    logical, intent(in) :: ok
    character(len=*), intent(in) :: what
    integer :: ierr
    if (.not. ok) then
      write (0, *) 'f90_conversions: FAILED: ', what
      call MPI_Abort(MPI_COMM_WORLD, 1, ierr)
    end if
  end subroutine

  ! an error handler written in Fortran: it names the communicator, which the caller checks
  subroutine name_it(comm, code)
    use mpi
    integer :: comm, code, ierr
    call MPI_Comm_set_name(comm, 'handled', ierr)
  end subroutine
end module

subroutine run()
  use mpi
  use f90_conv_util
  implicit none
  integer :: ierr, rank, nproc, i, idx, outcount, n, key, dup, cart, sub, info, eh, comm
  integer :: reqs(2), indices(2), a(2), blens(2), types(2), got_types(2), ints(3)
  integer :: newtype, tsize, dims(2), coords(2), graph, indeg, outdeg, combiner
  integer :: status(MPI_STATUS_SIZE)
  integer(kind=MPI_ADDRESS_KIND) :: disps(2), addrs(2), val, got_addrs(2)
  integer, allocatable :: sendv(:), recvv(:), counts(:), displs(:), wtypes(:)
  logical :: flag, periods(2), remain(2), weighted
  double precision :: d, e
  character(len=MPI_MAX_INFO_VAL) :: value
  character(len=MPI_MAX_INFO_KEY) :: keyname
  character(len=MPI_MAX_OBJECT_NAME) :: cname
  integer :: buflen, rlen

  call MPI_Init(ierr)
  call MPI_Comm_rank(MPI_COMM_WORLD, rank, ierr)
  call MPI_Comm_size(MPI_COMM_WORLD, nproc, ierr)

  ! MPI_Waitany and MPI_Waitsome give Fortran's 1-based indices
  call MPI_Irecv(a(1), 1, MPI_INTEGER, rank, 1, MPI_COMM_WORLD, reqs(1), ierr)
  call MPI_Irecv(a(2), 1, MPI_INTEGER, rank, 2, MPI_COMM_WORLD, reqs(2), ierr)
  call MPI_Send(22, 1, MPI_INTEGER, rank, 2, MPI_COMM_WORLD, ierr)
  call MPI_Waitany(2, reqs, idx, status, ierr)
  call check(idx == 2 .and. a(2) == 22 .and. status(MPI_TAG) == 2, 'MPI_Waitany index')
  call MPI_Send(11, 1, MPI_INTEGER, rank, 1, MPI_COMM_WORLD, ierr)
  call MPI_Waitsome(2, reqs, outcount, indices, MPI_STATUSES_IGNORE, ierr)
  call check(outcount == 1 .and. indices(1) == 1 .and. a(1) == 11, 'MPI_Waitsome indices')
  call MPI_Waitany(2, reqs, idx, MPI_STATUS_IGNORE, ierr)
  call check(idx == MPI_UNDEFINED, 'MPI_Waitany on null requests')

  ! MPI_BUFFER_AUTOMATIC by its address: buffered sends without a buffer of one's own
  call MPI_Buffer_attach(MPI_BUFFER_AUTOMATIC, 0, ierr)
  call check(ierr == MPI_SUCCESS, 'MPI_Buffer_attach(MPI_BUFFER_AUTOMATIC)')
  call MPI_Bsend(rank + 5, 1, MPI_INTEGER, rank, 4, MPI_COMM_WORLD, ierr)
  call check(ierr == MPI_SUCCESS, 'MPI_Bsend into the automatic buffer')
  call MPI_Recv(n, 1, MPI_INTEGER, rank, 4, MPI_COMM_WORLD, MPI_STATUS_IGNORE, ierr)
  call check(n == rank + 5, 'MPI_Bsend data')
  call MPI_Buffer_detach(val, n, ierr)
  call check(ierr == MPI_SUCCESS, 'MPI_Buffer_detach')

  ! a struct type from an array of datatypes, and the array read back
  blens = [1, 1]
  disps = [0_MPI_ADDRESS_KIND, 8_MPI_ADDRESS_KIND]
  types = [MPI_INTEGER, MPI_DOUBLE_PRECISION]
  call MPI_Type_create_struct(2, blens, disps, types, newtype, ierr)
  call MPI_Type_commit(newtype, ierr)
  call MPI_Type_size(newtype, tsize, ierr)
  call check(ierr == MPI_SUCCESS .and. tsize == 12, 'struct type size')
  call MPI_Type_get_contents(newtype, 3, 2, 2, ints, got_addrs, got_types, ierr)
  call check(got_types(1) == MPI_INTEGER .and. got_types(2) == MPI_DOUBLE_PRECISION .and. &
             got_addrs(2) == 8, 'MPI_Type_get_contents')
  call MPI_Type_get_envelope(newtype, ints(1), ints(2), ints(3), combiner, ierr)
  call check(combiner == MPI_COMBINER_STRUCT, 'combiner')
  call MPI_Type_free(newtype, ierr)
  call check(newtype == MPI_DATATYPE_NULL, 'MPI_Type_free')

  ! absolute addresses from MPI_Get_address, sent from MPI_BOTTOM
  d = 2.5d0 + rank
  a(1) = 7 * rank
  call MPI_Get_address(a(1), addrs(1), ierr)
  call MPI_Get_address(d, addrs(2), ierr)
  call MPI_Type_create_struct(2, blens, addrs, types, newtype, ierr)
  call MPI_Type_commit(newtype, ierr)
  call MPI_Sendrecv(MPI_BOTTOM, 1, newtype, rank, 3, ints, 3, MPI_INTEGER, rank, 3, &
                    MPI_COMM_WORLD, status, ierr)
  call check(ierr == MPI_SUCCESS .and. ints(1) == 7 * rank, 'MPI_BOTTOM')
  e = transfer(ints(2:3), e)
  call check(e == d, 'MPI_BOTTOM double')
  call MPI_Get_count(status, MPI_INTEGER, n, ierr)
  call check(n == 3, 'MPI_BOTTOM count')
  call MPI_Type_free(newtype, ierr)

  ! MPI_Alltoallw: one datatype per rank, the arrays as long as the communicator
  allocate(sendv(nproc), recvv(nproc), counts(nproc), displs(nproc), wtypes(nproc))
  do i = 1, nproc
    sendv(i) = 100 * rank + i - 1
    counts(i) = 1
    displs(i) = 4 * (i - 1)
    wtypes(i) = MPI_INTEGER
  end do
  recvv = -1
  call MPI_Alltoallw(sendv, counts, displs, wtypes, recvv, counts, displs, wtypes, &
                     MPI_COMM_WORLD, ierr)
  do i = 1, nproc
    call check(recvv(i) == 100 * (i - 1) + rank, 'MPI_Alltoallw')
  end do

  ! LOGICAL arrays: a periodic ring of rows, its periods read back, a sub-grid
  dims = [nproc, 1]
  periods = [.true., .false.]
  call MPI_Cart_create(MPI_COMM_WORLD, 2, dims, periods, .false., cart, ierr)
  call check(ierr == MPI_SUCCESS, 'MPI_Cart_create')
  periods = [.false., .true.]
  call MPI_Cart_get(cart, 2, dims, periods, coords, ierr)
  call check(periods(1) .and. .not. periods(2) .and. coords(1) == rank, 'MPI_Cart_get')
  remain = [.false., .true.]
  call MPI_Cart_sub(cart, remain, sub, ierr)
  call MPI_Comm_size(sub, n, ierr)
  call check(n == 1, 'MPI_Cart_sub')
  call MPI_Comm_free(sub, ierr)
  call MPI_Comm_free(cart, ierr)

  ! MPI_UNWEIGHTED by its address
  call MPI_Dist_graph_create_adjacent(MPI_COMM_WORLD, 1, [mod(rank + nproc - 1, nproc)], &
                                      MPI_UNWEIGHTED, 1, [mod(rank + 1, nproc)], &
                                      MPI_UNWEIGHTED, MPI_INFO_NULL, .false., graph, ierr)
  call MPI_Dist_graph_neighbors_count(graph, indeg, outdeg, weighted, ierr)
  call check(indeg == 1 .and. outdeg == 1 .and. .not. weighted, 'MPI_UNWEIGHTED')
  call MPI_Comm_free(graph, ierr)

  ! CHARACTER in (trailing blanks dropped) and out (padded with blanks)
  call MPI_Info_create(info, ierr)
  call MPI_Info_set(info, 'colour  ', 'deep blue   ', ierr)
  buflen = len(value)
  value = 'x'
  call MPI_Info_get_string(info, 'colour', buflen, value, flag, ierr)
  call check(flag .and. value == 'deep blue' .and. value(10:10) == ' ', 'MPI_Info_get_string')
  call MPI_Info_get_nthkey(info, 0, keyname, ierr)
  call check(keyname == 'colour', 'MPI_Info_get_nthkey')
  call MPI_Info_get_string(info, 'nothing', buflen, value, flag, ierr)
  call check(.not. flag, 'no such key')
  call MPI_Info_free(info, ierr)
  call check(info == MPI_INFO_NULL, 'MPI_Info_free')

  ! attributes: a predefined one's value; a keyval copied by MPI_COMM_DUP_FN
  call MPI_Comm_get_attr(MPI_COMM_WORLD, MPI_TAG_UB, val, flag, ierr)
  call check(flag .and. val >= 32767, 'MPI_TAG_UB')
  call MPI_Comm_create_keyval(MPI_COMM_DUP_FN, MPI_COMM_NULL_DELETE_FN, key, &
                              0_MPI_ADDRESS_KIND, ierr)
  call MPI_Comm_dup(MPI_COMM_WORLD, comm, ierr)
  call MPI_Comm_set_attr(comm, key, 1000_MPI_ADDRESS_KIND + rank, ierr)
  call MPI_Comm_dup(comm, dup, ierr)
  val = 0
  call MPI_Comm_get_attr(dup, key, val, flag, ierr)
  call check(flag .and. val == 1000 + rank, 'attribute copied by MPI_COMM_DUP_FN')
  call MPI_Comm_free(dup, ierr)
  call MPI_Comm_free_keyval(key, ierr)

  ! an error handler written in Fortran, called on a bad rank
  call MPI_Comm_create_errhandler(name_it, eh, ierr)
  call MPI_Comm_set_errhandler(comm, eh, ierr)
  call MPI_Send(a, 1, MPI_INTEGER, nproc, 0, comm, ierr)
  call check(ierr /= MPI_SUCCESS, 'a bad rank under the Fortran handler')
  call MPI_Comm_get_name(comm, cname, rlen, ierr)
  call check(cname == 'handled' .and. rlen == 7, 'the Fortran handler ran')
  call MPI_Errhandler_free(eh, ierr)
  call MPI_Comm_free(comm, ierr)

  ! arrays of requests and statuses longer than an entry point's automatic arrays (32): the
  ! conversion takes memory of its own, with the same results
  block
    integer, parameter :: many = 40
    integer :: big_reqs(2 * many), big_sts(MPI_STATUS_SIZE, 2 * many), vals(many), k
    integer :: svals(many)
    do k = 1, many
      call MPI_Irecv(vals(k), 1, MPI_INTEGER, rank, k, MPI_COMM_WORLD, big_reqs(k), ierr)
    end do
    do k = 1, many
      svals(k) = k * 3
      call MPI_Isend(svals(k), 1, MPI_INTEGER, rank, k, MPI_COMM_WORLD, big_reqs(many + k), ierr)
    end do
    call MPI_Waitall(2 * many, big_reqs, big_sts, ierr)
    call check(ierr == MPI_SUCCESS, 'MPI_Waitall of 80')
    do k = 1, many
      call check(vals(k) == k * 3, 'long waitall data')
      call check(big_sts(MPI_TAG, k) == k .and. big_sts(MPI_SOURCE, k) == rank, &
                 'long waitall statuses')
    end do
    call check(all(big_reqs == MPI_REQUEST_NULL), 'long waitall requests freed')
  end block

  call MPI_Barrier(MPI_COMM_WORLD, ierr)
  if (rank == 0) print '(a)', 'f90_conversions: ok'
  call MPI_Finalize(ierr)
end subroutine
