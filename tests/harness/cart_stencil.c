/* tests/harness/cart_stencil.c — a 2-D Jacobi iteration on a periodic Cartesian grid of
 * ranks: MPI_Dims_create, MPI_Cart_create, MPI_Cart_shift, halos exchanged with MPI_Sendrecv
 * on even steps and MPI_Isend/MPI_Irecv/MPI_Waitall on odd ones (rows contiguous, columns as
 * an MPI_Type_vector), a global residual with MPI_Allreduce.
 * Rank 0 gathers the grid and checks it and the residual against the same iteration done
 * serially. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "mtest_lite.h"

#define NX 6 /* interior rows per rank */
#define NY 5 /* interior columns per rank */
#define STEPS 8
#define AT(a, i, j) ((a)[(i) * (NY + 2) + (j)]) /* local, with a halo of one */

static double initial(int gi, int gj)
{
    return (double)((gi * 7 + gj * 13) % 17) + 0.5 * gi;
}

/* One serial periodic Jacobi step on gx x gy; returns the sum of squared changes. */
static double serial_step(const double *u, double *v, int gx, int gy)
{
    double res = 0.0;
    for (int i = 0; i < gx; i++)
        for (int j = 0; j < gy; j++) {
            double up = u[((i - 1 + gx) % gx) * gy + j], down = u[((i + 1) % gx) * gy + j];
            double left = u[i * gy + (j - 1 + gy) % gy], right = u[i * gy + (j + 1) % gy];
            v[i * gy + j] = 0.25 * (up + down + left + right);
            double d = v[i * gy + j] - u[i * gy + j];
            res += d * d;
        }
    return res;
}

int main(int argc, char **argv)
{
    int errs = 0, size, rank;
    MTest_Init(&argc, &argv);
    MPI_Comm_size(MPI_COMM_WORLD, &size);

    int dims[2] = {0, 0}, periods[2] = {1, 1};
    MPI_Dims_create(size, 2, dims);
    MTEST_CHECK(errs, dims[0] * dims[1] == size && dims[0] >= dims[1]);
    MPI_Comm cart;
    MPI_Cart_create(MPI_COMM_WORLD, 2, dims, periods, 1, &cart);
    MPI_Comm_rank(cart, &rank);
    int coords[2];
    MPI_Cart_coords(cart, rank, 2, coords);

    int up, down, left, right;
    MPI_Cart_shift(cart, 0, 1, &up, &down);
    MPI_Cart_shift(cart, 1, 1, &left, &right);
    /* The neighbours are the ranks at the wrapped coordinates. */
    int c[2] = {(coords[0] - 1 + dims[0]) % dims[0], coords[1]}, r;
    MPI_Cart_rank(cart, c, &r);
    MTEST_CHECK(errs, r == up);
    c[0] = (coords[0] + 1) % dims[0];
    MPI_Cart_rank(cart, c, &r);
    MTEST_CHECK(errs, r == down);
    c[0] = coords[0];
    c[1] = (coords[1] - 1 + dims[1]) % dims[1];
    MPI_Cart_rank(cart, c, &r);
    MTEST_CHECK(errs, r == left);
    c[1] = (coords[1] + 1) % dims[1];
    MPI_Cart_rank(cart, c, &r);
    MTEST_CHECK(errs, r == right);

    double *u = calloc((NX + 2) * (NY + 2), sizeof(double));
    double *v = calloc((NX + 2) * (NY + 2), sizeof(double));
    for (int i = 1; i <= NX; i++)
        for (int j = 1; j <= NY; j++)
            AT(u, i, j) = initial(coords[0] * NX + i - 1, coords[1] * NY + j - 1);

    MPI_Datatype column;
    MPI_Type_vector(NX, 1, NY + 2, MPI_DOUBLE, &column);
    MPI_Type_commit(&column);

    double residual = 0.0;
    for (int step = 0; step < STEPS; step++) {
        if (step % 2) {
            /* Odd steps post all eight transfers, then wait for them. */
            MPI_Request rq[8];
            MPI_Irecv(&AT(u, 0, 1), NY, MPI_DOUBLE, up, 0, cart, &rq[0]);
            MPI_Irecv(&AT(u, NX + 1, 1), NY, MPI_DOUBLE, down, 1, cart, &rq[1]);
            MPI_Irecv(&AT(u, 1, 0), 1, column, left, 2, cart, &rq[2]);
            MPI_Irecv(&AT(u, 1, NY + 1), 1, column, right, 3, cart, &rq[3]);
            MPI_Isend(&AT(u, NX, 1), NY, MPI_DOUBLE, down, 0, cart, &rq[4]);
            MPI_Isend(&AT(u, 1, 1), NY, MPI_DOUBLE, up, 1, cart, &rq[5]);
            MPI_Isend(&AT(u, 1, NY), 1, column, right, 2, cart, &rq[6]);
            MPI_Isend(&AT(u, 1, 1), 1, column, left, 3, cart, &rq[7]);
            MPI_Status sts[8];
            MPI_Waitall(8, rq, sts);
            MTEST_CHECK(errs, sts[0].MPI_SOURCE == up && sts[1].MPI_SOURCE == down &&
                                  sts[2].MPI_SOURCE == left && sts[3].MPI_SOURCE == right);
            for (int k = 0; k < 8; k++)
                MTEST_CHECK(errs, rq[k] == MPI_REQUEST_NULL);
        } else {
            /* Rows: my last row down, my top halo from up; my first row up, bottom halo from
             * down. Columns likewise, one element per row. */
            MPI_Sendrecv(&AT(u, NX, 1), NY, MPI_DOUBLE, down, 0, &AT(u, 0, 1), NY, MPI_DOUBLE,
                         up, 0, cart, MPI_STATUS_IGNORE);
            MPI_Sendrecv(&AT(u, 1, 1), NY, MPI_DOUBLE, up, 1, &AT(u, NX + 1, 1), NY,
                         MPI_DOUBLE, down, 1, cart, MPI_STATUS_IGNORE);
            MPI_Status st;
            MPI_Sendrecv(&AT(u, 1, NY), 1, column, right, 2, &AT(u, 1, 0), 1, column, left, 2, cart,
                         &st);
            int count;
            MPI_Get_count(&st, column, &count);
            MTEST_CHECK(errs, count == 1 && st.MPI_SOURCE == left && st.MPI_TAG == 2);
            MPI_Get_count(&st, MPI_DOUBLE, &count);
            MTEST_CHECK(errs, count == NX);
            MPI_Sendrecv(&AT(u, 1, 1), 1, column, left, 3, &AT(u, 1, NY + 1), 1, column, right, 3,
                         cart, MPI_STATUS_IGNORE);
        }

        double local = 0.0;
        for (int i = 1; i <= NX; i++)
            for (int j = 1; j <= NY; j++) {
                AT(v, i, j) = 0.25 * (AT(u, i - 1, j) + AT(u, i + 1, j) + AT(u, i, j - 1) +
                                      AT(u, i, j + 1));
                double d = AT(v, i, j) - AT(u, i, j);
                local += d * d;
            }
        MPI_Allreduce(&local, &residual, 1, MPI_DOUBLE, MPI_SUM, cart);
        double *t = u;
        u = v;
        v = t;
    }

    /* Gather the interiors; rank 0 places each by its coordinates and checks. */
    double *mine = malloc(sizeof(double) * NX * NY);
    for (int i = 0; i < NX; i++)
        memcpy(&mine[i * NY], &AT(u, i + 1, 1), sizeof(double) * NY);
    double *all = rank == 0 ? malloc(sizeof(double) * NX * NY * size) : NULL;
    MPI_Gather(mine, NX * NY, MPI_DOUBLE, all, NX * NY, MPI_DOUBLE, 0, cart);
    if (rank == 0) {
        int gx = dims[0] * NX, gy = dims[1] * NY;
        double *g = malloc(sizeof(double) * gx * gy), *s = malloc(sizeof(double) * gx * gy);
        double *h = malloc(sizeof(double) * gx * gy);
        for (int p = 0; p < size; p++) {
            int pc[2];
            MPI_Cart_coords(cart, p, 2, pc);
            for (int i = 0; i < NX; i++)
                for (int j = 0; j < NY; j++)
                    g[(pc[0] * NX + i) * gy + pc[1] * NY + j] = all[p * NX * NY + i * NY + j];
        }
        for (int i = 0; i < gx; i++)
            for (int j = 0; j < gy; j++)
                s[i * gy + j] = initial(i, j);
        double sres = 0.0;
        for (int step = 0; step < STEPS; step++) {
            sres = serial_step(s, h, gx, gy);
            double *t = s;
            s = h;
            h = t;
        }
        int bad = 0;
        for (int k = 0; k < gx * gy; k++)
            if (fabs(g[k] - s[k]) > 1e-12 * (1.0 + fabs(s[k])) && bad++ < 5)
                fprintf(stderr, "point %d: got %.17g, serial %.17g\n", k, g[k], s[k]);
        MTEST_CHECK(errs, bad == 0);
        MTEST_CHECK(errs, fabs(residual - sres) <= 1e-10 * (1.0 + sres));
        MTEST_CHECK(errs, sres > 0.0);
        free(g);
        free(s);
        free(h);
    }
    /* Every rank got the same residual. */
    double lo = residual, hi = residual;
    MPI_Allreduce(MPI_IN_PLACE, &lo, 1, MPI_DOUBLE, MPI_MIN, cart);
    MPI_Allreduce(MPI_IN_PLACE, &hi, 1, MPI_DOUBLE, MPI_MAX, cart);
    MTEST_CHECK(errs, lo == hi);

    free(all);
    free(mine);
    free(u);
    free(v);
    MPI_Type_free(&column);
    MPI_Comm_free(&cart);
    MTest_Finalize(errs);
    return MTestReturnValue(errs);
}
