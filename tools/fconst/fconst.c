/* loom-fconst — the constants of loom's Fortran bindings, printed from mpi.h itself (and from
 * core/fhandle_fixed.h, the fixed Fortran handles of the predefined objects), so that they
 * cannot drift from the C ones (docs/fortran.md). A build tool like loom-bindgen: built
 * without sanitizers and without libloom, it runs in every build tree. It never evaluates a
 * handle (that would need libloom): it prints only the fixed indices and, through _Generic,
 * the handle's C type.
 *   loom-fconst --mpif mpif.h --params mpi_consts.h --f08 mpi_f08_consts.h
 *               --sentinels mpi_sentinels.h --f08-sentinels mpi_f08_sentinels.h
 * Every line is valid fixed form and free form: statements from column 7, no line longer
 * than 72 columns, no continuation, comments with `!` in column 1. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
/* a build tool with its own main: mpi.h must not make it a rank main */
#define LOOM_NO_MAIN_RENAME
#include "mpi.h"
#if __has_include("core/fhandle_fixed.h")
#include "core/fhandle_fixed.h"
#endif

struct constant {
    const char *name;
    long long value;
};

/* Every integer constant of mpi.h a Fortran program may name (MPI_T_* has no Fortran
 * binding; MPI_F_* are C's view of the Fortran status). */
#define C(name) {#name, (long long)(name)},
static const struct constant constants[] = {
    C(MPI_VERSION)
    C(MPI_SUBVERSION)
    C(MPI_ANY_SOURCE)
    C(MPI_PROC_NULL)
    C(MPI_ROOT)
    C(MPI_ANY_TAG)
    C(MPI_UNDEFINED)
    C(MPI_KEYVAL_INVALID)
    C(MPI_BSEND_OVERHEAD)
    C(MPI_MAX_PROCESSOR_NAME)
    C(MPI_MAX_ERROR_STRING)
    C(MPI_MAX_OBJECT_NAME)
    C(MPI_MAX_INFO_KEY)
    C(MPI_MAX_INFO_VAL)
    C(MPI_MAX_LIBRARY_VERSION_STRING)
    C(MPI_IDENT)
    C(MPI_CONGRUENT)
    C(MPI_SIMILAR)
    C(MPI_UNEQUAL)
    C(MPI_THREAD_SINGLE)
    C(MPI_THREAD_FUNNELED)
    C(MPI_THREAD_SERIALIZED)
    C(MPI_THREAD_MULTIPLE)
    C(MPI_COMM_TYPE_SHARED)
    C(MPI_COMM_TYPE_HW_UNGUIDED)
    C(MPI_COMM_TYPE_HW_GUIDED)
    C(MPI_TAG_UB)
    C(MPI_HOST)
    C(MPI_IO)
    C(MPI_WTIME_IS_GLOBAL)
    C(MPI_UNIVERSE_SIZE)
    C(MPI_APPNUM)
    C(MPI_LASTUSEDCODE)
    C(MPI_SUCCESS)
    C(MPI_ERR_BUFFER)
    C(MPI_ERR_COUNT)
    C(MPI_ERR_TYPE)
    C(MPI_ERR_TAG)
    C(MPI_ERR_COMM)
    C(MPI_ERR_RANK)
    C(MPI_ERR_REQUEST)
    C(MPI_ERR_ROOT)
    C(MPI_ERR_GROUP)
    C(MPI_ERR_OP)
    C(MPI_ERR_TOPOLOGY)
    C(MPI_ERR_DIMS)
    C(MPI_ERR_ARG)
    C(MPI_ERR_UNKNOWN)
    C(MPI_ERR_TRUNCATE)
    C(MPI_ERR_OTHER)
    C(MPI_ERR_INTERN)
    C(MPI_ERR_IN_STATUS)
    C(MPI_ERR_PENDING)
    C(MPI_ERR_KEYVAL)
    C(MPI_ERR_NO_MEM)
    C(MPI_ERR_BASE)
    C(MPI_ERR_INFO_KEY)
    C(MPI_ERR_INFO_VALUE)
    C(MPI_ERR_INFO_NOKEY)
    C(MPI_ERR_SPAWN)
    C(MPI_ERR_PORT)
    C(MPI_ERR_SERVICE)
    C(MPI_ERR_NAME)
    C(MPI_ERR_WIN)
    C(MPI_ERR_SIZE)
    C(MPI_ERR_DISP)
    C(MPI_ERR_INFO)
    C(MPI_ERR_LOCKTYPE)
    C(MPI_ERR_ASSERT)
    C(MPI_ERR_RMA_CONFLICT)
    C(MPI_ERR_RMA_SYNC)
    C(MPI_ERR_FILE)
    C(MPI_ERR_NOT_SAME)
    C(MPI_ERR_AMODE)
    C(MPI_ERR_UNSUPPORTED_DATAREP)
    C(MPI_ERR_UNSUPPORTED_OPERATION)
    C(MPI_ERR_NO_SUCH_FILE)
    C(MPI_ERR_FILE_EXISTS)
    C(MPI_ERR_BAD_FILE)
    C(MPI_ERR_ACCESS)
    C(MPI_ERR_NO_SPACE)
    C(MPI_ERR_QUOTA)
    C(MPI_ERR_READ_ONLY)
    C(MPI_ERR_FILE_IN_USE)
    C(MPI_ERR_DUP_DATAREP)
    C(MPI_ERR_CONVERSION)
    C(MPI_ERR_IO)
    C(MPI_ERR_RMA_RANGE)
    C(MPI_ERR_RMA_ATTACH)
    C(MPI_ERR_RMA_SHARED)
    C(MPI_ERR_RMA_FLAVOR)
    C(MPI_ERR_SESSION)
    C(MPI_ERR_VALUE_TOO_LARGE)
    C(MPI_ERR_LASTCODE)
    C(MPI_COMBINER_NAMED)
    C(MPI_COMBINER_DUP)
    C(MPI_COMBINER_CONTIGUOUS)
    C(MPI_COMBINER_VECTOR)
    C(MPI_COMBINER_HVECTOR)
    C(MPI_COMBINER_INDEXED)
    C(MPI_COMBINER_HINDEXED)
    C(MPI_COMBINER_INDEXED_BLOCK)
    C(MPI_COMBINER_HINDEXED_BLOCK)
    C(MPI_COMBINER_STRUCT)
    C(MPI_COMBINER_SUBARRAY)
    C(MPI_COMBINER_RESIZED)
    C(MPI_ORDER_C)
    C(MPI_ORDER_FORTRAN)
    C(MPI_GRAPH)
    C(MPI_CART)
    C(MPI_DIST_GRAPH)
    C(MPI_COMBINER_DARRAY)
    C(MPI_COMBINER_F90_REAL)
    C(MPI_COMBINER_F90_COMPLEX)
    C(MPI_COMBINER_F90_INTEGER)
    C(MPI_DISTRIBUTE_BLOCK)
    C(MPI_DISTRIBUTE_CYCLIC)
    C(MPI_DISTRIBUTE_NONE)
    C(MPI_DISTRIBUTE_DFLT_DARG)
    C(MPI_TYPECLASS_REAL)
    C(MPI_TYPECLASS_INTEGER)
    C(MPI_TYPECLASS_COMPLEX)
    C(MPI_MAX_STRINGTAG_LEN)
    C(MPI_MAX_PSET_NAME_LEN)
    C(MPI_LOCK_EXCLUSIVE)
    C(MPI_LOCK_SHARED)
    C(MPI_MODE_NOCHECK)
    C(MPI_MODE_NOSTORE)
    C(MPI_MODE_NOPUT)
    C(MPI_MODE_NOPRECEDE)
    C(MPI_MODE_NOSUCCEED)
    C(MPI_WIN_BASE)
    C(MPI_WIN_SIZE)
    C(MPI_WIN_DISP_UNIT)
    C(MPI_WIN_CREATE_FLAVOR)
    C(MPI_WIN_MODEL)
    C(MPI_WIN_FLAVOR_CREATE)
    C(MPI_WIN_FLAVOR_ALLOCATE)
    C(MPI_WIN_FLAVOR_DYNAMIC)
    C(MPI_WIN_FLAVOR_SHARED)
    C(MPI_WIN_SEPARATE)
    C(MPI_WIN_UNIFIED)
    C(MPIX_COMM_TYPE_PHYSICAL_TOPOLOGY)
    /* the status: MPI_STATUS_SIZE integers, MPI_SOURCE... are Fortran's 1-based indexes */
    {"MPI_STATUS_SIZE", MPI_F_STATUS_SIZE},
    {"MPI_SOURCE", MPI_F_SOURCE + 1},
    {"MPI_TAG", MPI_F_TAG + 1},
    {"MPI_ERROR", MPI_F_ERROR + 1},
    /* kinds (bytes, gfortran's kind numbers) */
    {"MPI_ADDRESS_KIND", sizeof(MPI_Aint)},
    {"MPI_OFFSET_KIND", sizeof(MPI_Offset)},
    {"MPI_COUNT_KIND", sizeof(MPI_Count)},
    {"MPI_INTEGER_KIND", sizeof(MPI_Fint)},
};
#undef C

/* Handles: the fixed Fortran index and the C type's name. */
#define TYPE_OF(h)                                                                             \
    _Generic((h), MPI_Comm: "Comm", MPI_Datatype: "Datatype", MPI_Group: "Group",            \
             MPI_Request: "Request", MPI_Op: "Op", MPI_Info: "Info",                           \
             MPI_Errhandler: "Errhandler", MPI_Message: "Message", MPI_Session: "Session",     \
             MPI_Win: "Win")
struct handle {
    const char *name, *type;
    int value;
};
#define H(h, index) {#h, TYPE_OF(h), index},
static const struct handle handles[] = {
    /* the null handles: 0 in Fortran */
    H(MPI_COMM_NULL, 0) H(MPI_DATATYPE_NULL, 0) H(MPI_GROUP_NULL, 0) H(MPI_REQUEST_NULL, 0)
    H(MPI_OP_NULL, 0) H(MPI_INFO_NULL, 0) H(MPI_ERRHANDLER_NULL, 0) H(MPI_MESSAGE_NULL, 0)
    H(MPI_SESSION_NULL, 0) H(MPI_WIN_NULL, 0)
    /* the Fortran types gfortran lacks (REAL(2)): MPI_DATATYPE_NULL, as the standard allows */
#ifdef MPI_REAL2
    H(MPI_REAL2, 0)
#endif
#ifdef MPI_COMPLEX4
    H(MPI_COMPLEX4, 0)
#endif
#ifdef LOOM_FOREACH_FIXED_FHANDLE
    LOOM_FOREACH_FIXED_FHANDLE(H)
#endif
#ifdef LOOM_FOREACH_FIXED_FHANDLE_ALIAS
    LOOM_FOREACH_FIXED_FHANDLE_ALIAS(H)
#endif
};
#undef H

/* The sentinels: name, Fortran declaration (%s is the name), COMMON block. The storage is
 * libloom's (src/fortran/sentinels.c); the `loom_f_` names stay shared among ranks. */
static const struct {
    const char *name, *decl, *f08decl, *common;
} sentinels[] = {
    {"MPI_BOTTOM", "INTEGER %s", NULL, "loom_f_bottom"},
    {"MPI_IN_PLACE", "INTEGER %s", NULL, "loom_f_in_place"},
    {"MPI_BUFFER_AUTOMATIC", "INTEGER %s", NULL, "loom_f_buffer_automatic"},
    {"MPI_STATUS_IGNORE", "INTEGER %s(MPI_STATUS_SIZE)", "TYPE(MPI_Status) %s",
     "loom_f_status_ignore"},
    {"MPI_STATUSES_IGNORE", "INTEGER %s(MPI_STATUS_SIZE,1)", "TYPE(MPI_Status) %s(1)",
     "loom_f_statuses_ignore"},
    {"MPI_ERRCODES_IGNORE", "INTEGER %s(1)", NULL, "loom_f_errcodes_ignore"},
    {"MPI_ARGV_NULL", "CHARACTER*1 %s(1)", NULL, "loom_f_argv_null"},
    {"MPI_ARGVS_NULL", "CHARACTER*1 %s(1,1)", NULL, "loom_f_argvs_null"},
    {"MPI_UNWEIGHTED", "INTEGER %s(1)", NULL, "loom_f_unweighted"},
    {"MPI_WEIGHTS_EMPTY", "INTEGER %s(1)", NULL, "loom_f_weights_empty"},
};

/* The Fortran predefined procedures that mpif.h declares EXTERNAL (their code is libloom's,
 * src/api/fortran_callbacks.h). */
static const char *const procedures[] = {
    "MPI_COMM_NULL_COPY_FN", "MPI_COMM_NULL_DELETE_FN", "MPI_COMM_DUP_FN",
    "MPI_TYPE_NULL_COPY_FN", "MPI_TYPE_NULL_DELETE_FN", "MPI_TYPE_DUP_FN",
    "MPI_WIN_NULL_COPY_FN",  "MPI_WIN_NULL_DELETE_FN",  "MPI_WIN_DUP_FN",
    "MPI_NULL_COPY_FN",      "MPI_NULL_DELETE_FN",      "MPI_DUP_FN",
};

static void line(FILE *f, const char *text)
{
    if (strlen(text) > 72) {
        fprintf(stderr, "loom-fconst: longer than 72 columns: %s\n", text);
        exit(1);
    }
    fprintf(f, "%s\n", text);
}

static void params(FILE *f)
{
    char buf[128];
    for (size_t i = 0; i < sizeof constants / sizeof constants[0]; i++) {
        snprintf(buf, sizeof buf, "      INTEGER %s", constants[i].name);
        line(f, buf);
        snprintf(buf, sizeof buf, "      PARAMETER (%s=%lld)", constants[i].name,
                 constants[i].value);
        line(f, buf);
    }
}

static void int_handles(FILE *f)
{
    char buf[128];
    for (size_t i = 0; i < sizeof handles / sizeof handles[0]; i++) {
        snprintf(buf, sizeof buf, "      INTEGER %s", handles[i].name);
        line(f, buf);
        snprintf(buf, sizeof buf, "      PARAMETER (%s=%d)", handles[i].name, handles[i].value);
        line(f, buf);
    }
}

static void common_sentinels(FILE *f, int f08)
{
    char buf[128], decl[96];
    for (size_t i = 0; i < sizeof sentinels / sizeof sentinels[0]; i++) {
        const char *d = f08 && sentinels[i].f08decl ? sentinels[i].f08decl : sentinels[i].decl;
        snprintf(decl, sizeof decl, d, sentinels[i].name);
        snprintf(buf, sizeof buf, "      %s", decl);
        line(f, buf);
        snprintf(buf, sizeof buf, "      COMMON /%s/ %s", sentinels[i].common, sentinels[i].name);
        line(f, buf);
    }
}

static FILE *open_out(const char *path)
{
    FILE *f = fopen(path, "w");
    if (!f) {
        perror(path);
        exit(1);
    }
    return f;
}

static void close_out(FILE *f, const char *path)
{
    if (fclose(f) != 0) {
        perror(path);
        exit(1);
    }
}

int main(int argc, char **argv)
{
    const char *head = "! Generated by loom-fconst from mpi.h: do not edit.";
    char buf[128];
    for (int i = 1; i + 1 < argc; i += 2) {
        const char *opt = argv[i], *path = argv[i + 1];
        FILE *f = open_out(path);
        line(f, head);
        if (strcmp(opt, "--params") == 0) {
            params(f);
            int_handles(f);
        } else if (strcmp(opt, "--sentinels") == 0) {
            common_sentinels(f, 0);
        } else if (strcmp(opt, "--f08-sentinels") == 0) {
            common_sentinels(f, 1);
        } else if (strcmp(opt, "--f08") == 0) {
            params(f);
            for (size_t k = 0; k < sizeof handles / sizeof handles[0]; k++) {
                snprintf(buf, sizeof buf, "      TYPE(MPI_%s) %s", handles[k].type,
                         handles[k].name);
                line(f, buf);
                snprintf(buf, sizeof buf, "      PARAMETER (%s=MPI_%s(%d))", handles[k].name,
                         handles[k].type, handles[k].value);
                line(f, buf);
            }
            line(f, "      LOGICAL MPI_SUBARRAYS_SUPPORTED");
            line(f, "      PARAMETER (MPI_SUBARRAYS_SUPPORTED=.FALSE.)");
            line(f, "      LOGICAL MPI_ASYNC_PROTECTS_NONBLOCKING");
            line(f, "      PARAMETER (MPI_ASYNC_PROTECTS_NONBLOCKING=.FALSE.)");
        } else if (strcmp(opt, "--mpif") == 0) {
            line(f, "! mpif.h: loom's MPI for Fortran 77 programs (gfortran).");
            line(f, "! Valid as fixed form and as free form.");
            params(f);
            int_handles(f);
            common_sentinels(f, 0);
            line(f, "      DOUBLE PRECISION MPI_WTIME, MPI_WTICK");
            line(f, "      EXTERNAL MPI_WTIME, MPI_WTICK");
            line(f, "      INTEGER(KIND=MPI_ADDRESS_KIND) MPI_AINT_ADD");
            line(f, "      INTEGER(KIND=MPI_ADDRESS_KIND) MPI_AINT_DIFF");
            line(f, "      EXTERNAL MPI_AINT_ADD, MPI_AINT_DIFF");
            for (size_t k = 0; k < sizeof procedures / sizeof procedures[0]; k++) {
                snprintf(buf, sizeof buf, "      EXTERNAL %s", procedures[k]);
                line(f, buf);
            }
        } else {
            fprintf(stderr, "usage: loom-fconst [--mpif F] [--params F] [--f08 F] "
                            "[--sentinels F] [--f08-sentinels F]\n");
            return 2;
        }
        close_out(f, path);
    }
    return 0;
}
