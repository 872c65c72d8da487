/* tests/privatize/objects.c — the run-time half of C++ objects per rank
 * (core/privatize_objects.c): registered static initialization functions run by priority,
 * then in registration order, on the rank's thread only (not at registration on a thread of
 * no rank), and again for each rank; a destructor recorded on a thread of a rank, by the rank thread or by a
 * thread it created, runs when the rank ends, newest first, and one that a destructor records
 * runs too; outside ranks loom_privatize_atexit is __cxa_atexit (its destructor runs at exit). */
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "check.h"
#include "core/privatize.h"
#include "core/rank.h"

static char order[32]; /* what ran, in order: one letter each */
static int len;
static struct loom_rank rank; /* enough of a rank for these functions */

static void note(char c)
{
    CHECK(len < (int)sizeof order - 1);
    order[len++] = c;
    order[len] = '\0';
}

static void ctor_a(void)
{
    note('a');
}

static void ctor_b(void)
{
    note('b');
}

static void ctor_first(void)
{
    note('f');
}

static void dtor(void *obj)
{
    note(*(const char *)obj);
}

static const char late = 'z';
static void dtor_that_registers(void *obj)
{
    note(*(const char *)obj);
    CHECK_INT(loom_privatize_atexit(dtor, (void *)&late, NULL), 0);
}

static const char x = 'x', y = 'y', t = 't';

static void *rank_child(void *unused)
{
    (void)unused;
#if !defined(__SANITIZE_THREAD__) && !defined(__SANITIZE_ADDRESS__)
    CHECK(loom__self == &rank); /* loom's pthread_create gave the creator's rank */
#else
    /* Under a sanitizer this statically linked test gets the sanitizer's pthread_create, not
     * loom's: do what loom's does (privatize_cxx_threads checks it through libloom.so). */
    loom__self = &rank;
#endif
    CHECK_INT(loom_privatize_atexit(dtor, (void *)&t, NULL), 0);
    return NULL;
}

extern void *__dso_handle; /* this module's, defined by the toolchain (crtbegin) */
static const char outside = 'o';
static void check_outside(void *obj)
{
    /* at process exit: every destructor of the rank ran before */
    CHECK(*(const char *)obj == 'o');
    if (strcmp(order, "fabfabtyxz") != 0) {
        fprintf(stderr, "objects: ran %s\n", order);
        _exit(99);
    }
    printf("objects: constructors in order per rank, destructors newest first\n");
    fflush(stdout);
}

int main(void)
{
    /* No rank: registering runs nothing; the process's __cxa_atexit gets this one. */
    loom_privatize_register_ctor(ctor_a, 65535);
    loom_privatize_register_ctor(ctor_b, 65535);
    loom_privatize_register_ctor(ctor_first, 101); /* init_priority(101): before the others */
    CHECK_INT(len, 0);
    /* with this module's handle, as the C++ front end passes it: ThreadSanitizer's __cxa_atexit
     * calls a function registered without one with no argument, as atexit does */
    CHECK_INT(loom_privatize_atexit(check_outside, (void *)&outside, &__dso_handle), 0);

    /* Two ranks' starts: both functions, in registration order, each time. */
    loom__privatize_run_ctors();
    loom__privatize_run_ctors();
    CHECK(strcmp(order, "fabfab") == 0);

    /* A rank's destructors, recorded by its thread and by a thread it created. */
    loom__self = &rank;
    CHECK_INT(loom_privatize_atexit(dtor_that_registers, (void *)&x, NULL), 0);
    CHECK_INT(loom_privatize_atexit(dtor, (void *)&y, NULL), 0);
    pthread_t th;
    CHECK_INT(pthread_create(&th, NULL, rank_child, NULL), 0);
    CHECK_INT(pthread_join(th, NULL), 0);
    CHECK_INT(len, 6); /* nothing ran yet */
    loom__privatize_rank_end(&rank);
    CHECK(strcmp(order, "fabfabtyxz") == 0);
    loom__privatize_rank_end(&rank); /* the list is empty now */
    CHECK_INT(len, 10);
    loom__self = NULL;
    return 0;
}
