/* tests/config/config_test.h — small helpers shared by the configuration tests: a clean
 * LOOM_* environment, and checks that print what they got and what they expected. */
#ifndef LOOM_TESTS_CONFIG_TEST_H
#define LOOM_TESTS_CONFIG_TEST_H

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/config.h"

extern char **environ;

static int failures;

#define CHECK(cond)                                                                            \
    do {                                                                                       \
        if (!(cond)) {                                                                         \
            fprintf(stderr, "%s:%d: check failed: %s\n", __FILE__, __LINE__, #cond);           \
            failures++;                                                                        \
        }                                                                                      \
    } while (0)

#define CHECK_LL(got, expected)                                                                \
    do {                                                                                       \
        long long g_ = (got), e_ = (expected);                                                 \
        if (g_ != e_) {                                                                        \
            fprintf(stderr, "%s:%d: %s: got %lld, expected %lld\n", __FILE__, __LINE__, #got,  \
                    g_, e_);                                                                   \
            failures++;                                                                        \
        }                                                                                      \
    } while (0)

#define CHECK_STR(got, expected)                                                               \
    do {                                                                                       \
        const char *g_ = (got), *e_ = (expected);                                              \
        if (!g_ || strcmp(g_, e_) != 0) {                                                      \
            fprintf(stderr, "%s:%d: %s: got \"%s\", expected \"%s\"\n", __FILE__, __LINE__,    \
                    #got, g_ ? g_ : "(null)", e_);                                             \
            failures++;                                                                        \
        }                                                                                      \
    } while (0)

/* got contains the text expected. */
#define CHECK_HAS(got, expected)                                                               \
    do {                                                                                       \
        const char *g_ = (got), *e_ = (expected);                                              \
        if (!g_ || !strstr(g_, e_)) {                                                          \
            fprintf(stderr, "%s:%d: %s: got \"%s\", expected it to contain \"%s\"\n",          \
                    __FILE__, __LINE__, #got, g_ ? g_ : "(null)", e_);                         \
            failures++;                                                                        \
        }                                                                                      \
    } while (0)

/* Remove every LOOM_* variable, so the tests start from the defaults whatever ctest's
 * environment holds. */
static inline void clear_loom_env(void)
{
    for (;;) {
        char name[256] = "";
        for (char **e = environ; e && *e; e++)
            if (strncmp(*e, "LOOM_", 5) == 0) {
                size_t len = strcspn(*e, "=");
                if (len >= sizeof(name))
                    len = sizeof(name) - 1;
                memcpy(name, *e, len);
                name[len] = '\0';
                break;
            }
        if (!name[0])
            return;
        unsetenv(name);
    }
}

static inline int finish(const char *test)
{
    if (failures)
        fprintf(stderr, "%s: %d check(s) failed\n", test, failures);
    else
        printf("%s: ok\n", test);
    return failures ? 1 : 0;
}

#endif
