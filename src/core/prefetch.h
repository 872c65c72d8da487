/* core/prefetch.h — asking for cache lines before a copy needs them. */
#ifndef LOOM_CORE_PREFETCH_H
#define LOOM_CORE_PREFETCH_H
#include <stddef.h>
#include <stdint.h>

/* Ask for a line in the state that lets this core write it (a plain prefetch would fetch it
 * shared, and the store would still have to take it from the core that read it last). */
static inline void loom__prefetch_for_write(const void *p)
{
#if defined(__x86_64__) || defined(__i386__)
    __asm__ volatile("prefetchw %0" : : "m"(*(const char *)p));
#else
    __builtin_prefetch(p, 1);
#endif
}

/* The same for every line of [p, p + bytes). Stores leave the core in order, and a store to a
 * line that another core has read waits until that core gives the line up: a copy into such
 * lines takes them one after the other unless they were all asked for first. */
static inline void loom__prefetch_range_for_write(const void *p, size_t bytes)
{
    const char *c = (const char *)((uintptr_t)p & ~(uintptr_t)63);
    for (const char *end = (const char *)p + bytes; c < end; c += 64)
        loom__prefetch_for_write(c);
}
#endif
