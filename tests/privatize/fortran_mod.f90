! tests/privatize/fortran_mod.f90 — the second unit of the Fortran privatization test: a module
! used by fortran.F90 (a variable, an object of a type with a type-bound procedure, whose type
! descriptor every unit that uses it declares) and a subroutine that writes the COMMON block
! /blk/ the other unit also declares. Each is per rank, one for both units.
module fmod2
  implicit none
  integer :: counter = 4
  type :: cell
    integer :: value = 1
  contains
    procedure :: get
  end type
  type(cell) :: shared_cell
contains
  integer function get(self)
    class(cell), intent(in) :: self
    get = self%value
  end function
end module fmod2

subroutine set_blk(v)
  implicit none
  integer, intent(in) :: v
  integer :: cb(4)
  common /blk/ cb
  cb(2) = v
end subroutine
