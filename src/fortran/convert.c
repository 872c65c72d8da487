/* fortran/convert.c — conversions of arguments for the Fortran entry points: CHARACTER to C
 * strings and back, the temporary arrays of converted handles and statuses. */
#include <stdlib.h>
#include <string.h>
#include "api/api.h"
#include "core/object.h"
#include "fortran/fortran.h"

void *loom__fortran_array(int n, size_t size)
{
    return calloc(n > 0 ? (size_t)n : 1, size);
}

char *loom__fortran_cstr(const char *s, size_t len)
{
    while (len > 0 && s[len - 1] == ' ')
        len--;
    char *c = malloc(len + 1);
    if (c) {
        memcpy(c, s, len);
        c[len] = '\0';
    }
    return c;
}

char *loom__fortran_out_buf(size_t len)
{
    size_t n = len > MPI_MAX_LIBRARY_VERSION_STRING ? len : MPI_MAX_LIBRARY_VERSION_STRING;
    char *c = malloc(n + 1);
    if (c)
        c[0] = '\0';
    return c;
}

void loom__fortran_fstr(char *dst, size_t len, const char *src)
{
    size_t n = strnlen(src, len);
    memcpy(dst, src, n);
    memset(dst + n, ' ', len - n);
}

int loom__fortran_nomem(const char *fn)
{
    return loom__api_error(MPI_COMM_NULL, fn, MPI_ERR_NO_MEM,
                           "no memory to convert the Fortran arguments");
}

/* MPI_Alltoallw reads one datatype per rank of the (remote) group, MPI_Neighbor_alltoallw
 * one per neighbour: the Fortran entry point converts that many. A communicator that is no
 * communicator gives 0, and the call itself then reports it. */
int loom__fortran_ntypes(MPI_Fint comm, int which)
{
    MPI_Comm c = loom__mpi_comm_f2c(comm);
    int n = 0, inter = 0, status = MPI_UNDEFINED, in = 0, out = 0, weighted;
    if (c == MPI_COMM_NULL || !loom__object_is(c, LOOM_MAGIC_COMM))
        return 0;
    if (which == LOOM_F_ALLTOALLW) {
        loom__mpi_comm_test_inter(c, &inter);
        if (inter)
            loom__mpi_comm_remote_size(c, &n);
        else
            loom__mpi_comm_size(c, &n);
        return n;
    }
    loom__mpi_topo_test(c, &status);
    if (status == MPI_CART) {
        loom__mpi_cartdim_get(c, &n);
        return 2 * n;
    }
    if (status == MPI_GRAPH) {
        int rank = 0;
        loom__mpi_comm_rank(c, &rank);
        loom__mpi_graph_neighbors_count(c, rank, &n);
        return n;
    }
    if (status == MPI_DIST_GRAPH) {
        loom__mpi_dist_graph_neighbors_count(c, &in, &out, &weighted);
        return which == LOOM_F_NEIGHBOR_OUT ? out : in;
    }
    return 0;
}
