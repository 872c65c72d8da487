/* core/mem.c — blocks of MPI_Alloc_mem and the table of the live ones (see mem.h).
 *
 * Why a table and no header before each block: MPI_Free_mem must refuse a pointer it never
 * gave out, and reading a header in front of such a pointer could read unmapped memory. The
 * table is a hash of buckets keyed by the block's address.
 *
 * Concurrency: `lock` protects `buckets`, `live` and every record in them; it is a leaf lock
 * (nothing is called while holding it but the table's own code), taken by any thread of any
 * rank. The blocks themselves belong to their users. */
#include <pthread.h>
#include <stdint.h>
#include <stdlib.h>
#include "core/error.h"
#include "core/mem.h"

struct block {
    void *base;         /* what the user got and gives back */
    struct block *next; /* in its bucket */
};

enum { NBUCKETS = 1024 };

static pthread_mutex_t lock = PTHREAD_MUTEX_INITIALIZER; /* protects buckets, live (leaf) */
static struct block *buckets[NBUCKETS];
static size_t live;

static unsigned bucket_of(const void *p)
{
    uintptr_t a = (uintptr_t)p / LOOM_MEM_ALIGN; /* the low bits are zero in every block */
    return (unsigned)((a ^ (a >> 10) ^ (a >> 20)) % NBUCKETS);
}

int loom__mem_alloc(size_t size, size_t align, void **out)
{
    if (align < LOOM_MEM_ALIGN)
        align = LOOM_MEM_ALIGN;
    struct block *b = malloc(sizeof *b); /* freed by loom__mem_free */
    if (b == NULL)
        return LOOM_ERR_NOMEM;
    /* posix_memalign, not aligned_alloc: no need to round size up to the alignment, and a
     * size near SIZE_MAX fails cleanly with ENOMEM */
    void *p = NULL;
    if (posix_memalign(&p, align, size ? size : 1) != 0) {
        free(b);
        return LOOM_ERR_NOMEM;
    }
    b->base = p;
    unsigned h = bucket_of(p);
    pthread_mutex_lock(&lock);
    b->next = buckets[h];
    buckets[h] = b;
    live++;
    pthread_mutex_unlock(&lock);
    *out = p;
    return 0;
}

int loom__mem_free(void *p)
{
    unsigned h = bucket_of(p);
    struct block *found = NULL;
    pthread_mutex_lock(&lock);
    for (struct block **link = &buckets[h]; *link; link = &(*link)->next)
        if ((*link)->base == p) {
            found = *link;
            *link = found->next;
            live--;
            break;
        }
    pthread_mutex_unlock(&lock);
    if (found == NULL)
        return LOOM_ERR_ARG;
    free(found->base);
    free(found);
    return 0;
}

size_t loom__mem_live_blocks(void)
{
    pthread_mutex_lock(&lock);
    size_t n = live;
    pthread_mutex_unlock(&lock);
    return n;
}
