/* bench_util.h — small helpers shared by the plain MPI benchmark programs of bench/ (they
 * build unchanged against loom, MPICH and Open MPI, so this header uses only the C library). */
#ifndef LOOM_BENCH_UTIL_H
#define LOOM_BENCH_UTIL_H
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static int bench_cmp_double(const void *a, const void *b)
{
    double x = *(const double *)a, y = *(const double *)b;
    return x < y ? -1 : x > y;
}

/* The median of v[0..n-1] (sorts v); the mean of the middle two when n is even. */
static inline double bench_median(double *v, int n)
{
    qsort(v, (size_t)n, sizeof *v, bench_cmp_double);
    return n % 2 ? v[n / 2] : 0.5 * (v[n / 2 - 1] + v[n / 2]);
}

/* Parses a comma-separated list of names among names[0..n-1] into want[] (1 for each name
 * listed, 0 for the others). 0, or -1 when a name is unknown. */
static inline int bench_parse_names(const char *list, const char *const names[], int n, int want[])
{
    char copy[256];
    snprintf(copy, sizeof copy, "%s", list);
    for (int c = 0; c < n; c++)
        want[c] = 0;
    for (char *save = NULL, *tok = strtok_r(copy, ",", &save); tok;
         tok = strtok_r(NULL, ",", &save)) {
        int c = 0;
        while (c < n && strcmp(tok, names[c]))
            c++;
        if (c == n)
            return -1;
        want[c] = 1;
    }
    return 0;
}
#endif
