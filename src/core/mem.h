/* core/mem.h — the memory MPI_Alloc_mem hands out and MPI_Free_mem takes back.
 *
 * Every block is aligned to at least LOOM_MEM_ALIGN bytes: the widest vector unit loom is
 * built for (AVX-512's 64-byte registers) and a cache line, so a buffer never shares its
 * first line with other data. Live blocks are recorded (mem.c) so that MPI_Free_mem can tell
 * a pointer it gave out from any other and refuse the other kind instead of passing it to
 * free(). Any thread may call these functions. */
#ifndef LOOM_CORE_MEM_H
#define LOOM_CORE_MEM_H
#include <stddef.h>

#define LOOM_MEM_ALIGN 64

/* A new block of `size` bytes (0 is allowed: a unique pointer) aligned to `align` (a power of
 * two; less than LOOM_MEM_ALIGN means LOOM_MEM_ALIGN), recorded as live, in *out.
 * 0 or LOOM_ERR_NOMEM. */
int loom__mem_alloc(size_t size, size_t align, void **out) __attribute__((warn_unused_result));
/* Free p if it is a live block of loom__mem_alloc: 0; otherwise (never given out, given out
 * at another address inside it, already freed) touch nothing and return LOOM_ERR_ARG. */
int loom__mem_free(void *p) __attribute__((warn_unused_result));
/* Number of live blocks (for tests and statistics). */
size_t loom__mem_live_blocks(void);
#endif
