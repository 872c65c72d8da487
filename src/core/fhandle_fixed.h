/* core/fhandle_fixed.h — the Fortran handle (MPI_Fint) of every predefined MPI object.
 *
 * Fortran names predefined handles as compile-time constants (PARAMETERs in mpif.h and the
 * modules), so loom gives each predefined non-null handle a fixed index into the table of
 * Fortran handles (core/fhandle.c) instead of one given at first conversion. This list is the
 * one place that fixes them: X(C handle expression of mpi.h, index). libloom's table holds
 * these entries from load, so MPI_Xxx_c2f and MPI_Xxx_f2c agree with the list in any program,
 * before MPI_Init too; handles made at run time get indices above LOOM_FHANDLE_FIXED_LAST.
 *
 * Ranges, so that a handle added later keeps every other index: communicators, groups, error
 * handlers, info, messages 1..15; operations 16..31; C datatypes 32..79 (mpi.h
 * LOOM_FOREACH_PREDEFINED_TYPE's order); Fortran datatypes 80..127
 * (LOOM_FOREACH_FORTRAN_TYPE's order). Null handles are 0 and are not listed; so are the
 * Fortran types gfortran lacks (MPI_REAL2, MPI_COMPLEX4: MPI_DATATYPE_NULL, Fortran 0).
 * Aliases (two names for one object) are in LOOM_FOREACH_FIXED_FHANDLE_ALIAS with the index
 * of their object.
 *
 * Only macros: a program that includes <mpi.h> and this header may print the indices (the
 * Fortran bindings do, at build time) without linking libloom, as long as it does not use
 * the first argument but as a string (#handle). */
#ifndef LOOM_CORE_FHANDLE_FIXED_H
#define LOOM_CORE_FHANDLE_FIXED_H
#include "mpi.h"

#define LOOM_FOREACH_FIXED_FHANDLE(X)                                                              \
    X(MPI_COMM_WORLD, 1)                                                                           \
    X(MPI_COMM_SELF, 2)                                                                            \
    X(MPI_GROUP_EMPTY, 3)                                                                          \
    X(MPI_ERRORS_ARE_FATAL, 4)                                                                     \
    X(MPI_ERRORS_RETURN, 5)                                                                        \
    X(MPI_ERRORS_ABORT, 6)                                                                         \
    X(MPI_INFO_ENV, 7)                                                                             \
    X(MPI_MESSAGE_NO_PROC, 8)                                                                      \
    X(MPI_MAX, 16)                                                                                 \
    X(MPI_MIN, 17)                                                                                 \
    X(MPI_SUM, 18)                                                                                 \
    X(MPI_PROD, 19)                                                                                \
    X(MPI_LAND, 20)                                                                                \
    X(MPI_BAND, 21)                                                                                \
    X(MPI_LOR, 22)                                                                                 \
    X(MPI_BOR, 23)                                                                                 \
    X(MPI_LXOR, 24)                                                                                \
    X(MPI_BXOR, 25)                                                                                \
    X(MPI_MINLOC, 26)                                                                              \
    X(MPI_MAXLOC, 27)                                                                              \
    X(MPI_REPLACE, 28)                                                                             \
    X(MPI_NO_OP, 29)                                                                               \
    X(MPI_CHAR, 32)                                                                                \
    X(MPI_SIGNED_CHAR, 33)                                                                         \
    X(MPI_UNSIGNED_CHAR, 34)                                                                       \
    X(MPI_WCHAR, 35)                                                                               \
    X(MPI_SHORT, 36)                                                                               \
    X(MPI_UNSIGNED_SHORT, 37)                                                                      \
    X(MPI_INT, 38)                                                                                 \
    X(MPI_UNSIGNED, 39)                                                                            \
    X(MPI_LONG, 40)                                                                                \
    X(MPI_UNSIGNED_LONG, 41)                                                                       \
    X(MPI_LONG_LONG_INT, 42)                                                                       \
    X(MPI_UNSIGNED_LONG_LONG, 43)                                                                  \
    X(MPI_FLOAT, 44)                                                                               \
    X(MPI_DOUBLE, 45)                                                                              \
    X(MPI_LONG_DOUBLE, 46)                                                                         \
    X(MPI_C_BOOL, 47)                                                                              \
    X(MPI_INT8_T, 48)                                                                              \
    X(MPI_INT16_T, 49)                                                                             \
    X(MPI_INT32_T, 50)                                                                             \
    X(MPI_INT64_T, 51)                                                                             \
    X(MPI_UINT8_T, 52)                                                                             \
    X(MPI_UINT16_T, 53)                                                                            \
    X(MPI_UINT32_T, 54)                                                                            \
    X(MPI_UINT64_T, 55)                                                                            \
    X(MPI_AINT, 56)                                                                                \
    X(MPI_COUNT, 57)                                                                               \
    X(MPI_OFFSET, 58)                                                                              \
    X(MPI_C_FLOAT_COMPLEX, 59)                                                                     \
    X(MPI_C_DOUBLE_COMPLEX, 60)                                                                    \
    X(MPI_C_LONG_DOUBLE_COMPLEX, 61)                                                               \
    X(MPI_BYTE, 62)                                                                                \
    X(MPI_PACKED, 63)                                                                              \
    X(MPI_FLOAT_INT, 64)                                                                           \
    X(MPI_DOUBLE_INT, 65)                                                                          \
    X(MPI_LONG_INT, 66)                                                                            \
    X(MPI_2INT, 67)                                                                                \
    X(MPI_SHORT_INT, 68)                                                                           \
    X(MPI_LONG_DOUBLE_INT, 69)                                                                     \
    X(MPI_INTEGER, 80)                                                                             \
    X(MPI_REAL, 81)                                                                                \
    X(MPI_DOUBLE_PRECISION, 82)                                                                    \
    X(MPI_COMPLEX, 83)                                                                             \
    X(MPI_DOUBLE_COMPLEX, 84)                                                                      \
    X(MPI_LOGICAL, 85)                                                                             \
    X(MPI_CHARACTER, 86)                                                                           \
    X(MPI_2REAL, 87)                                                                               \
    X(MPI_2DOUBLE_PRECISION, 88)                                                                   \
    X(MPI_2INTEGER, 89)                                                                            \
    X(MPI_INTEGER1, 90)                                                                            \
    X(MPI_INTEGER2, 91)                                                                            \
    X(MPI_INTEGER4, 92)                                                                            \
    X(MPI_INTEGER8, 93)                                                                            \
    X(MPI_INTEGER16, 94)                                                                           \
    X(MPI_REAL4, 95)                                                                               \
    X(MPI_REAL8, 96)                                                                               \
    X(MPI_REAL16, 97)                                                                              \
    X(MPI_COMPLEX8, 98)                                                                            \
    X(MPI_COMPLEX16, 99)                                                                           \
    X(MPI_COMPLEX32, 100)

/* Other names of listed objects: X(alias, the index of its object). */
#define LOOM_FOREACH_FIXED_FHANDLE_ALIAS(X)                                                        \
    X(MPI_LONG_LONG, 42)                                                                           \
    X(MPI_C_COMPLEX, 59)

/* The last index reserved for predefined handles: dynamic ones are above it. */
#define LOOM_FHANDLE_FIXED_LAST 127
#endif
