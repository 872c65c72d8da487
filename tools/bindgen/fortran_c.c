/* fortran_c.c — the Fortran entry points in libloom (mpi_fbindings.c): for every call with a
 * generated Fortran binding, `mpi_xxx_` (weak) and `pmpi_xxx_`, gfortran's names for MPI_XXX
 * and PMPI_XXX. Every argument comes by reference, IERROR last, then the hidden lengths of
 * the CHARACTER arguments (size_t). One static function per call converts (fortran_types.c
 * says how, per parameter) and calls the C binding it is given: mpi_xxx_ calls MPI_Xxx, so
 * that a C profiling tool sees the program's Fortran calls too, pmpi_xxx_ calls PMPI_Xxx.
 * The helpers (loom__fortran_*) are in src/fortran/fortran.h. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "bindgen.h"

/* The entry point's parameter list; with `names` only the names, for a call. */
static void entry_params(struct out *o, const struct call *c, const struct fparam *f, int names)
{
    int first = 1;
    for (int i = 0; i < c->nparams; i++) {
        const struct fparam *x = &f[i];
        const char *n = x->p->name;
        if (x->kind == FK_DROP)
            continue;
        bg_emit(o, "%s", first ? "" : ", ");
        first = 0;
        if (names) {
            bg_emit(o, "%s", n);
            continue;
        }
        const char *k = x->is_const ? "const " : "";
        switch (x->kind) {
        case FK_VAL:
        case FK_LOGICAL:
            bg_emit(o, "const %s *%s", x->ctype, n);
            break;
        case FK_PTR:
        case FK_LOGICAL_PTR:
        case FK_INDEX:
            if (x->array == 3)
                bg_emit(o, "%s%s (*%s)[3]", k, x->ctype, n);
            else
                bg_emit(o, "%s%s *%s", k, x->ctype, n);
            break;
        case FK_HANDLE:
        case FK_STATUS_IN:
            bg_emit(o, "const MPI_Fint *%s", n);
            break;
        case FK_HANDLE_PTR:
        case FK_HANDLE_ARR:
        case FK_STATUS:
        case FK_STATUSES:
            bg_emit(o, "%sMPI_Fint *%s", k, n);
            break;
        case FK_BUF:
            bg_emit(o, "%svoid *%s", k, n);
            break;
        case FK_STR_IN:
            bg_emit(o, "const char *%s", n);
            break;
        case FK_STR_OUT:
            bg_emit(o, "char *%s", n);
            break;
        case FK_DROP:
            break;
        }
    }
    if (strcmp(c->ret, "int") == 0)
        bg_emit(o, "%s%s", first ? "" : ", ", names ? "ierror" : "MPI_Fint *ierror");
    for (int i = 0; i < c->nparams; i++)
        if (f[i].kind == FK_STR_IN || f[i].kind == FK_STR_OUT)
            bg_emit(o, ", %s%s_len", names ? "" : "size_t ", f[i].p->name);
}

/* Before the call: the C values of the arguments that need converting. */
static void emit_pre(struct out *o, const struct fparam *x, int *allocs)
{
    const char *n = x->p->name;
    switch (x->kind) {
    case FK_HANDLE_PTR:
        bg_emit(o, "    MPI_%s h_%s = loom__mpi_%s_f2c(*%s), h0_%s = h_%s;\n", x->handle, n,
                x->conv, n, n, n);
        break;
    case FK_HANDLE_ARR:
        bg_emit(o, "    int n_%s = %s;\n", n, x->expr);
        bg_emit(o, "    MPI_%s l_%s[LOOM_F_LOCAL];\n", x->handle, n);
        bg_emit(o, "    MPI_%s *a_%s = loom__fortran_array_in(l_%s, sizeof l_%s, n_%s, "
                   "sizeof *a_%s);\n", x->handle, n, n, n, n, n);
        bg_emit(o, "    for (int k = 0; a_%s && k < n_%s; k++)\n", n, n);
        bg_emit(o, "        a_%s[k] = loom__mpi_%s_f2c(%s[k]);\n", n, x->conv, n);
        bg_emit(o, "    loom_err |= !a_%s;\n", n);
        *allocs = 1;
        break;
    case FK_STATUS:
        bg_emit(o, "    MPI_Status s_%s;\n    memset(&s_%s, 0, sizeof s_%s);\n", n, n, n);
        bg_emit(o, "    MPI_Status *c_%s = loom__fortran_status_ignored(%s) ? "
                   "MPI_STATUS_IGNORE : &s_%s;\n", n, n, n);
        bg_emit(o, "    if (c_%s != MPI_STATUS_IGNORE)\n", n);
        bg_emit(o, "        loom__mpi_status_f2c(%s, c_%s);\n", n, n);
        break;
    case FK_STATUS_IN:
        bg_emit(o, "    MPI_Status s_%s;\n    memset(&s_%s, 0, sizeof s_%s);\n", n, n, n);
        bg_emit(o, "    loom__mpi_status_f2c(%s, &s_%s);\n", n, n);
        break;
    case FK_STATUSES:
        bg_emit(o, "    int n_%s = %s;\n", n, x->expr);
        bg_emit(o, "    int ign_%s = loom__fortran_statuses_ignored(%s);\n", n, n);
        bg_emit(o, "    MPI_Status l_%s[LOOM_F_LOCAL];\n", n);
        bg_emit(o, "    MPI_Status *a_%s = ign_%s ? MPI_STATUSES_IGNORE : "
                   "loom__fortran_array_in(l_%s, sizeof l_%s, n_%s, sizeof(MPI_Status));\n",
                n, n, n, n, n);
        bg_emit(o, "    loom_err |= !a_%s;\n", n);
        *allocs = 1;
        break;
    case FK_INDEX:
        if (!x->array)
            bg_emit(o, "    *%s = MPI_UNDEFINED; /* stays so when the call sets none */\n", n);
        break;
    case FK_STR_IN:
        bg_emit(o, "    char *c_%s = loom__fortran_cstr(%s, %s_len);\n", n, n, n);
        bg_emit(o, "    loom_err |= !c_%s;\n", n);
        *allocs = 1;
        break;
    case FK_STR_OUT:
        bg_emit(o, "    char *c_%s = loom__fortran_out_buf(%s_len);\n", n, n);
        bg_emit(o, "    loom_err |= !c_%s;\n", n);
        *allocs = 1;
        break;
    default:
        break;
    }
}

/* The C argument of one parameter. */
static void emit_arg(struct out *o, const struct fparam *x)
{
    const char *n = x->p->name;
    switch (x->kind) {
    case FK_VAL:
        bg_emit(o, "*%s", n);
        break;
    case FK_LOGICAL:
        bg_emit(o, "*%s != 0", n);
        break;
    case FK_PTR:
        if (strstr(n, "weights"))
            bg_emit(o, "loom__fortran_weights(%s)", n);
        else
            bg_emit(o, "%s", n);
        break;
    case FK_LOGICAL_PTR:
    case FK_INDEX:
        bg_emit(o, "%s", n);
        break;
    case FK_HANDLE:
        bg_emit(o, "loom__mpi_%s_f2c(*%s)", x->conv, n);
        break;
    case FK_HANDLE_PTR:
        bg_emit(o, "&h_%s", n);
        break;
    case FK_HANDLE_ARR:
    case FK_STATUSES:
        bg_emit(o, "a_%s", n);
        break;
    case FK_STATUS:
        bg_emit(o, "c_%s", n);
        break;
    case FK_STATUS_IN:
        bg_emit(o, "&s_%s", n);
        break;
    case FK_BUF:
        bg_emit(o, "loom__fortran_buf(%s)", n);
        break;
    case FK_STR_IN:
    case FK_STR_OUT:
        bg_emit(o, "c_%s", n);
        break;
    case FK_DROP:
        bg_emit(o, "%s", x->expr);
        break;
    }
}

/* After the call: results back into Fortran's form. */
static void emit_post(struct out *o, const struct fparam *x)
{
    const char *n = x->p->name;
    switch (x->kind) {
    case FK_HANDLE_PTR:
        bg_emit(o, "    if (h_%s != h0_%s)\n        *%s = loom__mpi_%s_c2f(h_%s);\n", n, n, n,
                x->conv, n);
        break;
    case FK_HANDLE_ARR:
        if (!x->is_const) {
            bg_emit(o, "    for (int k = 0; a_%s && k < n_%s; k++)\n", n, n);
            bg_emit(o, "        if (a_%s[k] != loom__mpi_%s_f2c(%s[k]))\n", n, x->conv, n);
            bg_emit(o, "            %s[k] = loom__mpi_%s_c2f(a_%s[k]);\n", n, x->conv, n);
        }
        bg_emit(o, "    loom__fortran_array_done(a_%s, l_%s);\n", n, n);
        break;
    case FK_STATUS:
        bg_emit(o, "    if (c_%s != MPI_STATUS_IGNORE)\n", n);
        bg_emit(o, "        loom__mpi_status_c2f(c_%s, %s);\n", n, n);
        break;
    case FK_STATUSES:
        bg_emit(o, "    if (!ign_%s) {\n", n);
        bg_emit(o, "        for (int k = 0; a_%s && k < n_%s; k++)\n", n, n);
        bg_emit(o, "            loom__mpi_status_c2f(&a_%s[k], %s + k * MPI_F_STATUS_SIZE);\n",
                n, n);
        bg_emit(o, "        loom__fortran_array_done(a_%s, l_%s);\n    }\n", n, n);
        break;
    case FK_LOGICAL_PTR:
        if (!x->array)
            bg_emit(o, "    *%s = *%s != 0; /* gfortran's .TRUE. is 1 */\n", n, n);
        break;
    case FK_INDEX:
        if (!x->array)
            bg_emit(o, "    if (*%s >= 0)\n        ++*%s;\n", n, n);
        else {
            bg_emit(o, "    if (loom_err == MPI_SUCCESS || loom_err == MPI_ERR_IN_STATUS)\n");
            bg_emit(o, "        for (int k = 0; %s != MPI_UNDEFINED && k < %s; k++)\n",
                    x->expr, x->expr);
            bg_emit(o, "            %s[k]++;\n", n);
        }
        break;
    case FK_STR_IN:
        bg_emit(o, "    free(c_%s);\n", n);
        break;
    case FK_STR_OUT:
        bg_emit(o, "    if (loom_err == MPI_SUCCESS)\n");
        bg_emit(o, "        loom__fortran_fstr(%s, %s_len, c_%s);\n", n, n, n);
        bg_emit(o, "    free(c_%s);\n", n);
        break;
    default:
        break;
    }
}

static void gen_call(struct out *o, const struct call *c)
{
    struct fparam f[MAX_PARAMS];
    bg_fortran_params(c, f);
    char lower[128];
    snprintf(lower, sizeof lower, "%s", bg_lower(c->name));
    int sub = strcmp(c->ret, "int") == 0;
    const char *ret = sub ? "void" : c->ret;

    /* the conversion, once, given the C binding to call */
    struct out p = {0}, a = {0};
    entry_params(&p, c, f, 0);
    entry_params(&a, c, f, 1);
    char prefix[96], name[136], fnparam[160];
    snprintf(prefix, sizeof prefix, "static %s ", ret);
    bg_emit(o, "\n");
    snprintf(name, sizeof name, "f_%s", lower + 4);
    snprintf(fnparam, sizeof fnparam, "__typeof__(%s) *fn%s", c->name, p.len ? ", " : "");
    struct out all = {0};
    bg_emit(&all, "%s%s", fnparam, p.len ? p.buf : "");
    bg_emit_decl(o, prefix, name, all.buf, "");
    free(all.buf);
    bg_emit(o, "{\n");
    if (!sub) {
        bg_emit(o, "    return fn(");
        for (int i = 0; i < c->nparams; i++) {
            bg_emit(o, "%s", i ? ", " : "");
            emit_arg(o, &f[i]);
        }
        bg_emit(o, ");\n}\n");
    } else {
        /* a call that allocates (arrays, strings) first notes in loom_err whether it could */
        int allocs = 0;
        struct out pre = {0};
        for (int i = 0; i < c->nparams; i++)
            emit_pre(&pre, &f[i], &allocs);
        if (allocs)
            bg_emit(o, "    int loom_err = 0; /* 1: out of memory before the call */\n");
        if (pre.len)
            bg_emit(o, "%s", pre.buf);
        free(pre.buf);
        if (allocs)
            bg_emit(o, "    loom_err = loom_err ? loom__fortran_nomem(\"%s\") : ", c->name);
        else
            bg_emit(o, "    int loom_err = ");
        bg_emit(o, "fn(");
        for (int i = 0; i < c->nparams; i++) {
            bg_emit(o, "%s", i ? ", " : "");
            emit_arg(o, &f[i]);
        }
        bg_emit(o, ");\n");
        for (int i = 0; i < c->nparams; i++)
            emit_post(o, &f[i]);
        bg_emit(o, "    *ierror = loom_err;\n}\n");
    }

    /* the two entry points */
    const char *params = p.len ? p.buf : "void";
    const char *args = a.len ? a.buf : "";
    snprintf(prefix, sizeof prefix, "LOOM_API __attribute__((weak)) %s ", ret);
    snprintf(name, sizeof name, "%s_", lower);
    bg_emit_decl(o, prefix, name, params, "");
    bg_emit(o, "{\n    %sf_%s(%s%s%s);\n}\n", sub ? "" : "return ", lower + 4, c->name,
            a.len ? ", " : "", args);
    snprintf(prefix, sizeof prefix, "LOOM_API %s ", ret);
    snprintf(name, sizeof name, "p%s_", lower);
    bg_emit_decl(o, prefix, name, params, "");
    bg_emit(o, "{\n    %sf_%s(P%s%s%s);\n}\n", sub ? "" : "return ", lower + 4, c->name,
            a.len ? ", " : "", args);
    free(p.buf);
    free(a.buf);
}

void bg_gen_fortran_c(struct out *o)
{
    bg_emit(o, "/* mpi_fbindings.c — the Fortran entry points mpi_xxx_ and pmpi_xxx_ "
               "(docs/fortran.md).\n * %s */\n",
            bg_generated);
    bg_emit(o, "#include <stdlib.h>\n#include <string.h>\n#include \"mpi_impl.h\"\n"
               "#include \"fortran/fortran.h\"\n");
    for (int i = 0; i < bg_ncalls; i++)
        if (bg_fortran_generated(&bg_calls[i]))
            gen_call(o, &bg_calls[i]);
}

/* The Fortran entry points libloom must export, one per line (generated and hand-written):
 * tests/fortran checks the library against it. */
void bg_gen_fortran_list(struct out *o)
{
    for (int i = 0; i < bg_ncalls; i++)
        if (bg_fortran_generated(&bg_calls[i]) || bg_calls[i].fortran_hand)
            bg_emit(o, "%s_\n", bg_lower(bg_calls[i].name));
}
