/* core/fhandle.h — Fortran handles of loom objects (MPI_Xxx_c2f / MPI_Xxx_f2c).
 *
 * A C handle is a pointer; a Fortran handle is an MPI_Fint. An object gets its integer the
 * first time it is converted, an index into one process-wide table of objects (0 is every
 * kind's null handle), and keeps it: converting the same handle twice gives the same integer,
 * and converting the integer back gives the handle. The index is given back, for reuse, only
 * when the object's memory is (quarantine.c, the request pool), so a Fortran handle of a freed
 * object still names the freed object (its use is an error) until then.
 * Predefined objects are the exception: each has the fixed index core/fhandle_fixed.h gives
 * it, in the table from load (a static array), so their integers are compile-time constants
 * for Fortran; indices given at run time are above LOOM_FHANDLE_FIXED_LAST.
 * Any thread may call these: the table grows under one lock (conversions only, never a message
 * path); entries are read without it. */
#ifndef LOOM_CORE_FHANDLE_H
#define LOOM_CORE_FHANDLE_H
#include <stdint.h>

/* obj's Fortran handle (> 0), made if it has none; 0 when obj is NULL; -1 if the table is
 * full or out of memory. */
int32_t loom__fhandle_of(void *obj);
/* The object of Fortran handle f: NULL for 0, else the table's entry (which may be an object
 * of another kind, or freed: the caller checks its magic), or `invalid` when f names no entry. */
void *loom__fhandle_object(int32_t f, void *invalid);
/* obj's memory is about to be released: give its Fortran handle back (if it has one). */
void loom__fhandle_forget(void *obj);
#endif
