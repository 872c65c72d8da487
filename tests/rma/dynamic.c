/* Dynamic windows (MPI 4.1 section 12.2.4): MPI_Win_create_dynamic, then each rank attaches
 * two malloc'ed regions (ints and doubles), publishes their addresses (MPI_Get_address, then
 * MPI_Allgather of MPI_AINT) and the ranks reach them with target_disp = the absolute address
 * at the target (plus offsets by MPI_Aint_add / MPI_Aint_diff): puts into the right
 * neighbour's ints and the left neighbour's doubles, an accumulate from every rank into
 * every rank, gets back under fence, a read of everyone under lock_all. Then MPI_Win_detach
 * of the int region (it keeps what it had, nothing more reaches it), MPI_Win_attach of a new
 * region, a new exchange of addresses and more traffic into the new region and the one still
 * attached. Every region is checked whole (poison where nothing was written). */
#include "p2p_check.h"

enum { NA = 40, NB = 24, NC = 16, AT_A = 4, AT_B = 10, AT_SUM = 30 };

static int ival(int e, int o, int k)
{
    return e * 100000 + o * 1000 + k;
}

static double dval(int e, int o, int k)
{
    return ival(e, o, k) + 0.5;
}

static const int IPOISON = -1;
static const double DPOISON = -1.5;

static MPI_Aint address_of(const void *p)
{
    MPI_Aint a;
    OK(MPI_Get_address(p, &a));
    return a;
}

/* Everyone's addresses of one region: all[r]. */
static void exchange(const void *region, MPI_Aint *all)
{
    MPI_Aint mine = address_of(region);
    OK(MPI_Allgather(&mine, 1, MPI_AINT, all, 1, MPI_AINT, MPI_COMM_WORLD));
}

int main(int argc, char **argv)
{
    OK(MPI_Init(&argc, &argv));
    int me = p2p_rank(), n = p2p_size();
    int right = (me + 1) % n, left = (me + n - 1) % n;
    long long tri = (long long)n * (n + 1) / 2;

    int *A = malloc(NA * sizeof(int)), *C = malloc(NC * sizeof(int));
    double *B = malloc(NB * sizeof(double));
    MPI_Aint *addr_a = malloc(sizeof(MPI_Aint) * (size_t)n);
    MPI_Aint *addr_b = malloc(sizeof(MPI_Aint) * (size_t)n);
    MPI_Aint *addr_c = malloc(sizeof(MPI_Aint) * (size_t)n);
    int *got_c0 = malloc(sizeof(int) * (size_t)n);
    CHECK(A && B && C && addr_a && addr_b && addr_c && got_c0);
    for (int k = 0; k < NA; k++)
        A[k] = IPOISON;
    A[AT_SUM] = 0;
    for (int k = 0; k < NB; k++)
        B[k] = DPOISON;
    for (int k = 0; k < NC; k++)
        C[k] = IPOISON;

    MPI_Win win;
    OK(MPI_Win_create_dynamic(MPI_INFO_NULL, MPI_COMM_WORLD, &win));
    OK(MPI_Win_attach(win, A, NA * sizeof(int)));
    OK(MPI_Win_attach(win, B, NB * sizeof(double)));
    exchange(A, addr_a);
    exchange(B, addr_b);
    CHECK(addr_a[me] == address_of(A) && addr_b[me] == address_of(B));

    /* epoch 1: ints into the right neighbour, doubles into the left one, a sum into all */
    int isrc[5], one = me + 1;
    double dsrc[3];
    for (int k = 0; k < 5; k++)
        isrc[k] = ival(1, me, k);
    for (int k = 0; k < 3; k++)
        dsrc[k] = dval(1, me, k);
    MPI_Aint off_a = MPI_Aint_diff(address_of(&A[AT_A]), address_of(A)); /* same at every rank */
    MPI_Aint off_sum = MPI_Aint_diff(address_of(&A[AT_SUM]), address_of(A));
    OK(MPI_Win_fence(MPI_MODE_NOPRECEDE, win));
    OK(MPI_Put(isrc, 5, MPI_INT, right, MPI_Aint_add(addr_a[right], off_a), 5, MPI_INT, win));
    OK(MPI_Put(dsrc, 3, MPI_DOUBLE, left, MPI_Aint_add(addr_b[left], AT_B * sizeof(double)), 3,
               MPI_DOUBLE, win));
    for (int t = 0; t < n; t++)
        OK(MPI_Accumulate(&one, 1, MPI_INT, t, MPI_Aint_add(addr_a[t], off_sum), 1, MPI_INT,
                          MPI_SUM, win));
    OK(MPI_Win_fence(MPI_MODE_NOSTORE | MPI_MODE_NOPUT, win));
    for (int k = 0; k < NA; k++) {
        int want = k >= AT_A && k < AT_A + 5 ? ival(1, left, k - AT_A)
                   : k == AT_SUM             ? (int)tri
                                             : IPOISON;
        CHECK_INT(A[k], want);
    }
    for (int k = 0; k < NB; k++)
        CHECK(B[k] == (k >= AT_B && k < AT_B + 3 ? dval(1, right, k - AT_B) : DPOISON));

    /* epoch 2: get back what this rank put */
    int iget[5] = {0};
    double dget[3] = {0};
    OK(MPI_Get(iget, 5, MPI_INT, right, addr_a[right] + off_a, 5, MPI_INT, win));
    OK(MPI_Get(dget, 3, MPI_DOUBLE, left, addr_b[left] + AT_B * (MPI_Aint)sizeof(double), 3,
               MPI_DOUBLE, win));
    OK(MPI_Win_fence(MPI_MODE_NOSTORE | MPI_MODE_NOPUT, win));
    for (int k = 0; k < 5; k++)
        CHECK_INT(iget[k], ival(1, me, k));
    for (int k = 0; k < 3; k++)
        CHECK(dget[k] == dval(1, me, k));

    /* the int region goes, a new one comes (all accesses to A are complete: the fence) */
    OK(MPI_Win_detach(win, A));
    OK(MPI_Win_attach(win, C, NC * sizeof(int)));
    exchange(C, addr_c);
    int csrc[NC];
    for (int k = 0; k < NC; k++)
        csrc[k] = ival(3, me, k);
    double d2[2] = {dval(3, me, 0), dval(3, me, 1)};
    OK(MPI_Win_fence(MPI_MODE_NOPRECEDE, win));
    OK(MPI_Put(csrc, NC, MPI_INT, right, addr_c[right], NC, MPI_INT, win));
    OK(MPI_Put(d2, 2, MPI_DOUBLE, right, addr_b[right], 2, MPI_DOUBLE, win));
    OK(MPI_Win_fence(MPI_MODE_NOSUCCEED, win));
    for (int k = 0; k < NC; k++)
        CHECK_INT(C[k], ival(3, left, k));
    for (int k = 0; k < NB; k++) {
        double want = k < 2                       ? dval(3, left, k)
                      : k >= AT_B && k < AT_B + 3 ? dval(1, right, k - AT_B)
                                                  : DPOISON;
        CHECK(B[k] == want);
    }
    for (int k = 0; k < NA; k++) /* detached: as epoch 1 left it */
        CHECK_INT(A[k], k >= AT_A && k < AT_A + 5 ? ival(1, left, k - AT_A)
                        : k == AT_SUM             ? (int)tri
                                                  : IPOISON);

    /* a passive-target read of everybody's new region */
    OK(MPI_Barrier(MPI_COMM_WORLD));
    OK(MPI_Win_lock_all(0, win));
    for (int t = 0; t < n; t++)
        OK(MPI_Get(&got_c0[t], 1, MPI_INT, t, MPI_Aint_add(addr_c[t], 5 * sizeof(int)), 1, MPI_INT,
                   win));
    OK(MPI_Win_unlock_all(win));
    for (int t = 0; t < n; t++)
        CHECK_INT(got_c0[t], ival(3, (t + n - 1) % n, 5));
    OK(MPI_Barrier(MPI_COMM_WORLD)); /* no one reads C after it goes */

    OK(MPI_Win_detach(win, B));
    OK(MPI_Win_detach(win, C));
    OK(MPI_Win_free(&win));
    free(A);
    free(B);
    free(C);
    free(addr_a);
    free(addr_b);
    free(addr_c);
    free(got_c0);
    OK(MPI_Finalize());
    return 0;
}
