/* core/log.c — loom's one-line messages on stderr: "loom: rank R: ...". */
#include <stdarg.h>
#include <stdio.h>
#include "core/rank.h"

int loom__self_rank(void)
{
    return loom__self ? loom__self->world_rank : -1;
}

void loom__log(const char *fmt, ...)
{
    /* Format the whole line first and write it with one call, so lines of several ranks
     * never interleave. */
    char line[1024];
    int n;
    int r = loom__self_rank();
    if (r >= 0)
        n = snprintf(line, sizeof line, "loom: rank %d: ", r);
    else
        n = snprintf(line, sizeof line, "loom: ");
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(line + n, sizeof line - (size_t)n - 1, fmt, ap);
    va_end(ap);
    fprintf(stderr, "%s\n", line);
}
