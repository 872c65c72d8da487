/* dt/predefined.c — the predefined datatype objects of mpi.h (MPI_INT, MPI_DOUBLE_INT, ...).
 *
 * They are static objects inside libloom, so their handles are link-time constants. Basic
 * types are one run of sizeof(C type) bytes. The pair types of MINLOC/MAXLOC have the layout
 * of the C struct the standard names (struct { float; int; } ...): size is the sum of the
 * members, extent the sizeof of the struct, and they are not contiguous when padded. Their
 * layout lists both members so that MPI_Get_elements counts two basic elements each.
 * Predefined types are never counted nor freed; their names are "MPI_INT" etc. The Fortran
 * types are gfortran's layouts (mpi.h LOOM_FOREACH_FORTRAN_TYPE, docs/datatypes.md). */
#include <stddef.h>
#include <wchar.h>
#include "dt/dt.h"

/* clang-format off */
#define WORD(sym, label, ctype, wordkind)                                                      \
    struct loom_datatype sym = {                                                               \
        .obj = {LOOM_MAGIC_DATATYPE}, .refs = 1, .size = sizeof(ctype), .lb = 0,               \
        .extent = sizeof(ctype), .true_lb = 0, .true_extent = sizeof(ctype), .committed = 1,   \
        .predefined = 1, .contig = 1, .dense = 1, .combiner = MPI_COMBINER_NAMED,              \
        .align = _Alignof(ctype), .basic = &sym, .nbasic = 1, .kind = LOOM_DT_BASIC,           \
        .word = wordkind, .name = label};
#define BASIC(sym, label, ctype) WORD(sym, label, ctype, LOOM_DT_WORD_NONE)
/* The word of a 4- or 8-byte C integer type (dt.h enum loom_dt_word). */
#define INT_SIGNED(ctype) _Generic((ctype)0, int: 1, long: 1, long long: 1, default: 0)
#define INT_WORD(ctype)                                                                        \
    (sizeof(ctype) == 8 ? (INT_SIGNED(ctype) ? LOOM_DT_WORD_I64 : LOOM_DT_WORD_U64)            \
                        : (INT_SIGNED(ctype) ? LOOM_DT_WORD_I32 : LOOM_DT_WORD_U32))
#define INT(sym, label, ctype) WORD(sym, label, ctype, INT_WORD(ctype))
#define DOUBLE(sym, label) WORD(sym, label, double, LOOM_DT_WORD_F64)

BASIC(loom_mpi_char, "MPI_CHAR", char)
BASIC(loom_mpi_signed_char, "MPI_SIGNED_CHAR", signed char)
BASIC(loom_mpi_unsigned_char, "MPI_UNSIGNED_CHAR", unsigned char)
BASIC(loom_mpi_wchar, "MPI_WCHAR", wchar_t)
BASIC(loom_mpi_short, "MPI_SHORT", short)
BASIC(loom_mpi_unsigned_short, "MPI_UNSIGNED_SHORT", unsigned short)
INT(loom_mpi_int, "MPI_INT", int)
INT(loom_mpi_unsigned, "MPI_UNSIGNED", unsigned)
INT(loom_mpi_long, "MPI_LONG", long)
INT(loom_mpi_unsigned_long, "MPI_UNSIGNED_LONG", unsigned long)
INT(loom_mpi_long_long_int, "MPI_LONG_LONG_INT", long long)
INT(loom_mpi_unsigned_long_long, "MPI_UNSIGNED_LONG_LONG", unsigned long long)
BASIC(loom_mpi_float, "MPI_FLOAT", float)
DOUBLE(loom_mpi_double, "MPI_DOUBLE")
BASIC(loom_mpi_long_double, "MPI_LONG_DOUBLE", long double)
BASIC(loom_mpi_c_bool, "MPI_C_BOOL", _Bool)
BASIC(loom_mpi_int8_t, "MPI_INT8_T", int8_t)
BASIC(loom_mpi_int16_t, "MPI_INT16_T", int16_t)
INT(loom_mpi_int32_t, "MPI_INT32_T", int32_t)
INT(loom_mpi_int64_t, "MPI_INT64_T", int64_t)
BASIC(loom_mpi_uint8_t, "MPI_UINT8_T", uint8_t)
BASIC(loom_mpi_uint16_t, "MPI_UINT16_T", uint16_t)
INT(loom_mpi_uint32_t, "MPI_UINT32_T", uint32_t)
INT(loom_mpi_uint64_t, "MPI_UINT64_T", uint64_t)
INT(loom_mpi_aint, "MPI_AINT", MPI_Aint)
INT(loom_mpi_count, "MPI_COUNT", MPI_Count)
INT(loom_mpi_offset, "MPI_OFFSET", MPI_Offset)
BASIC(loom_mpi_c_float_complex, "MPI_C_FLOAT_COMPLEX", float _Complex)
BASIC(loom_mpi_c_double_complex, "MPI_C_DOUBLE_COMPLEX", double _Complex)
BASIC(loom_mpi_c_long_double_complex, "MPI_C_LONG_DOUBLE_COMPLEX", long double _Complex)
BASIC(loom_mpi_byte, "MPI_BYTE", unsigned char)
BASIC(loom_mpi_packed, "MPI_PACKED", unsigned char)

/* The Fortran types, as gfortran lays them out (mpi.h LOOM_FOREACH_FORTRAN_TYPE). */
INT(loom_mpi_integer, "MPI_INTEGER", MPI_Fint)
BASIC(loom_mpi_real, "MPI_REAL", float)
DOUBLE(loom_mpi_double_precision, "MPI_DOUBLE_PRECISION")
BASIC(loom_mpi_complex, "MPI_COMPLEX", float _Complex)
BASIC(loom_mpi_double_complex, "MPI_DOUBLE_COMPLEX", double _Complex)
BASIC(loom_mpi_logical, "MPI_LOGICAL", MPI_Fint)
BASIC(loom_mpi_character, "MPI_CHARACTER", char)
BASIC(loom_mpi_integer1, "MPI_INTEGER1", int8_t)
BASIC(loom_mpi_integer2, "MPI_INTEGER2", int16_t)
INT(loom_mpi_integer4, "MPI_INTEGER4", int32_t)
INT(loom_mpi_integer8, "MPI_INTEGER8", int64_t)
BASIC(loom_mpi_integer16, "MPI_INTEGER16", loom_int128)
BASIC(loom_mpi_real4, "MPI_REAL4", float)
DOUBLE(loom_mpi_real8, "MPI_REAL8")
BASIC(loom_mpi_real16, "MPI_REAL16", loom_real16)
BASIC(loom_mpi_complex8, "MPI_COMPLEX8", float _Complex)
BASIC(loom_mpi_complex16, "MPI_COMPLEX16", double _Complex)
BASIC(loom_mpi_complex32, "MPI_COMPLEX32", loom_complex32)

/* A pair type: struct tag { atype a; int b; }, members `first` (of type atype) and MPI_INT.
 * It is dense when b follows a with no gap, contiguous when the struct has no tail padding
 * either. */
#define PAIR(sym, label, tag, atype, first)                                                    \
    struct tag { atype a; int b; };                                                            \
    static const size_t sym##_blens[2] = {1, 1};                                               \
    static const ptrdiff_t sym##_disps[2] = {0, offsetof(struct tag, b)};                      \
    static const size_t sym##_prefix[3] = {0, sizeof(atype), sizeof(atype) + sizeof(int)};     \
    static struct loom_datatype *const sym##_children[2] = {&first, &loom_mpi_int};            \
    struct loom_datatype sym = {                                                               \
        .obj = {LOOM_MAGIC_DATATYPE}, .refs = 1, .size = sizeof(atype) + sizeof(int),          \
        .lb = 0, .extent = sizeof(struct tag), .true_lb = 0,                                   \
        .true_extent = offsetof(struct tag, b) + sizeof(int), .committed = 1,                  \
        .predefined = 1,                                                                       \
        .contig = offsetof(struct tag, b) == sizeof(atype) &&                                  \
                  sizeof(struct tag) == sizeof(atype) + sizeof(int),                           \
        .dense = offsetof(struct tag, b) == sizeof(atype),                                     \
        .combiner = MPI_COMBINER_NAMED, .align = _Alignof(struct tag), .basic = NULL,          \
        .nbasic = 2, .depth = offsetof(struct tag, b) == sizeof(atype) ? 0 : 1,                \
        .kind = LOOM_DT_BLOCKS, .nblocks = 2, .blens = sym##_blens, .disps = sym##_disps,      \
        .prefix = sym##_prefix, .children = sym##_children, .name = label};

PAIR(loom_mpi_float_int, "MPI_FLOAT_INT", pair_float_int, float, loom_mpi_float)
PAIR(loom_mpi_double_int, "MPI_DOUBLE_INT", pair_double_int, double, loom_mpi_double)
PAIR(loom_mpi_long_int, "MPI_LONG_INT", pair_long_int, long, loom_mpi_long)
PAIR(loom_mpi_short_int, "MPI_SHORT_INT", pair_short_int, short, loom_mpi_short)
PAIR(loom_mpi_long_double_int, "MPI_LONG_DOUBLE_INT", pair_long_double_int, long double,
     loom_mpi_long_double)

/* MPI_2INT: struct { int; int; }, two ints, made of MPI_INT alone. */
struct loom_datatype loom_mpi_2int = {
    .obj = {LOOM_MAGIC_DATATYPE}, .refs = 1, .size = 2 * sizeof(int), .lb = 0,
    .extent = 2 * sizeof(int), .true_lb = 0, .true_extent = 2 * sizeof(int), .committed = 1,
    .predefined = 1, .contig = 1, .dense = 1, .combiner = MPI_COMBINER_NAMED,
    .align = _Alignof(int), .basic = &loom_mpi_int, .nbasic = 2, .kind = LOOM_DT_VECTOR,
    .nblocks = 1, .blen = 2, .disp0 = 0, .stride = 0, .child = &loom_mpi_int,
    .name = "MPI_2INT"};

/* The Fortran pairs of MINLOC/MAXLOC: two values of one type, the index stored in the
 * second as a value of that type (MPI 4.1 section 6.9.4), laid out like MPI_2INT. */
#define TWO(sym, label, elem, ctype)                                                           \
    struct loom_datatype sym = {                                                               \
        .obj = {LOOM_MAGIC_DATATYPE}, .refs = 1, .size = 2 * sizeof(ctype), .lb = 0,           \
        .extent = 2 * sizeof(ctype), .true_lb = 0, .true_extent = 2 * sizeof(ctype),           \
        .committed = 1, .predefined = 1, .contig = 1, .dense = 1,                              \
        .combiner = MPI_COMBINER_NAMED, .align = _Alignof(ctype), .basic = &elem, .nbasic = 2, \
        .kind = LOOM_DT_VECTOR, .nblocks = 1, .blen = 2, .disp0 = 0, .stride = 0,              \
        .child = &elem, .name = label};

TWO(loom_mpi_2real, "MPI_2REAL", loom_mpi_real, float)
TWO(loom_mpi_2double_precision, "MPI_2DOUBLE_PRECISION", loom_mpi_double_precision, double)
TWO(loom_mpi_2integer, "MPI_2INTEGER", loom_mpi_integer, MPI_Fint)
/* clang-format on */
