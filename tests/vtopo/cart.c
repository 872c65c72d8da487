/* Cartesian topologies: MPI_Dims_create against the standard's examples and hand-computed
 * splits; MPI_Cart_create on 1-, 2- and 3-D grids (smaller than the communicator too, and
 * zero-dimensional), every query against coordinates computed here (row-major), shifts on
 * periodic and non-periodic dimensions, MPI_Cart_sub (its members checked by a reduction),
 * MPI_Cart_map, and the topology kept by MPI_Comm_dup and dropped by MPI_Comm_split. */
#include <limits.h>
#include "comm_check.h"

static void dims_case(int nnodes, int ndims, const int *in, const int *want)
{
    int d[8];
    for (int i = 0; i < ndims; i++)
        d[i] = in[i];
    OK(MPI_Dims_create(nnodes, ndims, d));
    for (int i = 0; i < ndims; i++)
        CHECK_INT(d[i], want[i]);
}

static void dims_create(void)
{
    /* MPI 4.1 §8.5.2's table */
    dims_case(6, 2, (int[]){0, 0}, (int[]){3, 2});
    dims_case(7, 2, (int[]){0, 0}, (int[]){7, 1});
    dims_case(6, 3, (int[]){0, 3, 0}, (int[]){2, 3, 1});
    MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_RETURN);
    int d[3] = {0, 3, 0};
    CHECK_INT(MPI_Dims_create(7, 3, d), MPI_ERR_DIMS);
    CHECK_INT(MPI_Dims_create(5, 0, NULL), MPI_ERR_DIMS);      /* the product of none is 1 */
    CHECK_INT(MPI_Dims_create(12, 2, (int[]){2, 3}), MPI_ERR_DIMS); /* no free entry */
    MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_ARE_FATAL);
    /* by hand: the most even split, non-increasing */
    dims_case(6, 3, (int[]){0, 0, 0}, (int[]){3, 2, 1});
    dims_case(8, 3, (int[]){0, 0, 0}, (int[]){2, 2, 2});
    dims_case(8, 2, (int[]){0, 0}, (int[]){4, 2});
    dims_case(12, 2, (int[]){0, 0}, (int[]){4, 3});
    dims_case(16, 3, (int[]){0, 0, 0}, (int[]){4, 2, 2});
    dims_case(72, 3, (int[]){0, 0, 0}, (int[]){6, 4, 3});
    dims_case(1, 3, (int[]){0, 0, 0}, (int[]){1, 1, 1});
    dims_case(24, 3, (int[]){0, 3, 0}, (int[]){4, 3, 2});
    dims_case(30, 2, (int[]){5, 0}, (int[]){5, 6});
    dims_case(97, 2, (int[]){0, 0}, (int[]){97, 1});
    dims_case(1 << 20, 4, (int[]){0, 0, 0, 0}, (int[]){32, 32, 32, 32});
    dims_case(1, 0, NULL, NULL);
    dims_case(6, 2, (int[]){3, 2}, (int[]){3, 2});
}

/* Row-major coordinates of r in dims[nd]. */
static void coords_of(int r, int nd, const int *dims, int *c)
{
    for (int i = nd - 1; i >= 0; i--) {
        c[i] = r % dims[i];
        r /= dims[i];
    }
}

static int rank_of(int nd, const int *dims, const int *c)
{
    int r = 0;
    for (int i = 0; i < nd; i++)
        r = r * dims[i] + c[i];
    return r;
}

/* The rank disp steps from coordinates c along dim, by hand. */
static int moved(int nd, const int *dims, const int *periods, const int *c, int dim,
                 long long disp)
{
    int cc[8];
    for (int i = 0; i < nd; i++)
        cc[i] = c[i];
    long long to = c[dim] + disp;
    if (to < 0 || to >= dims[dim]) {
        if (!periods[dim])
            return MPI_PROC_NULL;
        to = ((to % dims[dim]) + dims[dim]) % dims[dim];
    }
    cc[dim] = (int)to;
    return rank_of(nd, dims, cc);
}

static void check_grid(MPI_Comm cart, int nd, const int *dims, const int *periods)
{
    int me, n, k, st;
    OK(MPI_Comm_rank(cart, &me));
    OK(MPI_Comm_size(cart, &n));
    int total = 1;
    for (int i = 0; i < nd; i++)
        total *= dims[i];
    CHECK_INT(n, total);
    OK(MPI_Topo_test(cart, &st));
    CHECK_INT(st, MPI_CART);
    OK(MPI_Cartdim_get(cart, &k));
    CHECK_INT(k, nd);
    int gd[8], gp[8], gc[8], want[8];
    OK(MPI_Cart_get(cart, 8, gd, gp, gc));
    coords_of(me, nd, dims, want);
    for (int i = 0; i < nd; i++) {
        CHECK_INT(gd[i], dims[i]);
        CHECK_INT(gp[i], periods[i] != 0);
        CHECK_INT(gc[i], want[i]);
    }
    for (int r = 0; r < n; r++) {
        int c[8], w[8], back;
        OK(MPI_Cart_coords(cart, r, nd, c));
        coords_of(r, nd, dims, w);
        for (int i = 0; i < nd; i++)
            CHECK_INT(c[i], w[i]);
        OK(MPI_Cart_rank(cart, c, &back));
        CHECK_INT(back, r);
    }
    for (int d = 0; d < nd; d++) {
        int disps[] = {1, -1, 2, 0, 5, INT_MAX, INT_MIN};
        for (int j = 0; j < 7; j++) {
            int src, dst;
            OK(MPI_Cart_shift(cart, d, disps[j], &src, &dst));
            CHECK_INT(dst, moved(nd, dims, periods, want, d, disps[j]));
            CHECK_INT(src, moved(nd, dims, periods, want, d, -(long long)disps[j]));
        }
        if (periods[d]) { /* coordinates wrap on a periodic dimension */
            int c[8], r;
            for (int i = 0; i < nd; i++)
                c[i] = want[i];
            c[d] = want[d] - dims[d];
            OK(MPI_Cart_rank(cart, c, &r));
            CHECK_INT(r, me);
        }
    }
}

/* The new ranks of the world's ranks are a permutation of 0..size-1. */
static void check_permutation(int r)
{
    int size = world_size(), all[64], seen[64] = {0};
    CHECK(size <= 64);
    OK(MPI_Allgather(&r, 1, MPI_INT, all, 1, MPI_INT, MPI_COMM_WORLD));
    for (int i = 0; i < size; i++) {
        CHECK(all[i] >= 0 && all[i] < size);
        CHECK_INT(seen[all[i]]++, 0);
    }
}

static void grid(int nd, const int *periods, int reorder)
{
    int size = world_size(), me = world_rank();
    int dims[8] = {0};
    OK(MPI_Dims_create(size, nd, dims));
    MPI_Comm cart;
    OK(MPI_Cart_create(MPI_COMM_WORLD, nd, dims, periods, reorder, &cart));
    CHECK(cart != MPI_COMM_NULL);
    int r;
    OK(MPI_Comm_rank(cart, &r));
    if (!reorder)
        CHECK_INT(r, me); /* ranks kept */
    check_permutation(r);
    check_grid(cart, nd, dims, periods);
    int mapped; /* what reorder gives */
    OK(MPI_Cart_map(MPI_COMM_WORLD, nd, dims, periods, &mapped));
    if (reorder)
        CHECK_INT(mapped, r);

    /* a dup keeps the topology, and outlives the original */
    MPI_Comm dup;
    OK(MPI_Comm_dup(cart, &dup));
    OK(MPI_Comm_free(&cart));
    check_grid(dup, nd, dims, periods);
    /* a split does not */
    MPI_Comm split;
    int st;
    OK(MPI_Comm_split(dup, 0, 0, &split));
    OK(MPI_Topo_test(split, &st));
    CHECK_INT(st, MPI_UNDEFINED);
    OK(MPI_Comm_free(&split));
    OK(MPI_Comm_free(&dup));
}

/* A grid of size-1 points: the last rank is left out. */
static void smaller_grid(void)
{
    int size = world_size(), me = world_rank();
    if (size < 2)
        return;
    int dims[1] = {size - 1}, periods[1] = {0}, mapped;
    MPI_Comm cart;
    OK(MPI_Cart_create(MPI_COMM_WORLD, 1, dims, periods, 1, &cart));
    OK(MPI_Cart_map(MPI_COMM_WORLD, 1, dims, periods, &mapped));
    if (me == size - 1) {
        CHECK(cart == MPI_COMM_NULL);
        CHECK_INT(mapped, MPI_UNDEFINED);
        return;
    }
    check_grid(cart, 1, dims, periods);
    OK(MPI_Comm_free(&cart));
}

/* A zero-dimensional grid is one point: rank 0 alone. */
static void zero_dims(void)
{
    MPI_Comm cart;
    OK(MPI_Cart_create(MPI_COMM_WORLD, 0, NULL, NULL, 0, &cart));
    if (world_rank() != 0) {
        CHECK(cart == MPI_COMM_NULL);
        return;
    }
    int n, k, r;
    OK(MPI_Comm_size(cart, &n));
    CHECK_INT(n, 1);
    OK(MPI_Cartdim_get(cart, &k));
    CHECK_INT(k, 0);
    OK(MPI_Cart_rank(cart, NULL, &r));
    CHECK_INT(r, 0);
    OK(MPI_Comm_free(&cart));
}

/* MPI_Cart_sub of a 3-D grid keeping dimensions 0 and 2: the members are the ranks with my
 * coordinate 1, ranked row-major in (c0, c2). */
static void sub(void)
{
    int size = world_size(), me = world_rank();
    int dims[3] = {0, 0, 0}, periods[3] = {1, 0, 1};
    OK(MPI_Dims_create(size, 3, dims));
    MPI_Comm cart, s;
    OK(MPI_Cart_create(MPI_COMM_WORLD, 3, dims, periods, 0, &cart));
    int c[3];
    coords_of(me, 3, dims, c);
    OK(MPI_Cart_sub(cart, (int[]){1, 0, 1}, &s));
    int n, r, sum, want_sum = 0;
    OK(MPI_Comm_size(s, &n));
    CHECK_INT(n, dims[0] * dims[2]);
    OK(MPI_Comm_rank(s, &r));
    CHECK_INT(r, c[0] * dims[2] + c[2]);
    for (int w = 0; w < size; w++) {
        int wc[3];
        coords_of(w, 3, dims, wc);
        if (wc[1] == c[1])
            want_sum += w;
    }
    OK(MPI_Allreduce(&me, &sum, 1, MPI_INT, MPI_SUM, s));
    CHECK_INT(sum, want_sum);
    int sd[2] = {dims[0], dims[2]}, sp[2] = {1, 1};
    check_grid(s, 2, sd, sp);
    OK(MPI_Comm_free(&s));

    /* nothing kept: a zero-dimensional grid of one rank */
    OK(MPI_Cart_sub(cart, (int[]){0, 0, 0}, &s));
    int k;
    OK(MPI_Comm_size(s, &n));
    CHECK_INT(n, 1);
    OK(MPI_Cartdim_get(s, &k));
    CHECK_INT(k, 0);
    OK(MPI_Comm_free(&s));
    OK(MPI_Comm_free(&cart));
}

int main(int argc, char **argv)
{
    MPI_Init(&argc, &argv);
    dims_create();
    grid(1, (int[]){1}, 0);
    grid(1, (int[]){0}, 1);
    grid(2, (int[]){1, 0}, 0);
    grid(3, (int[]){0, 7, 1}, 1); /* any non-zero value is true */
    smaller_grid();
    zero_dims();
    sub();
    MPI_Finalize();
    return 0;
}
