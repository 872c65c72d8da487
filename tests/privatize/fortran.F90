! tests/privatize/fortran.F90 — Fortran globals are per rank (docs/privatize.md, Fortran): a
! COMMON block, a module variable, a SAVEd local, a DATA-initialized local and an initialized
! variable of the main program. Each rank checks the initial values, writes its rank into
! them, meets the others and checks it reads its own; the ranks compare addresses. A
! PARAMETER array and a COMMON block of loom's Fortran bindings (/loom_f_x/) stay shared.
! The module fmod2 and the subroutine set_blk live in the other unit (fortran_mod.f90).
! gfortran's own main (it calls MAIN__) runs once per rank: `starts` (per rank) is 1 in each,
! `runs` (shared, in a loom_f_ block; the ranks start one at a time up to MPI_Init) the ranks.
module fmod
  use iso_c_binding
  implicit none
  integer :: modvar = 5
  integer, parameter :: ptab(4) = [10, 20, 30, 40]
  interface
    subroutine shim_init(rank, size) bind(C, name="fshim_init")
      import :: c_int
      integer(c_int) :: rank, size
    end subroutine
    subroutine shim_barrier() bind(C, name="fshim_barrier")
    end subroutine
    subroutine shim_distinct(address) bind(C, name="fshim_distinct")
      import :: c_intptr_t
      integer(c_intptr_t), value :: address
    end subroutine
    subroutine shim_same(address) bind(C, name="fshim_same")
      import :: c_intptr_t
      integer(c_intptr_t), value :: address
    end subroutine
    subroutine shim_fail(line) bind(C, name="fshim_fail")
      import :: c_int
      integer(c_int), value :: line
    end subroutine
    subroutine shim_finalize() bind(C, name="fshim_finalize")
    end subroutine
  end interface
contains
  subroutine check(ok, line)
    logical, intent(in) :: ok
    integer, intent(in) :: line
    if (.not. ok) call shim_fail(line)
  end subroutine
end module fmod

block data fblock
  integer :: cb(4)
  common /blk/ cb
  data cb /1, 2, 3, 4/
end block data

! mode 0: check the initial values; 1: write rank r; 2: check rank r; 3: compare addresses
subroutine locals(mode, r)
  use iso_c_binding
  use fmod
  implicit none
  integer, intent(in) :: mode, r
  integer, save :: saved = 7
  integer :: dat
  data dat /9/
  integer :: cb(4)
  common /blk/ cb
  select case (mode)
  case (0)
    call check(saved == 7, __LINE__)
    call check(dat == 9, __LINE__)
    call check(cb(4) == 4, __LINE__)
  case (1)
    saved = 100 + r
    dat = 200 + r
    cb = 300 + r
  case (2)
    call check(saved == 100 + r, __LINE__)
    call check(dat == 200 + r, __LINE__)
    call check(all(cb == 300 + r), __LINE__)
  case (3)
    call shim_distinct(int(loc(saved), c_intptr_t))
    call shim_distinct(int(loc(dat), c_intptr_t))
    call shim_distinct(int(loc(cb), c_intptr_t))
  end select
end subroutine

program fprog
  use iso_c_binding
  use fmod
  use fmod2
  implicit none
  class(cell), allocatable :: poly
  integer :: cb(4)
  common /blk/ cb
  integer(c_int) :: rank, size
  integer :: mainvar(4) = [1, 2, 3, 4]   ! initialized: SAVE, static
  integer :: lx
  common /loom_f_x/ lx
  integer :: starts, runs
  common /starts/ starts
  common /loom_f_runs/ runs
  starts = starts + 1                     ! per rank: 1 in every rank
  runs = runs + 1                         ! shared: before MPI_Init, one rank at a time
  call locals(0, 0)
  call check(modvar == 5, __LINE__)
  call check(counter == 4, __LINE__)
  call check(shared_cell%get() == 1, __LINE__)
  call check(mainvar(4) == 4, __LINE__)
  call shim_init(rank, size)
  call locals(1, rank)
  modvar = 400 + rank
  counter = 600 + rank
  shared_cell%value = 700 + rank
  mainvar = 500 + rank
  if (rank == 0) lx = 77
  call shim_barrier()
  call set_blk(800 + rank)                ! the other unit's /blk/ is this unit's
  call check(cb(2) == 800 + rank, __LINE__)
  cb(2) = 300 + rank
  call locals(2, rank)
  call check(modvar == 400 + rank, __LINE__)
  call check(counter == 600 + rank, __LINE__)
  call check(shared_cell%get() == 700 + rank, __LINE__)
  allocate(poly)
  poly%value = rank
  call check(poly%get() == rank, __LINE__)
  call check(all(mainvar == 500 + rank), __LINE__)
  call check(lx == 77, __LINE__)          ! shared: rank 0 wrote it
  call check(starts == 1, __LINE__)
  call check(runs == size, __LINE__)
  call check(ptab(3) == 30, __LINE__)
  call locals(3, rank)
  call shim_distinct(int(loc(modvar), c_intptr_t))
  call shim_distinct(int(loc(mainvar), c_intptr_t))
  call shim_distinct(int(loc(starts), c_intptr_t))
  call shim_distinct(int(loc(counter), c_intptr_t))
  call shim_distinct(int(loc(shared_cell), c_intptr_t))
  call shim_same(int(loc(lx), c_intptr_t))
  ! A per-rank allocatable lives in the rank thread's copy, which goes when the rank ends: left
  ! allocated, LeakSanitizer would see it lost, where a process keeps it reachable to exit.
  deallocate(poly)
  call shim_barrier()
  if (rank == 0) print '(a,i0,a)', 'fortran: ', size, ' ranks each read their own values'
  call shim_finalize()
end program fprog
