/* split_type_info.c — what MPI_Comm_split_type records on the communicators of the hardware
 * split types (Fig. 1's node, one rank per core): mpi_hw_resource_type in MPI_Comm_get_info,
 * num/index/type from MPIX_Comm_get_hlevel_info (whatever the key order), kept by
 * MPI_Comm_dup; and a mpi_hw_resource_type value that is not of the form of a type name is
 * MPI_ERR_INFO_VALUE, while a well-formed unknown name gives MPI_COMM_NULL. */
#include "hier_check.h"

static MPI_Comm guided(const char *type)
{
    MPI_Info info;
    MPI_Comm c;
    OK(MPI_Info_create(&info));
    OK(MPI_Info_set(info, "mpi_hw_resource_type", type));
    OK(MPI_Comm_split_type(MPI_COMM_WORLD, MPI_COMM_TYPE_HW_GUIDED, 0, info, &c));
    OK(MPI_Info_free(&info));
    return c;
}

int main(int argc, char **argv)
{
    OK(MPI_Init(&argc, &argv));
    int w = world_rank(), n;
    OK(MPI_Comm_size(MPI_COMM_WORLD, &n));
    CHECK_INT(n, 8);
    MPI_Comm c, d;

    /* unguided, keys reversing the order: two NUMA nodes */
    OK(MPI_Comm_split_type(MPI_COMM_WORLD, MPI_COMM_TYPE_HW_UNGUIDED, -w, MPI_INFO_NULL, &c));
    CHECK(c != MPI_COMM_NULL);
    hier_check_hlevel(c, "NUMANode", 2, w / 4);
    int r;
    OK(MPI_Comm_rank(c, &r));
    CHECK_INT(r, 3 - w % 4);
    OK(MPI_Comm_dup(c, &d));
    hier_check_hlevel(d, "NUMANode", 2, w / 4);
    OK(MPI_Comm_free(&d));
    /* the next level down: L2 caches of this NUMA node */
    OK(MPI_Comm_split_type(c, MPIX_COMM_TYPE_PHYSICAL_TOPOLOGY, 0, MPI_INFO_NULL, &d));
    hier_check_hlevel(d, "L2Cache", 2, (w / 2) % 2);
    OK(MPI_Comm_free(&d));
    OK(MPI_Comm_free(&c));

    /* guided */
    c = guided("L2Cache");
    hier_check_hlevel(c, "L2Cache", 4, w / 2);
    OK(MPI_Comm_free(&c));
    c = guided("l2cache"); /* any letter case; reported in hwloc's spelling */
    hier_check_hlevel(c, "L2Cache", 4, w / 2);
    OK(MPI_Comm_free(&c));
    c = guided("Core");
    hier_check_hlevel(c, "Core", 8, w);
    OK(MPI_Comm_free(&c));
    c = guided("mpi_shared_memory");
    hier_check_hlevel(c, "mpi_shared_memory", 1, 0);
    OK(MPI_Comm_free(&c));
    c = guided("NoSuchThing");
    CHECK(c == MPI_COMM_NULL);

    /* malformed values: the error class, through MPI_ERRORS_RETURN */
    OK(MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_RETURN));
    const char *bad[] = {"L2 Cache", "3Cache", "L2Cache;", "-"};
    for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) {
        MPI_Info info;
        OK(MPI_Info_create(&info));
        OK(MPI_Info_set(info, "mpi_hw_resource_type", bad[i]));
        c = MPI_COMM_WORLD;
        int rc = MPI_Comm_split_type(MPI_COMM_WORLD, MPI_COMM_TYPE_HW_GUIDED, 0, info, &c);
        int cls;
        OK(MPI_Error_class(rc, &cls));
        CHECK_INT(cls, MPI_ERR_INFO_VALUE);
        OK(MPI_Info_free(&info));
    }
    OK(MPI_Finalize());
    return 0;
}
