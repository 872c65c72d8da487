/* dt/f90.c — the parameterized types of MPI_Type_create_f90_integer / _real / _complex, and
 * MPI_Type_match_size.
 *
 * An f90 type is predefined (never freed) and has the layout of the sized Fortran type
 * (MPI_INTEGER4, MPI_REAL8 ...; MPI_LONG_DOUBLE for gfortran's REAL(10)) that has the asked
 * range and precision (its `basic`), so it communicates, packs, reduces and counts elements
 * as that type; what sets it apart is its record (combiner MPI_COMBINER_F90_*, integers p and r)
 * for get_envelope / get_contents. The standard lets the same arguments return the same
 * handle: each (combiner, p, r) is made once, on first use, and kept in a list that lives
 * until the process ends (so a handle stays valid whatever rank asked for it).
 *
 * Concurrency: `made` is guarded by f90_lock (a leaf lock); an entry is fully written before
 * it is linked, and never changed after. */
#include <float.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include "core/error.h"
#include "dt/dt.h"

struct f90_type {
    struct loom_datatype t;   /* the handle */
    struct loom_dt_contents c; /* its record: ints[] below, no types */
    int ints[2];
    struct f90_type *next;
};

static pthread_mutex_t f90_lock = PTHREAD_MUTEX_INITIALIZER; /* guards `made` */
static struct f90_type *made;  /* every f90 type made so far, under f90_lock */

/* Decimal range of a floating type, as Fortran's RANGE(): the smaller of its largest and
 * smallest decimal exponents. */
#define RANGE(max10, min10) ((max10) < -(min10) ? (max10) : -(min10))

/* The type with precision >= p and range >= r (MPI_UNDEFINED: any), as gfortran's
 * SELECTED_REAL_KIND picks its kind: REAL(4), REAL(8), REAL(10) (the x87 long double, which
 * has no sized MPI name, so MPI_LONG_DOUBLE), REAL(16) (quad precision); their complex
 * counterparts when cplx. NULL if none. */
static struct loom_datatype *real_for(int p, int r, int cplx)
{
    static const struct {
        int p, r;
        struct loom_datatype *real, *cplx;
    } kinds[] = {
        {FLT_DIG, RANGE(FLT_MAX_10_EXP, FLT_MIN_10_EXP), &loom_mpi_real4, &loom_mpi_complex8},
        {DBL_DIG, RANGE(DBL_MAX_10_EXP, DBL_MIN_10_EXP), &loom_mpi_real8, &loom_mpi_complex16},
        {LDBL_DIG, RANGE(LDBL_MAX_10_EXP, LDBL_MIN_10_EXP), &loom_mpi_long_double,
         &loom_mpi_c_long_double_complex},
        {__FLT128_DIG__, RANGE(__FLT128_MAX_10_EXP__, __FLT128_MIN_10_EXP__), &loom_mpi_real16,
         &loom_mpi_complex32},
    };
    for (size_t i = 0; i < sizeof kinds / sizeof kinds[0]; i++)
        if ((p == MPI_UNDEFINED || p <= kinds[i].p) && (r == MPI_UNDEFINED || r <= kinds[i].r))
            return cplx ? kinds[i].cplx : kinds[i].real;
    return NULL;
}

/* The smallest Fortran integer holding every number of r decimal digits (gfortran's
 * SELECTED_INT_KIND), or NULL. */
static struct loom_datatype *integer_for(int r)
{
    if (r <= 2)
        return &loom_mpi_integer1;
    if (r <= 4)
        return &loom_mpi_integer2;
    if (r <= 9)
        return &loom_mpi_integer4;
    if (r <= 18)
        return &loom_mpi_integer8;
    if (r <= 38)
        return &loom_mpi_integer16;
    return NULL;
}

int loom__dt_f90(int combiner, int p, int r, struct loom_datatype **out)
{
    struct loom_datatype *base = combiner == MPI_COMBINER_F90_INTEGER
                                     ? integer_for(r)
                                     : real_for(p, r, combiner == MPI_COMBINER_F90_COMPLEX);
    if (base == NULL)
        return LOOM_ERR_ARG;
    pthread_mutex_lock(&f90_lock);
    struct f90_type *f;
    for (f = made; f != NULL; f = f->next)
        if (f->c.combiner == combiner && f->ints[0] == p && f->ints[1] == r)
            break;
    if (f == NULL && (f = calloc(1, sizeof *f)) != NULL) { /* lives until the process ends */
        /* the layout of base, field by field: its name and attributes may be changing under
         * their own locks */
        loom__object_init(&f->t.obj, LOOM_MAGIC_DATATYPE);
        atomic_init(&f->t.refs, 1);
        f->t.size = base->size;
        f->t.extent = f->t.true_extent = base->extent;
        f->t.committed = f->t.predefined = f->t.contig = f->t.dense = 1;
        f->t.align = base->align;
        f->t.basic = base;
        f->t.nbasic = 1;
        f->t.kind = LOOM_DT_BASIC;
        f->t.combiner = combiner;
        f->ints[0] = p;
        f->ints[1] = r;
        atomic_init(&f->c.refs, 1);
        f->c.combiner = combiner;
        if (combiner == MPI_COMBINER_F90_INTEGER) {
            f->c.ni = 1;
            f->c.ints = &f->ints[1];
            snprintf(f->t.name, sizeof f->t.name, "MPI_Type_create_f90_integer(%d)", r);
        } else {
            f->c.ni = 2;
            f->c.ints = f->ints;
            snprintf(f->t.name, sizeof f->t.name, "MPI_Type_create_f90_%s(%d, %d)",
                     combiner == MPI_COMBINER_F90_REAL ? "real" : "complex", p, r);
        }
        f->t.contents = &f->c;
        f->next = made;
        made = f;
    }
    pthread_mutex_unlock(&f90_lock);
    if (f == NULL)
        return LOOM_ERR_NOMEM;
    *out = &f->t;
    return 0;
}

struct loom_datatype *loom__dt_f90_next(struct loom_datatype *prev)
{
    /* t is the first member of its entry */
    pthread_mutex_lock(&f90_lock);
    struct f90_type *f = prev ? ((struct f90_type *)(void *)prev)->next : made;
    pthread_mutex_unlock(&f90_lock);
    return f ? &f->t : NULL;
}

struct loom_datatype *loom__dt_match_size(int typeclass, int size)
{
    /* The standard's use is matching a Fortran variable of MPI_SIZEOF's size: the sized
     * Fortran types, which cover every size gfortran has (a REAL of 16 bytes is REAL(16),
     * quad precision; REAL(10) is stored in 16 bytes too but is no sized type). */
    static struct loom_datatype *const integers[] = {
        &loom_mpi_integer1, &loom_mpi_integer2, &loom_mpi_integer4, &loom_mpi_integer8,
        &loom_mpi_integer16};
    static struct loom_datatype *const reals[] = {&loom_mpi_real4, &loom_mpi_real8,
                                                  &loom_mpi_real16};
    static struct loom_datatype *const complexes[] = {&loom_mpi_complex8, &loom_mpi_complex16,
                                                      &loom_mpi_complex32};
    struct loom_datatype *const *list;
    size_t n;
    switch (typeclass) {
    case MPI_TYPECLASS_INTEGER:
        list = integers;
        n = sizeof integers / sizeof integers[0];
        break;
    case MPI_TYPECLASS_REAL:
        list = reals;
        n = sizeof reals / sizeof reals[0];
        break;
    case MPI_TYPECLASS_COMPLEX:
        list = complexes;
        n = sizeof complexes / sizeof complexes[0];
        break;
    default:
        return NULL;
    }
    for (size_t i = 0; i < n; i++)
        if (size >= 0 && list[i]->size == (size_t)size)
            return list[i];
    return NULL;
}
