/* comm/hsplit.c — MPIX_Comm_hsplit_with_roots: the paper's Algorithm 2 (Section 4.1.2).
 *
 * Two splits of the parent, both collective over it and both keyed by the parent rank (the
 * paper keeps the calling rank's order): the unguided split, then one of the members that are
 * rank 0 of their new communicator. Every member of the parent takes part in both splits
 * whatever happened in the first (the second is made with MPI_UNDEFINED after a failure), so
 * an error never leaves another rank waiting. The roots' colour is the same for all of them:
 * they all come from the one level being split (the ancestor object of Algorithm 2). */
#include "comm/split_hw.h"
#include "core/error.h"

int loom__comm_hsplit(struct loom_comm *parent, struct loom_comm **newc,
                      struct loom_comm **roots)
{
    struct loom_hw_split p;
    *newc = NULL;
    *roots = NULL;
    int rc = loom__split_hw_unguided_plan(parent, &p);
    int color = rc == 0 ? p.color : MPI_UNDEFINED;
    /* The plan is the same on every member, but a member short of memory would split with
     * MPI_UNDEFINED while the others did not: its failure is reported, theirs go on. */
    int rc1 = loom__comm_split(parent, color, parent->rank, newc);
    if (rc == 0)
        rc = rc1;
    int rcolor = rc == 0 && *newc && (*newc)->rank == 0 ? 0 : MPI_UNDEFINED;
    int rc2 = loom__comm_split(parent, rcolor, parent->rank, roots);
    if (rc == 0)
        rc = rc2;
    if (rc == 0 && *newc)
        rc = loom__split_hw_record(*newc, p.type, p.ncomms, p.index);
    if (rc == 0 && *roots)
        rc = loom__split_hw_record(*roots, p.parent_type, 1, 0);
    if (rc != 0) {
        if (*newc)
            loom__comm_handle_free(*newc);
        if (*roots)
            loom__comm_handle_free(*roots);
        *newc = *roots = NULL;
    }
    return rc;
}
