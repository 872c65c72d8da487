/* comm/split_hw.h — hardware-driven splits (issue 6; docs/hierarchy.md): the colour functions
 * of MPI_COMM_TYPE_HW_UNGUIDED and MPI_COMM_TYPE_HW_GUIDED named in comm/split_type.c's table,
 * what a split records on the communicators it makes (the info keys below), and
 * MPIX_Comm_hsplit_with_roots (comm/hsplit.c).
 *
 * Every rank computes the whole split locally, without exchanging anything: the members of
 * the parent and their CPU sets (loom__job.ranks[w].cpuset, read-only while ranks run) are
 * known to all, and the topology is shared. So all members derive the same colours, the same
 * number of sibling communicators and the same indexes. */
#ifndef LOOM_COMM_SPLIT_HW_H
#define LOOM_COMM_SPLIT_HW_H
#include "comm/comm.h"

/* Info keys set on every communicator these splits make. The first is MPI-4's; the other two
 * are what MPIX_Comm_get_hlevel_info reads (the paper's HLEVEL_NUM and HLEVEL_RANK). */
#define LOOM_HW_KEY_TYPE "mpi_hw_resource_type"
#define LOOM_HW_KEY_NUM "mpix_hlevel_num"
#define LOOM_HW_KEY_INDEX "mpix_hlevel_index"
/* The MPI-4 value meaning "the shared-memory domain" (MPI_COMM_TYPE_SHARED). */
#define LOOM_HW_SHARED_MEMORY "mpi_shared_memory"
/* Over several node processes: the level above the machines, and its children (a node
 * process is a machine to its ranks, hwloc's name for it). */
#define LOOM_HW_NETWORK "Network"
#define LOOM_HW_NODE_PROCESS "Machine"

/* What one rank's split gives it: its colour (MPI_UNDEFINED: no communicator), how many
 * communicators the split makes, the index of the rank's one among them (ordered by colour),
 * its resource type, and (unguided only) the type of the level that was split. */
struct loom_hw_split {
    int color;
    int ncomms;
    int index;
    char type[MPI_MAX_INFO_VAL + 1];
    char parent_type[MPI_MAX_INFO_VAL + 1];
};

/* The paper's Algorithm 1 for the calling rank of parent: the deepest level holding every
 * member's CPU set is split into its children; members inside one child share a colour
 * (the child's position), the others get MPI_UNDEFINED. 0 or LOOM_ERR_NOMEM. */
int loom__split_hw_unguided_plan(struct loom_comm *parent, struct loom_hw_split *out);
/* MPI-4's HW_GUIDED for the resource type `value` (already checked by
 * loom__split_hw_guided_value): one colour per object of that type; a member not inside one
 * object of the type, or an unknown type, gets MPI_UNDEFINED. 0 or LOOM_ERR_NOMEM. */
int loom__split_hw_guided_plan(struct loom_comm *parent, const char *value,
                               struct loom_hw_split *out);
/* The mpi_hw_resource_type value of info for a guided split: 0 with value[] filled (empty
 * when info is NULL or lacks the key); LOOM_ERR_INFO when the value is not of the form of a
 * resource type name (a letter, then letters, digits or '_'; the prefix "hwloc://" allowed),
 * with a one-line reason in why. */
int loom__split_hw_guided_value(struct loom_info *info, char value[MPI_MAX_INFO_VAL + 1],
                                char *why, size_t whylen);

/* Colour functions for comm/split_type.c's table (signature loom_split_color_fn): the
 * plan above. Over a parent that spans node processes the guided split is collective (the
 * members' colours are exchanged to count the communicators). */
int loom__split_hw_unguided_color(struct loom_comm *parent, struct loom_info *info,
                                  struct loom_hw_split *plan);
int loom__split_hw_guided_color(struct loom_comm *parent, struct loom_info *info,
                                struct loom_hw_split *plan);

/* After the split: record type, number and index on the new handle nc (the calling rank's;
 * nobody else touches it yet) as the info keys above. 0 or LOOM_ERR_NOMEM. */
int loom__split_hw_record(struct loom_comm *nc, const char *type, int ncomms, int index);

/* ---- split_type.c's hooks around MPI_Comm_split_type (called by api/comm_create.c) ----- */
/* Why `info` is not acceptable for split_type (a one-line reason into why): LOOM_ERR_INFO
 * (MPI_ERR_INFO_VALUE) for a malformed mpi_hw_resource_type value; 0 when fine. Local. */
int loom__comm_split_type_check(int split_type, struct loom_info *info, char *why,
                                size_t whylen);
/* Once the new communicator exists (nc, the calling rank's handle, not NULL): record what
 * the plan says about it (hardware types: the info keys above; nothing when plan->type is
 * empty). 0 or a negative code. */
int loom__comm_split_type_finish(const struct loom_hw_split *plan, struct loom_comm *nc);

/* ---- MPIX_Comm_hsplit_with_roots (comm/hsplit.c) ------------------------------------- */
/* The paper's Algorithm 2, collective over parent: *newc as HW_UNGUIDED with the parent rank
 * as key; *roots groups the members that are rank 0 of their *newc (one communicator per
 * parent), NULL for the others. Both carry the info keys above (roots: the type of the level
 * that was split, 1 communicator, index 0). 0 or a negative code (then both are NULL). */
int loom__comm_hsplit(struct loom_comm *parent, struct loom_comm **newc,
                      struct loom_comm **roots);

/* ---- MPIX_Comm_get_min_hlevel -------------------------------------------------------- */
/* The type of the deepest level holding the CPU sets of ranks[0..n-1] of c (checked: valid,
 * distinct), into type[MPI_MAX_INFO_VAL + 1]; "Unknown" when the calling rank is not among
 * them. 0 or LOOM_ERR_NOMEM. */
int loom__comm_min_hlevel(struct loom_comm *c, int n, const int *ranks, char *type);
#endif
