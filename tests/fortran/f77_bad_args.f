! f77_bad_args.f: bad arguments from Fortran. Under MPI_ERRORS_RETURN
! each call gives the right error class in IERROR and the job goes on;
! with the argument "fatal", a bad rank under MPI_ERRORS_ARE_FATAL ends
! the job with a message naming the call (checked by the test).
      program f77badargs
      call run()
      end

      subroutine expect(ierr, want, what)
      include 'mpif.h'
      integer ierr, want, cls, e
      character*(*) what
      cls = -1
      if (ierr .ne. MPI_SUCCESS) call MPI_ERROR_CLASS(ierr, cls, e)
      if (cls .ne. want) then
         write (0, *) 'f77_bad_args: FAILED: ', what, ' class ', cls,
     &        ' expected ', want
         call MPI_ABORT(MPI_COMM_WORLD, 1, e)
      end if
      end

      subroutine run()
      include 'mpif.h'
      integer ierr, rank, nproc, ival, req, newcomm
      integer status(MPI_STATUS_SIZE)
      character*16 arg

      call MPI_INIT(ierr)
      call MPI_COMM_RANK(MPI_COMM_WORLD, rank, ierr)
      call MPI_COMM_SIZE(MPI_COMM_WORLD, nproc, ierr)
      call get_command_argument(1, arg)
      if (arg .eq. 'fatal') then
         call MPI_SEND(ival, 1, MPI_INTEGER, nproc, 0, MPI_COMM_WORLD,
     &        ierr)
         write (0, *) 'f77_bad_args: FAILED: the fatal handler returned'
         call MPI_ABORT(MPI_COMM_WORLD, 2, ierr)
      end if
      call MPI_COMM_SET_ERRHANDLER(MPI_COMM_WORLD, MPI_ERRORS_RETURN,
     &     ierr)
      ival = 1
      call MPI_SEND(ival, 1, MPI_INTEGER, nproc, 0, MPI_COMM_WORLD,
     &     ierr)
      call expect(ierr, MPI_ERR_RANK, 'rank = size')
      call MPI_SEND(ival, -1, MPI_INTEGER, 0, 0, MPI_COMM_WORLD, ierr)
      call expect(ierr, MPI_ERR_COUNT, 'negative count')
      call MPI_SEND(ival, 1, MPI_INTEGER, 0, -7, MPI_COMM_WORLD, ierr)
      call expect(ierr, MPI_ERR_TAG, 'negative tag')
      call MPI_SEND(ival, 1, MPI_DATATYPE_NULL, 0, 0, MPI_COMM_WORLD,
     &     ierr)
      call expect(ierr, MPI_ERR_TYPE, 'MPI_DATATYPE_NULL')
      call MPI_SEND(ival, 1, 123456, 0, 0, MPI_COMM_WORLD, ierr)
      call expect(ierr, MPI_ERR_TYPE, 'a datatype that is none')
      call MPI_SEND(ival, 1, MPI_INTEGER, 0, 0, MPI_COMM_NULL, ierr)
      call expect(ierr, MPI_ERR_COMM, 'MPI_COMM_NULL')
      call MPI_BARRIER(987654, ierr)
      call expect(ierr, MPI_ERR_COMM, 'a communicator that is none')
      call MPI_ALLREDUCE(MPI_IN_PLACE, ival, 1, MPI_INTEGER,
     &     MPI_OP_NULL, MPI_COMM_WORLD, ierr)
      call expect(ierr, MPI_ERR_OP, 'MPI_OP_NULL')
      call MPI_BCAST(ival, 1, MPI_INTEGER, nproc, MPI_COMM_WORLD, ierr)
      call expect(ierr, MPI_ERR_ROOT, 'root = size')
      req = 55555
      call MPI_WAIT(req, status, ierr)
      call expect(ierr, MPI_ERR_REQUEST, 'a request that is none')
      call MPI_COMM_SPLIT(MPI_COMM_WORLD, 0, 0, newcomm, ierr)
      call expect(ierr, -1, 'a good split')
      call MPI_COMM_SET_NAME(newcomm, 'ok', ierr)
      call expect(ierr, -1, 'a good name')
      call MPI_COMM_FREE(newcomm, ierr)
      call MPI_COMM_FREE(newcomm, ierr)
      call expect(ierr, MPI_ERR_COMM, 'freeing MPI_COMM_NULL')
      call MPI_BARRIER(MPI_COMM_WORLD, ierr)
      if (rank .eq. 0) print '(a)', 'f77_bad_args: ok'
      call MPI_FINALIZE(ierr)
      end
