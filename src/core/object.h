/* core/object.h — the header every MPI object starts with.
 * Handles are pointers to objects. A handle is checked by its magic word before use; a freed
 * object has its magic replaced by LOOM_MAGIC_FREED, and objects that user handles may still
 * name are never returned to malloc while the job runs (they go to a per-kind quarantine), so
 * a check of a stale handle reads loom memory, never freed memory. */
#ifndef LOOM_CORE_OBJECT_H
#define LOOM_CORE_OBJECT_H
#include <stdatomic.h>
#include <stdint.h>

enum loom_magic {
    LOOM_MAGIC_FREED = 0x0dead0,
    LOOM_MAGIC_COMM = 0x10c0330,
    LOOM_MAGIC_GROUP = 0x10c0601,
    LOOM_MAGIC_DATATYPE = 0x10c0d77,
    LOOM_MAGIC_REQUEST = 0x10c0e90,
    LOOM_MAGIC_OP = 0x10c0097,
    LOOM_MAGIC_INFO = 0x10c0140,
    LOOM_MAGIC_ERRHANDLER = 0x10c0e44,
    LOOM_MAGIC_MESSAGE = 0x10c0335,
    LOOM_MAGIC_SESSION = 0x10c0535,
    LOOM_MAGIC_WIN = 0x10c0714,
};

struct loom_object {
    uint32_t magic;          /* enum loom_magic; written at creation and free only */
    _Atomic int32_t findex;  /* the object's Fortran handle (MPI_Xxx_c2f), 0 until it has one:
                                set once under core/fhandle.c's lock (release; lock-free
                                readers acquire), given back when the memory is released */
};

/* A new object's header: its kind, and no Fortran handle yet. Every object made at run time
 * starts with this (static ones are initialized {magic, 0}). */
static inline void loom__object_init(struct loom_object *o, enum loom_magic m)
{
    o->magic = (uint32_t)m;
    atomic_init(&o->findex, 0);
}

/* 1 if p is non-NULL and carries the magic of its kind. */
static inline int loom__object_is(const void *p, enum loom_magic m)
{
    return p != 0 && ((const struct loom_object *)p)->magic == (uint32_t)m;
}
#endif
