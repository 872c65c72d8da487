/* api/rma_ops.c — MPI_Put, MPI_Get, MPI_Rput, MPI_Rget and their _c forms: one implementation
 * for each pair, which takes the name of the call made (docs/bindings.md "Big counts").
 * Arguments are checked in the order of api/rma_args.c; the data moves in rma/xfer.c. */
#include <stdint.h>
#include <string.h>
#include "api/win.h"
#include "dt/dt.h"
#include "p2p/p2p.h"
#include "p2p/request.h"

/* A new request of a request-based operation (incomplete: its transfer completes it), or
 * NULL. */
struct loom_request *loom__rma_request_new(void)
{
    struct loom_request *r = loom__req_new(LOOM_REQ_RMA);
    if (r != NULL) {
        r->comm = MPI_COMM_SELF; /* where a wait reports (no error can come from the data) */
        loom__p2p_status_empty(&r->status, MPI_ANY_SOURCE);
    }
    return r;
}

int loom__rma_request_done(struct loom_request **out)
{
    struct loom_request *r = loom__rma_request_new();
    if (r == NULL)
        return LOOM_ERR_NOMEM;
    atomic_store_explicit(&r->flags, LOOM_REQ_COMPLETE, memory_order_relaxed); /* not yet
                                                                                 published */
    *out = r;
    return 0;
}

/* The small put or get of contiguous data to a static window, checked and done in one
 * function with no call but the copy's: what latency-bound programs do. 1 when done; 0 sends
 * the call down the full path, which checks everything again and reports what is wrong. It
 * takes types whose data starts at their address (true_lb 0, every predefined type) and
 * moves 1 to loom__p2p_copy_chunk bytes. `entry`: called first thing in an entry point,
 * where loom__api_fast_as is checked here; else after LOOM_API_ENTER. */
static inline __attribute__((always_inline)) int transfer_fast(int entry, int get, void *oaddr,
                                                               MPI_Count ocount, MPI_Datatype ot,
                                                               int rank, MPI_Aint disp,
                                                               MPI_Count tcount, MPI_Datatype tt,
                                                               MPI_Win w)
{
    if (!loom__win_valid(w) ||
        !loom__api_owner_ok(w->owner, entry) ||
        !loom__dt_valid(ot) ||
        !ot->committed || !ot->contig || ot->true_lb != 0 ||
        (uint64_t)ocount > loom__p2p_copy_chunk) /* a negative count too */
        return 0;
    size_t n = ot->size * (size_t)ocount; /* both factors bounded: no overflow */
    if (n - 1 >= loom__p2p_copy_chunk)    /* 0 bytes too */
        return 0;
    /* one datatype on both sides, the common case, is checked once */
    if (tt == ot ? tcount != ocount
                 : !loom__dt_valid(tt) || !tt->committed || !tt->contig || tt->true_lb != 0 ||
                       (uint64_t)tcount > loom__p2p_copy_chunk ||
                       n != tt->size * (size_t)tcount)
        return 0;
    char *t;
    if (!loom__rma_target_fast(w, rank, disp, n, &t))
        return 0;
    char *dst = get ? oaddr : t;
    const char *src = get ? t : oaddr;
    if (n == 8) { /* the word a latency test moves: a load and a store, overlap-safe */
        uint64_t v;
        memcpy(&v, src, 8);
        memcpy(dst, &v, 8);
    } else {
        memmove(dst, src, n);
    }
    return 1;
}

static int transfer(const char *fn, int get, void *oaddr, MPI_Count ocount, MPI_Datatype ot,
                    int rank, MPI_Aint disp, MPI_Count tcount, MPI_Datatype tt, MPI_Win win,
                    MPI_Request *request, int is_request)
{
    int rc;
    struct loom_win *w = loom__win_arg(fn, win, &rc);
    if (w == NULL)
        return rc;
    if ((rc = loom__rma_check_side(w, fn, "origin", ocount, ot)) != MPI_SUCCESS ||
        (rc = loom__rma_check_target_args(w, fn, rank, disp)) != MPI_SUCCESS ||
        (rc = loom__rma_check_side(w, fn, "target", tcount, tt)) != MPI_SUCCESS)
        return rc;
    if (is_request && request == NULL)
        return loom__win_error(w, fn, MPI_ERR_ARG, "request is NULL");
    if ((rc = loom__rma_check_sizes(w, fn, "origin", ocount, ot, tcount, tt)) != MPI_SUCCESS)
        return rc;
    struct loom_request *req = NULL;
    if (rank == MPI_PROC_NULL) {
        if (is_request && (rc = loom__rma_request_done(&req)) != 0)
            return loom__win_error_code(w, fn, rc);
        if (is_request)
            *request = req;
        return MPI_SUCCESS;
    }
    char *taddr;
    if ((rc = loom__rma_locate(w, fn, rank, disp, tcount, tt, is_request, &taddr)) !=
        MPI_SUCCESS)
        return rc;
    if (is_request && (req = loom__rma_request_new()) == NULL)
        return loom__win_error_code(w, fn, LOOM_ERR_NOMEM);
    rc = get ? loom__rma_get(w, rank, oaddr, (size_t)ocount, ot, taddr, (size_t)tcount, tt, req)
             : loom__rma_put(w, rank, oaddr, (size_t)ocount, ot, taddr, (size_t)tcount, tt,
                             req);
    return loom__rma_request_out(w, fn, rc, req, request);
}

int loom__rma_request_out(struct loom_win *w, const char *fn, int rc, struct loom_request *req,
                          MPI_Request *request)
{
    if (rc != 0) {
        if (req)
            loom__req_discard(req); /* never handed out, and nothing started completes it */
        return loom__win_error_code(w, fn, rc);
    }
    if (req)
        *request = req;
    return MPI_SUCCESS;
}

/* MPI_Put and MPI_Get with every check. */
static inline __attribute__((always_inline)) int transfer_checked(const char *fn, int get,
                                                                  void *oaddr, MPI_Count ocount,
                                                                  MPI_Datatype ot, int rank,
                                                                  MPI_Aint disp,
                                                                  MPI_Count tcount,
                                                                  MPI_Datatype tt, MPI_Win win)
{
    LOOM_API_ENTER(fn);
    if (transfer_fast(0, get, oaddr, ocount, ot, rank, disp, tcount, tt, win)) /* traced */
        return MPI_SUCCESS;
    return transfer(fn, get, oaddr, ocount, ot, rank, disp, tcount, tt, win, NULL, 0);
}

/* The full path of each entry point, out of line, with the entry point's own arguments in
 * their order: the entry's fast path ends in a jump to it (a sibling call) rather than a
 * call with two more arguments, around which the compiler saved and restored six registers. */
#define TRANSFER_SLOW(name, fn, get)                                                           \
    static __attribute__((noinline)) int name(void *oaddr, MPI_Count ocount, MPI_Datatype ot, \
                                              int rank, MPI_Aint disp, MPI_Count tcount,       \
                                              MPI_Datatype tt, MPI_Win win)                    \
    {                                                                                          \
        return transfer_checked(fn, get, oaddr, ocount, ot, rank, disp, tcount, tt, win);     \
    }
TRANSFER_SLOW(put_slow, "MPI_Put", 0)
TRANSFER_SLOW(put_c_slow, "MPI_Put_c", 0)
TRANSFER_SLOW(get_slow, "MPI_Get", 1)
TRANSFER_SLOW(get_c_slow, "MPI_Get_c", 1)

/* MPI_Put and MPI_Get are inlined into their MPI_ and PMPI_ entry points under link-time
 * optimization (always_inline; a plain call without it), so that a latency-bound put pays no
 * call layer (docs/rma.md "The latency-bound calls"). fn, a constant there, picks the full
 * path. */
static inline __attribute__((always_inline)) int
transfer_entry(const char *fn, int get, void *oaddr, MPI_Count ocount, MPI_Datatype ot,
               int rank, MPI_Aint disp, MPI_Count tcount, MPI_Datatype tt, MPI_Win win)
{
    if (__builtin_expect(transfer_fast(1, get, oaddr, ocount, ot, rank, disp, tcount, tt, win),
                         1))
        return MPI_SUCCESS;
    int big = loom__api_big_count(fn);
    return (get ? big ? get_c_slow : get_slow : big ? put_c_slow : put_slow)(
        oaddr, ocount, ot, rank, disp, tcount, tt, win);
}

__attribute__((always_inline)) inline int loom__mpi_put_c(const char *fn,
                                                          const void *origin_addr,
                                                          MPI_Count origin_count,
                                                          MPI_Datatype origin_datatype,
                                                          int target_rank, MPI_Aint target_disp,
                                                          MPI_Count target_count,
                                                          MPI_Datatype target_datatype,
                                                          MPI_Win win)
{
    return transfer_entry(fn, 0, (void *)origin_addr, origin_count, origin_datatype,
                          target_rank, target_disp, target_count, target_datatype, win);
}

__attribute__((always_inline)) inline int loom__mpi_get_c(const char *fn, void *origin_addr,
                                                          MPI_Count origin_count,
                                                          MPI_Datatype origin_datatype,
                                                          int target_rank, MPI_Aint target_disp,
                                                          MPI_Count target_count,
                                                          MPI_Datatype target_datatype,
                                                          MPI_Win win)
{
    return transfer_entry(fn, 1, origin_addr, origin_count, origin_datatype, target_rank,
                          target_disp, target_count, target_datatype, win);
}

int loom__mpi_rput_c(const char *fn, const void *origin_addr, MPI_Count origin_count,
                     MPI_Datatype origin_datatype, int target_rank, MPI_Aint target_disp,
                     MPI_Count target_count, MPI_Datatype target_datatype, MPI_Win win,
                     MPI_Request *request)
{
    LOOM_API_ENTER(fn);
    return transfer(fn, 0, (void *)origin_addr, origin_count, origin_datatype, target_rank,
                    target_disp, target_count, target_datatype, win, request, 1);
}

int loom__mpi_rget_c(const char *fn, void *origin_addr, MPI_Count origin_count,
                     MPI_Datatype origin_datatype, int target_rank, MPI_Aint target_disp,
                     MPI_Count target_count, MPI_Datatype target_datatype, MPI_Win win,
                     MPI_Request *request)
{
    LOOM_API_ENTER(fn);
    return transfer(fn, 1, origin_addr, origin_count, origin_datatype, target_rank,
                    target_disp, target_count, target_datatype, win, request, 1);
}
