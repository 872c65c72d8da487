/* api/mem.c — MPI_Alloc_mem and MPI_Free_mem (memory: core/mem.c).
 *
 * No communicator is involved: errors go to MPI_COMM_WORLD's handler, as for the other calls
 * without one. Info keys: mpi_minimum_memory_alignment (MPI 4.1) raises the alignment when its
 * value is a power of two; every other key is accepted and ignored, as hints may be. */
#include <errno.h>
#include <stdint.h>
#include <stdlib.h>
#include "api/api.h"
#include "comm/comm.h"
#include "core/mem.h"

#define FAIL(fn, cls, ...) loom__api_error(MPI_COMM_WORLD, fn, cls, __VA_ARGS__)

/* Larger than any address space loom runs in (x86-64 and AArch64 user space: at most 2^48
 * bytes): refused without asking malloc, which a sanitizer's allocator would abort on. */
#define MAX_BLOCK ((MPI_Aint)1 << 48)
/* The largest alignment a hint may ask for (a gigantic page). */
#define MAX_ALIGN ((size_t)1 << 30)

/* The alignment the info asks for, or 0 (none, or not a power of two we accept). */
static size_t hinted_alignment(struct loom_info *info)
{
    char val[MPI_MAX_INFO_VAL + 1];
    if (info == NULL || loom__info_get(info, "mpi_minimum_memory_alignment", val, sizeof val) < 0)
        return 0;
    char *end;
    errno = 0;
    unsigned long long a = strtoull(val, &end, 10);
    if (errno != 0 || end == val || *end != '\0' || a == 0 || (a & (a - 1)) != 0 ||
        a > MAX_ALIGN)
        return 0;
    return (size_t)a;
}

int loom__mpi_alloc_mem(MPI_Aint size, MPI_Info info, void *baseptr)
{
    LOOM_API_ENTER("MPI_Alloc_mem");
    static const char fn[] = "MPI_Alloc_mem";
    if (size < 0)
        return FAIL(fn, MPI_ERR_ARG, "size %lld is negative", (long long)size);
    if (info != MPI_INFO_NULL && loom__info_invalid_reason(info) != NULL)
        return FAIL(fn, MPI_ERR_INFO, "%s", loom__info_invalid_reason(info));
    if (baseptr == NULL)
        return FAIL(fn, MPI_ERR_ARG, "baseptr is NULL");
    if (size > MAX_BLOCK)
        return FAIL(fn, MPI_ERR_NO_MEM, "cannot allocate %lld bytes: more than the address "
                    "space", (long long)size);
    size_t align = hinted_alignment(info == MPI_INFO_NULL ? NULL : info);
    void *p;
    if (loom__mem_alloc((size_t)size, align, &p) != 0)
        return FAIL(fn, MPI_ERR_NO_MEM, "cannot allocate %lld bytes: out of memory",
                    (long long)size);
    /* baseptr is a void * in C that points at the caller's pointer (MPI 4.1, section 9.2) */
    *(void **)baseptr = p;
    return MPI_SUCCESS;
}

int loom__mpi_free_mem(void *base)
{
    LOOM_API_ENTER("MPI_Free_mem");
    if (base == NULL)
        return MPI_SUCCESS; /* as free(NULL), and as MPICH */
    if (loom__mem_free(base) != 0)
        return FAIL("MPI_Free_mem", MPI_ERR_BASE, "%p was not allocated by MPI_Alloc_mem (or "
                    "was freed already)", base);
    return MPI_SUCCESS;
}
