/* MPI_Type_create_darray against layouts computed here by hand: for block, cyclic(k) and
 * undistributed dimensions, C and Fortran order, on process grids of the job's size (1..8
 * ranks: 1-D, 2-D and 3-D factorings). A rank packs its darray out of a global array whose
 * elements hold their own index; what comes out must be, in increasing address order, the
 * indices of exactly the elements the distribution gives that rank. The lb is 0 and the
 * extent the whole array's. Two small cases are also checked against literal lists. Every
 * rank builds only its own type (datatype calls are local). The ranks are threads of one
 * process: buffers are per call, never static. */
#include <mpi.h>
#include "comm_check.h"

#define MAXE 4096

/* The grid coordinate that owns global index g of a dimension of n elements over p
 * processes with distribution dist and argument darg (hand computation of the standard's
 * definitions: block of ceil(n/p) or darg, cyclic of 1 or darg, none). */
static int owner(int g, int n, int p, int dist, int darg)
{
    if (dist == MPI_DISTRIBUTE_NONE)
        return 0;
    int b;
    if (dist == MPI_DISTRIBUTE_BLOCK)
        b = darg == MPI_DISTRIBUTE_DFLT_DARG ? (n + p - 1) / p : darg;
    else
        b = darg == MPI_DISTRIBUTE_DFLT_DARG ? 1 : darg;
    return (g / b) % p;
}

/* Check rank's darray of the given shape; returns the number of elements it owns. */
static int check_case(int size, int rank, int ndims, const int *gs, const int *dist,
                      const int *darg, const int *ps, int order)
{
    /* coordinates of rank in the row-major grid */
    int coord[8];
    for (int i = ndims - 1, r = rank; i >= 0; i--) {
        coord[i] = r % ps[i];
        r /= ps[i];
    }
    int total = 1;
    for (int i = 0; i < ndims; i++)
        total *= gs[i];
    CHECK(total <= MAXE);
    /* expected: addresses (element offsets) of the owned elements, increasing */
    /* per call: the ranks are threads of one process, so no static buffers */
    int *want = malloc(3 * MAXE * sizeof(int)), *got = want + MAXE, *global = got + MAXE;
    CHECK(want != NULL);
    int nwant = 0;
    for (int off = 0; off < total; off++) {
        global[off] = off;
        /* the multi-index of offset off in this order */
        int rem = off, mine = 1;
        for (int k = 0; k < ndims; k++) {
            int i = order == MPI_ORDER_C ? ndims - 1 - k : k; /* fastest dimension first */
            int g = rem % gs[i];
            rem /= gs[i];
            if (owner(g, gs[i], ps[i], dist[i], darg[i]) != coord[i])
                mine = 0;
        }
        if (mine)
            want[nwant++] = off;
    }
    MPI_Datatype t;
    OK(MPI_Type_create_darray(size, rank, ndims, gs, dist, darg, ps, order, MPI_INT, &t));
    OK(MPI_Type_commit(&t));
    MPI_Aint lb, ext;
    OK(MPI_Type_get_extent(t, &lb, &ext));
    CHECK_INT(lb, 0);
    CHECK_INT(ext, (MPI_Aint)total * (MPI_Aint)sizeof(int));
    int tsize;
    OK(MPI_Type_size(t, &tsize));
    CHECK_INT(tsize, nwant * (int)sizeof(int));
    int pos = 0;
    OK(MPI_Pack(global, 1, t, got, MAXE * (int)sizeof(int), &pos, MPI_COMM_WORLD));
    CHECK_INT(pos, nwant * (int)sizeof(int));
    for (int i = 0; i < nwant; i++)
        if (got[i] != want[i]) {
            fprintf(stderr, "rank %d of %d, ndims %d, order %s, element %d:", rank, size, ndims,
                    order == MPI_ORDER_C ? "C" : "Fortran", i);
            for (int k = 0; k < ndims; k++)
                fprintf(stderr, " [g %d p %d dist %d darg %d]", gs[k], ps[k], dist[k], darg[k]);
            fprintf(stderr, "\n");
            CHECK_INT(got[i], want[i]);
        }
    OK(MPI_Type_free(&t));
    free(want);
    return nwant;
}

/* All distributions of a grid, both orders; the ranks' shares add up to the whole array. */
static void grid(int size, int rank, int ndims, const int *gs, const int *ps)
{
    static const int dists[] = {MPI_DISTRIBUTE_BLOCK, MPI_DISTRIBUTE_CYCLIC};
    for (int order = 0; order < 2; order++) {
        int ord = order ? MPI_ORDER_FORTRAN : MPI_ORDER_C;
        for (int mask = 0; mask < (1 << ndims); mask++) {
            int dist[3], darg[3], darg2[3];
            for (int i = 0; i < ndims; i++) {
                dist[i] = dists[(mask >> i) & 1];
                darg[i] = MPI_DISTRIBUTE_DFLT_DARG;
                /* explicit arguments: a cyclic block of 2, a block that covers generously */
                darg2[i] = dist[i] == MPI_DISTRIBUTE_CYCLIC ? 2 : (gs[i] + ps[i] - 1) / ps[i] + 1;
            }
            int mine = check_case(size, rank, ndims, gs, dist, darg, ps, ord);
            int all = 0;
            OK(MPI_Allreduce(&mine, &all, 1, MPI_INT, MPI_SUM, MPI_COMM_WORLD));
            int total = 1;
            for (int i = 0; i < ndims; i++)
                total *= gs[i];
            CHECK_INT(all, total);
            check_case(size, rank, ndims, gs, dist, darg2, ps, ord);
        }
    }
}

int main(int argc, char **argv)
{
    MPI_Init(&argc, &argv);
    OK(MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_RETURN));
    int rank = world_rank(), size = world_size();

    /* 1-D over all ranks */
    int g1[] = {3 * size + 2}, p1[] = {size};
    grid(size, rank, 1, g1, p1);
    /* 2-D: size = a * b with a the largest divisor <= sqrt(size) */
    int a = 1;
    for (int d = 1; d * d <= size; d++)
        if (size % d == 0)
            a = d;
    int g2[] = {5, 7}, p2[] = {a, size / a};
    grid(size, rank, 2, g2, p2);
    int p2t[] = {size / a, a};
    grid(size, rank, 2, g2, p2t);
    /* 3-D: the ranks on the middle dimension */
    int g3[] = {3, size + 1, 4}, p3[] = {1, size, 1};
    grid(size, rank, 3, g3, p3);
    /* a dimension not distributed, beside a distributed one */
    int gn[] = {4, 2 * size + 1}, pn[] = {1, size};
    int dn[] = {MPI_DISTRIBUTE_NONE, MPI_DISTRIBUTE_CYCLIC}, an[] = {MPI_DISTRIBUTE_DFLT_DARG, 1};
    check_case(size, rank, 2, gn, dn, an, pn, MPI_ORDER_C);
    check_case(size, rank, 2, gn, dn, an, pn, MPI_ORDER_FORTRAN);

    /* literal layouts, on one rank's view of a larger grid: a 4x6 C array over a 2x3 grid,
     * rows in blocks of 2, columns cyclic: rank 4 is grid (1, 1), rows 2-3, columns 1 and 4 */
    {
        int gs[] = {4, 6}, ps[] = {2, 3};
        int ds[] = {MPI_DISTRIBUTE_BLOCK, MPI_DISTRIBUTE_CYCLIC};
        int da[] = {MPI_DISTRIBUTE_DFLT_DARG, MPI_DISTRIBUTE_DFLT_DARG};
        int global[24], out[24], pos = 0;
        for (int i = 0; i < 24; i++)
            global[i] = i;
        MPI_Datatype t;
        OK(MPI_Type_create_darray(6, 4, 2, gs, ds, da, ps, MPI_ORDER_C, MPI_INT, &t));
        OK(MPI_Type_commit(&t));
        OK(MPI_Pack(global, 1, t, out, sizeof out, &pos, MPI_COMM_WORLD));
        static const int want[] = {13, 16, 19, 22};
        CHECK_INT(pos, 16);
        for (int i = 0; i < 4; i++)
            CHECK_INT(out[i], want[i]);
        OK(MPI_Type_free(&t));
        /* Fortran order, 5x3 (columns of 5), dimension 0 cyclic(2) over 2, dimension 1 not
         * distributed: rank 1 has rows 2, 3 of each column */
        int gf[] = {5, 3}, pf[] = {2, 1};
        int dfs[] = {MPI_DISTRIBUTE_CYCLIC, MPI_DISTRIBUTE_NONE};
        int dfa[] = {2, MPI_DISTRIBUTE_DFLT_DARG};
        pos = 0;
        OK(MPI_Type_create_darray(2, 1, 2, gf, dfs, dfa, pf, MPI_ORDER_FORTRAN, MPI_INT, &t));
        OK(MPI_Type_commit(&t));
        OK(MPI_Pack(global, 1, t, out, sizeof out, &pos, MPI_COMM_WORLD));
        static const int wantf[] = {2, 3, 7, 8, 12, 13};
        CHECK_INT(pos, 24);
        for (int i = 0; i < 6; i++)
            CHECK_INT(out[i], wantf[i]);
        MPI_Aint lb, ext;
        OK(MPI_Type_get_extent(t, &lb, &ext));
        CHECK_INT(ext, 15 * (MPI_Aint)sizeof(int));
        OK(MPI_Type_free(&t));
    }
    /* huge distribution arguments and grids: the same layouts as blocks of the whole
     * dimension, no overflow */
    {
        int gs[] = {5}, ps[] = {size};
        int db[] = {MPI_DISTRIBUTE_BLOCK}, dc[] = {MPI_DISTRIBUTE_CYCLIC};
        int big[] = {0x7fffffff};
        check_case(size, rank, 1, gs, db, big, ps, MPI_ORDER_C);
        check_case(size, rank, 1, gs, dc, big, ps, MPI_ORDER_FORTRAN);
    }
    MPI_Finalize();
    return 0;
}
