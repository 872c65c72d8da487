/* bigcount.c — pairs each int call with its MPI-4 big-count twin `MPI_Xxx_c`.
 *
 * The standard gives most calls that take a count a second form, `MPI_Xxx_c`, where counts are
 * MPI_Count and displacements MPI_Aint or MPI_Count. loom implements such a pair once, on the
 * wide types (docs/bindings.md "Big counts"). Where the two prototypes differ only in scalars
 * passed by value that widen (int -> MPI_Count, int -> MPI_Aint, MPI_Aint -> MPI_Count), C
 * widens them for free at the call: both entry points then call the `_c` implementation, and
 * the int call has no implementation of its own. That implementation takes one more
 * argument first, the name of the call that reached it (`const char *fn`), so that an error
 * in MPI_Send says MPI_Send and one in MPI_Send_c says MPI_Send_c. Where they differ in
 * anything else (arrays, results written through a pointer, a callback), the int call keeps
 * its own implementation, which converts and calls into the same code. */
#include <stdio.h>
#include <string.h>
#include "bindgen.h"

static int widens(const char *from, const char *to)
{
    static const char *const pairs[][2] = {
        {"int", "MPI_Count"}, {"int", "MPI_Aint"}, {"MPI_Aint", "MPI_Count"}};
    for (size_t i = 0; i < sizeof pairs / sizeof pairs[0]; i++)
        if (strcmp(from, pairs[i][0]) == 0 && strcmp(to, pairs[i][1]) == 0)
            return 1;
    return 0;
}

/* 1 when every argument of `narrow` can be passed as is to `wide`'s parameter of that place. */
static int same_but_wider(const struct call *narrow, const struct call *wide)
{
    if (narrow->nparams != wide->nparams || narrow->variadic || wide->variadic ||
        strcmp(narrow->ret, wide->ret) != 0)
        return 0;
    for (int i = 0; i < narrow->nparams; i++) {
        const struct param *n = &narrow->param[i], *w = &wide->param[i];
        if (strcmp(n->name, w->name) != 0)
            return 0;
        if (strcmp(n->type, w->type) != 0 && !widens(n->type, w->type))
            return 0;
    }
    return 1;
}

static struct call *find(const char *name)
{
    for (int i = 0; i < bg_ncalls; i++)
        if (strcmp(bg_calls[i].name, name) == 0)
            return &bg_calls[i];
    return NULL;
}

void bg_pair_bigcount(void)
{
    for (int i = 0; i < bg_ncalls; i++) {
        const struct call *w = &bg_calls[i];
        size_t n = strlen(w->name);
        if (n < 3 || strcmp(w->name + n - 2, "_c") != 0)
            continue;
        char narrow_name[sizeof w->name];
        snprintf(narrow_name, sizeof narrow_name, "%.*s", (int)(n - 2), w->name);
        struct call *narrow = find(narrow_name);
        if (!narrow)
            bg_die(w->file, w->line, "%s: no %s to be the big-count form of", w->name,
                   narrow_name);
        if (same_but_wider(narrow, w)) {
            narrow->shares = w;
            bg_calls[i].named = 1;
        }
    }
}
