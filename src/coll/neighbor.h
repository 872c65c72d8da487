/* coll/neighbor.h — neighbor collectives (MPI 4.1 §8.6): the calling rank's schedule of one
 * MPI_Neighbor_* / MPI_Ineighbor_* call on a communicator with a process topology
 * (comm/vtopo.h), run by the collective engine like every other schedule (coll/sched.h):
 * blocking calls run it to the end, nonblocking ones hand it to the task engine.
 *
 * Block order is the standard's: Cartesian, per dimension the -1 then the +1 neighbour (a
 * MPI_PROC_NULL neighbour's blocks are left untouched); graph, the node's edges in order;
 * distributed graph, the sources (receive) and destinations (send) in order. Messages go on
 * the communicator's hidden collective context with the collective's tag; all in one round.
 * Several edges to the same peer: the k-th send to it matches its k-th receive from us; on a
 * Cartesian grid, receives are posted +1 then -1 in each dimension, so block s of the sender
 * lands in block s^1 of the receiver even when both neighbours are the same rank (periodic
 * dimension of size 1 or 2, MPI 4.1 Example 8.10). */
#ifndef LOOM_COLL_NEIGHBOR_H
#define LOOM_COLL_NEIGHBOR_H
#include <stddef.h>
#include "mpi.h"

struct loom_comm;
struct loom_sched;
struct loom_datatype;

/* What a neighbor collective call says (checked by api/neighbor.c). Unused fields are 0.
 * Counts and displacements are indexed by neighbour (indegree for the receive side,
 * outdegree for the send side); the v forms' displacements are in elements of the type's
 * extent, the w form's in bytes (MPI_Aint in both the int and the big-count call). Counts
 * and the v forms' displacements are int, or MPI_Count and MPI_Aint when wide (the
 * MPI_Xxx_c calls): read through loom__coll_count_at / loom__coll_displ_at (coll/coll.h). */
struct loom_neighbor_args {
    const void *sbuf;
    void *rbuf;
    size_t scount, rcount;                       /* allgather(v) send; allgather, alltoall */
    struct loom_datatype *stype, *rtype;         /* all but w */
    const void *scounts, *rcounts;               /* alltoallv, alltoallw; allgatherv rcounts */
    const void *sdispls, *rdispls;               /* alltoallv; allgatherv rdispls */
    const MPI_Aint *sdispls_w, *rdispls_w;       /* alltoallw */
    struct loom_datatype *const *stypes, *const *rtypes; /* alltoallw */
    int wide;                                    /* MPI_Count counts, MPI_Aint displacements */
};

/* Builders: the calling rank's schedule of one neighbor collective on c (user handle h, which
 * must carry a topology), with c's next collective tag. keep: retain the types until the
 * schedule is freed (nonblocking and persistent forms; the blocking ones pass 0). The
 * schedule may then be run (loom__sched_run), started (loom__sched_start) or, for
 * persistent requests, kept and started again. The arrays of a are read during the build
 * only. NULL on ENOMEM. */
struct loom_sched *loom__coll_build_neighbor_allgather(struct loom_comm *c, MPI_Comm h,
                                                       const struct loom_neighbor_args *a,
                                                       int keep);
struct loom_sched *loom__coll_build_neighbor_allgatherv(struct loom_comm *c, MPI_Comm h,
                                                        const struct loom_neighbor_args *a,
                                                        int keep);
struct loom_sched *loom__coll_build_neighbor_alltoall(struct loom_comm *c, MPI_Comm h,
                                                      const struct loom_neighbor_args *a,
                                                      int keep);
struct loom_sched *loom__coll_build_neighbor_alltoallv(struct loom_comm *c, MPI_Comm h,
                                                       const struct loom_neighbor_args *a,
                                                       int keep);
struct loom_sched *loom__coll_build_neighbor_alltoallw(struct loom_comm *c, MPI_Comm h,
                                                       const struct loom_neighbor_args *a,
                                                       int keep);
#endif
