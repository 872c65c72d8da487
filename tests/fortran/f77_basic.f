! f77_basic.f: the Fortran 77 binding (include 'mpif.h') end to end.
! Every rank checks what it gets; a mismatch aborts the job. The
! program also keeps state where F77 codes keep it, in a COMMON block,
! a SAVEd local and a DATA-initialized local (subroutine perrank),
! which the privatization plugin gives to each rank.
      program f77basic
      call run()
      end

      subroutine check(ok, what)
      include 'mpif.h'
      logical ok
      character*(*) what
      integer ierr
      if (.not. ok) then
         write (0, *) 'f77_basic: FAILED: ', what
         call MPI_ABORT(MPI_COMM_WORLD, 1, ierr)
      end if
      end

! a user operation: elementwise a + b + 1 on INTEGERs, commutative
      subroutine combine(invec, inoutvec, len, datatype)
      integer len, datatype, invec(len), inoutvec(len), i
      do i = 1, len
         inoutvec(i) = inoutvec(i) + invec(i) + 1
      end do
      end

      subroutine run()
      include 'mpif.h'
      external combine
      integer ierr, rank, nproc, left, right, i, n, cls, ival, op
      integer status(MPI_STATUS_SIZE), sts(MPI_STATUS_SIZE, 2)
      integer reqs(2), sbuf(2), rbuf(2), v(2), w(2)
      integer newcomm, color, srank, ssize, rlen
      double precision t1, t2, pair(2), best(2), expect
      logical flag, lval
      character*(MPI_MAX_OBJECT_NAME) cname
      character*(MPI_MAX_PROCESSOR_NAME) pname

      call MPI_INIT(ierr)
      call check(ierr .eq. MPI_SUCCESS, 'MPI_Init')
      t1 = MPI_WTIME()
      call MPI_COMM_RANK(MPI_COMM_WORLD, rank, ierr)
      call MPI_COMM_SIZE(MPI_COMM_WORLD, nproc, ierr)
      call check(rank .ge. 0 .and. rank .lt. nproc, 'rank')
      call perrank(rank)
      right = mod(rank + 1, nproc)
      left = mod(rank + nproc - 1, nproc)

! point to point around the ring, the status read back
      sbuf(1) = rank * 3
      sbuf(2) = -rank
      call MPI_SENDRECV(sbuf, 2, MPI_INTEGER, right, 10 + rank,
     &     rbuf, 2, MPI_INTEGER, MPI_ANY_SOURCE, MPI_ANY_TAG,
     &     MPI_COMM_WORLD, status, ierr)
      call check(ierr .eq. MPI_SUCCESS, 'MPI_Sendrecv')
      call check(rbuf(1) .eq. left * 3 .and. rbuf(2) .eq. -left,
     &     'sendrecv data')
      call check(status(MPI_SOURCE) .eq. left, 'status source')
      call check(status(MPI_TAG) .eq. 10 + left, 'status tag')
      call MPI_GET_COUNT(status, MPI_INTEGER, n, ierr)
      call check(n .eq. 2, 'MPI_Get_count')
      call MPI_SENDRECV(sbuf, 1, MPI_INTEGER, right, 5,
     &     rbuf, 1, MPI_INTEGER, left, 5, MPI_COMM_WORLD,
     &     MPI_STATUS_IGNORE, ierr)
      call check(rbuf(1) .eq. left * 3, 'MPI_STATUS_IGNORE recv')

! nonblocking, completed by MPI_Waitall on an array of requests
      v(1) = rank + 100
      call MPI_IRECV(w, 1, MPI_INTEGER, left, 7, MPI_COMM_WORLD,
     &     reqs(1), ierr)
      call MPI_ISEND(v, 1, MPI_INTEGER, right, 7, MPI_COMM_WORLD,
     &     reqs(2), ierr)
      call MPI_WAITALL(2, reqs, sts, ierr)
      call check(ierr .eq. MPI_SUCCESS, 'MPI_Waitall')
      call check(w(1) .eq. left + 100, 'waitall data')
      call check(sts(MPI_SOURCE, 1) .eq. left, 'waitall source')
      call check(sts(MPI_TAG, 1) .eq. 7, 'waitall tag')
      call check(reqs(1) .eq. MPI_REQUEST_NULL .and.
     &     reqs(2) .eq. MPI_REQUEST_NULL, 'requests freed')
      call MPI_IRECV(w, 1, MPI_INTEGER, left, 8, MPI_COMM_WORLD,
     &     reqs(1), ierr)
      call MPI_ISEND(v, 1, MPI_INTEGER, right, 8, MPI_COMM_WORLD,
     &     reqs(2), ierr)
      call MPI_WAITALL(2, reqs, MPI_STATUSES_IGNORE, ierr)
      call check(w(1) .eq. left + 100, 'statuses ignored')

! MPI_Test's LOGICAL flag, on a message to itself
      call MPI_IRECV(ival, 1, MPI_INTEGER, rank, 9, MPI_COMM_WORLD,
     &     reqs(1), ierr)
      call MPI_TEST(reqs(1), flag, status, ierr)
      call check(.not. flag, 'MPI_Test before the send')
      call MPI_SEND(rank, 1, MPI_INTEGER, rank, 9, MPI_COMM_WORLD,
     &     ierr)
      flag = .false.
      do while (.not. flag)
         call MPI_TEST(reqs(1), flag, status, ierr)
      end do
      call check(ival .eq. rank .and. reqs(1) .eq. MPI_REQUEST_NULL,
     &     'MPI_Test after the send')

! a broadcast, a reduction in place, MAXLOC on pairs, LAND on LOGICAL,
! a user operation
      ival = -1
      if (rank .eq. 0) ival = 4242
      call MPI_BCAST(ival, 1, MPI_INTEGER, 0, MPI_COMM_WORLD, ierr)
      call check(ival .eq. 4242, 'MPI_Bcast')
      ival = rank
      call MPI_ALLREDUCE(MPI_IN_PLACE, ival, 1, MPI_INTEGER, MPI_SUM,
     &     MPI_COMM_WORLD, ierr)
      call check(ival .eq. nproc * (nproc - 1) / 2, 'in place sum')
      pair(1) = dble(mod(rank * 7, 5))
      pair(2) = dble(rank)
      call MPI_ALLREDUCE(pair, best, 1, MPI_2DOUBLE_PRECISION,
     &     MPI_MAXLOC, MPI_COMM_WORLD, ierr)
      expect = -1d0
      n = -1
      do i = 0, nproc - 1
         if (dble(mod(i * 7, 5)) .gt. expect) then
            expect = dble(mod(i * 7, 5))
            n = i
         end if
      end do
      call check(best(1) .eq. expect .and. best(2) .eq. dble(n),
     &     'MAXLOC')
      lval = .true.
      call MPI_ALLREDUCE(MPI_IN_PLACE, lval, 1, MPI_LOGICAL, MPI_LAND,
     &     MPI_COMM_WORLD, ierr)
      call check(lval, 'LAND of trues')
      lval = rank .ne. 0
      call MPI_ALLREDUCE(MPI_IN_PLACE, lval, 1, MPI_LOGICAL, MPI_LAND,
     &     MPI_COMM_WORLD, ierr)
      call check(.not. lval, 'LAND with a false')
      call MPI_OP_CREATE(combine, .true., op, ierr)
      call check(ierr .eq. MPI_SUCCESS, 'MPI_Op_create')
      ival = rank
      call MPI_ALLREDUCE(MPI_IN_PLACE, ival, 1, MPI_INTEGER, op,
     &     MPI_COMM_WORLD, ierr)
      call check(ival .eq. nproc * (nproc - 1) / 2 + nproc - 1,
     &     'user op')
      call MPI_OP_FREE(op, ierr)
      call check(op .eq. MPI_OP_NULL, 'MPI_Op_free')

! a split communicator, named and asked its name
      color = mod(rank, 2)
      call MPI_COMM_SPLIT(MPI_COMM_WORLD, color, -rank, newcomm, ierr)
      call MPI_COMM_RANK(newcomm, srank, ierr)
      call MPI_COMM_SIZE(newcomm, ssize, ierr)
      call check(ssize .eq. (nproc - color + 1) / 2, 'split size')
      call check(srank .eq. (nproc - 1 - rank) / 2, 'split rank')
      if (color .eq. 0) then
         call MPI_COMM_SET_NAME(newcomm, 'evens   ', ierr)
      else
         call MPI_COMM_SET_NAME(newcomm, 'odds', ierr)
      end if
      cname = 'x'
      call MPI_COMM_GET_NAME(newcomm, cname, rlen, ierr)
      if (color .eq. 0) then
         call check(rlen .eq. 5 .and. cname .eq. 'evens', 'name')
      else
         call check(rlen .eq. 4 .and. cname .eq. 'odds', 'name')
      end if
      call MPI_COMM_FREE(newcomm, ierr)
      call check(newcomm .eq. MPI_COMM_NULL, 'MPI_Comm_free')

! MPI_F_SYNC_REG on a buffer a nonblocking call wrote (mpif.h's form)
      call MPI_F_SYNC_REG(w)
      call check(w(1) .eq. left + 100, 'MPI_F_SYNC_REG')

      call MPI_GET_PROCESSOR_NAME(pname, rlen, ierr)
      call check(rlen .gt. 0 .and. pname(1:rlen) .ne. ' ', 'procname')

! a bad rank under MPI_ERRORS_RETURN: the class in IERROR
      call MPI_COMM_SET_ERRHANDLER(MPI_COMM_WORLD, MPI_ERRORS_RETURN,
     &     ierr)
      call MPI_SEND(ival, 1, MPI_INTEGER, nproc, 0, MPI_COMM_WORLD,
     &     ierr)
      call MPI_ERROR_CLASS(ierr, cls, i)
      call check(cls .eq. MPI_ERR_RANK, 'bad rank class')

      t2 = MPI_WTIME()
      call check(t2 .ge. t1, 'MPI_Wtime')
      t2 = MPI_WTICK()
      call check(t2 .gt. 0d0, 'MPI_Wtick')
      call MPI_BARRIER(MPI_COMM_WORLD, ierr)
      if (rank .eq. 0) print '(a)', 'f77_basic: ok'
      call MPI_FINALIZE(ierr)
      call check(ierr .eq. MPI_SUCCESS, 'MPI_Finalize')
      end

! Per-rank state: each rank writes its rank into a COMMON block and
! calls counter rank+1 times, then all meet and each checks that it
! reads its own values. Shared by the ranks, the COMMON block would hold
! the last writer's rank and the counter the calls of every rank.
      subroutine perrank(rank)
      include 'mpif.h'
      integer rank, ierr, k, calls, first
      integer crank, csum
      common /f77state/ crank, csum
      crank = rank
      csum = 0
      do k = 1, rank + 1
         call counter(1, calls, first)
         csum = csum + calls
      end do
      call MPI_BARRIER(MPI_COMM_WORLD, ierr)
      call counter(0, calls, first)
      call check(crank .eq. rank, 'COMMON per rank')
      call check(csum .eq. (rank + 1) * (rank + 2) / 2, 'SAVE sum')
      call check(calls .eq. rank + 1, 'SAVE per rank')
      call check(first .eq. 1000 + rank + 1, 'DATA per rank')
      call MPI_BARRIER(MPI_COMM_WORLD, ierr)
      end

! op 1: count a call; then give the count (SAVE, from 0) and the
! DATA-initialized value (1000, plus one per call)
      subroutine counter(op, calls, first)
      integer op, calls, first, ncalls, nfirst
      save ncalls
      data ncalls /0/, nfirst /1000/
      if (op .eq. 1) then
         ncalls = ncalls + 1
         nfirst = nfirst + 1
      end if
      calls = ncalls
      first = nfirst
      end

