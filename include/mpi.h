/* mpi.h — loom's MPI interface: the standard names of MPI 4.1 that loom implements, and
 * loom's own extensions (MPIX_*, loom_*).
 *
 * Handles are pointers to loom objects. Predefined handles are addresses of objects inside
 * libloom, so they are link-time constants (usable in static initializers, not in `case`).
 * Every call may be made from any rank thread; under MPI_THREAD_MULTIPLE (always provided)
 * several threads of one rank may call at once.
 *
 * The program's main: unless LOOM_NO_MAIN_RENAME is defined before this header is included,
 * `main` is renamed `loom_user_main`, and loom's own main (libloom-main, linked by loomcc)
 * starts the ranks and runs it once per rank. See loom_run() for the opt-out. */
#ifndef LOOM_MPI_H
#define LOOM_MPI_H

#include <stddef.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

#define LOOM_API __attribute__((visibility("default")))

/* LOOM_SHARED keeps one global or static variable shared by all ranks when loomcc privatizes
 * the program's globals (the default; docs/privatize.md): `LOOM_SHARED int hits;`. Put it on
 * every declaration of the variable. Without loomcc's plugin it means nothing. */
#if defined(__has_attribute)
#if __has_attribute(loom_shared)
#define LOOM_SHARED __attribute__((loom_shared))
#endif
#endif
#ifndef LOOM_SHARED
#define LOOM_SHARED
#endif

/* The standard whose C interface loom implements: MPI 4.1, except MPI-IO and dynamic
 * processes (README.md, "What of MPI loom has"). */
#define MPI_VERSION 4
#define MPI_SUBVERSION 1
#define LOOM_VERSION_MAJOR 0
#define LOOM_VERSION_MINOR 1

/* ---- basic types ------------------------------------------------------------------- */
typedef intptr_t MPI_Aint;
typedef long long MPI_Offset;
typedef long long MPI_Count;
typedef int MPI_Fint;

typedef struct loom_comm *MPI_Comm;
typedef struct loom_group *MPI_Group;
typedef struct loom_datatype *MPI_Datatype;
typedef struct loom_request *MPI_Request;
typedef struct loom_op *MPI_Op;
typedef struct loom_info *MPI_Info;
typedef struct loom_errhandler *MPI_Errhandler;
typedef struct loom_message *MPI_Message;
typedef struct loom_session *MPI_Session; /* MPI 4 sessions (docs/sessions.md) */
typedef struct loom_win *MPI_Win;         /* one-sided windows (docs/rma.md) */

/* MPI_SOURCE, MPI_TAG and MPI_ERROR are public; the rest is loom's. */
typedef struct MPI_Status {
    int MPI_SOURCE;
    int MPI_TAG;
    int MPI_ERROR;
    int loom_cancelled;   /* 1 if the request was cancelled */
    MPI_Count loom_bytes; /* bytes received (or sent) */
} MPI_Status;

/* ---- constants ------------------------------------------------------------------- */
#define MPI_ANY_SOURCE (-2)
#define MPI_PROC_NULL (-1)
#define MPI_ROOT (-3)
#define MPI_ANY_TAG (-1)
#define MPI_UNDEFINED (-32766)
#define MPI_KEYVAL_INVALID (-1)
#define MPI_BSEND_OVERHEAD 96
#define MPI_MAX_PROCESSOR_NAME 256
#define MPI_MAX_ERROR_STRING 512
#define MPI_MAX_OBJECT_NAME 128
#define MPI_MAX_INFO_KEY 255
#define MPI_MAX_INFO_VAL 1024
#define MPI_MAX_LIBRARY_VERSION_STRING 8192

#define MPI_STATUS_IGNORE ((MPI_Status *)1)
#define MPI_STATUSES_IGNORE ((MPI_Status *)1)
#define MPI_IN_PLACE ((void *)-1)
#define MPI_BOTTOM ((void *)0)
/* MPI 4.1: attached in place of a buffer, buffered sends get room allocated as they need it */
#define MPI_BUFFER_AUTOMATIC ((void *)-2)

/* results of MPI_Comm_compare / MPI_Group_compare */
#define MPI_IDENT 0
#define MPI_CONGRUENT 1
#define MPI_SIMILAR 2
#define MPI_UNEQUAL 3

/* thread levels */
#define MPI_THREAD_SINGLE 0
#define MPI_THREAD_FUNNELED 1
#define MPI_THREAD_SERIALIZED 2
#define MPI_THREAD_MULTIPLE 3

/* split types (MPI_Comm_split_type) */
#define MPI_COMM_TYPE_SHARED 1
#define MPI_COMM_TYPE_HW_UNGUIDED 2
#define MPI_COMM_TYPE_HW_GUIDED 3
#define MPIX_COMM_TYPE_PHYSICAL_TOPOLOGY MPI_COMM_TYPE_HW_UNGUIDED

/* predefined attribute keys of communicators */
#define MPI_TAG_UB 1
#define MPI_HOST 2
#define MPI_IO 3
#define MPI_WTIME_IS_GLOBAL 4
#define MPI_UNIVERSE_SIZE 5
#define MPI_APPNUM 6
#define MPI_LASTUSEDCODE 7

/* ---- error classes --------------------------------------------------------------- */
#define MPI_SUCCESS 0
#define MPI_ERR_BUFFER 1
#define MPI_ERR_COUNT 2
#define MPI_ERR_TYPE 3
#define MPI_ERR_TAG 4
#define MPI_ERR_COMM 5
#define MPI_ERR_RANK 6
#define MPI_ERR_REQUEST 7
#define MPI_ERR_ROOT 8
#define MPI_ERR_GROUP 9
#define MPI_ERR_OP 10
#define MPI_ERR_TOPOLOGY 11
#define MPI_ERR_DIMS 12
#define MPI_ERR_ARG 13
#define MPI_ERR_UNKNOWN 14
#define MPI_ERR_TRUNCATE 15
#define MPI_ERR_OTHER 16
#define MPI_ERR_INTERN 17
#define MPI_ERR_IN_STATUS 18
#define MPI_ERR_PENDING 19
#define MPI_ERR_KEYVAL 20
#define MPI_ERR_NO_MEM 21
#define MPI_ERR_BASE 22
#define MPI_ERR_INFO_KEY 23
#define MPI_ERR_INFO_VALUE 24
#define MPI_ERR_INFO_NOKEY 25
#define MPI_ERR_SPAWN 26
#define MPI_ERR_PORT 27
#define MPI_ERR_SERVICE 28
#define MPI_ERR_NAME 29
#define MPI_ERR_WIN 30
#define MPI_ERR_SIZE 31
#define MPI_ERR_DISP 32
#define MPI_ERR_INFO 33
#define MPI_ERR_LOCKTYPE 34
#define MPI_ERR_ASSERT 35
#define MPI_ERR_RMA_CONFLICT 36
#define MPI_ERR_RMA_SYNC 37
#define MPI_ERR_FILE 38
#define MPI_ERR_NOT_SAME 39
#define MPI_ERR_AMODE 40
#define MPI_ERR_UNSUPPORTED_DATAREP 41
#define MPI_ERR_UNSUPPORTED_OPERATION 42
#define MPI_ERR_NO_SUCH_FILE 43
#define MPI_ERR_FILE_EXISTS 44
#define MPI_ERR_BAD_FILE 45
#define MPI_ERR_ACCESS 46
#define MPI_ERR_NO_SPACE 47
#define MPI_ERR_QUOTA 48
#define MPI_ERR_READ_ONLY 49
#define MPI_ERR_FILE_IN_USE 50
#define MPI_ERR_DUP_DATAREP 51
#define MPI_ERR_CONVERSION 52
#define MPI_ERR_IO 53
#define MPI_ERR_RMA_RANGE 55  /* MPI 3: a target range outside the window (MPICH's values) */
#define MPI_ERR_RMA_ATTACH 56 /* MPI 3: memory cannot be attached to a dynamic window */
#define MPI_ERR_RMA_SHARED 57 /* MPI 3: memory cannot be shared */
#define MPI_ERR_RMA_FLAVOR 58 /* MPI 3: the window is of the wrong flavor for the call */
#define MPI_ERR_SESSION 75 /* MPI 4: an invalid session handle (MPICH's value) */
#define MPI_ERR_VALUE_TOO_LARGE 77 /* MPI 4: a value does not fit the int result (MPICH's value) */
#define MPI_ERR_LASTCODE 78 /* MPI_T_ERR_NOT_SUPPORTED, the last class (MPICH's values) */

/* ---- predefined objects ---------------------------------------------------------- */
/* X(standard name, loom object symbol): every predefined datatype handle. Aliases that the
 * standard defines as synonyms point at the same object (see below). */
#define LOOM_FOREACH_PREDEFINED_TYPE(X)                                                        \
    X(MPI_CHAR, loom_mpi_char)                                                                 \
    X(MPI_SIGNED_CHAR, loom_mpi_signed_char)                                                   \
    X(MPI_UNSIGNED_CHAR, loom_mpi_unsigned_char)                                               \
    X(MPI_WCHAR, loom_mpi_wchar)                                                               \
    X(MPI_SHORT, loom_mpi_short)                                                               \
    X(MPI_UNSIGNED_SHORT, loom_mpi_unsigned_short)                                             \
    X(MPI_INT, loom_mpi_int)                                                                   \
    X(MPI_UNSIGNED, loom_mpi_unsigned)                                                         \
    X(MPI_LONG, loom_mpi_long)                                                                 \
    X(MPI_UNSIGNED_LONG, loom_mpi_unsigned_long)                                               \
    X(MPI_LONG_LONG_INT, loom_mpi_long_long_int)                                               \
    X(MPI_UNSIGNED_LONG_LONG, loom_mpi_unsigned_long_long)                                     \
    X(MPI_FLOAT, loom_mpi_float)                                                               \
    X(MPI_DOUBLE, loom_mpi_double)                                                             \
    X(MPI_LONG_DOUBLE, loom_mpi_long_double)                                                   \
    X(MPI_C_BOOL, loom_mpi_c_bool)                                                             \
    X(MPI_INT8_T, loom_mpi_int8_t)                                                             \
    X(MPI_INT16_T, loom_mpi_int16_t)                                                           \
    X(MPI_INT32_T, loom_mpi_int32_t)                                                           \
    X(MPI_INT64_T, loom_mpi_int64_t)                                                           \
    X(MPI_UINT8_T, loom_mpi_uint8_t)                                                           \
    X(MPI_UINT16_T, loom_mpi_uint16_t)                                                         \
    X(MPI_UINT32_T, loom_mpi_uint32_t)                                                         \
    X(MPI_UINT64_T, loom_mpi_uint64_t)                                                         \
    X(MPI_AINT, loom_mpi_aint)                                                                 \
    X(MPI_COUNT, loom_mpi_count)                                                               \
    X(MPI_OFFSET, loom_mpi_offset)                                                             \
    X(MPI_C_FLOAT_COMPLEX, loom_mpi_c_float_complex)                                           \
    X(MPI_C_DOUBLE_COMPLEX, loom_mpi_c_double_complex)                                         \
    X(MPI_C_LONG_DOUBLE_COMPLEX, loom_mpi_c_long_double_complex)                               \
    X(MPI_BYTE, loom_mpi_byte)                                                                 \
    X(MPI_PACKED, loom_mpi_packed)                                                             \
    X(MPI_FLOAT_INT, loom_mpi_float_int)                                                       \
    X(MPI_DOUBLE_INT, loom_mpi_double_int)                                                     \
    X(MPI_LONG_INT, loom_mpi_long_int)                                                         \
    X(MPI_2INT, loom_mpi_2int)                                                                 \
    X(MPI_SHORT_INT, loom_mpi_short_int)                                                       \
    X(MPI_LONG_DOUBLE_INT, loom_mpi_long_double_int)                                         \
    LOOM_FOREACH_FORTRAN_TYPE(X)

/* X(standard name, loom object symbol): the Fortran named types, usable from C (MPI 4.1
 * section 19.3.6) as gfortran lays them out on the machine: INTEGER, REAL and LOGICAL of 4
 * bytes (MPI_Fint), DOUBLE PRECISION 8, CHARACTER 1, COMPLEX two REALs, DOUBLE COMPLEX two
 * DOUBLE PRECISIONs; a LOGICAL is 1 for .TRUE. and 0 for .FALSE. The sized ones are the
 * kinds gfortran has: INTEGER(16) is a 128-bit integer, REAL(16) IEEE quad precision (not
 * the x87 long double, which is REAL(10)); gfortran has no REAL(2), so MPI_REAL2 and
 * MPI_COMPLEX4 are MPI_DATATYPE_NULL, as the standard allows (docs/datatypes.md). */
#define LOOM_FOREACH_FORTRAN_TYPE(X)                                                           \
    X(MPI_INTEGER, loom_mpi_integer)                                                           \
    X(MPI_REAL, loom_mpi_real)                                                                 \
    X(MPI_DOUBLE_PRECISION, loom_mpi_double_precision)                                         \
    X(MPI_COMPLEX, loom_mpi_complex)                                                           \
    X(MPI_DOUBLE_COMPLEX, loom_mpi_double_complex)                                             \
    X(MPI_LOGICAL, loom_mpi_logical)                                                           \
    X(MPI_CHARACTER, loom_mpi_character)                                                       \
    X(MPI_2REAL, loom_mpi_2real)                                                               \
    X(MPI_2DOUBLE_PRECISION, loom_mpi_2double_precision)                                       \
    X(MPI_2INTEGER, loom_mpi_2integer)                                                         \
    X(MPI_INTEGER1, loom_mpi_integer1)                                                         \
    X(MPI_INTEGER2, loom_mpi_integer2)                                                         \
    X(MPI_INTEGER4, loom_mpi_integer4)                                                         \
    X(MPI_INTEGER8, loom_mpi_integer8)                                                         \
    X(MPI_INTEGER16, loom_mpi_integer16)                                                       \
    X(MPI_REAL4, loom_mpi_real4)                                                               \
    X(MPI_REAL8, loom_mpi_real8)                                                               \
    X(MPI_REAL16, loom_mpi_real16)                                                             \
    X(MPI_COMPLEX8, loom_mpi_complex8)                                                         \
    X(MPI_COMPLEX16, loom_mpi_complex16)                                                       \
    X(MPI_COMPLEX32, loom_mpi_complex32)

#define LOOM_DECLARE_TYPE(name, sym) extern LOOM_API struct loom_datatype sym;
LOOM_FOREACH_PREDEFINED_TYPE(LOOM_DECLARE_TYPE)
#undef LOOM_DECLARE_TYPE

#define MPI_DATATYPE_NULL ((MPI_Datatype)0)
#define MPI_CHAR ((MPI_Datatype)&loom_mpi_char)
#define MPI_SIGNED_CHAR ((MPI_Datatype)&loom_mpi_signed_char)
#define MPI_UNSIGNED_CHAR ((MPI_Datatype)&loom_mpi_unsigned_char)
#define MPI_WCHAR ((MPI_Datatype)&loom_mpi_wchar)
#define MPI_SHORT ((MPI_Datatype)&loom_mpi_short)
#define MPI_UNSIGNED_SHORT ((MPI_Datatype)&loom_mpi_unsigned_short)
#define MPI_INT ((MPI_Datatype)&loom_mpi_int)
#define MPI_UNSIGNED ((MPI_Datatype)&loom_mpi_unsigned)
#define MPI_LONG ((MPI_Datatype)&loom_mpi_long)
#define MPI_UNSIGNED_LONG ((MPI_Datatype)&loom_mpi_unsigned_long)
#define MPI_LONG_LONG_INT ((MPI_Datatype)&loom_mpi_long_long_int)
#define MPI_LONG_LONG MPI_LONG_LONG_INT
#define MPI_UNSIGNED_LONG_LONG ((MPI_Datatype)&loom_mpi_unsigned_long_long)
#define MPI_FLOAT ((MPI_Datatype)&loom_mpi_float)
#define MPI_DOUBLE ((MPI_Datatype)&loom_mpi_double)
#define MPI_LONG_DOUBLE ((MPI_Datatype)&loom_mpi_long_double)
#define MPI_C_BOOL ((MPI_Datatype)&loom_mpi_c_bool)
#define MPI_INT8_T ((MPI_Datatype)&loom_mpi_int8_t)
#define MPI_INT16_T ((MPI_Datatype)&loom_mpi_int16_t)
#define MPI_INT32_T ((MPI_Datatype)&loom_mpi_int32_t)
#define MPI_INT64_T ((MPI_Datatype)&loom_mpi_int64_t)
#define MPI_UINT8_T ((MPI_Datatype)&loom_mpi_uint8_t)
#define MPI_UINT16_T ((MPI_Datatype)&loom_mpi_uint16_t)
#define MPI_UINT32_T ((MPI_Datatype)&loom_mpi_uint32_t)
#define MPI_UINT64_T ((MPI_Datatype)&loom_mpi_uint64_t)
#define MPI_AINT ((MPI_Datatype)&loom_mpi_aint)
#define MPI_COUNT ((MPI_Datatype)&loom_mpi_count)
#define MPI_OFFSET ((MPI_Datatype)&loom_mpi_offset)
#define MPI_C_FLOAT_COMPLEX ((MPI_Datatype)&loom_mpi_c_float_complex)
#define MPI_C_COMPLEX MPI_C_FLOAT_COMPLEX
#define MPI_C_DOUBLE_COMPLEX ((MPI_Datatype)&loom_mpi_c_double_complex)
#define MPI_C_LONG_DOUBLE_COMPLEX ((MPI_Datatype)&loom_mpi_c_long_double_complex)
#define MPI_BYTE ((MPI_Datatype)&loom_mpi_byte)
#define MPI_PACKED ((MPI_Datatype)&loom_mpi_packed)
#define MPI_FLOAT_INT ((MPI_Datatype)&loom_mpi_float_int)
#define MPI_DOUBLE_INT ((MPI_Datatype)&loom_mpi_double_int)
#define MPI_LONG_INT ((MPI_Datatype)&loom_mpi_long_int)
#define MPI_2INT ((MPI_Datatype)&loom_mpi_2int)
#define MPI_SHORT_INT ((MPI_Datatype)&loom_mpi_short_int)
#define MPI_LONG_DOUBLE_INT ((MPI_Datatype)&loom_mpi_long_double_int)
#define MPI_INTEGER ((MPI_Datatype)&loom_mpi_integer)
#define MPI_REAL ((MPI_Datatype)&loom_mpi_real)
#define MPI_DOUBLE_PRECISION ((MPI_Datatype)&loom_mpi_double_precision)
#define MPI_COMPLEX ((MPI_Datatype)&loom_mpi_complex)
#define MPI_DOUBLE_COMPLEX ((MPI_Datatype)&loom_mpi_double_complex)
#define MPI_LOGICAL ((MPI_Datatype)&loom_mpi_logical)
#define MPI_CHARACTER ((MPI_Datatype)&loom_mpi_character)
#define MPI_2REAL ((MPI_Datatype)&loom_mpi_2real)
#define MPI_2DOUBLE_PRECISION ((MPI_Datatype)&loom_mpi_2double_precision)
#define MPI_2INTEGER ((MPI_Datatype)&loom_mpi_2integer)
#define MPI_INTEGER1 ((MPI_Datatype)&loom_mpi_integer1)
#define MPI_INTEGER2 ((MPI_Datatype)&loom_mpi_integer2)
#define MPI_INTEGER4 ((MPI_Datatype)&loom_mpi_integer4)
#define MPI_INTEGER8 ((MPI_Datatype)&loom_mpi_integer8)
#define MPI_INTEGER16 ((MPI_Datatype)&loom_mpi_integer16)
#define MPI_REAL4 ((MPI_Datatype)&loom_mpi_real4)
#define MPI_REAL8 ((MPI_Datatype)&loom_mpi_real8)
#define MPI_REAL16 ((MPI_Datatype)&loom_mpi_real16)
#define MPI_COMPLEX8 ((MPI_Datatype)&loom_mpi_complex8)
#define MPI_COMPLEX16 ((MPI_Datatype)&loom_mpi_complex16)
#define MPI_COMPLEX32 ((MPI_Datatype)&loom_mpi_complex32)
/* gfortran has no REAL(2): the optional types it would need are null (MPI 4.1 19.3.6) */
#define MPI_REAL2 MPI_DATATYPE_NULL
#define MPI_COMPLEX4 MPI_DATATYPE_NULL

/* Type classes of MPI_Type_get_envelope (combiners), with MPICH's values (the others are in
 * the datatype block below). */
#define MPI_COMBINER_NAMED 1
#define MPI_COMBINER_DUP 2
#define MPI_COMBINER_CONTIGUOUS 3
#define MPI_COMBINER_VECTOR 4
#define MPI_COMBINER_HVECTOR 6
#define MPI_COMBINER_INDEXED 7
#define MPI_COMBINER_HINDEXED 9
#define MPI_COMBINER_INDEXED_BLOCK 10
#define MPI_COMBINER_HINDEXED_BLOCK 11
#define MPI_COMBINER_STRUCT 13
#define MPI_COMBINER_SUBARRAY 14
#define MPI_COMBINER_RESIZED 19
#define MPI_ORDER_C 56
#define MPI_ORDER_FORTRAN 57

extern LOOM_API struct loom_comm loom_mpi_comm_world;
extern LOOM_API struct loom_comm loom_mpi_comm_self;
#define MPI_COMM_NULL ((MPI_Comm)0)
#define MPI_COMM_WORLD ((MPI_Comm)&loom_mpi_comm_world)
#define MPI_COMM_SELF ((MPI_Comm)&loom_mpi_comm_self)

extern LOOM_API struct loom_group loom_mpi_group_empty;
#define MPI_GROUP_NULL ((MPI_Group)0)
#define MPI_GROUP_EMPTY ((MPI_Group)&loom_mpi_group_empty)

#define MPI_REQUEST_NULL ((MPI_Request)0)

extern LOOM_API struct loom_message loom_mpi_message_no_proc;
#define MPI_MESSAGE_NULL ((MPI_Message)0)
#define MPI_MESSAGE_NO_PROC ((MPI_Message)&loom_mpi_message_no_proc)

extern LOOM_API struct loom_info loom_mpi_info_env;
#define MPI_INFO_NULL ((MPI_Info)0)
#define MPI_INFO_ENV ((MPI_Info)&loom_mpi_info_env)

extern LOOM_API struct loom_errhandler loom_mpi_errors_are_fatal;
extern LOOM_API struct loom_errhandler loom_mpi_errors_return;
extern LOOM_API struct loom_errhandler loom_mpi_errors_abort;
#define MPI_ERRHANDLER_NULL ((MPI_Errhandler)0)
#define MPI_ERRORS_ARE_FATAL ((MPI_Errhandler)&loom_mpi_errors_are_fatal)
#define MPI_ERRORS_RETURN ((MPI_Errhandler)&loom_mpi_errors_return)
#define MPI_ERRORS_ABORT ((MPI_Errhandler)&loom_mpi_errors_abort)

#define LOOM_FOREACH_PREDEFINED_OP(X)                                                          \
    X(MPI_MAX, loom_mpi_max)                                                                   \
    X(MPI_MIN, loom_mpi_min)                                                                   \
    X(MPI_SUM, loom_mpi_sum)                                                                   \
    X(MPI_PROD, loom_mpi_prod)                                                                 \
    X(MPI_LAND, loom_mpi_land)                                                                 \
    X(MPI_BAND, loom_mpi_band)                                                                 \
    X(MPI_LOR, loom_mpi_lor)                                                                   \
    X(MPI_BOR, loom_mpi_bor)                                                                   \
    X(MPI_LXOR, loom_mpi_lxor)                                                                 \
    X(MPI_BXOR, loom_mpi_bxor)                                                                 \
    X(MPI_MINLOC, loom_mpi_minloc)                                                             \
    X(MPI_MAXLOC, loom_mpi_maxloc)                                                             \
    X(MPI_REPLACE, loom_mpi_replace)                                                           \
    X(MPI_NO_OP, loom_mpi_no_op)
#define LOOM_DECLARE_OP(name, sym) extern LOOM_API struct loom_op sym;
LOOM_FOREACH_PREDEFINED_OP(LOOM_DECLARE_OP)
#undef LOOM_DECLARE_OP
#define MPI_OP_NULL ((MPI_Op)0)
#define MPI_MAX ((MPI_Op)&loom_mpi_max)
#define MPI_MIN ((MPI_Op)&loom_mpi_min)
#define MPI_SUM ((MPI_Op)&loom_mpi_sum)
#define MPI_PROD ((MPI_Op)&loom_mpi_prod)
#define MPI_LAND ((MPI_Op)&loom_mpi_land)
#define MPI_BAND ((MPI_Op)&loom_mpi_band)
#define MPI_LOR ((MPI_Op)&loom_mpi_lor)
#define MPI_BOR ((MPI_Op)&loom_mpi_bor)
#define MPI_LXOR ((MPI_Op)&loom_mpi_lxor)
#define MPI_BXOR ((MPI_Op)&loom_mpi_bxor)
#define MPI_MINLOC ((MPI_Op)&loom_mpi_minloc)
#define MPI_MAXLOC ((MPI_Op)&loom_mpi_maxloc)
#define MPI_REPLACE ((MPI_Op)&loom_mpi_replace)
#define MPI_NO_OP ((MPI_Op)&loom_mpi_no_op)

/* ---- callbacks ------------------------------------------------------------------- */
typedef void MPI_Comm_errhandler_function(MPI_Comm *comm, int *errcode, ...);
typedef MPI_Comm_errhandler_function MPI_Comm_errhandler_fn;
typedef void MPI_Session_errhandler_function(MPI_Session *session, int *errcode, ...);
typedef int MPI_Comm_copy_attr_function(MPI_Comm oldcomm, int keyval, void *extra_state,
                                        void *attribute_val_in, void *attribute_val_out,
                                        int *flag);
typedef int MPI_Comm_delete_attr_function(MPI_Comm comm, int keyval, void *attribute_val,
                                          void *extra_state);
LOOM_API int MPI_COMM_NULL_COPY_FN(MPI_Comm, int, void *, void *, void *, int *);
LOOM_API int MPI_COMM_DUP_FN(MPI_Comm, int, void *, void *, void *, int *);
LOOM_API int MPI_COMM_NULL_DELETE_FN(MPI_Comm, int, void *, void *);
#define MPI_NULL_COPY_FN MPI_COMM_NULL_COPY_FN
#define MPI_DUP_FN MPI_COMM_DUP_FN
#define MPI_NULL_DELETE_FN MPI_COMM_NULL_DELETE_FN
typedef void MPI_User_function(void *invec, void *inoutvec, int *len, MPI_Datatype *datatype);
/* The big-count form (MPI_Op_create_c): the length is an MPI_Count. */
typedef void MPI_User_function_c(void *invec, void *inoutvec, MPI_Count *len,
                                 MPI_Datatype *datatype);

/* ---- MPI tools information interface, MPI_T (MPI 4.1 chapter 15; docs/mpit.md) ---------
 * Control variables are loom's configuration table (the LOOM_* settings), performance
 * variables its message counters, categories its layers; there are no event sources. The
 * calls work before MPI_Init and after MPI_Finalize, from any thread, and return their error
 * class (no error handler is called, as the standard says). Constants are MPICH's. */
typedef struct loom_mpit_enum *MPI_T_enum;
typedef struct loom_mpit_cvar_handle *MPI_T_cvar_handle;
typedef struct loom_mpit_pvar_handle *MPI_T_pvar_handle;
typedef struct loom_mpit_pvar_session *MPI_T_pvar_session;
#define MPI_T_ENUM_NULL ((MPI_T_enum)0)
#define MPI_T_CVAR_HANDLE_NULL ((MPI_T_cvar_handle)0)
#define MPI_T_PVAR_HANDLE_NULL ((MPI_T_pvar_handle)0)
#define MPI_T_PVAR_SESSION_NULL ((MPI_T_pvar_session)0)
#define MPI_T_PVAR_ALL_HANDLES ((MPI_T_pvar_handle)1)

#define MPI_T_ERR_MEMORY 59
#define MPI_T_ERR_NOT_INITIALIZED 60
#define MPI_T_ERR_CANNOT_INIT 61
#define MPI_T_ERR_INVALID_INDEX 62
#define MPI_T_ERR_INVALID_ITEM 63
#define MPI_T_ERR_INVALID_HANDLE 64
#define MPI_T_ERR_OUT_OF_HANDLES 65
#define MPI_T_ERR_OUT_OF_SESSIONS 66
#define MPI_T_ERR_INVALID_SESSION 67
#define MPI_T_ERR_CVAR_SET_NOT_NOW 68
#define MPI_T_ERR_CVAR_SET_NEVER 69
#define MPI_T_ERR_PVAR_NO_STARTSTOP 70
#define MPI_T_ERR_PVAR_NO_WRITE 71
#define MPI_T_ERR_PVAR_NO_ATOMIC 72
#define MPI_T_ERR_INVALID_NAME 73
#define MPI_T_ERR_INVALID 74
#define MPI_T_ERR_NOT_SUPPORTED 78

#define MPI_T_VERBOSITY_USER_BASIC 221
#define MPI_T_VERBOSITY_USER_DETAIL 222
#define MPI_T_VERBOSITY_USER_ALL 223
#define MPI_T_VERBOSITY_TUNER_BASIC 224
#define MPI_T_VERBOSITY_TUNER_DETAIL 225
#define MPI_T_VERBOSITY_TUNER_ALL 226
#define MPI_T_VERBOSITY_MPIDEV_BASIC 227
#define MPI_T_VERBOSITY_MPIDEV_DETAIL 228
#define MPI_T_VERBOSITY_MPIDEV_ALL 229

#define MPI_T_BIND_NO_OBJECT 9700
#define MPI_T_BIND_MPI_COMM 9701
#define MPI_T_BIND_MPI_DATATYPE 9702
#define MPI_T_BIND_MPI_ERRHANDLER 9703
#define MPI_T_BIND_MPI_FILE 9704
#define MPI_T_BIND_MPI_GROUP 9705
#define MPI_T_BIND_MPI_OP 9706
#define MPI_T_BIND_MPI_REQUEST 9707
#define MPI_T_BIND_MPI_WIN 9708
#define MPI_T_BIND_MPI_MESSAGE 9709
#define MPI_T_BIND_MPI_INFO 9710
#define MPI_T_BIND_MPI_SESSION 9711

#define MPI_T_SCOPE_CONSTANT 60438
#define MPI_T_SCOPE_READONLY 60439
#define MPI_T_SCOPE_LOCAL 60440
#define MPI_T_SCOPE_GROUP 60441
#define MPI_T_SCOPE_GROUP_EQ 60442
#define MPI_T_SCOPE_ALL 60443
#define MPI_T_SCOPE_ALL_EQ 60444

#define MPI_T_PVAR_CLASS_STATE 240
#define MPI_T_PVAR_CLASS_LEVEL 241
#define MPI_T_PVAR_CLASS_SIZE 242
#define MPI_T_PVAR_CLASS_PERCENTAGE 243
#define MPI_T_PVAR_CLASS_HIGHWATERMARK 244
#define MPI_T_PVAR_CLASS_LOWWATERMARK 245
#define MPI_T_PVAR_CLASS_COUNTER 246
#define MPI_T_PVAR_CLASS_AGGREGATE 247
#define MPI_T_PVAR_CLASS_TIMER 248
#define MPI_T_PVAR_CLASS_GENERIC 249

typedef enum MPI_T_source_order {
    MPI_T_SOURCE_ORDERED = 0,
    MPI_T_SOURCE_UNORDERED
} MPI_T_source_order;

/* Events (MPI 4.1 section 15.3.8). loom has no event type, so no registration can be
 * allocated and no instance is ever passed to a callback: the calls that take one answer
 * MPI_T_ERR_INVALID_HANDLE (docs/mpit.md). */
typedef struct loom_mpit_event_registration *MPI_T_event_registration;
typedef struct loom_mpit_event_instance *MPI_T_event_instance;
typedef enum MPI_T_cb_safety {
    MPI_T_CB_REQUIRE_NONE = 0,
    MPI_T_CB_REQUIRE_MPI_RESTRICTED,
    MPI_T_CB_REQUIRE_THREAD_SAFE,
    MPI_T_CB_REQUIRE_ASYNC_SIGNAL_SAFE
} MPI_T_cb_safety;
typedef void MPI_T_event_cb_function(MPI_T_event_instance event_instance,
                                     MPI_T_event_registration event_registration,
                                     MPI_T_cb_safety cb_safety, void *user_data);
typedef void MPI_T_event_free_cb_function(MPI_T_event_registration event_registration,
                                          MPI_T_cb_safety cb_safety, void *user_data);
typedef void MPI_T_event_dropped_cb_function(MPI_Count count,
                                             MPI_T_event_registration event_registration,
                                             int source_index, MPI_T_cb_safety cb_safety,
                                             void *user_data);

/* ---- process topologies and neighbor collectives (MPI 4.1 chapter 8) ----------------- */
/* MPI_Topo_test results (MPICH's values) */
#define MPI_GRAPH 1
#define MPI_CART 2
#define MPI_DIST_GRAPH 3
/* Weights arguments of the distributed-graph calls: distinct addresses, as in MPICH */
extern LOOM_API int *const MPI_UNWEIGHTED;
extern LOOM_API int *const MPI_WEIGHTS_EMPTY;

/* ---- datatypes, the rest of the chapter (decoding, darray, Fortran 90 types, external32,
 * type attributes, large counts) ---- */
#define MPI_COMBINER_DARRAY 15
#define MPI_COMBINER_F90_REAL 16
#define MPI_COMBINER_F90_COMPLEX 17
#define MPI_COMBINER_F90_INTEGER 18
#define MPI_DISTRIBUTE_BLOCK 121
#define MPI_DISTRIBUTE_CYCLIC 122
#define MPI_DISTRIBUTE_NONE 123
#define MPI_DISTRIBUTE_DFLT_DARG (-49767)
#define MPI_TYPECLASS_REAL 1
#define MPI_TYPECLASS_INTEGER 2
#define MPI_TYPECLASS_COMPLEX 3
typedef int MPI_Type_copy_attr_function(MPI_Datatype oldtype, int type_keyval, void *extra_state,
                                        void *attribute_val_in, void *attribute_val_out,
                                        int *flag);
typedef int MPI_Type_delete_attr_function(MPI_Datatype datatype, int type_keyval,
                                          void *attribute_val, void *extra_state);
LOOM_API int MPI_TYPE_NULL_COPY_FN(MPI_Datatype, int, void *, void *, void *, int *);
LOOM_API int MPI_TYPE_DUP_FN(MPI_Datatype, int, void *, void *, void *, int *);
LOOM_API int MPI_TYPE_NULL_DELETE_FN(MPI_Datatype, int, void *, void *);

/* ---- misc (memory, error classes and codes, info, hardware resources, deprecated names) ----
 * MPI_Alloc_mem: memory aligned to at least 64 bytes (the info key
 * mpi_minimum_memory_alignment asks for more); MPI_Free_mem takes only pointers it gave out
 * (MPI_ERR_BASE otherwise). */
/* Error classes, codes and strings of the program's own: shared by every rank of the job (one
 * process); values grow from MPI_ERR_LASTCODE + 1 and MPI_LASTUSEDCODE follows them. */
/* MPI 4 info calls. MPI_Info_get_string: *buflen in, the value's length + 1 out when found.
 * MPI_Info_create_env may be called before MPI_Init; with argc 0 it uses the rank's own
 * arguments. MPI_INFO_ENV and its info hold command, argv, maxprocs, soft, host, arch, wdir,
 * thread_level. */
/* MPI 4.1: a new info, one key per hardware resource type of the machine in URI form
 * ("hwloc://NUMANode", largest first), "true" when the calling rank runs inside one resource
 * of the type (usable as mpi_hw_resource_type of MPI_COMM_TYPE_HW_GUIDED), else "false". */
/* MPI-1/2 names removed in MPI 3.0 and still declared by MPICH and Open MPI: each is its
 * modern equivalent (MPI_Attr_put is MPI_Comm_set_attr, MPI_Type_struct is
 * MPI_Type_create_struct, ...; MPI_Type_ub is lb + extent). */
typedef MPI_Comm_copy_attr_function MPI_Copy_function;
typedef MPI_Comm_delete_attr_function MPI_Delete_function;
typedef MPI_Comm_errhandler_function MPI_Handler_function;

/* ---- intercommunicators and nonblocking dup (MPI 4.1 chapter 7) ---- */
/* MPI 4 creation from groups: a group from a session's process set, or any group of the
 * job's ranks */
#define MPI_MAX_STRINGTAG_LEN 256
/* sessions (MPI 4.1 chapter 11.3; docs/sessions.md) */
#define MPI_SESSION_NULL ((MPI_Session)0)
#define MPI_MAX_PSET_NAME_LEN 256

/* ---- persistent collectives and generalized requests (MPI 4.1, sections 6.13, 13.2) ----
 * MPI_<Coll>_init: an inactive persistent request, started by MPI_Start / MPI_Startall,
 * completed by any wait or test, freed when inactive (docs/persistent.md). */

/* Generalized requests: the user runs the operation and calls MPI_Grequest_complete (from
 * any thread); a wait or test that completes the request calls query_fn (the status), then
 * free_fn; MPI_Cancel calls cancel_fn. Errors they return are the calls' errors. */
typedef int MPI_Grequest_query_function(void *extra_state, MPI_Status *status);
typedef int MPI_Grequest_free_function(void *extra_state);
typedef int MPI_Grequest_cancel_function(void *extra_state, int complete);

/* ---- one-sided communication (MPI 4.1 chapter 12; docs/rma.md) ----------------------
 * Every window is plain memory of the one process: a put is a copy into the target's memory
 * by the origin (or, for a large one, by whichever thread runs its chunk tasks), an
 * accumulate an atomic operation per element, a lock a word in the target's window state.
 * The memory model is MPI_WIN_UNIFIED. Values are MPICH's. */
#define MPI_WIN_NULL ((MPI_Win)0)
/* lock types (MPI_Win_lock) */
#define MPI_LOCK_EXCLUSIVE 234
#define MPI_LOCK_SHARED 235
/* assertions (MPI_Win_fence, _post, _start, _lock, _lock_all): bits, 0 for none */
#define MPI_MODE_NOCHECK 1024
#define MPI_MODE_NOSTORE 2048
#define MPI_MODE_NOPUT 4096
#define MPI_MODE_NOPRECEDE 8192
#define MPI_MODE_NOSUCCEED 16384
/* predefined window attributes (MPI_Win_get_attr): the base address itself for
 * MPI_WIN_BASE; a pointer to an MPI_Aint (size) or an int for the others */
#define MPI_WIN_BASE 8
#define MPI_WIN_SIZE 9
#define MPI_WIN_DISP_UNIT 10
#define MPI_WIN_CREATE_FLAVOR 11
#define MPI_WIN_MODEL 12
/* values of MPI_WIN_CREATE_FLAVOR and MPI_WIN_MODEL */
#define MPI_WIN_FLAVOR_CREATE 1
#define MPI_WIN_FLAVOR_ALLOCATE 2
#define MPI_WIN_FLAVOR_DYNAMIC 3
#define MPI_WIN_FLAVOR_SHARED 4
#define MPI_WIN_SEPARATE 1
#define MPI_WIN_UNIFIED 2
typedef int MPI_Win_copy_attr_function(MPI_Win oldwin, int win_keyval, void *extra_state,
                                       void *attribute_val_in, void *attribute_val_out,
                                       int *flag);
typedef int MPI_Win_delete_attr_function(MPI_Win win, int win_keyval, void *attribute_val,
                                         void *extra_state);
typedef void MPI_Win_errhandler_function(MPI_Win *win, int *errcode, ...);
typedef MPI_Win_errhandler_function MPI_Win_errhandler_fn; /* the MPI-2.0 name */
LOOM_API int MPI_WIN_NULL_COPY_FN(MPI_Win, int, void *, void *, void *, int *);
LOOM_API int MPI_WIN_DUP_FN(MPI_Win, int, void *, void *, void *, int *);
LOOM_API int MPI_WIN_NULL_DELETE_FN(MPI_Win, int, void *, void *);

/* ---- language interoperability (MPI 4.1 chapter 19.3) -------------------------------
 * Fortran handles are MPI_Fints given out by MPI_Xxx_c2f (0 is the null handle of every kind);
 * a Fortran status is MPI_F_STATUS_SIZE MPI_Fints with the source, tag and error at these
 * (0-based) indexes; MPI_F08_status is the mpi_f08 TYPE(MPI_Status) seen from C. */
#define MPI_F_STATUS_SIZE 6
#define MPI_F_SOURCE 0
#define MPI_F_TAG 1
#define MPI_F_ERROR 2
typedef struct MPI_F08_status {
    MPI_Fint MPI_SOURCE;
    MPI_Fint MPI_TAG;
    MPI_Fint MPI_ERROR;
    MPI_Fint loom_internal[3]; /* cancelled, bytes (low and high words) */
} MPI_F08_status;
#define MPI_F_STATUS_IGNORE ((MPI_Fint *)1)
#define MPI_F_STATUSES_IGNORE ((MPI_Fint *)1)
#define MPI_F08_STATUS_IGNORE ((MPI_F08_status *)1)
#define MPI_F08_STATUSES_IGNORE ((MPI_F08_status *)1)

/* ---- the MPI calls ----------------------------------------------------------------
 * Every standard call loom has, and its PMPI_ twin for profiling tools: mpi_proto.h is made
 * by the build (loom-bindgen) from the description of the calls in src/api/calls/ and
 * installed next to this header (docs/bindings.md). */
#include "mpi_proto.h"

/* ---- MPICH-compatible progress extensions (same prototypes and constants as MPICH 4.3) -- */
typedef int MPIX_Stream;
#define MPIX_STREAM_NULL ((MPIX_Stream)0x3c000000)
typedef struct loom_async *MPIX_Async_thing;
/* What a poll function returns: keep polling me / I am done (then the thing is freed). */
enum { MPIX_ASYNC_NOPROGRESS = 0, MPIX_ASYNC_DONE = 1 };
typedef int(MPIX_Async_poll_function)(MPIX_Async_thing);
/* Streams: loom has one progress context per rank; a stream names it (any stream, including
 * MPIX_STREAM_NULL, means the calling rank's). */
LOOM_API int MPIX_Stream_create(MPI_Info info, MPIX_Stream *stream);
LOOM_API int MPIX_Stream_free(MPIX_Stream *stream);
/* Run the calling rank's pending work once (a keypoint of the task engine). */
LOOM_API int MPIX_Stream_progress(MPIX_Stream stream);
/* Start / stop a progress thread for the calling rank, placed as LOOM_PROGRESS_PLACEMENT
 * says (in any LOOM_PROGRESS mode but inline). */
LOOM_API int MPIX_Start_progress_thread(MPIX_Stream stream);
LOOM_API int MPIX_Stop_progress_thread(MPIX_Stream stream);
/* 1 if the request is complete (it is not freed; null and inactive requests count as
 * complete), else 0. */
LOOM_API int MPIX_Request_is_complete(MPI_Request request);
/* Register poll_fn, called repeatedly by whoever makes progress (the rank's waits, other
 * ranks' waits, progress threads) until it returns MPIX_ASYNC_DONE. It runs as the calling
 * rank (MPI calls inside act for it), one call at a time. */
LOOM_API int MPIX_Async_start(MPIX_Async_poll_function *poll_fn, void *extra_state,
                              MPIX_Stream stream);
LOOM_API void *MPIX_Async_get_state(MPIX_Async_thing async_thing);
/* From inside a poll function: start another async thing for the same rank. */
LOOM_API int MPIX_Async_spawn(MPIX_Async_thing async_thing, MPIX_Async_poll_function *poll_fn,
                              void *extra_state, MPIX_Stream stream);

/* ---- hierarchical communicators (issue 6; the 2018 paper's functions; docs/hierarchy.md) --
 * MPI_Comm_split_type with MPI_COMM_TYPE_HW_UNGUIDED (alias MPIX_COMM_TYPE_PHYSICAL_TOPOLOGY)
 * or MPI_COMM_TYPE_HW_GUIDED makes the levels; these add the roots communicators and queries.
 * Every communicator they make carries the info key mpi_hw_resource_type. */
/* Collective over oldcomm: *newcomm as MPI_Comm_split_type(oldcomm, MPI_COMM_TYPE_HW_UNGUIDED,
 * rank in oldcomm, info); *rootscomm groups the ranks that are rank 0 of their *newcomm (one
 * communicator per oldcomm), MPI_COMM_NULL for the others. info: no hint is used yet. */
LOOM_API int MPIX_Comm_hsplit_with_roots(MPI_Comm oldcomm, MPI_Info info, MPI_Comm *newcomm,
                                         MPI_Comm *rootscomm);
/* For a communicator made by a hardware split (or a dup of one): how many communicators the
 * split of its parent made, this one's index among them (0-based), and its resource type
 * ("NUMANode", "L2Cache", ...) into type (at least MPI_MAX_INFO_VAL + 1 characters), its
 * length in *resultlen. MPI_ERR_ARG for any other communicator. Local. */
LOOM_API int MPIX_Comm_get_hlevel_info(MPI_Comm comm, int *num_comms, int *index, char *type,
                                       int *resultlen);
/* The type of the lowest hardware level shared by ranks[0..nranks-1] of comm (distinct, in
 * range: else MPI_ERR_RANK), "Unknown" when the calling rank is not among them. type holds at
 * least MPI_MAX_INFO_VAL + 1 characters. Local. */
LOOM_API int MPIX_Comm_get_min_hlevel(MPI_Comm comm, int nranks, const int ranks[], char *type,
                                      int *resultlen);

/* ---- loom extensions -------------------------------------------------------------- */
/* Runs rank_main once per rank, as loom's own main does: reads the configuration, builds the
 * topology, starts the rank threads, joins them, and returns the job's status. For programs
 * that define LOOM_NO_MAIN_RENAME and keep their own main (C++ programs whose main takes no
 * arguments, programs embedding loom). Call it once, from the process's main thread. */
LOOM_API int loom_run(int argc, char **argv, int (*rank_main)(int argc, char **argv));

/* Where the calling rank was placed: the logical index of the core and of the NUMA node that
 * hold its CPU set (-1 when the set spans several), its CPU set as a list ("0-3,6"; at least
 * 64 characters; may be NULL), and the placement policy in effect (LOOM_BIND; a string owned by
 * loom; may be NULL). Indices are those of the topology in effect (LOOM_TOPOLOGY), which may
 * be a synthetic machine; then no OS binding was made. Callable between MPI_Init and
 * MPI_Finalize. */
LOOM_API int loom_rank_placement(int *core, int *numa, char *cpuset, int cpuset_len,
                                 const char **policy);
/* 1 when ranks were bound to their CPU sets by the OS (the topology is this machine and the
 * policy is not `none`), else 0. */
LOOM_API int loom_rank_is_bound(void);

#if !defined(LOOM_NO_MAIN_RENAME) && !defined(LOOM_BUILDING)
#ifdef __cplusplus
/* C++: give the renamed main C linkage (it must take (int, char **)). */
extern "C" int loom_user_main(int argc, char **argv);
#endif
#define main loom_user_main
#endif

#ifdef __cplusplus
}
#endif
#endif /* LOOM_MPI_H */
