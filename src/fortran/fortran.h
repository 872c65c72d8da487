/* fortran/fortran.h — what the Fortran entry points (the generated mpi_fbindings.c and the
 * hand-written ones here) share: the sentinels' storage and the conversions of arguments
 * (docs/fortran.md).
 *
 * The sentinels (MPI_BOTTOM, MPI_IN_PLACE, MPI_STATUS_IGNORE...) are Fortran variables whose
 * address means something: mpif.h declares them in COMMON blocks and the modules in the same
 * COMMON blocks, which gfortran emits as common symbols; libloom defines them (sentinels.c),
 * so every program, module and rank sees one address. Their names start with `loom_f_`, which
 * the privatization plugin leaves shared. Nobody writes them: a program that assigns to one
 * breaks its own calls only. */
#ifndef LOOM_FORTRAN_H
#define LOOM_FORTRAN_H
#include <stddef.h>
#include <stdlib.h>
#include <string.h>
#include "mpi.h"

/* Each as large as its Fortran declaration (in mpif.h and both modules alike), so that the
 * COMMON blocks and the definition agree: X(symbol, C element type, elements). */
#define LOOM_F_SENTINEL(name, type, n) extern LOOM_API type name[n];
#define LOOM_FOREACH_F_SENTINEL(X)                                                             \
    X(loom_f_bottom_, MPI_Fint, 1)                                                             \
    X(loom_f_in_place_, MPI_Fint, 1)                                                           \
    X(loom_f_buffer_automatic_, MPI_Fint, 1)                                                   \
    X(loom_f_status_ignore_, MPI_Fint, MPI_F_STATUS_SIZE)                                      \
    X(loom_f_statuses_ignore_, MPI_Fint, MPI_F_STATUS_SIZE)                                    \
    X(loom_f_errcodes_ignore_, MPI_Fint, 1)                                                    \
    X(loom_f_argv_null_, char, 1)                                                              \
    X(loom_f_argvs_null_, char, 1)                                                             \
    X(loom_f_unweighted_, MPI_Fint, 1)                                                         \
    X(loom_f_weights_empty_, MPI_Fint, 1)
LOOM_FOREACH_F_SENTINEL(LOOM_F_SENTINEL)

/* A choice buffer: MPI_BOTTOM, MPI_IN_PLACE and MPI_BUFFER_AUTOMATIC (MPI_Buffer_attach) by
 * their address, anything else as it is. */
static inline void *loom__fortran_buf(const void *p)
{
    if (p == (const void *)loom_f_bottom_)
        return MPI_BOTTOM;
    if (p == (const void *)loom_f_in_place_)
        return MPI_IN_PLACE;
    if (p == (const void *)loom_f_buffer_automatic_)
        return MPI_BUFFER_AUTOMATIC;
    return (void *)p;
}
static inline int loom__fortran_status_ignored(const MPI_Fint *s)
{
    return s == loom_f_status_ignore_;
}
static inline int loom__fortran_statuses_ignored(const MPI_Fint *s)
{
    return s == loom_f_statuses_ignore_ || s == loom_f_status_ignore_;
}
/* Topology weights, given or asked for: MPI_UNWEIGHTED and MPI_WEIGHTS_EMPTY by their
 * address. */
static inline int *loom__fortran_weights(const MPI_Fint *w)
{
    if (w == loom_f_unweighted_)
        return MPI_UNWEIGHTED;
    if (w == loom_f_weights_empty_)
        return MPI_WEIGHTS_EMPTY;
    return (int *)w;
}

/* n elements of `size` bytes, zeroed (at least one, so that NULL only means no memory);
 * the caller frees it. */
void *loom__fortran_array(int n, size_t size);
/* The same in `local` (the caller's automatic array of `room` bytes) when n elements fit, so
 * that the calls made once per message or window (MPI_WAITALL, MPI_TESTSOME...) allocate
 * nothing for the usual counts; give it back with loom__fortran_array_done. */
enum { LOOM_F_LOCAL = 32 }; /* elements of an entry point's automatic arrays */
static inline void *loom__fortran_array_in(void *local, size_t room, int n, size_t size)
{
    if (n >= 0 && (size_t)n * size <= room) {
        memset(local, 0, (size_t)n * size);
        return local;
    }
    return loom__fortran_array(n, size);
}
static inline void loom__fortran_array_done(void *a, void *local)
{
    if (a != local)
        free(a);
}
/* A CHARACTER argument as a C string: trailing blanks gone, NUL added; NULL if no memory.
 * The caller frees it. */
char *loom__fortran_cstr(const char *s, size_t len);
/* Room for a C string the call writes: len + 1 bytes, and at least the longest string an MPI
 * call writes (MPI_MAX_LIBRARY_VERSION_STRING); NULL if no memory. The caller frees it. */
char *loom__fortran_out_buf(size_t len);
/* A C string into a CHARACTER(LEN=len): copied (cut at len), the rest blanks. */
void loom__fortran_fstr(char *dst, size_t len, const char *src);
/* No memory for the conversion of a call's arguments: MPI_ERR_NO_MEM, after the message. */
int loom__fortran_nomem(const char *fn);

/* The length of the datatype arrays of an alltoallw on Fortran communicator `comm`. */
enum { LOOM_F_ALLTOALLW, LOOM_F_NEIGHBOR_OUT, LOOM_F_NEIGHBOR_IN };
int loom__fortran_ntypes(MPI_Fint comm, int which);
/* Both names of an entry point written by hand: the static function `lower` does the work;
 * mpi_xxx_ is weak, like the generated ones (a profiling tool's replaces it), pmpi_xxx_ not. */
#define LOOM_F_ENTRY(lower, params, args)                                                      \
    LOOM_API __attribute__((weak)) void mpi_##lower##_ params                                  \
    {                                                                                          \
        lower args;                                                                            \
    }                                                                                          \
    LOOM_API void pmpi_##lower##_ params                                                       \
    {                                                                                          \
        lower args;                                                                            \
    }

#endif
