/* comm/split_type.c — MPI_Comm_split_type: which colour each split type gives a rank.
 *
 * A split type is one row of `types` below, naming the function (in a file of its own when it
 * needs more than a line) that computes the calling rank's colour; MPI_Comm_split then builds
 * the communicators. All ranks of a loom job share one process, hence one shared-memory
 * domain: MPI_COMM_TYPE_SHARED gives every rank the same colour. The hardware-guided types
 * are declared here without a function until their issue adds one. */
#include <stddef.h>
#include "comm/comm.h"
#include "core/error.h"

static int color_shared(struct loom_comm *parent, struct loom_info *info, int *color)
{
    (void)parent;
    (void)info;
    *color = 0;
    return 0;
}

static const struct {
    int type;
    loom_split_color_fn color; /* NULL: known, not implemented yet */
} types[] = {
    {MPI_COMM_TYPE_SHARED, color_shared},
    {MPI_COMM_TYPE_HW_UNGUIDED, NULL},
    {MPI_COMM_TYPE_HW_GUIDED, NULL},
};

int loom__comm_split_type_color(struct loom_comm *parent, int split_type,
                                struct loom_info *info, int *color)
{
    for (size_t i = 0; i < sizeof types / sizeof types[0]; i++)
        if (types[i].type == split_type)
            return types[i].color ? types[i].color(parent, info, color) : LOOM_ERR_UNSUPPORTED;
    return LOOM_ERR_ARG;
}
