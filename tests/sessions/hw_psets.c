/* hw_psets.c — loom's hardware process sets ("hwloc://<Type>", after mpi://WORLD and
 * mpi://SELF; docs/sessions.md) on a synthetic machine: each one's group is the group of the
 * calling rank's part of MPI_Comm_split_type(MPI_COMM_TYPE_HW_GUIDED) for that type (an
 * independent computation of the same thing), its info says its size and type, and a
 * communicator made from it communicates. In a job of several node processes a set holds
 * ranks of the caller's node process only. The machine (CMakeLists.txt) has 2 packages of
 * 2 NUMA nodes of 2 cores, ranks bound compactly: with 8 ranks a NUMA node holds 2. */
#include <stdlib.h>
#include "sess_check.h"

int main(int argc, char **argv)
{
    OK(MPI_Init(&argc, &argv));
    MPI_Session s;
    OK(MPI_Session_init(MPI_INFO_NULL, MPI_ERRORS_RETURN, &s));
    int np;
    OK(MPI_Session_get_num_psets(s, MPI_INFO_NULL, &np));
    /* the ranks of this node process: a hardware set never spans node processes */
    MPI_Comm node;
    int local;
    OK(MPI_Comm_split_type(MPI_COMM_WORLD, MPI_COMM_TYPE_SHARED, 0, MPI_INFO_NULL, &node));
    OK(MPI_Comm_size(node, &local));
    OK(MPI_Comm_free(&node));
    int seen_numa = 0, seen_package = 0;
    for (int i = 2; i < np; i++) {
        char name[MPI_MAX_PSET_NAME_LEN], type[MPI_MAX_INFO_VAL], val[16];
        int len = sizeof name, flag = 0;
        OK(MPI_Session_get_nth_pset(s, MPI_INFO_NULL, i, &len, name));
        CHECK(strncmp(name, "hwloc://", 8) == 0);
        MPI_Info info;
        OK(MPI_Session_get_pset_info(s, name, &info));
        len = sizeof type;
        OK(MPI_Info_get_string(info, "mpi_hw_resource_type", &len, type, &flag));
        CHECK_INT(flag, 1);
        CHECK(strcmp(type, name + 8) == 0);
        len = sizeof val;
        OK(MPI_Info_get_string(info, "mpi_size", &len, val, &flag));
        CHECK_INT(flag, 1);
        int size = atoi(val);
        OK(MPI_Info_free(&info));

        /* the same ranks as HW_GUIDED's part for this type */
        MPI_Info hint;
        MPI_Comm part;
        OK(MPI_Info_create(&hint));
        OK(MPI_Info_set(hint, "mpi_hw_resource_type", type));
        OK(MPI_Comm_split_type(MPI_COMM_WORLD, MPI_COMM_TYPE_HW_GUIDED, 0, hint, &part));
        OK(MPI_Info_free(&hint));
        CHECK(part != MPI_COMM_NULL);
        MPI_Group pg, sg;
        int cmp = -1;
        OK(MPI_Comm_group(part, &pg));
        OK(MPI_Group_from_session_pset(s, name, &sg));
        OK(MPI_Group_compare(pg, sg, &cmp));
        CHECK_INT(cmp, MPI_IDENT);
        OK(MPI_Group_free(&pg));
        OK(MPI_Group_free(&sg));
        OK(MPI_Comm_free(&part));

        MPI_Comm c = sess_comm(s, name, name); /* the name is the tag */
        sess_talk(c, size, i);
        OK(MPI_Comm_free(&c));
        seen_numa += strcmp(type, "NUMANode") == 0;
        seen_package += strcmp(type, "Package") == 0;
        if (strcmp(type, "NUMANode") == 0)
            CHECK_INT(size, local == 1 ? 1 : 2); /* compact: ranks 2k, 2k+1 share one */
    }
    CHECK_INT(seen_numa, 1);
    CHECK_INT(seen_package, 1);
    OK(MPI_Session_finalize(&s));
    OK(MPI_Finalize());
    return 0;
}
