/* fortran_mod.c — the Fortran sources of the two modules, from the same description and the
 * same parameter rules as the C entry points (fortran_types.c):
 *   mpi_module.f90  module `mpi`: the constants (mpi_consts.h, made by loom-fconst), the
 *                   sentinels as COMMON blocks, and an explicit interface for every call with
 *                   a generated binding (not the _c forms: module mpi has no big counts);
 *                   choice buffers TYPE(*), DIMENSION(*) with NO_ARG_CHECK
 *   mpi_f08.f90     module `mpi_f08`: the handle types, TYPE(MPI_Status), == and /=, the
 *                   constants (mpi_f08_consts.h), and one module procedure per call that
 *                   calls the C entry point mpi_xxx_ through a BIND(C) interface; IERROR is
 *                   OPTIONAL; an int call and its _c form are one generic name.
 * Both are compiled into libloom-fortran (src/fortran/CMakeLists.txt). */
#include <stdio.h>
#include <string.h>
#include "bindgen.h"

/* One Fortran statement, continued with `&` so that no line passes 100 columns. */
static void stmt(struct out *o, int indent, const char *text)
{
    size_t col = (size_t)indent;
    bg_emit(o, "%*s", indent, "");
    for (const char *p = text; *p;) {
        const char *q = strstr(p, ", ");
        size_t n = q ? (size_t)(q - p) + 2 : strlen(p);
        if (col + n > 98 && col > (size_t)indent + 8) {
            bg_emit(o, "&\n%*s", indent + 6, "");
            col = (size_t)indent + 6;
        }
        bg_emit(o, "%.*s", (int)n, p);
        col += n;
        p += n;
    }
    bg_emit(o, "\n");
}

static const char *kinds_import = "IMPORT :: MPI_ADDRESS_KIND, MPI_COUNT_KIND, MPI_STATUS_SIZE";

/* Declarations of the dummy arguments, one per line. `inner`: of the BIND(C) interface of the
 * C entry point (no INTENT, CHARACTER as C_CHAR arrays, the lengths by value). */
static void declare(struct out *o, int indent, const struct call *c, const struct fparam *f,
                    int f08, int inner)
{
    char line[256];
    for (int i = 0; i < c->nparams; i++) {
        const struct fparam *x = &f[i];
        if (x->kind == FK_DROP)
            continue;
        const char *dims, *t = bg_fortran_type(x, f08, &dims);
        if (x->kind == FK_BUF)
            bg_emit(o, "%*s!GCC$ ATTRIBUTES NO_ARG_CHECK :: %s\n", indent, "", x->p->name);
        const char *intent = "";
        if (!inner && f08 &&
            (x->kind == FK_VAL || x->kind == FK_LOGICAL || x->kind == FK_HANDLE ||
             x->kind == FK_STATUS_IN || x->kind == FK_STR_IN ||
             (x->is_const && x->kind != FK_BUF)))
            intent = ", INTENT(IN)";
        if (inner && (x->kind == FK_STR_IN || x->kind == FK_STR_OUT)) {
            t = "CHARACTER(KIND=C_CHAR)";
            dims = "(*)";
        }
        snprintf(line, sizeof line, "%s%s :: %s%s", t, intent, x->p->name, dims);
        stmt(o, indent, line);
    }
}

/* "a, b, ierror" with the names of the Fortran arguments (`call`: as passed to the C entry
 * point from the f08 procedure: ierr for ierror, the CHARACTER lengths after it). */
static void arglist(char *buf, size_t size, const struct call *c, const struct fparam *f,
                    int sub, int call, int lens)
{
    size_t k = 0;
    buf[0] = '\0';
    for (int i = 0; i < c->nparams; i++)
        if (f[i].kind != FK_DROP)
            k += (size_t)snprintf(buf + k, size - k, "%s%s", k ? ", " : "", f[i].p->name);
    if (sub)
        k += (size_t)snprintf(buf + k, size - k, "%s%s", k ? ", " : "", call ? "ierr" : "ierror");
    for (int i = 0; lens && i < c->nparams; i++)
        if (f[i].kind == FK_STR_IN || f[i].kind == FK_STR_OUT)
            k += (size_t)snprintf(buf + k, size - k, ", %s%s%s", call ? "LEN(" : "",
                                  f[i].p->name, call ? ", KIND=C_SIZE_T)" : "_len");
}

static const char *ftype_ret(const struct call *c)
{
    if (strcmp(c->ret, "double") == 0)
        return "DOUBLE PRECISION";
    if (strcmp(c->ret, "MPI_Aint") == 0)
        return "INTEGER(KIND=MPI_ADDRESS_KIND)";
    return NULL;
}

static int is_c_form(const struct call *c)
{
    size_t n = strlen(c->name);
    return n > 2 && strcmp(c->name + n - 2, "_c") == 0;
}

void bg_gen_fortran_mpi(struct out *o)
{
    bg_emit(o, "! mpi_module.f90 — module mpi (docs/fortran.md). %s\n", bg_generated);
    bg_emit(o, "MODULE mpi\n  USE loom_mpi_sizeof ! MPI_SIZEOF, MPI_F_SYNC_REG (src/fortran)\n"
               "  IMPLICIT NONE\n  INCLUDE 'mpi_consts.h'\n"
               "  INCLUDE 'mpi_sentinels.h'\n"
               "  ! the calls written by hand (src/fortran/): procedures, attribute values\n"
               "  INCLUDE 'mpi_hand.h'\n");
    char buf[MAX_TEXT * 2], line[MAX_TEXT * 2 + 256];
    struct fparam f[MAX_PARAMS];
    for (int i = 0; i < bg_ncalls; i++) {
        const struct call *c = &bg_calls[i];
        if (!bg_fortran_generated(c) || is_c_form(c))
            continue;
        bg_fortran_params(c, f);
        int sub = strcmp(c->ret, "int") == 0;
        arglist(buf, sizeof buf, c, f, sub, 0, 0);
        bg_emit(o, "  INTERFACE\n");
        if (sub)
            snprintf(line, sizeof line, "SUBROUTINE %s(%s)", c->name, buf);
        else
            snprintf(line, sizeof line, "%s FUNCTION %s(%s)", ftype_ret(c), c->name, buf);
        stmt(o, 4, line);
        bg_emit(o, "      %s\n", kinds_import);
        declare(o, 6, c, f, 0, 0);
        if (sub)
            bg_emit(o, "      INTEGER :: ierror\n    END SUBROUTINE\n");
        else
            bg_emit(o, "    END FUNCTION\n");
        bg_emit(o, "  END INTERFACE\n");
    }
    bg_emit(o, "END MODULE mpi\n");
}

/* The Fortran signature of a call (the types of its arguments in order), to tell whether an
 * int call and its _c form can share one generic name. */
static void signature(char *buf, size_t size, const struct call *c)
{
    struct fparam f[MAX_PARAMS];
    bg_fortran_params(c, f);
    size_t k = 0;
    buf[0] = '\0';
    for (int i = 0; i < c->nparams && k < size; i++) {
        if (f[i].kind == FK_DROP || f[i].kind == FK_BUF)
            continue;
        const char *dims, *t = bg_fortran_type(&f[i], 1, &dims);
        /* MPI_ADDRESS_KIND and MPI_COUNT_KIND are both 8: one kind to the compiler */
        if (strstr(t, "_KIND"))
            t = "INTEGER(KIND=8)";
        k += (size_t)snprintf(buf + k, size - k, "%s%s;", t, dims);
    }
}

static const struct call *find(const char *name)
{
    for (int i = 0; i < bg_ncalls; i++)
        if (strcmp(bg_calls[i].name, name) == 0)
            return &bg_calls[i];
    return NULL;
}

static void f08_procedure(struct out *o, const struct call *c)
{
    char buf[MAX_TEXT * 2], line[MAX_TEXT * 2 + 256];
    struct fparam f[MAX_PARAMS];
    bg_fortran_params(c, f);
    int sub = strcmp(c->ret, "int") == 0;
    char spec[112];
    snprintf(spec, sizeof spec, "%.96s_f08", c->name);
    arglist(buf, sizeof buf, c, f, sub, 0, 0);
    bg_emit(o, "\n");
    if (sub)
        snprintf(line, sizeof line, "SUBROUTINE %s(%s)", spec, buf);
    else
        snprintf(line, sizeof line, "%s FUNCTION %s(%s)", ftype_ret(c), spec, buf);
    stmt(o, 2, line);
    declare(o, 4, c, f, 1, 0);
    if (sub)
        bg_emit(o, "    INTEGER, OPTIONAL, INTENT(OUT) :: ierror\n    INTEGER :: ierr\n");
    bg_emit(o, "    INTERFACE\n");
    arglist(buf, sizeof buf, c, f, sub, 0, 1);
    if (sub)
        snprintf(line, sizeof line, "SUBROUTINE c(%s) BIND(C, name='%s_')", buf,
                 bg_lower(c->name));
    else
        snprintf(line, sizeof line, "%s FUNCTION c(%s) BIND(C, name='%s_')",
                 strcmp(c->ret, "double") == 0 ? "REAL(KIND=C_DOUBLE)"
                                               : "INTEGER(KIND=MPI_ADDRESS_KIND)",
                 buf, bg_lower(c->name));
    stmt(o, 6, line);
    bg_emit(o, "        IMPORT\n");
    declare(o, 8, c, f, 1, 1);
    if (sub)
        bg_emit(o, "        INTEGER :: ierror\n");
    for (int i = 0; i < c->nparams; i++)
        if (f[i].kind == FK_STR_IN || f[i].kind == FK_STR_OUT)
            bg_emit(o, "        INTEGER(KIND=C_SIZE_T), VALUE :: %s_len\n", f[i].p->name);
    bg_emit(o, "      END %s\n    END INTERFACE\n", sub ? "SUBROUTINE" : "FUNCTION");
    arglist(buf, sizeof buf, c, f, sub, 1, 1);
    if (sub) {
        snprintf(line, sizeof line, "CALL c(%s)", buf);
        stmt(o, 4, line);
        bg_emit(o, "    IF (PRESENT(ierror)) ierror = ierr\n  END SUBROUTINE\n");
    } else {
        snprintf(line, sizeof line, "%s = c(%s)", spec, buf);
        stmt(o, 4, line);
        bg_emit(o, "  END FUNCTION\n");
    }
}

static const char *const handle_types[] = {"Comm", "Datatype", "Group", "Request",
                                           "Op", "Info", "Errhandler", "Message",
                                           "Session", "Win", "File"};
enum { NHANDLE_TYPES = sizeof handle_types / sizeof handle_types[0] };

void bg_gen_fortran_f08(struct out *o)
{
    bg_emit(o, "! mpi_f08.f90 — module mpi_f08 (docs/fortran.md). %s\n", bg_generated);
    bg_emit(o, "MODULE mpi_f08\n  USE loom_mpi_sizeof ! MPI_SIZEOF, MPI_F_SYNC_REG (src/fortran)\n"
               "  USE, INTRINSIC :: ISO_C_BINDING, ONLY: C_CHAR, C_SIZE_T, "
               "C_DOUBLE, C_FUNPTR, C_FUNLOC\n  IMPLICIT NONE\n"
               "  PRIVATE :: C_CHAR, C_SIZE_T, C_DOUBLE, C_FUNPTR, C_FUNLOC\n");
    /* the handles: one INTEGER each, the Fortran handle of mpif.h and module mpi */
    for (int k = 0; k < NHANDLE_TYPES; k++)
        bg_emit(o, "  TYPE, BIND(C) :: MPI_%s\n    INTEGER :: MPI_VAL\n  END TYPE\n",
                handle_types[k]);
    bg_emit(o, "  ! laid out as MPI_F08_status of mpi.h: MPI_F_STATUS_SIZE integers\n"
               "  TYPE, BIND(C) :: MPI_Status\n"
               "    INTEGER :: MPI_SOURCE, MPI_TAG, MPI_ERROR\n"
               "    INTEGER :: loom_internal(3)\n  END TYPE\n");
    bg_emit(o, "  INCLUDE 'mpi_f08_consts.h'\n  INCLUDE 'mpi_f08_sentinels.h'\n");
    bg_emit(o, "  INTERFACE OPERATOR(==)\n");
    for (int k = 0; k < NHANDLE_TYPES; k++)
        bg_emit(o, "    MODULE PROCEDURE loom_eq_%s\n", bg_lower(handle_types[k]));
    bg_emit(o, "  END INTERFACE\n  INTERFACE OPERATOR(/=)\n");
    for (int k = 0; k < NHANDLE_TYPES; k++)
        bg_emit(o, "    MODULE PROCEDURE loom_ne_%s\n", bg_lower(handle_types[k]));
    bg_emit(o, "  END INTERFACE\n");
    for (int k = 0; k < NHANDLE_TYPES; k++)
        bg_emit(o, "  PRIVATE :: loom_eq_%s, loom_ne_%s\n", bg_lower(handle_types[k]),
                bg_lower(handle_types[k]));
    bg_emit(o, "  ! the calls written by hand (src/fortran/): procedures, attribute values\n"
               "  INCLUDE 'mpi_f08_hand_spec.h'\n");

    /* generic names: MPI_Xxx is MPI_Xxx_f08 and, when they can be told apart, MPI_Xxx_c_f08 */
    char sa[MAX_TEXT * 2], sb[MAX_TEXT * 2], name[128];
    for (int i = 0; i < bg_ncalls; i++) {
        const struct call *c = &bg_calls[i];
        if (!bg_fortran_generated(c))
            continue;
        const struct call *twin = NULL, *base = NULL;
        if (is_c_form(c)) {
            snprintf(name, sizeof name, "%.*s", (int)strlen(c->name) - 2, c->name);
            base = find(name);
            if (base && bg_fortran_generated(base)) {
                signature(sa, sizeof sa, base);
                signature(sb, sizeof sb, c);
                if (strcmp(sa, sb) != 0)
                    continue; /* listed under the int call's name */
            }
            bg_emit(o, "  INTERFACE %s\n    MODULE PROCEDURE %s_f08\n  END INTERFACE\n",
                    c->name, c->name);
            continue;
        }
        snprintf(name, sizeof name, "%s_c", c->name);
        twin = find(name);
        if (twin && bg_fortran_generated(twin)) {
            signature(sa, sizeof sa, c);
            signature(sb, sizeof sb, twin);
            if (strcmp(sa, sb) == 0)
                twin = NULL;
        } else
            twin = NULL;
        bg_emit(o, "  INTERFACE %s\n    MODULE PROCEDURE %s_f08", c->name, c->name);
        if (twin)
            bg_emit(o, ", %s_f08", twin->name);
        bg_emit(o, "\n  END INTERFACE\n");
        bg_emit(o, "  PRIVATE :: %s_f08\n", c->name);
        if (twin)
            bg_emit(o, "  PRIVATE :: %s_f08\n", twin->name);
    }
    bg_emit(o, "CONTAINS\n  INCLUDE 'mpi_f08_hand.h'\n");
    for (int k = 0; k < NHANDLE_TYPES; k++) {
        const char *t = handle_types[k], *l = bg_lower(t);
        char low[32];
        snprintf(low, sizeof low, "%s", l);
        bg_emit(o, "\n  ELEMENTAL LOGICAL FUNCTION loom_eq_%s(a, b)\n"
                   "    TYPE(MPI_%s), INTENT(IN) :: a, b\n"
                   "    loom_eq_%s = a%%MPI_VAL == b%%MPI_VAL\n  END FUNCTION\n",
                low, t, low);
        bg_emit(o, "  ELEMENTAL LOGICAL FUNCTION loom_ne_%s(a, b)\n"
                   "    TYPE(MPI_%s), INTENT(IN) :: a, b\n"
                   "    loom_ne_%s = a%%MPI_VAL /= b%%MPI_VAL\n  END FUNCTION\n",
                low, t, low);
    }
    for (int i = 0; i < bg_ncalls; i++)
        if (bg_fortran_generated(&bg_calls[i]))
            f08_procedure(o, &bg_calls[i]);
    bg_emit(o, "END MODULE mpi_f08\n");
}
