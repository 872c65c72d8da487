/* dt/dt.h — datatypes: their layout, life and the copy engine (private header of dt/).
 *
 * A datatype describes where the bytes of one "instance" lie relative to the buffer address,
 * as a small tree that is never expanded into a list of blocks:
 *
 *   BASIC   a predefined basic type: `size` bytes at offset 0.
 *   VECTOR  nblocks blocks, block b at disp0 + b*stride, each holding `blen` instances of
 *           `child` (instance j of a block at block + j*child->extent). Contiguous, vector,
 *           hvector and every constructor that reduces to one block use it: a vector of 1M
 *           ints is one node, whatever its count.
 *   BLOCKS  nblocks blocks with their own displacement and length (disps[], blens[]); the
 *           child is `child`, or children[b] for a struct. prefix[b] is the number of data
 *           bytes before block b, so a position in the stream is found by binary search.
 *
 * Blocks that hold no data (length 0, or a child of size 0) are dropped from the layout when
 * the type is built (they still count for lb/ub), so every block in a layout holds data.
 * A type whose instance is one run of bytes is `dense`; the copy engine never descends into
 * a dense type, it treats it as a run (and a `contig` type's consecutive instances as one).
 *
 * Life: a derived type starts with refs = 1 (the user's handle). MPI_Type_free marks it
 * freed (magic LOOM_MAGIC_FREED: stale handles are rejected) and drops that reference;
 * operations in flight (loom__dt_retain/release) and parent types (each holds one reference
 * on each child) keep it alive. At refs == 0 its layout arrays are freed and its struct goes
 * to the core quarantine (core/quarantine.h), so checking a stale handle reads loom memory.
 * Predefined types are static objects: never counted, never freed.
 *
 * Concurrency: everything but `refs`, `obj.magic`, `committed` and `name` is written once,
 * by the thread that builds the type, before its handle is returned; afterwards the type is
 * read-only, so any number of threads may copy with it at once. `refs` is atomic (see
 * build.c). `committed` and `magic` are written by the user's MPI_Type_commit / _free; a user
 * that hands a type to another rank orders those calls before the hand-off. `name` is
 * guarded by a mutex in handle.c. */
#ifndef LOOM_DT_DT_H
#define LOOM_DT_DT_H
#include <stdatomic.h>
#include <stddef.h>
#include "mpi.h"
#include "core/object.h"

enum loom_dt_kind { LOOM_DT_BASIC = 0, LOOM_DT_VECTOR, LOOM_DT_BLOCKS };

/* The machine word a named predefined type is, for the one-sided fast paths (rma/word.h): set
 * on the named 4- and 8-byte integer types, C's and Fortran's, on which MPI_MAX, _MIN, _SUM,
 * _PROD, _BAND, _BOR and _BXOR are all defined, and on the doubles; LOOM_DT_WORD_NONE on
 * every other type (derived types are zeroed when made). */
enum loom_dt_word {
    LOOM_DT_WORD_NONE = 0,
    LOOM_DT_WORD_I32,
    LOOM_DT_WORD_U32,
    LOOM_DT_WORD_I64,
    LOOM_DT_WORD_U64,
    LOOM_DT_WORD_F64,
};

struct loom_attr_list;

/* The C types of gfortran's INTEGER(16), REAL(16) and COMPLEX(16) (MPI_INTEGER16, MPI_REAL16,
 * MPI_COMPLEX32): a 128-bit integer and IEEE quad precision, whose arithmetic GCC and Clang
 * do in software (libgcc). */
__extension__ typedef __int128 loom_int128;
__extension__ typedef _Float128 loom_real16;
__extension__ typedef _Complex _Float128 loom_complex32;

/* How a type was built, for MPI_Type_get_envelope / get_contents (and their _c forms): the
 * constructor and its arguments as the user gave them (the layout above is normalized and
 * cannot give them back). A type made by a big-count constructor (MPI_Type_xxx_c) keeps its
 * count-valued arguments in large[] (MPI 4.1 5.1.13), so nl > 0 exactly for those types;
 * the int decoding calls refuse them. One allocation; shared by the type and the copies of
 * it that get_contents hands out (refs), holding one reference on each type in types[].
 * Read-only once attached. */
struct loom_dt_contents {
    _Atomic int refs;            /* types pointing at it; freed at 0 (never for static ones) */
    int combiner;                /* MPI_COMBINER_* */
    MPI_Count ni, na, nl, nd;    /* lengths of the four arrays */
    int *ints;                   /* [ni] */
    MPI_Aint *addrs;             /* [na] */
    MPI_Count *large;            /* [nl] the large counts of a big-count constructor */
    struct loom_datatype **types; /* [nd] */
};

struct loom_datatype {
    struct loom_object obj;      /* magic LOOM_MAGIC_DATATYPE (LOOM_MAGIC_FREED once freed) */
    _Atomic int refs;            /* user handle + operations in flight + parent types;
                                    0 -> quarantine (never counted for predefined) */
    enum loom_dt_word word;      /* read-only; in what was padding, so that the predefined
                                    objects keep their size and layout (a program linked
                                    to them holds copies of them: copy relocations) */
    size_t size;                 /* bytes of data in one element */
    ptrdiff_t lb, extent;        /* MPI lb and extent */
    ptrdiff_t true_lb, true_extent;
    int committed, predefined;
    int contig;                  /* 1 when `count` elements starting at buf+true_lb are one
                                    dense block of count*size bytes (dense, size == extent) */
    int dense;                   /* 1 when one element is one run of `size` bytes at true_lb */
    int marked;                  /* lb/ub were set explicitly (resized, subarray): sticky, a
                                    struct takes its bounds from marked members only and does
                                    not pad its extent to the alignment */
    int combiner;                /* MPI_COMBINER_* */
    size_t align;                /* largest alignment of its basic members (struct padding) */
    /* The basic type this type is made of when it has a single one (MPI_INT for a vector of
     * ints, MPI_2INT's MPI_INT), NULL when it mixes several (MPI_SHORT_INT, structs). */
    const struct loom_datatype *basic;
    size_t nbasic;               /* basic elements in one element */
    int depth;                   /* levels of non-dense types below this one (0 if dense) */

    /* layout (see the top of this file); read-only once built */
    enum loom_dt_kind kind;
    size_t nblocks;
    size_t blen;                 /* VECTOR: instances of child per block */
    ptrdiff_t disp0, stride;     /* VECTOR: displacement of block 0, bytes between blocks */
    const size_t *blens;         /* BLOCKS [nblocks] */
    const ptrdiff_t *disps;      /* BLOCKS [nblocks] bytes */
    const size_t *prefix;        /* BLOCKS [nblocks + 1] data bytes before each block */
    struct loom_datatype *child; /* VECTOR, and BLOCKS without children */
    struct loom_datatype *const *children; /* BLOCKS of a struct [nblocks], else NULL */
    /* The type whose layout arrays and children this one shares (dup, resized), holding one
     * reference on it; NULL when this type owns them (then it holds one reference on each
     * child entry). */
    struct loom_datatype *layout_owner;

    /* The constructor and its arguments (NULL for the named predefined types); written once
     * before the handle is returned, or for copies handed out by get_contents. */
    struct loom_dt_contents *contents;
    /* Cached attributes (MPI_Type_set_attr), newest first; under the attribute lock of
     * api/type_attr.c (predefined types are shared by all ranks). */
    struct loom_attr_list *attrs;

    char name[MPI_MAX_OBJECT_NAME];        /* under the name lock (handle.c) */
};

/* The deepest nesting of non-dense types a type may have (levels of the copy cursor). A
 * constructor that would go deeper fails with LOOM_ERR_ARG. */
#define LOOM_DT_MAX_DEPTH 64

/* Block b of t's layout (t not BASIC): its displacement, instances, and member. */
static inline void loom__dt_block(const struct loom_datatype *t, size_t b, ptrdiff_t *d,
                                  size_t *n, const struct loom_datatype **c)
{
    if (t->kind == LOOM_DT_VECTOR) {
        *d = t->disp0 + (ptrdiff_t)b * t->stride;
        *n = t->blen;
        *c = t->child;
    } else {
        *d = t->disps[b];
        *n = t->blens[b];
        *c = t->children ? t->children[b] : t->child;
    }
}

/* Index of the block of t (not BASIC, nblocks >= 1) holding byte off (< t->size) of one
 * element's stream: a division for a vector, a binary search over prefix[] for blocks. */
static inline size_t loom__dt_find_block(const struct loom_datatype *t, size_t off)
{
    if (t->kind == LOOM_DT_VECTOR)
        return off / (t->blen * t->child->size);
    size_t lo = 0, hi = t->nblocks - 1; /* prefix[lo] <= off < prefix[hi + 1] */
    while (lo < hi) {
        size_t mid = lo + (hi - lo + 1) / 2;
        if (t->prefix[mid] <= off)
            lo = mid;
        else
            hi = mid - 1;
    }
    return lo;
}

/* 1 if t is a live datatype handle (non-NULL, live magic). */
static inline __attribute__((always_inline)) int loom__dt_valid(MPI_Datatype t)
{
    return loom__object_is(t, LOOM_MAGIC_DATATYPE);
}

/* 0 if t can describe a buffer of a communication or a pack (live and committed); else
 * LOOM_ERR_TYPE and *reason (if reason is not NULL) is a one-line reason: "datatype is
 * MPI_DATATYPE_NULL", "datatype is not a valid datatype (freed?)", "datatype is not
 * committed". Any thread. */
int loom__dt_check_usable(MPI_Datatype t, const char **reason);

/* NULL if t is a live handle, else what is wrong with it, to follow the argument's name:
 * "is MPI_DATATYPE_NULL", "is not a valid datatype (freed?)". Any thread. */
const char *loom__dt_bad_handle(MPI_Datatype t);

/* An operation in flight keeps the type alive until it calls release. Any thread; no-op for
 * predefined types. */
void loom__dt_retain(struct loom_datatype *t);
void loom__dt_release(struct loom_datatype *t);

/* Bytes of the packed stream of count elements of t (t->size * count). */
static inline size_t loom__dt_stream_size(const struct loom_datatype *t, size_t count)
{
    return t->size * count;
}

/* Copy bytes [offset, offset+len) of the packed byte stream of `scount` elements of `st` at
 * `src` into the same positions of the stream of `dcount` elements of `dt` at `dst`. Either
 * side may be non-contiguous; data moves in one pass from source layout to destination layout
 * (no temporary buffer). The caller guarantees offset+len <= both stream sizes. Several
 * threads may copy disjoint ranges of one message at once: the types are only read. */
void loom__dt_copy(void *dst, const struct loom_datatype *dt, size_t dcount, const void *src,
                   const struct loom_datatype *st, size_t scount, size_t offset, size_t len);
/* Pack / unpack bytes [offset, offset+len) of the stream to / from a contiguous buffer that
 * holds the whole packed stream: `packed` is the address of stream byte 0, the range lies at
 * packed + offset (as loom__dt_copy with MPI_BYTE on the packed side). */
void loom__dt_pack(void *packed, const void *src, const struct loom_datatype *st, size_t scount,
                   size_t offset, size_t len);
void loom__dt_unpack(void *dst, const struct loom_datatype *dt, size_t dcount,
                     const void *packed, size_t offset, size_t len);

/* ---- constructors (build.c, subarray.c). Each returns 0 and a new uncommitted type with
 * refs = 1 in *out, or a negative loom code (LOOM_ERR_NOMEM, LOOM_ERR_ARG when the type
 * would be larger than the address space). Arguments are assumed checked by the caller (the
 * API layer): counts non-negative, types live. Old types are retained, not consumed. ---- */
/* count instances of old, one after the other. */
int loom__dt_contiguous(size_t count, struct loom_datatype *old, struct loom_datatype **out);
/* count blocks of blen instances of old, block b at b*stride bytes (MPI_Type_create_hvector;
 * MPI_Type_vector passes stride * old->extent). combiner is recorded. */
int loom__dt_hvector(size_t count, size_t blen, ptrdiff_t stride, struct loom_datatype *old,
                     int combiner, struct loom_datatype **out);
/* count blocks, block b of blens[b] instances of types[b] (or of old when types is NULL) at
 * disps[b] bytes. A struct (types != NULL) pads its extent to the alignment of its members
 * unless a member is marked. */
int loom__dt_blocks(size_t count, const size_t *blens, const ptrdiff_t *disps,
                    struct loom_datatype *const *types, struct loom_datatype *old, int combiner,
                    struct loom_datatype **out);
/* old with lb and extent replaced (marked). */
int loom__dt_resized(struct loom_datatype *old, ptrdiff_t lb, ptrdiff_t extent,
                     struct loom_datatype **out);
/* A copy of old (committed if old is). */
int loom__dt_dup(struct loom_datatype *old, struct loom_datatype **out);
/* The subarray of MPI_Type_create_subarray(_c); order is MPI_ORDER_C or MPI_ORDER_FORTRAN
 * and the arrays are assumed valid (sizes >= 1, 0 <= subsizes, starts + subsizes <= sizes). */
int loom__dt_subarray(int ndims, const ptrdiff_t *sizes, const ptrdiff_t *subsizes,
                      const ptrdiff_t *starts, int order, struct loom_datatype *old,
                      struct loom_datatype **out);
/* MPI_Type_free of a derived type: marks the handle freed and drops the user's reference. */
void loom__dt_free(struct loom_datatype *t);

/* The darray of MPI_Type_create_darray for process `rank` of a grid of psizes[] (row major),
 * arguments assumed valid (MPI_DISTRIBUTE_DFLT_DARG resolved by the caller is not needed:
 * this function resolves it). */
int loom__dt_darray(int rank, int ndims, const ptrdiff_t *gsizes, const int *distribs,
                    const int *dargs, const int *psizes, int order, struct loom_datatype *old,
                    struct loom_datatype **out);
/* A new handle on the same type as old (same layout, same contents, committed if old is):
 * what get_contents returns for a derived member type, which the user frees. */
int loom__dt_clone(struct loom_datatype *old, struct loom_datatype **out);

/* ---- constructor contents (contents.c) ---- */
/* New contents with room for ni ints, na addresses, nl large counts and nd types, refs 1,
 * arrays to be filled by the caller; NULL on ENOMEM (or lengths beyond memory). */
struct loom_dt_contents *loom__dt_contents_new(int combiner, MPI_Count ni, MPI_Count na,
                                               MPI_Count nl, MPI_Count nd);
/* Attach c (filled) to t, which takes over the caller's reference; retains c's types. */
void loom__dt_contents_attach(struct loom_datatype *t, struct loom_dt_contents *c);
/* Free c before it was attached (its types were not retained). */
void loom__dt_contents_discard(struct loom_dt_contents *c);
/* Drop a reference on c (NULL ok); the last one releases its types and frees it. */
void loom__dt_contents_release(struct loom_dt_contents *c);
/* MPI_COMBINER_* of t: its contents' combiner, MPI_COMBINER_NAMED when it has none. */
int loom__dt_combiner(const struct loom_datatype *t);

/* ---- Fortran 90 parameterized types and size matching (f90.c) ---- */
/* The predefined type of MPI_Type_create_f90_integer(r) / _real(p, r) / _complex(p, r)
 * (combiner MPI_COMBINER_F90_*; MPI_UNDEFINED for an unspecified p or r). The same (kind,
 * p, r) gives the same handle; they live until the process ends. 0, LOOM_ERR_ARG when no C
 * type has the range or precision, or LOOM_ERR_NOMEM. Any thread. */
int loom__dt_f90(int combiner, int p, int r, struct loom_datatype **out);
/* The f90 types made so far, one after the other: the first for NULL, then the one after
 * prev; NULL at the end. For job-end cleanup of what they cache. */
struct loom_datatype *loom__dt_f90_next(struct loom_datatype *prev);
/* The predefined type of class MPI_TYPECLASS_* with `size` bytes, or NULL. */
struct loom_datatype *loom__dt_match_size(int typeclass, int size);

/* ---- external32 (external32.c) ---- */
/* Bytes of the external32 form of count elements of t; LOOM_ERR_ARG when t holds a type
 * external32 does not define (none today) or the size overflows. */
int loom__dt_external32_size(const struct loom_datatype *t, size_t count, size_t *size);
/* Convert the native packed stream of count elements of t (loom__dt_pack's output) to
 * external32 at out, or back. 0, or 1 when a value does not fit the other side's size (a
 * long beyond 32 bits: MPI_ERR_CONVERSION for the caller); the rest is converted anyway. */
int loom__dt_external32_encode(void *out, const void *native, const struct loom_datatype *t,
                               size_t count);
int loom__dt_external32_decode(void *native, const void *in, const struct loom_datatype *t,
                               size_t count);

/* ---- names (handle.c) ---- */
void loom__dt_set_name(struct loom_datatype *t, const char *name);
/* Copies the name (NUL-terminated, at most MPI_MAX_OBJECT_NAME bytes) into out; returns its
 * length. */
int loom__dt_get_name(const struct loom_datatype *t, char *out);

/* ---- elements (elements.c) ---- */
/* The number of basic elements in the first `bytes` bytes of a stream of t; -1 when those
 * bytes end inside a basic element. 0 when t has size 0. */
long long loom__dt_elements(const struct loom_datatype *t, size_t bytes);
/* The number of stream bytes that `elements` basic elements of t fill. */
size_t loom__dt_elements_bytes(const struct loom_datatype *t, size_t elements);

/* Bytes of memory that t's layout owns (arrays), for tests of the memory footprint. */
size_t loom__dt_footprint(const struct loom_datatype *t);
#endif
