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

/* The sizes of a sweep: 8 bytes, then x4 up to max (at most 15), then max itself. Returns
 * how many (sizes[] has room for 16). */
static inline int bench_sweep_sizes(long max, long sizes[16])
{
    int n = 0;
    for (long b = 8; b <= max && n < 15; b *= 4)
        sizes[n++] = b;
    if (n == 0 || sizes[n - 1] != max)
        sizes[n++] = max;
    return n;
}

/* Options of a size sweep (coll.c, hier.c): --quick, --reps R, --max BYTES and
 * --colls a,b,... where the names are names[0..n-1]. */
#define BENCH_MAX_NAMES 16
struct bench_sweep {
    int reps;         /* timed batches per size; the value printed is their median */
    double batch_us;  /* target time of one batch */
    long max_bytes;   /* largest size */
    int want[BENCH_MAX_NAMES];
};

/* Fills o from argv; NULL, or why the arguments are wrong (`colls_help` names the list). */
static inline const char *bench_parse_sweep(int argc, char **argv, const char *const names[],
                                            int n, const char *colls_help,
                                            struct bench_sweep *o)
{
    int reps_set = 0, quick = 0;
    o->reps = 11;
    o->batch_us = 5000;
    o->max_bytes = 4L << 20;
    for (int c = 0; c < n; c++)
        o->want[c] = 1;
    for (int i = 1; i < argc; i++) {
        const char *a = argv[i];
        if (!strcmp(a, "--quick") || !strcmp(a, "-q")) {
            quick = 1;
        } else if (!strcmp(a, "--reps") && i + 1 < argc) {
            o->reps = atoi(argv[++i]);
            reps_set = 1;
            if (o->reps < 1)
                return "--reps takes a positive count";
        } else if (!strcmp(a, "--max") && i + 1 < argc) {
            o->max_bytes = atol(argv[++i]);
            if (o->max_bytes < 8 || o->max_bytes > (1L << 28))
                return "--max takes a size from 8 bytes to 256 MiB";
        } else if (!strcmp(a, "--colls") && i + 1 < argc) {
            if (bench_parse_names(argv[++i], names, n, o->want))
                return colls_help;
        } else {
            return "unknown argument";
        }
    }
    if (quick) {
        o->batch_us = 500;
        if (!reps_set)
            o->reps = 3;
    }
    return NULL;
}
#endif
