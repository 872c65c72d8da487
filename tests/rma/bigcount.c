/* The MPI-4 big-count forms of the one-sided calls (MPI 4.1 section 12, the _c bindings) give
 * what their int twins give on ordinary counts: MPI_Win_create_c, MPI_Win_allocate_c and
 * MPI_Win_allocate_shared_c (disp_unit an MPI_Aint) make windows whose MPI_WIN_SIZE and
 * MPI_WIN_DISP_UNIT equal those of the twins' windows; MPI_Win_shared_query_c returns the size,
 * unit and base MPI_Win_shared_query returns, MPI_PROC_NULL included; MPI_Put_c, MPI_Get_c,
 * MPI_Accumulate_c and MPI_Get_accumulate_c, with MPI_Count counts of predefined and derived
 * types, leave in a window made by the _c form exactly what the int forms leave in the twin
 * window, and both match values computed from the rank numbers. */
#include "p2p_check.h"

enum { NW = 400, NPUT = 100, AT_PUT = 3, AT_VEC = 110, AT_ACC = 200, AT_GACC = 300 };
enum { CREATE, ALLOCATE, SHARED };

static int ival(int e, int o, int k)
{
    return e * 100000 + o * 1000 + k;
}

static long long tri(int n)
{
    return (long long)n * (n + 1) / 2;
}

struct twin {
    int me, n, right, left, left2;
    MPI_Win win[2]; /* [0]: made and used by the int forms, [1]: by the _c forms */
    int *mem[2];
    void *raw[2];
    MPI_Datatype vec; /* ints: 10 blocks of 2, stride 3 */
    int src[NPUT], srcv[30], acc[4], gacc[3], res[2][3], got[2][NPUT], gotv[2][30];
};

static void check_attrs(MPI_Win w, void *base, MPI_Aint size, int unit)
{
    void *b = NULL;
    MPI_Aint *s = NULL;
    int *u = NULL, flag = 0;
    OK(MPI_Win_get_attr(w, MPI_WIN_BASE, &b, &flag));
    CHECK(flag && b == base);
    OK(MPI_Win_get_attr(w, MPI_WIN_SIZE, &s, &flag));
    CHECK(flag);
    CHECK_INT(*s, size);
    OK(MPI_Win_get_attr(w, MPI_WIN_DISP_UNIT, &u, &flag));
    CHECK(flag);
    CHECK_INT(*u, unit);
}

/* The two queries of one shared window agree, for every rank and MPI_PROC_NULL. */
static void check_queries(MPI_Win w, int n)
{
    for (int q = -1; q < n; q++) {
        int rank = q < 0 ? MPI_PROC_NULL : q, unit = -1;
        MPI_Aint size = -1, size_c = -2, unit_c = -2;
        void *base = NULL, *base_c = NULL;
        OK(MPI_Win_shared_query(w, rank, &size, &unit, &base));
        OK(MPI_Win_shared_query_c(w, rank, &size_c, &unit_c, &base_c));
        CHECK_INT(size_c, size);
        CHECK_INT(unit_c, unit);
        CHECK(base_c == base);
        CHECK_INT(size, NW * (MPI_Aint)sizeof(int));
        CHECK_INT(unit, sizeof(int));
    }
}

static void open_twins(struct twin *t, int kind)
{
    MPI_Aint bytes = NW * (MPI_Aint)sizeof(int);
    for (int wide = 0; wide < 2; wide++) {
        void *base = NULL;
        t->raw[wide] = NULL;
        if (kind == CREATE) {
            base = t->raw[wide] = p2p_malloc((size_t)bytes);
            if (wide)
                OK(MPI_Win_create_c(base, bytes, (MPI_Aint)sizeof(int), MPI_INFO_NULL,
                                    MPI_COMM_WORLD, &t->win[1]));
            else
                OK(MPI_Win_create(base, bytes, sizeof(int), MPI_INFO_NULL, MPI_COMM_WORLD,
                                  &t->win[0]));
        } else if (kind == ALLOCATE) {
            if (wide)
                OK(MPI_Win_allocate_c(bytes, (MPI_Aint)sizeof(int), MPI_INFO_NULL, MPI_COMM_WORLD,
                                      &base, &t->win[1]));
            else
                OK(MPI_Win_allocate(bytes, sizeof(int), MPI_INFO_NULL, MPI_COMM_WORLD, &base,
                                    &t->win[0]));
        } else {
            if (wide)
                OK(MPI_Win_allocate_shared_c(bytes, (MPI_Aint)sizeof(int), MPI_INFO_NULL,
                                             MPI_COMM_WORLD, &base, &t->win[1]));
            else
                OK(MPI_Win_allocate_shared(bytes, sizeof(int), MPI_INFO_NULL, MPI_COMM_WORLD, &base,
                                           &t->win[0]));
            check_queries(t->win[wide], t->n);
        }
        t->mem[wide] = base;
        check_attrs(t->win[wide], base, bytes, sizeof(int));
        for (int k = 0; k < NW; k++)
            t->mem[wide][k] = ival(0, t->me, k);
    }
}

/* Epoch 1 on one window, by the int forms or by the _c forms. */
static void epoch1(struct twin *t, int wide)
{
    MPI_Win w = t->win[wide];
    int r = t->right;
    if (wide) {
        OK(MPI_Put_c(t->src, (MPI_Count)NPUT, MPI_INT, r, AT_PUT, (MPI_Count)NPUT, MPI_INT, w));
        OK(MPI_Put_c(t->srcv, (MPI_Count)1, t->vec, r, AT_VEC, (MPI_Count)20, MPI_INT, w));
        for (int k = 0; k < t->n; k++)
            OK(MPI_Accumulate_c(t->acc, (MPI_Count)4, MPI_INT, k, AT_ACC, (MPI_Count)4, MPI_INT,
                                MPI_SUM, w));
        OK(MPI_Get_accumulate_c(t->gacc, (MPI_Count)3, MPI_INT, t->res[1], (MPI_Count)3, MPI_INT, r,
                                AT_GACC, (MPI_Count)3, MPI_INT, MPI_SUM, w));
    } else {
        OK(MPI_Put(t->src, NPUT, MPI_INT, r, AT_PUT, NPUT, MPI_INT, w));
        OK(MPI_Put(t->srcv, 1, t->vec, r, AT_VEC, 20, MPI_INT, w));
        for (int k = 0; k < t->n; k++)
            OK(MPI_Accumulate(t->acc, 4, MPI_INT, k, AT_ACC, 4, MPI_INT, MPI_SUM, w));
        OK(MPI_Get_accumulate(t->gacc, 3, MPI_INT, t->res[0], 3, MPI_INT, r, AT_GACC, 3, MPI_INT,
                              MPI_SUM, w));
    }
}

/* Epoch 2: gets of what epoch 1 put into the left neighbour, into a vector at the origin and
 * contiguously. */
static void epoch2(struct twin *t, int wide)
{
    MPI_Win w = t->win[wide];
    for (int k = 0; k < 30; k++)
        t->gotv[wide][k] = -1;
    if (wide) {
        OK(MPI_Get_c(t->got[1], (MPI_Count)NPUT, MPI_INT, t->left, AT_PUT, (MPI_Count)NPUT, MPI_INT,
                     w));
        OK(MPI_Get_c(t->gotv[1], (MPI_Count)1, t->vec, t->left, AT_VEC, (MPI_Count)20, MPI_INT, w));
    } else {
        OK(MPI_Get(t->got[0], NPUT, MPI_INT, t->left, AT_PUT, NPUT, MPI_INT, w));
        OK(MPI_Get(t->gotv[0], 1, t->vec, t->left, AT_VEC, 20, MPI_INT, w));
    }
}

static int expected(const struct twin *t, int k)
{
    if (k >= AT_PUT && k < AT_PUT + NPUT)
        return ival(1, t->left, k - AT_PUT);
    if (k >= AT_VEC && k < AT_VEC + 20) { /* the vector's blocks: source ints 3i and 3i+1 */
        int j = k - AT_VEC;
        return ival(2, t->left, (j / 2) * 3 + j % 2);
    }
    if (k >= AT_ACC && k < AT_ACC + 4)
        return ival(0, t->me, k) + (int)((k - AT_ACC + 1) * tri(t->n));
    if (k >= AT_GACC && k < AT_GACC + 3)
        return ival(0, t->me, k) + (t->left + 1) * 10 + (k - AT_GACC);
    return ival(0, t->me, k);
}

static void run(int kind)
{
    struct twin *t = calloc(1, sizeof *t);
    CHECK(t != NULL);
    t->me = p2p_rank();
    t->n = p2p_size();
    t->right = (t->me + 1) % t->n;
    t->left = (t->me + t->n - 1) % t->n;
    t->left2 = (t->left + t->n - 1) % t->n;
    OK(MPI_Type_vector(10, 2, 3, MPI_INT, &t->vec));
    OK(MPI_Type_commit(&t->vec));
    for (int k = 0; k < NPUT; k++)
        t->src[k] = ival(1, t->me, k);
    for (int k = 0; k < 30; k++)
        t->srcv[k] = ival(2, t->me, k);
    for (int k = 0; k < 4; k++)
        t->acc[k] = (t->me + 1) * (k + 1);
    for (int k = 0; k < 3; k++)
        t->gacc[k] = (t->me + 1) * 10 + k;
    open_twins(t, kind);

    for (int wide = 0; wide < 2; wide++) {
        OK(MPI_Win_fence(MPI_MODE_NOPRECEDE, t->win[wide]));
        epoch1(t, wide);
        OK(MPI_Win_fence(MPI_MODE_NOSTORE | MPI_MODE_NOPUT, t->win[wide]));
        epoch2(t, wide);
        OK(MPI_Win_fence(MPI_MODE_NOSUCCEED, t->win[wide]));
    }
    for (int k = 0; k < NW; k++) {
        CHECK_INT(t->mem[1][k], t->mem[0][k]);
        CHECK_INT(t->mem[0][k], expected(t, k));
    }
    for (int k = 0; k < 3; k++) {
        CHECK_INT(t->res[1][k], t->res[0][k]);
        CHECK_INT(t->res[0][k], ival(0, t->right, AT_GACC + k));
    }
    for (int k = 0; k < NPUT; k++) {
        CHECK_INT(t->got[1][k], t->got[0][k]);
        CHECK_INT(t->got[0][k], ival(1, t->left2, k));
    }
    /* the vector brings back, in place, what the left neighbour's left neighbour sent */
    for (int k = 0; k < 30; k++) {
        CHECK_INT(t->gotv[1][k], t->gotv[0][k]);
        CHECK_INT(t->gotv[0][k], k % 3 == 2 ? -1 : ival(2, t->left2, k));
    }

    for (int wide = 0; wide < 2; wide++) {
        OK(MPI_Win_free(&t->win[wide]));
        free(t->raw[wide]);
    }
    OK(MPI_Type_free(&t->vec));
    free(t);
}

int main(int argc, char **argv)
{
    OK(MPI_Init(&argc, &argv));
    run(CREATE);
    run(ALLOCATE);
    run(SHARED);
    OK(MPI_Finalize());
    return 0;
}
