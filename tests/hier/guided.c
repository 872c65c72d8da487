/* guided.c — MPI_COMM_TYPE_HW_GUIDED: one communicator per object of the type named by the
 * info key mpi_hw_resource_type; a rank not inside one such object, an unknown type, a type
 * the machine lacks, or no key at all gives MPI_COMM_NULL. On Fig. 1's node (8 ranks):
 *   argv[1] = "compact": one rank per core;
 *   argv[1] = "fig2":    the binding of Fig. 2 (user:0,1,2-3,2-3,4-7,4-7,4-7,4-7);
 *   argv[1] = "none":    unbound ranks: only Machine / mpi_shared_memory group them, and the
 *                        unguided split gives MPI_COMM_NULL at once (Section 3.2.4). */
#include "hier_check.h"

static _Thread_local int mode; /* 0 compact, 1 fig2, 2 none; per rank (ranks are threads) */

/* The expected members (world ranks) of world rank w's communicator for `type`; 0 = null. */
static int expect(const char *type, int w, int n, int *m)
{
    int k = 0, lo = 0, cnt = 0;
    if (!strcmp(type, "Machine") || !strcmp(type, "mpi_shared_memory")) {
        lo = 0;
        cnt = n;
    } else if (mode == 2) {
        cnt = 0;
    } else if (!strcmp(type, "Package") || !strcmp(type, "NUMANode") ||
               !strcmp(type, "numanode") || !strcmp(type, "L3Cache")) {
        lo = 4 * (w / 4);
        cnt = 4;
    } else if (!strcmp(type, "L2Cache")) {
        lo = 2 * (w / 2);
        cnt = mode == 1 && w >= 4 ? 0 : 2;
    } else if (!strcmp(type, "Core") || !strcmp(type, "PU")) {
        lo = w;
        cnt = mode == 1 && w >= 2 ? 0 : 1;
    }
    for (int i = 0; i < cnt; i++)
        m[k++] = lo + i;
    return k;
}

static void split(const char *type, int with_key)
{
    int me = world_rank(), n;
    OK(MPI_Comm_size(MPI_COMM_WORLD, &n));
    MPI_Info info = MPI_INFO_NULL;
    if (with_key) {
        OK(MPI_Info_create(&info));
        OK(MPI_Info_set(info, "mpi_hw_resource_type", type));
    }
    MPI_Comm c;
    OK(MPI_Comm_split_type(MPI_COMM_WORLD, MPI_COMM_TYPE_HW_GUIDED, 0, info, &c));
    struct hier_side want;
    want.n = with_key ? expect(type, me, n, want.members) : 0;
    if (want.n > n) /* fewer ranks than the machine has cores */
        want.n = n;
    hier_check_members(c, &want, type, 0);
    if (c != MPI_COMM_NULL)
        OK(MPI_Comm_free(&c));
    if (info != MPI_INFO_NULL)
        OK(MPI_Info_free(&info));
}

int main(int argc, char **argv)
{
    OK(MPI_Init(&argc, &argv));
    CHECK(argc > 1);
    mode = !strcmp(argv[1], "fig2") ? 1 : !strcmp(argv[1], "none") ? 2 : 0;
    const char *types[] = {"Machine", "mpi_shared_memory", "Package", "NUMANode", "numanode",
                           "L3Cache", "L2Cache", "Core", "PU",
                           /* absent from the machine, or unknown: MPI_COMM_NULL */
                           "L1Cache", "Group", "Socket", "Bogus_type"};
    for (size_t i = 0; i < sizeof types / sizeof types[0]; i++)
        split(types[i], 1);
    split("", 0); /* no key */
    if (mode == 2) {
        MPI_Comm c, r;
        OK(MPI_Comm_split_type(MPI_COMM_WORLD, MPI_COMM_TYPE_HW_UNGUIDED, 0, MPI_INFO_NULL, &c));
        CHECK(c == MPI_COMM_NULL);
        OK(MPIX_Comm_hsplit_with_roots(MPI_COMM_WORLD, MPI_INFO_NULL, &c, &r));
        CHECK(c == MPI_COMM_NULL && r == MPI_COMM_NULL);
    }
    OK(MPI_Finalize());
    return 0;
}
