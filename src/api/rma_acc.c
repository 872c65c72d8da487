/* api/rma_acc.c — the accumulate family: MPI_Accumulate, MPI_Get_accumulate, MPI_Fetch_and_op,
 * MPI_Compare_and_swap, MPI_Raccumulate, MPI_Rget_accumulate (and the _c forms, one
 * implementation each with its int twin). The standard's rules on the datatypes (MPI 4.1
 * section 12.3.4): every buffer's datatype is made of one predefined type, the same on every
 * side; the operation is predefined (or MPI_REPLACE, MPI_NO_OP) and defined on that type;
 * MPI_Fetch_and_op and MPI_Compare_and_swap take one element of a predefined type, the latter
 * only of an integer, logical or byte type. The update itself, element-wise atomic, is
 * rma/acc.c's; it is done in the call, so a request-based accumulate is complete at once. */
#include <stdint.h>
#include <string.h>
#include "api/win.h"
#include "coll/op.h"
#include "dt/dt.h"
#include "p2p/request.h"
#include "rma/word.h"

/* What one accumulate call was given. */
struct acc {
    const void *oaddr;
    MPI_Count ocount;
    MPI_Datatype ot;
    void *raddr;
    MPI_Count rcount;
    MPI_Datatype rt;
    int has_result;       /* 0 for MPI_Accumulate */
    int rank;
    MPI_Aint disp;
    MPI_Count tcount;
    MPI_Datatype tt;
    MPI_Op op;
};

/* The accumulate of n elements of one predefined type, contiguous on every side, to a static
 * window (what a fetch-and-op, a counter or a small accumulate does), checked and done
 * with one call below the API. 1 when done; 0 sends the call down the full path, which
 * checks everything again and reports what is wrong. ot and rt may be NULL (not given). */
static inline __attribute__((always_inline)) int acc_fast(const void *origin, MPI_Count ocount,
                                                          MPI_Datatype ot, void *result,
                                                          MPI_Count rcount, MPI_Datatype rt,
                                                          int rank, MPI_Aint disp,
                                                          MPI_Count count, MPI_Datatype t,
                                                          MPI_Op op, MPI_Win w)
{
    if (!loom__win_valid(w) || w->owner != loom__self || !loom__dt_valid(t) ||
        !t->predefined || t->contents != NULL || !t->contig || !loom__op_valid(op) ||
        !op->predefined || count < 0 || count > (MPI_Count)(1 << 20))
        return 0;
    if (op != MPI_NO_OP && (ot != t || ocount != count))
        return 0;
    if (rt != NULL && (rt != t || rcount != count))
        return 0;
    /* a predefined type starts at its address (true_lb 0) */
    char *p;
    return loom__rma_target_fast(w, rank, disp, t->size * (size_t)count, &p) &&
           loom__rma_acc_contig(t, op, p, op == MPI_NO_OP ? NULL : origin, rt ? result : NULL,
                                (size_t)count) == 0;
}

/* The accumulate of a checked call on a member of another node process: carried out there,
 * its request (if any) completed when the answers are in. */
static int remote_accumulate(const char *fn, struct loom_win *w, const struct acc *a,
                             char *taddr, MPI_Request *request, int is_request)
{
    struct loom_request *req = NULL;
    if (is_request && (req = loom__rma_request_new()) == NULL)
        return loom__win_error_code(w, fn, LOOM_ERR_NOMEM);
    int rc = loom__rma_net_acc(w, a->rank, a->oaddr, (size_t)a->ocount,
                               a->op == MPI_NO_OP ? NULL : a->ot, a->raddr, (size_t)a->rcount,
                               a->has_result ? a->rt : NULL, taddr, (size_t)a->tcount, a->tt,
                               a->op, req);
    return loom__rma_request_out(w, fn, rc, req, request);
}

static int accumulate(const char *fn, const struct acc *a, MPI_Win win, MPI_Request *request,
                      int is_request)
{
    int rc;
    struct loom_win *w = loom__win_arg(fn, win, &rc);
    if (w == NULL)
        return rc;
    if ((rc = loom__rma_check_side(w, fn, "origin", a->ocount, a->ot)) != MPI_SUCCESS ||
        (a->has_result &&
         (rc = loom__rma_check_side(w, fn, "result", a->rcount, a->rt)) != MPI_SUCCESS) ||
        (rc = loom__rma_check_target_args(w, fn, a->rank, a->disp)) != MPI_SUCCESS ||
        (rc = loom__rma_check_side(w, fn, "target", a->tcount, a->tt)) != MPI_SUCCESS ||
        (rc = loom__rma_check_op(w, fn, a->op, a->tt)) != MPI_SUCCESS)
        return rc;
    if (is_request && request == NULL)
        return loom__win_error(w, fn, MPI_ERR_ARG, "request is NULL");
    /* With MPI_NO_OP the origin's arguments are ignored (MPI 4.1 section 12.3.4). */
    int no_op = a->op == MPI_NO_OP;
    if ((rc = loom__rma_check_acc_types(w, fn, "origin", no_op ? NULL : a->ot, a->tt)) !=
            MPI_SUCCESS ||
        (a->has_result &&
         (rc = loom__rma_check_acc_types(w, fn, "result", a->rt, a->tt)) != MPI_SUCCESS) ||
        (!no_op && (rc = loom__rma_check_sizes(w, fn, "origin", a->ocount, a->ot, a->tcount,
                                               a->tt)) != MPI_SUCCESS) ||
        (a->has_result && (rc = loom__rma_check_sizes(w, fn, "result", a->rcount, a->rt,
                                                      a->tcount, a->tt)) != MPI_SUCCESS))
        return rc;
    if (a->rank != MPI_PROC_NULL) {
        char *taddr;
        if ((rc = loom__rma_locate(w, fn, a->rank, a->disp, a->tcount, a->tt, is_request,
                                   &taddr)) != MPI_SUCCESS)
            return rc;
        if (w->sh->seg[a->rank].remote) /* a member of another node process: messages */
            return remote_accumulate(fn, w, a, taddr, request, is_request);
        rc = loom__rma_accumulate(a->oaddr, (size_t)a->ocount, no_op ? NULL : a->ot, a->raddr,
                                  (size_t)a->rcount, a->has_result ? a->rt : NULL, taddr,
                                  (size_t)a->tcount, a->tt, a->op);
        if (rc != 0)
            return loom__win_error_code(w, fn, rc);
    }
    if (is_request) {
        struct loom_request *req;
        if ((rc = loom__rma_request_done(&req)) != 0)
            return loom__win_error_code(w, fn, rc);
        *request = req;
    }
    return MPI_SUCCESS;
}

int loom__mpi_accumulate_c(const char *fn, const void *origin_addr, MPI_Count origin_count,
                           MPI_Datatype origin_datatype, int target_rank, MPI_Aint target_disp,
                           MPI_Count target_count, MPI_Datatype target_datatype, MPI_Op op,
                           MPI_Win win)
{
    LOOM_API_ENTER(fn);
    if (__builtin_expect(acc_fast(origin_addr, origin_count, origin_datatype, NULL, 0, NULL,
                                  target_rank, target_disp, target_count, target_datatype, op,
                                  win),
                         1))
        return MPI_SUCCESS;
    struct acc a = {origin_addr, origin_count, origin_datatype, NULL, 0, NULL, 0, target_rank,
                    target_disp, target_count, target_datatype, op};
    return accumulate(fn, &a, win, NULL, 0);
}

int loom__mpi_raccumulate_c(const char *fn, const void *origin_addr, MPI_Count origin_count,
                            MPI_Datatype origin_datatype, int target_rank,
                            MPI_Aint target_disp, MPI_Count target_count,
                            MPI_Datatype target_datatype, MPI_Op op, MPI_Win win,
                            MPI_Request *request)
{
    LOOM_API_ENTER(fn);
    struct acc a = {origin_addr, origin_count, origin_datatype, NULL, 0, NULL, 0, target_rank,
                    target_disp, target_count, target_datatype, op};
    return accumulate(fn, &a, win, request, 1);
}

int loom__mpi_get_accumulate_c(const char *fn, const void *origin_addr, MPI_Count origin_count,
                               MPI_Datatype origin_datatype, void *result_addr,
                               MPI_Count result_count, MPI_Datatype result_datatype,
                               int target_rank, MPI_Aint target_disp, MPI_Count target_count,
                               MPI_Datatype target_datatype, MPI_Op op, MPI_Win win)
{
    LOOM_API_ENTER(fn);
    struct acc a = {origin_addr, origin_count, origin_datatype, result_addr, result_count,
                    result_datatype, 1, target_rank, target_disp, target_count,
                    target_datatype, op};
    return accumulate(fn, &a, win, NULL, 0);
}

int loom__mpi_rget_accumulate_c(const char *fn, const void *origin_addr,
                                MPI_Count origin_count, MPI_Datatype origin_datatype,
                                void *result_addr, MPI_Count result_count,
                                MPI_Datatype result_datatype, int target_rank,
                                MPI_Aint target_disp, MPI_Count target_count,
                                MPI_Datatype target_datatype, MPI_Op op, MPI_Win win,
                                MPI_Request *request)
{
    LOOM_API_ENTER(fn);
    struct acc a = {origin_addr, origin_count, origin_datatype, result_addr, result_count,
                    result_datatype, 1, target_rank, target_disp, target_count,
                    target_datatype, op};
    return accumulate(fn, &a, win, request, 1);
}

/* The target word of a fetch-and-op (op, valid) or compare-and-swap (op NULL) on this
 * origin's window when the fast path may take it (rma/word.h): a word type the operation is
 * done on there (a compare-and-swap takes integers only), the target in an access epoch, the
 * word inside its window and aligned to its size (the stripes cover aligned words only);
 * NULL sends the call down the full path, which checks everything again and says what is
 * wrong. The first check of an entry point: loom__api_fast_as is checked here. */
static inline __attribute__((always_inline)) char *word_target(MPI_Datatype t, MPI_Op op,
                                                               int rank, MPI_Aint disp,
                                                               MPI_Win w)
{
    char *p;
    if (!loom__win_valid(w) || !loom__api_fast_as(w->owner) || !loom__dt_valid(t) ||
        !(op != NULL ? loom__rma_word_has(t->word, op->kind)
                     : t->word != LOOM_DT_WORD_NONE && t->word != LOOM_DT_WORD_F64) ||
        !loom__rma_target_fast(w, rank, disp, t->size, &p))
        return NULL;
    return ((uintptr_t)p & (t->size - 1)) == 0 ? p : NULL; /* 4 or 8 bytes */
}

/* MPI_Fetch_and_op with every check, out of line. */
static __attribute__((noinline)) int fetch_and_op_checked(const void *origin_addr,
                                                          void *result_addr,
                                                          MPI_Datatype datatype,
                                                          int target_rank, MPI_Aint target_disp,
                                                          MPI_Op op, MPI_Win win)
{
    static const char fn[] = "MPI_Fetch_and_op";
    LOOM_API_ENTER(fn);
    if (__builtin_expect(acc_fast(origin_addr, 1, datatype, result_addr, 1, datatype,
                                  target_rank, target_disp, 1, datatype, op, win),
                         1))
        return MPI_SUCCESS;
    int rc;
    struct loom_win *w = loom__win_arg(fn, win, &rc);
    if (w == NULL)
        return rc;
    if ((rc = loom__rma_check_side(w, fn, "origin", 1, datatype)) != MPI_SUCCESS)
        return rc;
    if (!datatype->predefined)
        return loom__win_error(w, fn, MPI_ERR_TYPE, "datatype is not a predefined datatype "
                               "(MPI_Fetch_and_op takes one element of one)");
    struct acc a = {origin_addr, 1, datatype, result_addr, 1, datatype, 1, target_rank,
                    target_disp, 1, datatype, op};
    return accumulate(fn, &a, win, NULL, 0);
}

/* Inline in MPI_Fetch_and_op and PMPI_Fetch_and_op under link-time optimization (api.h,
 * loom__api_fast_as): the word path, else the rest out of line. */
__attribute__((always_inline)) inline int loom__mpi_fetch_and_op(const void *origin_addr,
                                                                 void *result_addr,
                                                                 MPI_Datatype datatype,
                                                                 int target_rank,
                                                                 MPI_Aint target_disp,
                                                                 MPI_Op op, MPI_Win win)
{
    char *p;
    if (__builtin_expect(loom__op_valid(op) &&
                             (p = word_target(datatype, op, target_rank, target_disp, win)) !=
                                 NULL,
                         1)) {
        loom__rma_word_fop(datatype->word, op->kind, p, origin_addr, result_addr);
        return MPI_SUCCESS;
    }
    return fetch_and_op_checked(origin_addr, result_addr, datatype, target_rank, target_disp,
                                op, win); /* its arguments: a jump (api/rma_ops.c) */
}

/* 1 if t may be compared and swapped: a predefined integer, logical or byte type (those on
 * which MPI_BAND or MPI_LAND is defined: no floating or character type is among them). */
static int swappable(MPI_Datatype t)
{
    const struct loom_datatype *et = t->predefined ? loom__op_elem_type(t) : NULL;
    const struct loom_op_elem *e = et ? loom__op_elem(et) : NULL;
    return e != NULL && !e->pair &&
           (e->kernel[LOOM_OP_BAND] != NULL || e->kernel[LOOM_OP_LAND] != NULL);
}

/* MPI_Compare_and_swap with every check, out of line. */
static __attribute__((noinline)) int compare_and_swap_checked(const void *origin_addr,
                                                              const void *compare_addr,
                                                              void *result_addr,
                                                              MPI_Datatype datatype,
                                                              int target_rank,
                                                              MPI_Aint target_disp, MPI_Win win)
{
    static const char fn[] = "MPI_Compare_and_swap";
    LOOM_API_ENTER(fn);
    int rc;
    struct loom_win *w = loom__win_arg(fn, win, &rc);
    if (w == NULL)
        return rc;
    if ((rc = loom__rma_check_side(w, fn, "origin", 1, datatype)) != MPI_SUCCESS ||
        (rc = loom__rma_check_target_args(w, fn, target_rank, target_disp)) != MPI_SUCCESS)
        return rc;
    if (!swappable(datatype))
        return loom__win_error(w, fn, MPI_ERR_TYPE, "datatype is not an integer, logical or "
                               "byte type (MPI_Compare_and_swap compares bits of one)");
    if (target_rank == MPI_PROC_NULL)
        return MPI_SUCCESS;
    char *taddr;
    if ((rc = loom__rma_locate(w, fn, target_rank, target_disp, 1, datatype, 0, &taddr)) !=
        MPI_SUCCESS)
        return rc;
    if (w->sh->seg[target_rank].remote) {
        rc = loom__rma_net_cas(w, target_rank, origin_addr, compare_addr, result_addr,
                               datatype, taddr);
        return rc ? loom__win_error_code(w, fn, rc) : MPI_SUCCESS;
    }
    loom__rma_compare_swap(taddr, datatype, origin_addr, compare_addr, result_addr);
    return MPI_SUCCESS;
}

/* Inline in MPI_Compare_and_swap and its PMPI_ twin, as MPI_Fetch_and_op above: an integer
 * word (a double is no integer: the full path refuses it). */
__attribute__((always_inline)) inline int loom__mpi_compare_and_swap(const void *origin_addr,
                                                                     const void *compare_addr,
                                                                     void *result_addr,
                                                                     MPI_Datatype datatype,
                                                                     int target_rank,
                                                                     MPI_Aint target_disp,
                                                                     MPI_Win win)
{
    char *p;
    if (__builtin_expect((p = word_target(datatype, NULL, target_rank, target_disp, win)) !=
                             NULL,
                         1)) {
        loom__rma_word_cas(datatype->word, p, origin_addr, compare_addr, result_addr);
        return MPI_SUCCESS;
    }
    return compare_and_swap_checked(origin_addr, compare_addr, result_addr, datatype,
                                    target_rank, target_disp, win); /* a jump, as above */
}
