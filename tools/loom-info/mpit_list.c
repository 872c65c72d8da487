/* tools/loom-info/mpit_list.c — `loom-info --mpit`: the MPI_T variables, listed through the
 * MPI_T calls a tool would make (MPI_T_init_thread, *_get_num, *_get_info, cvar reads), so
 * the listing shows exactly what a tool sees: each control variable with its value in
 * effect, whether it may be written at run time and, for a keyword, its words; each
 * performance variable with its class; the categories. Returns 0, or 1 if an MPI_T call
 * failed (message on stderr). */
#include <stdio.h>
#include <stdlib.h>

#include <mpi.h>

#include "mpit_list.h"

static int failed(const char *call, int rc)
{
    fprintf(stderr, "loom-info: %s failed (error class %d)\n", call, rc);
    return 1;
}

static const char *scope_name(int scope)
{
    return scope == MPI_T_SCOPE_CONSTANT ? "constant" : "writable at run time";
}

/* "inline|collaborative|thread": the words of enumeration e. */
static void print_enum(FILE *f, MPI_T_enum e)
{
    int n = 0;
    if (MPI_T_enum_get_info(e, &n, NULL, NULL) != MPI_SUCCESS)
        return;
    fputs("    items:", f);
    for (int k = 0; k < n; k++) {
        char word[128];
        int len = sizeof word, value;
        if (MPI_T_enum_get_item(e, k, &value, word, &len) == MPI_SUCCESS)
            fprintf(f, " %d=%s", value, word);
    }
    fputc('\n', f);
}

static int print_cvar(FILE *f, int i)
{
    char name[128], desc[1024];
    int name_len = sizeof name, desc_len = sizeof desc, verbosity, bind, scope, count, rc;
    MPI_Datatype type;
    MPI_T_enum e;
    MPI_T_cvar_handle h;
    rc = MPI_T_cvar_get_info(i, name, &name_len, &verbosity, &type, &e, desc, &desc_len, &bind,
                             &scope);
    if (rc != MPI_SUCCESS)
        return failed("MPI_T_cvar_get_info", rc);
    if ((rc = MPI_T_cvar_handle_alloc(i, NULL, &h, &count)) != MPI_SUCCESS)
        return failed("MPI_T_cvar_handle_alloc", rc);
    if (type == MPI_CHAR) {
        char *s = malloc((size_t)count); /* freed below */
        if (s && MPI_T_cvar_read(h, s) == MPI_SUCCESS)
            fprintf(f, "cvar %d %s = \"%s\" (string, %s)\n", i, name, s, scope_name(scope));
        free(s);
    } else if (type == MPI_UNSIGNED_LONG_LONG) {
        unsigned long long v = 0;
        MPI_T_cvar_read(h, &v);
        fprintf(f, "cvar %d %s = %llu (unsigned long long, %s)\n", i, name, v,
                scope_name(scope));
    } else {
        int v = 0;
        MPI_T_cvar_read(h, &v);
        fprintf(f, "cvar %d %s = %d (int, %s)\n", i, name, v, scope_name(scope));
    }
    MPI_T_cvar_handle_free(&h);
    fprintf(f, "    %s\n", desc);
    if (e != MPI_T_ENUM_NULL)
        print_enum(f, e);
    return 0;
}

static const char *class_name(int c)
{
    switch (c) {
    case MPI_T_PVAR_CLASS_COUNTER: return "counter";
    case MPI_T_PVAR_CLASS_LEVEL: return "level";
    case MPI_T_PVAR_CLASS_TIMER: return "timer";
    default: return "other";
    }
}

static int print_pvar(FILE *f, int i)
{
    char name[128], desc[1024];
    int name_len = sizeof name, desc_len = sizeof desc, verbosity, cls, bind, ro, cont, atomic;
    MPI_Datatype type;
    MPI_T_enum e;
    int rc = MPI_T_pvar_get_info(i, name, &name_len, &verbosity, &cls, &type, &e, desc,
                                 &desc_len, &bind, &ro, &cont, &atomic);
    if (rc != MPI_SUCCESS)
        return failed("MPI_T_pvar_get_info", rc);
    fprintf(f, "pvar %d %s (%s, unsigned long long, per calling rank)\n    %s\n", i, name,
            class_name(cls), desc);
    return 0;
}

static int print_category(FILE *f, int c)
{
    char name[64], desc[256];
    int name_len = sizeof name, desc_len = sizeof desc, ncvars, npvars, ncats;
    int rc = MPI_T_category_get_info(c, name, &name_len, desc, &desc_len, &ncvars, &npvars,
                                     &ncats);
    if (rc != MPI_SUCCESS)
        return failed("MPI_T_category_get_info", rc);
    fprintf(f, "category %d %s: %d cvars, %d pvars, %d subcategories\n    %s\n", c, name,
            ncvars, npvars, ncats, desc);
    return 0;
}

int loom_info_mpit_list(FILE *f)
{
    int provided, n, rc = 0;
    if (MPI_T_init_thread(MPI_THREAD_SINGLE, &provided) != MPI_SUCCESS)
        return failed("MPI_T_init_thread", -1);
    MPI_T_cvar_get_num(&n);
    for (int i = 0; i < n && rc == 0; i++)
        rc = print_cvar(f, i);
    MPI_T_pvar_get_num(&n);
    for (int i = 0; i < n && rc == 0; i++)
        rc = print_pvar(f, i);
    MPI_T_category_get_num(&n);
    for (int c = 0; c < n && rc == 0; c++)
        rc = print_category(f, c);
    MPI_T_finalize();
    return rc;
}
