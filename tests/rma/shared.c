/* Shared-memory windows (MPI 4.1 section 12.2.3): MPI_Win_allocate_shared and
 * MPI_Win_shared_query, on the communicator MPI_Comm_split_type(MPI_COMM_TYPE_SHARED) gives
 * (all ranks: a loom job is one process; the MPI libraries the test is checked with run it on
 * one node).
 *   - Contiguous by default: rank r's segment starts where the last nonempty segment before
 *     it ends, to the byte, with sizes that differ per rank, some odd, some 0; the query
 *     returns each owner's size and disp_unit and, for oneself, the pointer the allocation
 *     returned; MPI_PROC_NULL gives the first rank with a nonempty segment. A rank with an
 *     empty segment may be reported at NULL or at its place in the sequence (the standard
 *     does not say which: MPICH says NULL, Open MPI the place). All segments empty: size 0.
 *   - alloc_shared_noncontig=true: sizes and units as asked, segments pairwise disjoint.
 *   - Loads and stores into other ranks' segments through the queried pointers, ordered by
 *     MPI_Win_sync + MPI_Barrier inside MPI_Win_lock_all(MPI_MODE_NOCHECK), then by fences;
 *     MPI_Put and MPI_Get on the same window agree with what loads and stores see. */
#include <stdint.h>
#include "p2p_check.h"

static int ival(int e, int o, int k)
{
    return e * 100000 + o * 1000 + k;
}

/* Part 1: the byte sizes and units of the address window. */
static MPI_Aint bytes_of(int r)
{
    return r % 3 == 1 ? 0 : 3 + 5 * r;
}

static int unit_of(int r)
{
    return r % 2 ? 1 : 4;
}

static void contiguous(MPI_Comm comm, int me, int n)
{
    char *mine = NULL;
    MPI_Win win;
    OK(MPI_Win_allocate_shared(bytes_of(me), unit_of(me), MPI_INFO_NULL, comm, &mine, &win));
    if (bytes_of(me) > 0) {
        CHECK(mine != NULL);
        memset(mine, me, (size_t)bytes_of(me)); /* it is all there */
    }
    char *end = NULL; /* where the last nonempty segment ended */
    int first = -1;
    for (int q = 0; q < n; q++) {
        MPI_Aint size = -1;
        int unit = -1;
        char *base = (char *)&size;
        OK(MPI_Win_shared_query(win, q, &size, &unit, &base));
        CHECK_INT(size, bytes_of(q));
        CHECK_INT(unit, unit_of(q));
        if (size == 0) {
            CHECK(base == NULL || end == NULL || base == end);
            continue;
        }
        if (q == me)
            CHECK(base == mine);
        if (end != NULL && base != end)
            fprintf(stderr, "rank %d's segment starts at %p, the last one ends at %p\n", q,
                    (void *)base, (void *)end);
        CHECK(end == NULL || base == end);
        if (first < 0)
            first = q;
        end = base + size;
    }
    CHECK(first >= 0); /* rank 0 has 3 bytes */
    MPI_Aint size = -1;
    int unit = -1;
    char *base = NULL, *first_base = NULL;
    OK(MPI_Win_shared_query(win, MPI_PROC_NULL, &size, &unit, &base));
    OK(MPI_Win_shared_query(win, first, &size, &unit, &first_base));
    CHECK(base == first_base);
    CHECK_INT(size, bytes_of(first));
    CHECK_INT(unit, unit_of(first));
    OK(MPI_Win_free(&win));

    /* every segment empty */
    OK(MPI_Win_allocate_shared(0, 1, MPI_INFO_NULL, comm, &mine, &win));
    size = -1;
    OK(MPI_Win_shared_query(win, MPI_PROC_NULL, &size, &unit, &base));
    CHECK_INT(size, 0);
    OK(MPI_Win_free(&win));
}

/* Part 2 onwards: ints, rank r holding count_of(r) of them (the unit an int). */
static int count_of(int r)
{
    return r % 4 == 3 ? 0 : r + 2;
}

/* The pointers to every rank's segment, and their sizes in bytes. Contiguous segments have
 * exactly the size asked; noncontiguous ones at least that (Open MPI 4.1 rounds them up to
 * pages; the standard calls the result "size of the window segment" without saying more). */
static int **segments(MPI_Win win, int n, int contig, MPI_Aint *sizes)
{
    int **seg = malloc(sizeof(int *) * (size_t)n);
    CHECK(seg != NULL);
    for (int q = 0; q < n; q++) {
        int unit;
        OK(MPI_Win_shared_query(win, q, &sizes[q], &unit, &seg[q]));
        MPI_Aint asked = count_of(q) * (MPI_Aint)sizeof(int);
        if (contig || asked == 0)
            CHECK_INT(sizes[q], asked);
        else
            CHECK(sizes[q] >= asked);
        CHECK_INT(unit, sizeof(int));
    }
    return seg;
}

static void sync_all(MPI_Win win, MPI_Comm comm)
{
    OK(MPI_Win_sync(win));
    OK(MPI_Barrier(comm));
    OK(MPI_Win_sync(win));
}

static void load_store(MPI_Comm comm, int me, int n, MPI_Info info, int contig)
{
    int *mine = NULL;
    MPI_Win win;
    OK(MPI_Win_allocate_shared(count_of(me) * (MPI_Aint)sizeof(int), sizeof(int), info, comm, &mine,
                               &win));
    MPI_Aint *sizes = malloc(sizeof(MPI_Aint) * (size_t)n);
    CHECK(sizes != NULL);
    int **seg = segments(win, n, contig, sizes);
    if (count_of(me) > 0)
        CHECK(seg[me] == mine);
    /* the segments do not overlap (contiguous ones neither) */
    for (int p = 0; p < n; p++)
        for (int q = p + 1; q < n; q++)
            if (sizes[p] && sizes[q]) {
                uintptr_t bp = (uintptr_t)seg[p], bq = (uintptr_t)seg[q];
                CHECK(bp + (uintptr_t)sizes[p] <= bq || bq + (uintptr_t)sizes[q] <= bp);
            }
    int right = (me + 1) % n, left = (me + n - 1) % n;

    /* under lock_all: each writes its own segment, all read all */
    OK(MPI_Win_lock_all(MPI_MODE_NOCHECK, win));
    for (int k = 0; k < count_of(me); k++)
        mine[k] = ival(0, me, k);
    sync_all(win, comm);
    for (int q = 0; q < n; q++)
        for (int k = 0; k < count_of(q); k++)
            CHECK_INT(seg[q][k], ival(0, q, k));
    if (contig) { /* the same ints seen as one array from the first segment */
        int *all = NULL;
        for (int q = 0; q < n && all == NULL; q++)
            if (count_of(q))
                all = seg[q];
        for (int q = 0, at = 0; q < n; q++)
            for (int k = 0; k < count_of(q); k++)
                CHECK_INT(all[at++], ival(0, q, k));
    }
    sync_all(win, comm); /* all reads done before anyone writes again */
    /* each stores into its right neighbour's segment */
    for (int k = 0; k < count_of(right); k++)
        seg[right][k] = ival(1, me, k);
    sync_all(win, comm);
    for (int k = 0; k < count_of(me); k++)
        CHECK_INT(mine[k], ival(1, left, k));
    OK(MPI_Win_unlock_all(win));

    /* fences: stores into the left neighbour's segment, then puts into the right one's */
    OK(MPI_Win_fence(MPI_MODE_NOPRECEDE, win));
    for (int k = 0; k < count_of(left); k++)
        seg[left][k] = ival(2, me, k);
    OK(MPI_Win_fence(0, win));
    for (int k = 0; k < count_of(me); k++)
        CHECK_INT(mine[k], ival(2, right, k));
    int *src = malloc(sizeof(int) * (size_t)(n + 2)), *got = malloc(sizeof(int) * (size_t)(n + 2));
    CHECK(src != NULL && got != NULL);
    for (int k = 0; k < count_of(right); k++)
        src[k] = ival(3, me, k);
    OK(MPI_Win_fence(0, win));
    OK(MPI_Put(src, count_of(right), MPI_INT, right, 0, count_of(right), MPI_INT, win));
    OK(MPI_Win_fence(0, win));
    for (int k = 0; k < count_of(me); k++)
        CHECK_INT(mine[k], ival(3, left, k));
    /* a get from the left neighbour sees what a load sees */
    for (int k = 0; k < n + 2; k++)
        got[k] = -1;
    OK(MPI_Get(got, count_of(left), MPI_INT, left, 0, count_of(left), MPI_INT, win));
    OK(MPI_Win_fence(MPI_MODE_NOSUCCEED, win));
    int left2 = (left + n - 1) % n;
    for (int k = 0; k < count_of(left); k++) {
        CHECK_INT(got[k], ival(3, left2, k));
        CHECK_INT(seg[left][k], got[k]);
    }
    CHECK_INT(got[count_of(left)], -1);
    free(src);
    free(got);
    free(seg);
    free(sizes);
    OK(MPI_Win_free(&win));
}

int main(int argc, char **argv)
{
    OK(MPI_Init(&argc, &argv));
    int wrank = p2p_rank(), wsize = p2p_size();
    MPI_Comm comm;
    OK(MPI_Comm_split_type(MPI_COMM_WORLD, MPI_COMM_TYPE_SHARED, 0, MPI_INFO_NULL, &comm));
    int me, n;
    OK(MPI_Comm_rank(comm, &me));
    OK(MPI_Comm_size(comm, &n));
    CHECK_INT(n, wsize);
    CHECK_INT(me, wrank);

    contiguous(comm, me, n);
    load_store(comm, me, n, MPI_INFO_NULL, 1);
    MPI_Info info;
    OK(MPI_Info_create(&info));
    OK(MPI_Info_set(info, "alloc_shared_noncontig", "true"));
    load_store(comm, me, n, info, 0);
    OK(MPI_Info_free(&info));

    OK(MPI_Comm_free(&comm));
    OK(MPI_Finalize());
    return 0;
}
