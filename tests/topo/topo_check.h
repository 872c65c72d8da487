/* tests/topo/topo_check.h — assertions for the topo tests. Each check prints what it got and
 * what it expected and counts a failure; a test's main returns topo_check_result(). */
#ifndef LOOM_TESTS_TOPO_CHECK_H
#define LOOM_TESTS_TOPO_CHECK_H

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "topo/topo.h"

static int topo_failures;

#define CHECK(cond)                                                                          \
    do {                                                                                     \
        if (!(cond)) {                                                                       \
            fprintf(stderr, "%s:%d: check failed: %s\n", __FILE__, __LINE__, #cond);         \
            topo_failures++;                                                                 \
        }                                                                                    \
    } while (0)

#define CHECK_INT(got, want)                                                                 \
    do {                                                                                     \
        long g_ = (long)(got), w_ = (long)(want);                                            \
        if (g_ != w_) {                                                                      \
            fprintf(stderr, "%s:%d: %s: got %ld, expected %ld\n", __FILE__, __LINE__, #got, g_, \
                    w_);                                                                     \
            topo_failures++;                                                                 \
        }                                                                                    \
    } while (0)

#define CHECK_STR(got, want)                                                                 \
    do {                                                                                     \
        const char *g_ = (got), *w_ = (want);                                                \
        if (!g_ || !w_ ? g_ != w_ : strcmp(g_, w_) != 0) {                                   \
            fprintf(stderr, "%s:%d: %s: got \"%s\", expected \"%s\"\n", __FILE__, __LINE__,   \
                    #got, g_ ? g_ : "(null)", w_ ? w_ : "(null)");                           \
            topo_failures++;                                                                 \
        }                                                                                    \
    } while (0)

/* The text of a set, in a static buffer (one call per expression). */
static inline const char *topo_text(const struct loom_cpuset *s)
{
    static char buf[4096];
    if (!s)
        return "(null)";
    loom__cpuset_format(s, buf, sizeof(buf));
    return buf;
}

static inline int topo_check_result(void)
{
    if (topo_failures)
        fprintf(stderr, "%d check(s) failed\n", topo_failures);
    return topo_failures ? 1 : 0;
}

/* Load spec or stop the test. */
static inline struct loom_topo *topo_must_load(const char *spec)
{
    struct loom_topo *t;
    char err[256];
    if (loom__topo_load(spec, &t, err, sizeof(err)) < 0) {
        fprintf(stderr, "cannot load \"%s\": %s\n", spec, err);
        exit(1);
    }
    return t;
}

/* Expand an ordered core list "0-3,8,5-6" into want[] (0,1,2,3,8,5,6); returns the count. */
static inline int topo_expand(const char *list, int *want, int max)
{
    int n = 0;
    const char *p = list;
    while (*p) {
        char *e;
        long a = strtol(p, &e, 10), b = a;
        if (*e == '-')
            b = strtol(e + 1, &e, 10);
        for (long v = a; v <= b && n < max; v++)
            want[n++] = (int)v;
        p = *e == ',' ? e + 1 : e;
    }
    return n;
}

/* Place nranks ranks under policy and check that rank i gets exactly the set of core
 * want[i], where want is written as an ordered list for topo_expand. */
static inline void topo_expect_cores(const struct loom_topo *t, const char *policy, int nranks,
                              const char *list, int line)
{
    int want[1024];
    int n = topo_expand(list, want, 1024);
    if (n != nranks) {
        fprintf(stderr, "line %d: test bug: %d cores listed for %d ranks\n", line, n, nranks);
        topo_failures++;
        return;
    }
    struct loom_cpuset **sets = calloc((size_t)nranks, sizeof(*sets));
    char err[512];
    if (loom__topo_place(t, policy, nranks, sets, err, sizeof(err)) < 0) {
        fprintf(stderr, "line %d: place %s %d: %s\n", line, policy, nranks, err);
        topo_failures++;
        free(sets);
        return;
    }
    for (int i = 0; i < nranks; i++) {
        const struct loom_cpuset *c = loom__topo_core_set(t, want[i]);
        if (!c || !loom__cpuset_equal(sets[i], c)) {
            char got[256];
            loom__cpuset_format(sets[i], got, sizeof(got));
            fprintf(stderr,
                    "line %d: %s, %d ranks: rank %d got PUs %s (core %d), expected core %d "
                    "(PUs %s)\n",
                    line, policy, nranks, i, got, loom__topo_core_of(t, sets[i]), want[i],
                    topo_text(c));
            topo_failures++;
        }
        loom__cpuset_free(sets[i]);
    }
    free(sets);
}

#define EXPECT_CORES(t, policy, n, list) topo_expect_cores(t, policy, n, list, __LINE__)

#endif /* LOOM_TESTS_TOPO_CHECK_H */
