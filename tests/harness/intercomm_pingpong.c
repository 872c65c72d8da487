/* tests/harness/intercomm_pingpong.c — MPI_COMM_WORLD split in halves joined by
 * MPI_Intercomm_create: ping-pong between the groups' ranks, MPI_Intercomm_merge with the low
 * half first and then last (the merged ranks' order checked), an allreduce on the
 * intercommunicator (each group gets the other's sum) and on the merged communicator, and a
 * broadcast across from a root of either group.
 * Needs 2 ranks or more. */
#include <stdio.h>
#include "mtest_lite.h"

#define ROUNDS 10

int main(int argc, char **argv)
{
    int errs = 0, size, wrank;
    MTest_Init(&argc, &argv);
    MPI_Comm_size(MPI_COMM_WORLD, &size);
    MPI_Comm_rank(MPI_COMM_WORLD, &wrank);
    if (size < 2) {
        if (wrank == 0)
            fprintf(stderr, "intercomm_pingpong needs 2 ranks or more\n");
        MTest_Finalize(1);
        return 1;
    }
    int half = size / 2, low = wrank < half;
    MPI_Comm local, inter;
    MPI_Comm_split(MPI_COMM_WORLD, low ? 0 : 1, wrank, &local);
    int lrank, lsize;
    MPI_Comm_rank(local, &lrank);
    MPI_Comm_size(local, &lsize);
    MTEST_CHECK(errs, lsize == (low ? half : size - half));
    MTEST_CHECK(errs, lrank == (low ? wrank : wrank - half));
    /* Leaders: local rank 0 of each half; the peer communicator is MPI_COMM_WORLD. */
    MPI_Intercomm_create(local, 0, MPI_COMM_WORLD, low ? half : 0, 27, &inter);
    int flag, rsize, isize, irank;
    MPI_Comm_test_inter(inter, &flag);
    MPI_Comm_remote_size(inter, &rsize);
    MPI_Comm_size(inter, &isize);
    MPI_Comm_rank(inter, &irank);
    MTEST_CHECK(errs, flag);
    MTEST_CHECK(errs, rsize == (low ? size - half : half));
    MTEST_CHECK(errs, isize == lsize && irank == lrank);

    /* Ping-pong: low rank i with high rank i; a high rank without a partner (odd size) sits
     * out. Each round the value grows by one on each side. */
    if (lrank < half) {
        int v = lrank * 1000;
        for (int r = 0; r < ROUNDS; r++) {
            MPI_Status st;
            if (low) {
                MPI_Send(&v, 1, MPI_INT, lrank, r, inter);
                MPI_Recv(&v, 1, MPI_INT, lrank, r, inter, &st);
            } else {
                MPI_Recv(&v, 1, MPI_INT, lrank, r, inter, &st);
                MTEST_CHECK(errs, v == lrank * 1000 + 2 * r);
                v++;
                MPI_Send(&v, 1, MPI_INT, lrank, r, inter);
            }
            MTEST_CHECK(errs, st.MPI_SOURCE == lrank && st.MPI_TAG == r);
            if (low) {
                MTEST_CHECK(errs, v == lrank * 1000 + 2 * r + 1);
                v++;
            }
        }
    }

    /* Allreduce across: each group gets the sum of the other group's world ranks + 1. */
    int mine = wrank + 1, got = -1;
    MPI_Allreduce(&mine, &got, 1, MPI_INT, MPI_SUM, inter);
    int lowsum = half * (half + 1) / 2, all = size * (size + 1) / 2;
    MTEST_CHECK(errs, got == (low ? all - lowsum : lowsum));

    /* A broadcast across from each group's last rank: the root passes MPI_ROOT, the rest of
     * its group MPI_PROC_NULL, the other group the root's rank in the remote group. */
    for (int rootlow = 1; rootlow >= 0; rootlow--) {
        int rootrank = rootlow ? half - 1 : size - half - 1, buf[3];
        int sending = low == rootlow, root;
        if (sending)
            root = lrank == rootrank ? MPI_ROOT : MPI_PROC_NULL;
        else
            root = rootrank;
        for (int k = 0; k < 3; k++)
            buf[k] = root == MPI_ROOT ? 77 * (rootlow + 1) + k : -1;
        MPI_Bcast(buf, 3, MPI_INT, root, inter);
        for (int k = 0; k < 3; k++)
            MTEST_CHECK(errs, buf[k] == (root == MPI_PROC_NULL ? -1 : 77 * (rootlow + 1) + k));
    }

    /* Merge: high = 0 for the low half puts it first (the world's order); the other way round
     * the high half comes first. */
    for (int lowfirst = 1; lowfirst >= 0; lowfirst--) {
        MPI_Comm merged;
        int high = lowfirst ? !low : low;
        MPI_Intercomm_merge(inter, high, &merged);
        int mrank, msize;
        MPI_Comm_rank(merged, &mrank);
        MPI_Comm_size(merged, &msize);
        MPI_Comm_test_inter(merged, &flag);
        MTEST_CHECK(errs, !flag && msize == size);
        int want = lowfirst ? wrank : (low ? (size - half) + wrank : wrank - half);
        MTEST_CHECK(errs, mrank == want);
        /* Every rank sees the same order: gather the world ranks by merged rank. */
        int order[64];
        MPI_Allgather(&wrank, 1, MPI_INT, order, 1, MPI_INT, merged);
        for (int m = 0; m < msize && m < 64; m++) {
            int w = lowfirst ? m : (m < size - half ? half + m : m - (size - half));
            MTEST_CHECK(errs, order[m] == w);
        }
        got = -1;
        MPI_Allreduce(&mine, &got, 1, MPI_INT, MPI_SUM, merged);
        MTEST_CHECK(errs, got == all);
        MPI_Comm_free(&merged);
    }

    MPI_Comm_free(&inter);
    MPI_Comm_free(&local);
    MTest_Finalize(errs);
    return MTestReturnValue(errs);
}
