/* core/quarantine.c — a bounded ring of freed objects (see quarantine.h). */
#include <pthread.h>
#include <stdlib.h>
#include "core/fhandle.h"
#include "core/object.h"
#include "core/quarantine.h"

struct entry {
    void *obj;
    void (*release_fn)(void *);
};

static pthread_mutex_t lock = PTHREAD_MUTEX_INITIALIZER; /* protects ring, head, count */
static struct entry ring[LOOM_QUARANTINE_MAX];
static unsigned head, count;

static void release(struct entry e)
{
    loom__fhandle_forget(e.obj);
    if (e.release_fn)
        e.release_fn(e.obj);
    else
        free(e.obj);
}

void loom__quarantine_put(void *obj, void (*release_fn)(void *obj))
{
    struct entry old = {0, 0};
    ((struct loom_object *)obj)->magic = LOOM_MAGIC_FREED;
    pthread_mutex_lock(&lock);
    if (count == LOOM_QUARANTINE_MAX) {
        old = ring[head];
        count--;
        head = (head + 1) % LOOM_QUARANTINE_MAX;
    }
    ring[(head + count) % LOOM_QUARANTINE_MAX] = (struct entry){obj, release_fn};
    count++;
    pthread_mutex_unlock(&lock);
    if (old.obj)
        release(old);
}

void loom__quarantine_drain(void)
{
    pthread_mutex_lock(&lock);
    while (count > 0) {
        struct entry e = ring[head];
        head = (head + 1) % LOOM_QUARANTINE_MAX;
        count--;
        pthread_mutex_unlock(&lock);
        release(e);
        pthread_mutex_lock(&lock);
    }
    pthread_mutex_unlock(&lock);
}
