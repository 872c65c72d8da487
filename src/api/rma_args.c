/* api/rma_args.c — the checks every one-sided communication call makes, in the order the
 * bad-argument walk relies on: first the arguments themselves (counts, datatypes, target
 * rank and displacement, what the datatypes say together), then whether the calling origin
 * is in an epoch that allows the access (MPI_ERR_RMA_SYNC), then whether the target's data
 * lies inside the target's window (MPI_ERR_RMA_RANGE). Each reports on the window with a
 * reason that names the argument. */
#include "api/win.h"
#include "coll/op.h"
#include "dt/dt.h"

int loom__rma_check_side(struct loom_win *w, const char *fn, const char *side, MPI_Count count,
                         MPI_Datatype type)
{
    if (count < 0)
        return loom__win_error(w, fn, MPI_ERR_COUNT, "%s_count %lld is negative", side,
                               (long long)count);
    const char *why;
    if (loom__dt_check_usable(type, &why) != 0)
        return loom__win_error(w, fn, MPI_ERR_TYPE, "%s_%s", side, why);
    return MPI_SUCCESS;
}

int loom__rma_check_target_args(struct loom_win *w, const char *fn, int rank, MPI_Aint disp)
{
    if (rank != MPI_PROC_NULL && (rank < 0 || rank >= w->size))
        return loom__win_error(w, fn, MPI_ERR_RANK,
                               "target_rank %d out of range (the window has %d members)", rank,
                               w->size);
    if (disp < 0)
        return loom__win_error(w, fn, MPI_ERR_DISP, "target_disp %lld is negative",
                               (long long)disp);
    return MPI_SUCCESS;
}

int loom__rma_check_sizes(struct loom_win *w, const char *fn, const char *side, MPI_Count count,
                          MPI_Datatype type, MPI_Count tcount, MPI_Datatype ttype)
{
    size_t a = loom__dt_stream_size(type, (size_t)count);
    size_t b = loom__dt_stream_size(ttype, (size_t)tcount);
    if (a != b)
        return loom__win_error(w, fn, MPI_ERR_TYPE,
                               "the %s data (%zu bytes) and the target data (%zu bytes) have "
                               "different type signatures", side, a, b);
    return MPI_SUCCESS;
}

int loom__rma_locate(struct loom_win *w, const char *fn, int rank, MPI_Aint disp,
                     MPI_Count count, MPI_Datatype type, int passive, char **taddr)
{
    if (passive ? !loom__rma_passive(w, rank) : !loom__rma_may_access(w, rank))
        return loom__win_error(w, fn, MPI_ERR_RMA_SYNC,
                               passive ? "target %d is not in a passive-target epoch of this "
                                         "origin (MPI_Win_lock or MPI_Win_lock_all)"
                                       : "target %d is not in an access epoch of this origin "
                                         "(no MPI_Win_fence, _start, _lock or _lock_all "
                                         "opened one)",
                               rank);
    if (loom__rma_target(w, rank, disp, (size_t)count, type, taddr) != 0) {
        const struct loom_win_seg *s = &w->sh->seg[rank];
        if (w->sh->flavor == MPI_WIN_FLAVOR_DYNAMIC)
            return loom__win_error(w, fn, MPI_ERR_RMA_RANGE,
                                   "%lld elements of the target datatype at address %#llx are "
                                   "not inside a region target %d attached", (long long)count,
                                   (unsigned long long)disp, rank);
        return loom__win_error(w, fn, MPI_ERR_RMA_RANGE,
                               "%lld elements of the target datatype at target_disp %lld "
                               "(unit %td bytes) fall outside target %d's window of %zu bytes",
                               (long long)count, (long long)disp, s->disp_unit, rank, s->size);
    }
    loom__rma_note_op(w);
    return MPI_SUCCESS;
}

int loom__rma_check_acc_types(struct loom_win *w, const char *fn, const char *side,
                              MPI_Datatype type, MPI_Datatype ttype)
{
    const struct loom_datatype *te = loom__op_elem_type(ttype);
    if (te == NULL)
        return loom__win_error(w, fn, MPI_ERR_TYPE, "target_datatype mixes several basic "
                               "types (an accumulate's datatypes are made of one)");
    if (type != NULL && loom__op_elem_type(type) != te)
        return loom__win_error(w, fn, MPI_ERR_TYPE, "the %s datatype is not made of %s, "
                               "the target datatype's basic type", side, te->name);
    return MPI_SUCCESS;
}

int loom__rma_check_op(struct loom_win *w, const char *fn, MPI_Op op, MPI_Datatype ttype)
{
    if (!loom__op_valid(op))
        return loom__win_error(w, fn, MPI_ERR_OP, "op %s",
                               op == MPI_OP_NULL ? "is MPI_OP_NULL" : "is not a valid operation");
    if (!op->predefined)
        return loom__win_error(w, fn, MPI_ERR_OP, "a user-defined operation cannot accumulate "
                               "(only the predefined operations, MPI_REPLACE and MPI_NO_OP)");
    const char *why;
    if (loom__op_check(op, ttype, &why) != 0)
        return loom__win_error(w, fn, MPI_ERR_OP, "%s", why);
    return MPI_SUCCESS;
}
