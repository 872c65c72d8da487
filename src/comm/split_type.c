/* comm/split_type.c — MPI_Comm_split_type: which colour each split type gives a rank.
 *
 * A split type is one row of `types` below, naming the function (in a file of its own when it
 * needs more than a line) that computes the calling rank's colour; MPI_Comm_split then builds
 * the communicators. The ranks of one node process share its memory, and those of two node
 * processes do not (even on one machine: they have no window on each other's buffers), so
 * MPI_COMM_TYPE_SHARED's colour is the node process. The hardware types
 * (comm/split_hw.c, issue 6) also check their info hint before the split, and their colour
 * function plans what to record on the new communicator (the mpi_hw_resource_type info
 * key...) after it. */
#include <stddef.h>
#include <stdio.h>
#include "comm/comm.h"
#include "comm/split_hw.h"
#include "core/error.h"
#include "core/rank.h"

static int color_shared(struct loom_comm *parent, struct loom_info *info,
                        struct loom_hw_split *plan)
{
    (void)parent;
    (void)info;
    plan->color = loom__job.node;
    return 0;
}

static const struct {
    int type;
    loom_split_color_fn color;   /* NULL: known, not implemented yet */
} types[] = {
    {MPI_COMM_TYPE_SHARED, color_shared},
    {MPI_COMM_TYPE_HW_UNGUIDED, loom__split_hw_unguided_color},
    {MPI_COMM_TYPE_HW_GUIDED, loom__split_hw_guided_color},
};

int loom__comm_split_type_color(struct loom_comm *parent, int split_type,
                                struct loom_info *info, struct loom_hw_split *plan)
{
    *plan = (struct loom_hw_split){.color = MPI_UNDEFINED, .index = -1};
    for (size_t i = 0; i < sizeof types / sizeof types[0]; i++)
        if (types[i].type == split_type)
            return types[i].color ? types[i].color(parent, info, plan) : LOOM_ERR_UNSUPPORTED;
    return LOOM_ERR_ARG;
}

int loom__comm_split_type_check(int split_type, struct loom_info *info, char *why,
                                size_t whylen)
{
    char value[MPI_MAX_INFO_VAL + 1];
    if (split_type == MPI_COMM_TYPE_HW_GUIDED)
        return loom__split_hw_guided_value(info, value, why, whylen);
    return 0;
}

int loom__comm_split_type_finish(const struct loom_hw_split *plan, struct loom_comm *nc)
{
    if (plan->type[0] == '\0')
        return 0;
    return loom__split_hw_record(nc, plan->type, plan->ncomms, plan->index);
}
