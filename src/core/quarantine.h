/* core/quarantine.h — where freed MPI objects wait before their memory is released.
 *
 * A user may pass a handle after freeing it; loom must answer with an error, not read freed
 * memory. So an object that user handles may name is, when freed, marked LOOM_MAGIC_FREED and
 * put here instead of being passed to free(). The quarantine keeps the most recent
 * LOOM_QUARANTINE_MAX objects (older ones are released, so a loop that creates and frees
 * objects forever stays bounded) and releases them all when the job ends.
 * Any thread may call these; one mutex protects the ring (never taken on a message path). */
#ifndef LOOM_CORE_QUARANTINE_H
#define LOOM_CORE_QUARANTINE_H

#define LOOM_QUARANTINE_MAX 4096

/* Mark obj (which starts with struct loom_object) freed and queue it; release_fn(obj) frees
 * its memory later (NULL means free()). */
void loom__quarantine_put(void *obj, void (*release_fn)(void *obj));
/* Release every queued object (at the end of the job). */
void loom__quarantine_drain(void);
#endif
