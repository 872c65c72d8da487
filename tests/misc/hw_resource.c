/* MPI_Get_hw_resource_info on a synthetic machine (the test's environment gives it): one key
 * per resource type of the machine in URI form, each "true" or "false"; the types of the
 * description are all there; "true" exactly when a guided split by that key gives the rank a
 * communicator, and for Core and NUMANode exactly when loom_rank_placement puts the rank in
 * one core / one NUMA node. The info is the caller's: it can be changed and freed. */
#include <stdlib.h>
#include "misc_check.h"

int main(int argc, char **argv)
{
    OK(MPI_Init(&argc, &argv));
    OK(MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_RETURN));
    MPI_Info hw;
    OK(MPI_Get_hw_resource_info(&hw));
    int nkeys, core, numa;
    OK(MPI_Info_get_nkeys(hw, &nkeys));
    OK(loom_rank_placement(&core, &numa, NULL, 0, NULL));
    const char *expected[] = {"hwloc://Machine", "hwloc://Package", "hwloc://NUMANode",
                              "hwloc://L3Cache", "hwloc://Core", "hwloc://PU"};
    int found[6] = {0};
    for (int i = 0; i < nkeys; i++) {
        char key[MPI_MAX_INFO_KEY + 1], val[16];
        int len = (int)sizeof val, flag = 0;
        OK(MPI_Info_get_nthkey(hw, i, key));
        CHECK(strncmp(key, "hwloc://", 8) == 0);
        OK(MPI_Info_get_string(hw, key, &len, val, &flag));
        CHECK(flag);
        int inside = strcmp(val, "true") == 0;
        CHECK(inside || strcmp(val, "false") == 0);
        for (int k = 0; k < 6; k++)
            if (strcmp(key, expected[k]) == 0)
                found[k] = 1;
        if (strcmp(key, "hwloc://Machine") == 0)
            CHECK(inside);
        if (strcmp(key, "hwloc://Core") == 0)
            CHECK_INT(inside, core >= 0);
        if (strcmp(key, "hwloc://NUMANode") == 0)
            CHECK_INT(inside, numa >= 0);
        /* the key works as the guided split's resource type (a collective: every rank has
         * the same keys, in the same order) */
        MPI_Info split;
        MPI_Comm c;
        OK(MPI_Info_create(&split));
        OK(MPI_Info_set(split, "mpi_hw_resource_type", key));
        OK(MPI_Comm_split_type(MPI_COMM_WORLD, MPI_COMM_TYPE_HW_GUIDED, 0, split, &c));
        CHECK_INT(c != MPI_COMM_NULL, inside);
        if (c != MPI_COMM_NULL)
            OK(MPI_Comm_free(&c));
        OK(MPI_Info_free(&split));
    }
    for (int k = 0; k < 6; k++) {
        if (!found[k])
            fprintf(stderr, "%s missing\n", expected[k]);
        CHECK(found[k]);
    }
    OK(MPI_Info_set(hw, "mine", "1"));
    OK(MPI_Info_free(&hw));
    FAILS(MPI_Get_hw_resource_info(NULL), MPI_ERR_ARG);
    OK(MPI_Finalize());
    return 0;
}
