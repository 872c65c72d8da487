/* api/hw_resource.c — MPI_Get_hw_resource_info (MPI 4.1): a new info whose keys are the
 * hardware resource types of the machine in URI form ("hwloc://NUMANode", the largest type
 * first) and whose values say whether the calling rank is restricted to one resource of that
 * type: "true" when its CPU set lies inside one such object (MPI_Comm_split_type with
 * MPI_COMM_TYPE_HW_GUIDED and that key as mpi_hw_resource_type then gives it a
 * communicator), else "false". The machine is loom's topology (LOOM_TOPOLOGY: the real one,
 * or a synthetic or XML one), the CPU set the rank's placement. */
#include <stdio.h>
#include "api/api.h"
#include "comm/comm.h"
#include "topo/topo.h"

int loom__mpi_get_hw_resource_info(MPI_Info *hw_info)
{
    LOOM_API_ENTER("MPI_Get_hw_resource_info");
    static const char fn[] = "MPI_Get_hw_resource_info";
    if (hw_info == NULL)
        return loom__api_error(MPI_COMM_WORLD, fn, MPI_ERR_ARG, "hw_info is NULL");
    struct loom_info *info = loom__info_new();
    if (info == NULL)
        return loom__api_error_code(MPI_COMM_WORLD, fn, LOOM_ERR_NOMEM);
    const char *types[32];
    int n = loom__topo_resource_types(loom__job.topo, types, 32), rc = 0;
    for (int i = 0; i < n && rc == 0; i++) {
        char key[MPI_MAX_INFO_KEY + 1];
        snprintf(key, sizeof key, "%s%s", LOOM_HW_URI_PREFIX, types[i]);
        int inside = loom__topo_resource_of(loom__job.topo, types[i], loom__self->cpuset) >= 0;
        rc = loom__info_set(info, key, inside ? "true" : "false");
    }
    if (rc != 0) {
        loom__info_free(info);
        return loom__api_error_code(MPI_COMM_WORLD, fn, rc);
    }
    *hw_info = info;
    return MPI_SUCCESS;
}
