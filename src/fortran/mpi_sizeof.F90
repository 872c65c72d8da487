! mpi_sizeof.F90 — module loom_mpi_sizeof: MPI_SIZEOF (MPI 4.1 section 19.1.9), a Fortran
! procedure with nothing to call in C, and the interface of MPI_F_SYNC_REG (19.1.17), written
! here once and re-exported by modules mpi and mpi_f08 (their generated sources USE this
! module). Installed beside them: a program's compiler reads loom_mpi_sizeof.mod when it
! reads mpi.mod or mpi_f08.mod.
!
! MPI_SIZEOF(x, size, ierror) gives the size in bytes of one element of x, a scalar or an
! array of any rank of an intrinsic numeric or LOGICAL type (assumed rank: one procedure per
! type and kind). ierror is optional, as mpi_f08 declares it; module mpi's callers pass it.
MODULE loom_mpi_sizeof
  IMPLICIT NONE
  PRIVATE
  PUBLIC :: MPI_SIZEOF, MPI_F_SYNC_REG
  INTERFACE MPI_SIZEOF
    MODULE PROCEDURE sizeof_i1, sizeof_i2, sizeof_i4, sizeof_i8, sizeof_i16
    MODULE PROCEDURE sizeof_r4, sizeof_r8, sizeof_r10, sizeof_r16
    MODULE PROCEDURE sizeof_c4, sizeof_c8, sizeof_c10, sizeof_c16
    MODULE PROCEDURE sizeof_l1, sizeof_l2, sizeof_l4, sizeof_l8
  END INTERFACE
  ! MPI_F_SYNC_REG(buf): libloom's mpi_f_sync_reg_ (fortran/sync_reg.c), an external call the
  ! compiler cannot see into, with buf's address: what it held of buf in registers is stored
  ! before and loaded again after, which is the call's whole point.
  INTERFACE
    SUBROUTINE MPI_F_SYNC_REG(buf)
      !GCC$ ATTRIBUTES NO_ARG_CHECK :: buf
      TYPE(*), DIMENSION(*) :: buf
    END SUBROUTINE
  END INTERFACE
CONTAINS
  ! the bytes of one element, and ierror = 0 (MPI_SUCCESS) when given
  SUBROUTINE answer(bits, size, ierror)
    INTEGER, INTENT(IN) :: bits
    INTEGER, INTENT(OUT) :: size
    INTEGER, OPTIONAL, INTENT(OUT) :: ierror
    size = bits / 8
    IF (PRESENT(ierror)) ierror = 0
  END SUBROUTINE

#define LOOM_SIZEOF(NAME, TYPE) \
  SUBROUTINE NAME(x, size, ierror); \
    TYPE, INTENT(IN) :: x(..); \
    INTEGER, INTENT(OUT) :: size; \
    INTEGER, OPTIONAL, INTENT(OUT) :: ierror; \
    CALL answer(STORAGE_SIZE(x), size, ierror); \
  END SUBROUTINE

  LOOM_SIZEOF(sizeof_i1, INTEGER(KIND=1))
  LOOM_SIZEOF(sizeof_i2, INTEGER(KIND=2))
  LOOM_SIZEOF(sizeof_i4, INTEGER(KIND=4))
  LOOM_SIZEOF(sizeof_i8, INTEGER(KIND=8))
  LOOM_SIZEOF(sizeof_i16, INTEGER(KIND=16))
  LOOM_SIZEOF(sizeof_r4, REAL(KIND=4))
  LOOM_SIZEOF(sizeof_r8, REAL(KIND=8))
  LOOM_SIZEOF(sizeof_r10, REAL(KIND=10))
  LOOM_SIZEOF(sizeof_r16, REAL(KIND=16))
  LOOM_SIZEOF(sizeof_c4, COMPLEX(KIND=4))
  LOOM_SIZEOF(sizeof_c8, COMPLEX(KIND=8))
  LOOM_SIZEOF(sizeof_c10, COMPLEX(KIND=10))
  LOOM_SIZEOF(sizeof_c16, COMPLEX(KIND=16))
  LOOM_SIZEOF(sizeof_l1, LOGICAL(KIND=1))
  LOOM_SIZEOF(sizeof_l2, LOGICAL(KIND=2))
  LOOM_SIZEOF(sizeof_l4, LOGICAL(KIND=4))
  LOOM_SIZEOF(sizeof_l8, LOGICAL(KIND=8))

END MODULE loom_mpi_sizeof
