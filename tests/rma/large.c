/* Large transfers (MPI 4.1 sections 12.3.1 and 12.3.2): puts and gets of 3 MiB + 7 bytes at
 * odd displacements into a window made by MPI_Win_create, and 1 MiB of doubles through a
 * strided vector type (every other double over 2 MiB) on the target side, then on the origin
 * side, in a window made by MPI_Win_allocate; each under fence and then under
 * MPI_Win_lock/MPI_Win_unlock. The data are functions of the rank and the index; every byte
 * (every double) of the windows and of the buffers gets are made into is checked, poison
 * included, so a transfer cut short, split wrongly or misplaced fails. */
#include "p2p_check.h"

enum { BIG = (3 << 20) + 7, PAD = 32, AT1 = 5, AT2 = 11, POISON = 0xee };
enum { NV = 1 << 17 }; /* doubles moved through the vector: 1 MiB */

static unsigned id_of(int rank, int phase)
{
    return (unsigned)(rank * 16 + phase + 1);
}

static double dval(int rank, int phase, int j)
{
    return rank * 1e7 + phase * 1e6 + j;
}

static const double DPOISON = -1.5;

/* One rank's buffers. */
struct big {
    int me, n, right, left, left2;
    unsigned char *w1, *src, *dst; /* w1: BIG + PAD bytes */
    double *w2, *dsrc, *ddst;      /* w2 and ddst: 2 NV doubles; dsrc: 2 NV */
    MPI_Win win1, win2;
    MPI_Datatype every_other; /* NV doubles, every other one: 1 MiB over 2 MiB */
    MPI_Datatype half_other;  /* NV / 2 of them */
};

#define CHECK_DOUBLES(buf, len, want_expr)                                                     \
    do {                                                                                       \
        for (int j = 0; j < (len); j++) {                                                      \
            double w_ = (want_expr);                                                           \
            if ((buf)[j] != w_) {                                                              \
                fprintf(stderr, "%s:%d: %s[%d] is %.1f, expected %.1f\n", __FILE__, __LINE__,  \
                        #buf, j, (buf)[j], w_);                                                \
                fflush(NULL);                                                                  \
                _exit(99);                                                                     \
            }                                                                                  \
        }                                                                                      \
    } while (0)

/* The byte window after a put of message `id` at `at` over what `under` (a message at AT1,
 * or nothing: 0) left. */
static void check_w1(const unsigned char *w, unsigned id, int at, unsigned under)
{
    CHECK_BYTES(w, AT1, POISON);
    if (under) {
        CHECK_FILL(w + AT1, (size_t)(at - AT1), under);
    }
    CHECK_FILL(w + at, (size_t)BIG, id);
    CHECK_BYTES(w + at + BIG, BIG + PAD - at - BIG, POISON);
}

static void bytes_under_fence(struct big *b)
{
    p2p_fill(b->src, BIG, id_of(b->me, 1));
    OK(MPI_Win_fence(MPI_MODE_NOPRECEDE, b->win1));
    OK(MPI_Put(b->src, BIG, MPI_BYTE, b->right, AT1, BIG, MPI_BYTE, b->win1));
    OK(MPI_Win_fence(MPI_MODE_NOSTORE | MPI_MODE_NOPUT, b->win1));
    check_w1(b->w1, id_of(b->left, 1), AT1, 0);
    memset(b->dst, 0, BIG + PAD);
    OK(MPI_Get(b->dst, BIG, MPI_BYTE, b->left, AT1, BIG, MPI_BYTE, b->win1));
    OK(MPI_Win_fence(MPI_MODE_NOSTORE | MPI_MODE_NOSUCCEED, b->win1));
    CHECK_FILL(b->dst, (size_t)BIG, id_of(b->left2, 1));
    CHECK_BYTES(b->dst + BIG, PAD, 0);
}

static void bytes_under_lock(struct big *b)
{
    p2p_fill(b->src, BIG, id_of(b->me, 2));
    OK(MPI_Win_lock(MPI_LOCK_EXCLUSIVE, b->right, 0, b->win1));
    OK(MPI_Put(b->src, BIG, MPI_BYTE, b->right, AT2, BIG, MPI_BYTE, b->win1));
    OK(MPI_Win_unlock(b->right, b->win1));
    OK(MPI_Barrier(MPI_COMM_WORLD)); /* every put is complete at its target */
    OK(MPI_Win_lock(MPI_LOCK_SHARED, b->me, 0, b->win1));
    check_w1(b->w1, id_of(b->left, 2), AT2, id_of(b->left, 1));
    OK(MPI_Win_unlock(b->me, b->win1));
    memset(b->dst, 0, BIG + PAD);
    OK(MPI_Win_lock(MPI_LOCK_SHARED, b->left, 0, b->win1));
    OK(MPI_Get(b->dst, BIG, MPI_BYTE, b->left, AT2, BIG, MPI_BYTE, b->win1));
    OK(MPI_Win_unlock(b->left, b->win1));
    CHECK_FILL(b->dst, (size_t)BIG, id_of(b->left2, 2));
    CHECK_BYTES(b->dst + BIG, PAD, 0);
    OK(MPI_Barrier(MPI_COMM_WORLD));
}

static void vector_under_fence(struct big *b)
{
    for (int j = 0; j < 2 * NV; j++)
        b->w2[j] = DPOISON;
    for (int j = 0; j < NV; j++)
        b->dsrc[j] = dval(b->me, 3, j);
    /* contiguous origin, strided target */
    OK(MPI_Win_fence(MPI_MODE_NOPRECEDE, b->win2));
    OK(MPI_Put(b->dsrc, NV, MPI_DOUBLE, b->right, 0, 1, b->every_other, b->win2));
    OK(MPI_Win_fence(MPI_MODE_NOSTORE | MPI_MODE_NOPUT, b->win2));
    int left = b->left, left2 = b->left2;
    CHECK_DOUBLES(b->w2, 2 * NV, j % 2 ? DPOISON : dval(left, 3, j / 2));
    /* strided origin, contiguous target: the first NV doubles of the left neighbour's window
     * (half its data, half poison) into every other double */
    for (int j = 0; j < 2 * NV; j++)
        b->ddst[j] = 0.0;
    OK(MPI_Get(b->ddst, 1, b->every_other, left, 0, NV, MPI_DOUBLE, b->win2));
    OK(MPI_Win_fence(MPI_MODE_NOSTORE | MPI_MODE_NOSUCCEED, b->win2));
    CHECK_DOUBLES(b->ddst, 2 * NV, j % 2 ? 0.0 : (j / 2) % 2 ? DPOISON : dval(left2, 3, j / 4));
}

static void vector_under_lock(struct big *b)
{
    /* strided origin (the odd doubles of a 2 NV array), contiguous target */
    for (int j = 0; j < 2 * NV; j++)
        b->dsrc[j] = j % 2 ? dval(b->me, 4, j / 2) : DPOISON;
    OK(MPI_Win_lock(MPI_LOCK_EXCLUSIVE, b->right, 0, b->win2));
    OK(MPI_Put(b->dsrc + 1, 1, b->every_other, b->right, NV / 2, NV, MPI_DOUBLE, b->win2));
    OK(MPI_Win_unlock(b->right, b->win2));
    OK(MPI_Barrier(MPI_COMM_WORLD));
    OK(MPI_Win_lock(MPI_LOCK_SHARED, b->me, 0, b->win2));
    int left = b->left;
    CHECK_DOUBLES(b->w2, 2 * NV,
                  j >= NV / 2 && j < NV / 2 + NV ? dval(left, 4, j - NV / 2)
                  : j % 2                        ? DPOISON
                                                 : dval(left, 3, j / 2));
    OK(MPI_Win_unlock(b->me, b->win2));
    /* strided target: every other double of the left neighbour's window from NV / 2 on, all
     * in what the lock epoch put there */
    for (int j = 0; j < 2 * NV; j++)
        b->ddst[j] = 0.0;
    OK(MPI_Win_lock(MPI_LOCK_SHARED, b->left, 0, b->win2));
    OK(MPI_Get(b->ddst, NV / 2, MPI_DOUBLE, b->left, NV / 2, 1, b->half_other, b->win2));
    OK(MPI_Win_unlock(b->left, b->win2));
    CHECK_DOUBLES(b->ddst, 2 * NV, j < NV / 2 ? dval(b->left2, 4, 2 * j) : 0.0);
    OK(MPI_Barrier(MPI_COMM_WORLD));
}

int main(int argc, char **argv)
{
    OK(MPI_Init(&argc, &argv));
    struct big *b = calloc(1, sizeof *b);
    CHECK(b != NULL);
    b->me = p2p_rank();
    b->n = p2p_size();
    b->right = (b->me + 1) % b->n;
    b->left = (b->me + b->n - 1) % b->n;
    b->left2 = (b->left + b->n - 1) % b->n;
    b->w1 = p2p_malloc(BIG + PAD);
    b->src = p2p_malloc(BIG);
    b->dst = p2p_malloc(BIG + PAD);
    b->dsrc = p2p_malloc(2 * NV * sizeof(double));
    b->ddst = p2p_malloc(2 * NV * sizeof(double));
    memset(b->w1, POISON, BIG + PAD);
    OK(MPI_Win_create(b->w1, BIG + PAD, 1, MPI_INFO_NULL, MPI_COMM_WORLD, &b->win1));
    OK(MPI_Win_allocate(2 * NV * (MPI_Aint)sizeof(double), sizeof(double), MPI_INFO_NULL,
                        MPI_COMM_WORLD, &b->w2, &b->win2));
    OK(MPI_Type_vector(NV, 1, 2, MPI_DOUBLE, &b->every_other));
    OK(MPI_Type_commit(&b->every_other));
    OK(MPI_Type_vector(NV / 2, 1, 2, MPI_DOUBLE, &b->half_other));
    OK(MPI_Type_commit(&b->half_other));

    bytes_under_fence(b);
    bytes_under_lock(b);
    vector_under_fence(b);
    vector_under_lock(b);

    OK(MPI_Type_free(&b->every_other));
    OK(MPI_Type_free(&b->half_other));
    OK(MPI_Win_free(&b->win1));
    OK(MPI_Win_free(&b->win2));
    free(b->w1);
    free(b->src);
    free(b->dst);
    free(b->dsrc);
    free(b->ddst);
    free(b);
    OK(MPI_Finalize());
    return 0;
}
