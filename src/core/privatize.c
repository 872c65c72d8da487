/* core/privatize.c — the registry of per-unit init functions of privatized globals.
 *
 * Each translation unit compiled by loomcc's plugin with an initializer that takes the address
 * of a privatized variable registers one function (core/privatize.h). The list only grows;
 * its nodes live until the process ends (reachable from `units`, so not a leak). Registration
 * normally happens in constructors before main, single-threaded, but a library loaded with
 * dlopen may register from any thread while ranks run, hence the lock. */
#include <pthread.h>
#include <stdlib.h>
#include "core/privatize.h"
#include "core/rank.h"

struct unit {
    void (*init)(void);
    struct unit *next;
};

/* The registered units, newest first. Written and read under `lock`. */
static pthread_mutex_t lock = PTHREAD_MUTEX_INITIALIZER;
static struct unit *units;
static int nunits;

void loom_privatize_register(void (*init)(void))
{
    struct unit *u = malloc(sizeof *u);
    if (u == NULL) {
        loom__log("out of memory registering a privatized unit");
        loom__job_abort(1);
    }
    u->init = init;
    pthread_mutex_lock(&lock);
    u->next = units;
    units = u;
    nunits++;
    pthread_mutex_unlock(&lock);
    init();
}

void loom__privatize_rank_start(void)
{
    /* The functions only store addresses into the calling thread's own variables: running
     * them under the lock is safe and keeps a concurrent registration out of the walk. */
    pthread_mutex_lock(&lock);
    for (struct unit *u = units; u; u = u->next)
        u->init();
    pthread_mutex_unlock(&lock);
}

int loom__privatize_count(void)
{
    pthread_mutex_lock(&lock);
    int n = nunits;
    pthread_mutex_unlock(&lock);
    return n;
}
