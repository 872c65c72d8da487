/* comm/split_type.c — MPI_Comm_split_type: which colour each split type gives a rank.
 *
 * A split type is one row of `types` below, naming the function (in a file of its own when it
 * needs more than a line) that computes the calling rank's colour; MPI_Comm_split then builds
 * the communicators. All ranks of a loom job share one process, hence one shared-memory
 * domain: MPI_COMM_TYPE_SHARED gives every rank the same colour. The hardware types
 * (comm/split_hw.c, issue 6) also check their info hint before the split and record what the
 * new communicator is (the mpi_hw_resource_type info key...) after it: the `finish` column. */
#include <stddef.h>
#include <stdio.h>
#include "comm/comm.h"
#include "comm/split_hw.h"
#include "core/error.h"

static int color_shared(struct loom_comm *parent, struct loom_info *info, int *color)
{
    (void)parent;
    (void)info;
    *color = 0;
    return 0;
}

/* What to record on the new communicator once the split has made it (NULL: nothing). */
typedef int (*loom_split_finish_fn)(struct loom_comm *parent, struct loom_info *info,
                                    struct loom_comm *nc);

static const struct {
    int type;
    loom_split_color_fn color;   /* NULL: known, not implemented yet */
    loom_split_finish_fn finish;
} types[] = {
    {MPI_COMM_TYPE_SHARED, color_shared, NULL},
    {MPI_COMM_TYPE_HW_UNGUIDED, loom__split_hw_unguided_color, loom__split_hw_unguided_finish},
    {MPI_COMM_TYPE_HW_GUIDED, loom__split_hw_guided_color, loom__split_hw_guided_finish},
};

int loom__comm_split_type_color(struct loom_comm *parent, int split_type,
                                struct loom_info *info, int *color)
{
    for (size_t i = 0; i < sizeof types / sizeof types[0]; i++)
        if (types[i].type == split_type)
            return types[i].color ? types[i].color(parent, info, color) : LOOM_ERR_UNSUPPORTED;
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

int loom__comm_split_type_finish(struct loom_comm *parent, int split_type,
                                 struct loom_info *info, struct loom_comm *nc)
{
    for (size_t i = 0; i < sizeof types / sizeof types[0]; i++)
        if (types[i].type == split_type)
            return types[i].finish && nc ? types[i].finish(parent, info, nc) : 0;
    return 0;
}
