/* coll/op.c — reduction operations: the predefined operation objects of mpi.h (MPI_SUM ...),
 * user operations (their life), which operation may be applied to which datatype, and
 * loom__op_apply, the one place where the collectives and MPI_Reduce_local reduce data.
 *
 * Applying a predefined operation picks, from the datatype's layout, the cheapest way to
 * reach its elements, then runs the type-specialized loop of op_kernels.c:
 *   - contiguous data (every predefined basic type, a contiguous of one): one loop over all;
 *   - a predefined pair type (MPI_DOUBLE_INT, padded): one loop striding over the extent;
 *   - a type whose element is one dense run (a resized type): one loop per element;
 *   - anything else (vectors, indexed, structs of one basic type, misaligned data): both
 *     sides packed chunk by chunk into aligned stack buffers, reduced, and the result
 *     unpacked into inout.
 * A predefined operation works on a derived type when all of its data is made of one
 * predefined type the operation is defined on (loom__op_elem_type); REPLACE and NO_OP work
 * on every type. User operations get the user's datatype and count, as the standard says.
 *
 * Concurrency: the predefined objects are constant (refs unused). A user operation is written
 * by its creator before the handle is returned; then only `refs` (atomic) and, at
 * MPI_Op_free, `obj.magic` change. A user who hands an op to another rank orders its
 * MPI_Op_free after the other rank's last use, as with every MPI handle. */
#include <limits.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include "coll/op.h"
#include "core/atomic.h"
#include "core/error.h"
#include "core/fhandle.h"
#include "core/quarantine.h"
#include "dt/dt.h"

/* REPLACE and NO_OP are not commutative: a op b and b op a give different results. */
#define PREDEFINED(sym, k, label, commute)                                                     \
    struct loom_op sym = {.obj = {LOOM_MAGIC_OP}, .refs = 1, .predefined = 1, .kind = (k),     \
                          .commutative = (commute), .user_fn = NULL, .name = (label)};

PREDEFINED(loom_mpi_max, LOOM_OP_MAX, "MPI_MAX", 1)
PREDEFINED(loom_mpi_min, LOOM_OP_MIN, "MPI_MIN", 1)
PREDEFINED(loom_mpi_sum, LOOM_OP_SUM, "MPI_SUM", 1)
PREDEFINED(loom_mpi_prod, LOOM_OP_PROD, "MPI_PROD", 1)
PREDEFINED(loom_mpi_land, LOOM_OP_LAND, "MPI_LAND", 1)
PREDEFINED(loom_mpi_band, LOOM_OP_BAND, "MPI_BAND", 1)
PREDEFINED(loom_mpi_lor, LOOM_OP_LOR, "MPI_LOR", 1)
PREDEFINED(loom_mpi_bor, LOOM_OP_BOR, "MPI_BOR", 1)
PREDEFINED(loom_mpi_lxor, LOOM_OP_LXOR, "MPI_LXOR", 1)
PREDEFINED(loom_mpi_bxor, LOOM_OP_BXOR, "MPI_BXOR", 1)
PREDEFINED(loom_mpi_minloc, LOOM_OP_MINLOC, "MPI_MINLOC", 1)
PREDEFINED(loom_mpi_maxloc, LOOM_OP_MAXLOC, "MPI_MAXLOC", 1)
PREDEFINED(loom_mpi_replace, LOOM_OP_REPLACE, "MPI_REPLACE", 0)
PREDEFINED(loom_mpi_no_op, LOOM_OP_NO_OP, "MPI_NO_OP", 0)

/* ---- life of user operations ---- */

static int create(MPI_User_function *user_fn, MPI_User_function_c *user_fn_c, int commutative,
                  struct loom_op **out)
{
    /* freed by loom__op_release (through the quarantine) when the last reference goes */
    struct loom_op *op = calloc(1, sizeof *op);
    if (op == NULL)
        return LOOM_ERR_NOMEM;
    loom__object_init(&op->obj, LOOM_MAGIC_OP);
    atomic_init(&op->refs, 1);
    op->predefined = 0;
    op->kind = -1;
    op->commutative = commutative != 0;
    op->user_fn = user_fn;
    op->user_fn_c = user_fn_c;
    op->name = "user operation";
    *out = op;
    return 0;
}

int loom__op_create(MPI_User_function *user_fn, int commutative, struct loom_op **out)
{
    return create(user_fn, NULL, commutative, out);
}

int loom__op_create_c(MPI_User_function_c *user_fn_c, int commutative, struct loom_op **out)
{
    return create(NULL, user_fn_c, commutative, out);
}

int loom__op_create_fortran(void (*f)(void *, void *, MPI_Fint *, MPI_Fint *),
                            void (*f_c)(void *, void *, MPI_Count *, MPI_Fint *),
                            int commutative, struct loom_op **out)
{
    int rc = create(NULL, NULL, commutative, out);
    if (rc == 0) {
        (*out)->fortran_fn = f;
        (*out)->fortran_fn_c = f_c;
    }
    return rc;
}

void loom__op_retain(struct loom_op *op)
{
    if (op->predefined)
        return;
    /* relaxed: the caller already holds a reference, so the count cannot reach 0 meanwhile */
    loom__fetch_add_relaxed(&op->refs, 1);
}

void loom__op_release(struct loom_op *op)
{
    if (op->predefined)
        return;
    /* acq_rel: the last releaser sees every use made by the earlier holders before it lets
     * the quarantine free the memory */
    if (loom__fetch_sub_acq_rel(&op->refs, 1) == 1)
        loom__quarantine_put(op, NULL);
}

void loom__op_free(struct loom_op *op)
{
    /* The user's handle is gone: later checks of it fail even while collectives in flight
     * still hold the operation. */
    op->obj.magic = LOOM_MAGIC_FREED;
    loom__op_release(op);
}

/* ---- which operation on which type ---- */

/* The kernel of predefined op on type t and the entry of t's element type, or NULL. */
static loom_op_kernel *find_kernel(const struct loom_op *op, const struct loom_datatype *t,
                                   const struct loom_op_elem **elem)
{
    const struct loom_datatype *et = loom__op_elem_type(t);
    const struct loom_op_elem *e = et ? loom__op_elem(et) : NULL;
    *elem = e;
    if (e == NULL || op->kind < 0 || op->kind > LOOM_OP_MAXLOC)
        return NULL;
    return e->kernel[op->kind];
}

int loom__op_check(const struct loom_op *op, const struct loom_datatype *type,
                   const char **reason)
{
    if (!op->predefined || op->kind == LOOM_OP_REPLACE || op->kind == LOOM_OP_NO_OP)
        return 0;
    const struct loom_op_elem *e;
    if (find_kernel(op, type, &e))
        return 0;
    /* one reason per thread: the caller formats it into its error message right away */
    static _Thread_local char why[MPI_MAX_OBJECT_NAME * 2 + 96];
    if (reason) {
        if (type->predefined) {
            snprintf(why, sizeof why, "%s is not defined on %s", op->name, type->name);
        } else if (e) {
            snprintf(why, sizeof why,
                     "%s is not defined on a derived datatype made of %s", op->name,
                     e->type->name);
        } else {
            snprintf(why, sizeof why,
                     "%s is not defined on a derived datatype that mixes several basic types",
                     op->name);
        }
        *reason = why;
    }
    return LOOM_ERR_OP;
}

/* ---- applying ---- */

/* base + off on integers: base may be MPI_BOTTOM (NULL) with absolute displacements. */
static inline char *at(const void *base, ptrdiff_t off)
{
    return (char *)((uintptr_t)base + (uintptr_t)off);
}

static inline int aligned(const void *p, size_t align)
{
    return align <= 1 || (uintptr_t)p % align == 0;
}

/* The user function over count elements: a big-count function (MPI_Op_create_c) at once, an
 * int one in pieces of at most INT_MAX elements (its length cannot say more). */
static void apply_user(const struct loom_op *op, const void *in, void *inout, size_t count,
                       const struct loom_datatype *type)
{
    MPI_Datatype dt = (MPI_Datatype)type;
    /* A Fortran procedure gets the datatype's Fortran handle (made at the first conversion,
     * under the table's lock: any thread may); the user may write it, so a copy. */
    MPI_Fint fdt = op->fortran_fn || op->fortran_fn_c ? loom__fhandle_of((void *)type) : 0;
    if (op->user_fn_c || op->fortran_fn_c) {
        MPI_Count len = (MPI_Count)count; /* the user function may write it */
        if (op->fortran_fn_c)
            op->fortran_fn_c((void *)in, inout, &len, &fdt);
        else
            op->user_fn_c((void *)in, inout, &len, &dt);
        return;
    }
    char *a = (char *)in, *b = inout;
    while (count > 0) {
        int piece = count > (size_t)INT_MAX ? INT_MAX : (int)count;
        int len = piece; /* the user function may write it; we keep our own copy */
        if (op->fortran_fn) {
            MPI_Fint flen = piece, f = fdt;
            op->fortran_fn(a, b, &flen, &f);
        } else {
            op->user_fn(a, b, &len, &dt);
        }
        a = at(a, (ptrdiff_t)piece * type->extent);
        b = at(b, (ptrdiff_t)piece * type->extent);
        count -= (size_t)piece;
    }
}

/* Both sides packed chunk by chunk into aligned buffers, reduced there, result unpacked. */
static void apply_packed(loom_op_kernel *k, const struct loom_op_elem *e, const void *in,
                         void *inout, size_t count, const struct loom_datatype *type)
{
    enum { CHUNK = 4096 };
    _Alignas(max_align_t) unsigned char ta[CHUNK];
    _Alignas(max_align_t) unsigned char tb[CHUNK];
    size_t esize = e->type->size;
    size_t step = CHUNK / esize * esize;
    size_t total = loom__dt_stream_size(type, count);
    /* in the packed stream a pair's index follows its value directly */
    size_t boff = e->pair ? esize - e->isize : 0;
    for (size_t off = 0; off < total; off += step) {
        size_t len = total - off < step ? total - off : step;
        /* pack/unpack take the address of stream byte 0; the chunk lies at off */
        char *pa = at(ta, -(ptrdiff_t)off), *pb = at(tb, -(ptrdiff_t)off);
        loom__dt_pack(pa, in, type, count, off, len);
        loom__dt_pack(pb, inout, type, count, off, len);
        k(ta, tb, len / esize, esize, boff);
        loom__dt_unpack(inout, type, count, pb, off, len);
    }
}

void loom__op_apply(const struct loom_op *op, const void *in, void *inout, size_t count,
                    const struct loom_datatype *type)
{
    if (count == 0)
        return;
    if (!op->predefined) {
        apply_user(op, in, inout, count, type);
        return;
    }
    if (type->size == 0 || op->kind == LOOM_OP_NO_OP)
        return;
    size_t total = loom__dt_stream_size(type, count);
    if (op->kind == LOOM_OP_REPLACE) {
        loom__dt_copy(inout, type, count, in, type, count, 0, total);
        return;
    }
    const struct loom_op_elem *e;
    loom_op_kernel *k = find_kernel(op, type, &e);
    if (k == NULL) /* the caller checked with loom__op_check: cannot happen */
        return;
    const struct loom_datatype *et = e->type;
    const char *a = at(in, type->true_lb);
    char *b = at(inout, type->true_lb);

    if (e->pair) {
        if (type == et) { /* a predefined pair: C struct layout, maybe padded */
            k(a, b, count, (size_t)et->extent, e->boff);
            return;
        }
        if (type->contig) { /* pairs back to back, no padding */
            k(a, b, total / et->size, et->size, et->size - e->isize);
            return;
        }
        if (type->dense) {
            size_t per = type->size / et->size;
            for (size_t i = 0; i < count; i++)
                k(at(a, (ptrdiff_t)i * type->extent), at(b, (ptrdiff_t)i * type->extent), per,
                  et->size, et->size - e->isize);
            return;
        }
    } else if (aligned(a, et->align) && aligned(b, et->align)) {
        if (type->contig) { /* the fast path: one loop over everything */
            k(a, b, total / et->size, 0, 0);
            return;
        }
        if (type->dense && type->extent % (ptrdiff_t)et->align == 0) {
            size_t per = type->size / et->size;
            for (size_t i = 0; i < count; i++)
                k(at(a, (ptrdiff_t)i * type->extent), at(b, (ptrdiff_t)i * type->extent), per,
                  0, 0);
            return;
        }
    }
    apply_packed(k, e, in, inout, count, type);
}
