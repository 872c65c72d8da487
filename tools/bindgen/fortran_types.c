/* fortran_types.c — how each parameter of a C prototype crosses from Fortran to C: one rule
 * per C type (and, where the type cannot tell, an `@fortran` note of the call), shared by the
 * C entry points (fortran_c.c) and the two modules (fortran_mod.c), so that the conversion
 * and the declaration Fortran sees cannot disagree. A parameter no rule knows stops the build:
 * each new call is classified when it is described. */
#include <ctype.h>
#include <stdio.h>
#include <string.h>
#include "bindgen.h"

/* The handle kinds: C type, name in loom__mpi_X_f2c / _c2f. */
static const struct {
    const char *type, *conv;
} handles[] = {{"Comm", "comm"},     {"Datatype", "type"},     {"Group", "group"},
               {"Request", "request"}, {"Op", "op"},           {"Info", "info"},
               {"Errhandler", "errhandler"}, {"Message", "message"}, {"Session", "session"},
               {"Win", "win"}};
enum { NHANDLES = sizeof handles / sizeof handles[0] };

int bg_fortran_generated(const struct call *c)
{
    return c->fortran_skip[0] == '\0';
}

const char *bg_lower(const char *name)
{
    static char buf[128];
    size_t k = 0;
    for (; name[k] && k + 1 < sizeof buf; k++)
        buf[k] = (char)tolower((unsigned char)name[k]);
    buf[k] = '\0';
    return buf;
}

static const struct fortran_note *note(const struct call *c, const char *kind, const char *name)
{
    for (int i = 0; i < c->nfnotes; i++)
        if (strcmp(c->fnotes[i].kind, kind) == 0 && strcmp(c->fnotes[i].name, name) == 0)
            return &c->fnotes[i];
    return NULL;
}

/* The handle kind of "MPI_Comm", "MPI_Comm *", "const MPI_Comm []"...: its index, or -1. */
static int handle_kind(const char *type, const char **rest)
{
    if (strncmp(type, "const ", 6) == 0)
        type += 6;
    if (strncmp(type, "MPI_", 4) != 0)
        return -1;
    for (int k = 0; k < NHANDLES; k++) {
        size_t n = strlen(handles[k].type);
        if (strncmp(type + 4, handles[k].type, n) == 0 &&
            (type[4 + n] == '\0' || type[4 + n] == ' ')) {
            *rest = type + 4 + n;
            return k;
        }
    }
    return -1;
}

/* The default length of an array of handles or statuses: the call's count. */
static const char *count_of(const struct call *c)
{
    for (int i = 0; i < c->nparams; i++)
        if (strcmp(c->param[i].name, "count") == 0)
            return "*count";
    for (int i = 0; i < c->nparams; i++)
        if (strcmp(c->param[i].name, "incount") == 0)
            return "*incount";
    return NULL;
}

static const char *numeric(const char *t)
{
    if (strncmp(t, "const ", 6) == 0)
        t += 6;
    if (strncmp(t, "int", 3) == 0 && (t[3] == '\0' || t[3] == ' '))
        return "MPI_Fint";
    if (strncmp(t, "MPI_Aint", 8) == 0 && (t[8] == '\0' || t[8] == ' '))
        return "MPI_Aint";
    if (strncmp(t, "MPI_Count", 9) == 0 && (t[9] == '\0' || t[9] == ' '))
        return "MPI_Count";
    return NULL;
}

void bg_fortran_params(const struct call *c, struct fparam *f)
{
    for (int i = 0; i < c->nparams; i++) {
        const struct param *p = &c->param[i];
        const char *t = p->type, *rest = "";
        struct fparam *x = &f[i];
        memset(x, 0, sizeof *x);
        x->p = p;
        x->is_const = strncmp(t, "const ", 6) == 0;
        const struct fortran_note *n;
        if ((n = note(c, "drop", p->name))) {
            x->kind = FK_DROP;
            x->expr = n->expr;
            continue;
        }
        const struct fortran_note *len = note(c, "len", p->name);
        int h = handle_kind(t, &rest);
        const char *num = numeric(t);
        if (h >= 0) {
            x->handle = handles[h].type;
            x->conv = handles[h].conv;
            if (rest[0] == '\0')
                x->kind = FK_HANDLE;
            else if (strcmp(rest, " *") == 0)
                x->kind = FK_HANDLE_PTR;
            else if (strcmp(rest, " []") == 0) {
                x->kind = FK_HANDLE_ARR;
                x->array = 1;
                x->expr = len ? len->expr : count_of(c);
            } else
                bg_die(c->file, c->line, "%s: no Fortran rule for %s %s", c->name, t, p->name);
            if (x->kind == FK_HANDLE_ARR && !x->expr)
                bg_die(c->file, c->line, "%s: the length of %s? (@fortran len)", c->name,
                       p->name);
        } else if (num) {
            const char *after = t + (x->is_const ? 6 : 0) + (strcmp(num, "MPI_Fint") == 0 ? 3
                                                             : strlen(num));
            x->ctype = num;
            int logical = note(c, "logical", p->name) != NULL;
            const struct fortran_note *idx = note(c, "index", p->name);
            if (logical && strcmp(num, "MPI_Fint") != 0)
                bg_die(c->file, c->line, "%s: LOGICAL %s is not an int", c->name, p->name);
            if (*after == '\0') {
                x->kind = logical ? FK_LOGICAL : FK_VAL;
            } else {
                if (strcmp(after, " *") == 0)
                    x->array = 0;
                else if (strcmp(after, " []") == 0)
                    x->array = 1;
                else if (strcmp(after, " [][3]") == 0)
                    x->array = 3;
                else
                    bg_die(c->file, c->line, "%s: no Fortran rule for %s %s", c->name, t,
                           p->name);
                x->kind = logical ? FK_LOGICAL_PTR : idx ? FK_INDEX : FK_PTR;
                if (idx && x->array && !idx->expr[0])
                    bg_die(c->file, c->line, "%s: how many %s? (@fortran index NAME=EXPR)",
                           c->name, p->name);
                if (idx)
                    x->expr = idx->expr;
            }
        } else if (strcmp(t, "MPI_Status *") == 0) {
            if (strcmp(p->name, "status") == 0)
                x->kind = FK_STATUS;
            else {
                x->kind = FK_STATUSES;
                x->array = 1;
                x->expr = len ? len->expr : count_of(c);
                if (!x->expr)
                    bg_die(c->file, c->line, "%s: the length of %s? (@fortran len)", c->name,
                           p->name);
            }
        } else if (strcmp(t, "const MPI_Status *") == 0) {
            x->kind = FK_STATUS_IN;
        } else if (strcmp(t, "void *") == 0 || strcmp(t, "const void *") == 0) {
            x->kind = FK_BUF;
        } else if (strcmp(t, "const char *") == 0 || strcmp(t, "const char []") == 0) {
            x->kind = FK_STR_IN;
        } else if (strcmp(t, "char *") == 0) {
            x->kind = FK_STR_OUT;
        } else {
            bg_die(c->file, c->line,
                   "%s: no Fortran rule for %s %s (@fortran drop, skip or hand)", c->name, t,
                   p->name);
        }
    }
}

const char *bg_fortran_type(const struct fparam *f, int f08, const char **dims)
{
    static char buf[96];
    *dims = f->array == 3 ? "(3,*)" : f->array ? "(*)" : "";
    switch (f->kind) {
    case FK_VAL:
    case FK_PTR:
    case FK_INDEX:
        if (strcmp(f->ctype, "MPI_Aint") == 0)
            return "INTEGER(KIND=MPI_ADDRESS_KIND)";
        if (strcmp(f->ctype, "MPI_Count") == 0)
            return "INTEGER(KIND=MPI_COUNT_KIND)";
        return "INTEGER";
    case FK_LOGICAL:
    case FK_LOGICAL_PTR:
        return "LOGICAL";
    case FK_HANDLE:
    case FK_HANDLE_PTR:
    case FK_HANDLE_ARR:
        if (!f08)
            return "INTEGER";
        snprintf(buf, sizeof buf, "TYPE(MPI_%s)", f->handle);
        return buf;
    case FK_STATUS:
    case FK_STATUS_IN:
        if (f08)
            return "TYPE(MPI_Status)";
        *dims = "(MPI_STATUS_SIZE)";
        return "INTEGER";
    case FK_STATUSES:
        if (f08)
            return "TYPE(MPI_Status)";
        *dims = "(MPI_STATUS_SIZE,*)";
        return "INTEGER";
    case FK_BUF:
        *dims = "(*)";
        return "TYPE(*)";
    case FK_STR_IN:
    case FK_STR_OUT:
        return "CHARACTER(LEN=*)";
    case FK_DROP:
        break;
    }
    return NULL;
}
