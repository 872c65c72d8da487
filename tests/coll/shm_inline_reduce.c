/* Small reduces, allreduces, alltoalls, gathers and scatters hand their data over through
 * the members' inline buffers in the slot: a member whose data is small enough packs it there
 * and returns without waiting for the members that read it, and writes that buffer again
 * only once they are done with the collective before last. Here thousands of them run in a
 * row, the root moving, with vectors across the inline limits (1 .. 1024 ints), in place
 * every third call, and every fifth through a strided type that never goes inline, then an
 * alltoall of 1 .. 160 ints per block (in place every third), a gather of blocks of that size
 * to the root and a scatter of them back, while ranks lag now and then (a few yields before a
 * call). Every result is checked: data reused too early shows up as a wrong sum or block.
 * With 8 ranks on 2 cores the lag is real. */
#include <sched.h>
#include "coll_check.h"

#if defined(__SANITIZE_THREAD__) || defined(__SANITIZE_ADDRESS__)
#define ITERS 400
#else
#define ITERS 3000
#endif
#define MAXC 1024
#define MAXB 160 /* ints per alltoall block; ranks: at most 8 */

static void expect(int me, const char *what, int it, const int *got, const int *want, int c,
                   int stride)
{
    for (int i = 0; i < c; i++)
        if (got[i * stride] != want[i]) {
            fprintf(stderr, "rank %d: %s %d of %d ints: element %d is %d, expected %d\n", me,
                    what, it, c, i, got[i * stride], want[i]);
            MPI_Abort(MPI_COMM_WORLD, 1);
        }
}

int main(int argc, char **argv)
{
    MPI_Init(&argc, &argv);
    int me, n;
    MPI_Comm_rank(MPI_COMM_WORLD, &me);
    MPI_Comm_size(MPI_COMM_WORLD, &n);
    static _Thread_local int in[2 * MAXC], out[2 * MAXC], want[MAXC];
    static _Thread_local int ts[8 * MAXB], tr[8 * MAXB];
    MPI_Datatype strided; /* one int every two: not dense, so never inline */
    OK(MPI_Type_vector(1, 1, 2, MPI_INT, &strided));
    MPI_Datatype every_other;
    OK(MPI_Type_create_resized(strided, 0, 2 * (MPI_Aint)sizeof(int), &every_other));
    OK(MPI_Type_commit(&every_other));
    for (int it = 0; it < ITERS; it++) {
        int c = 1 + (it * 37) % MAXC, root = it % n;
        int in_place = it % 3 == 0, sparse = it % 5 == 0, stride = sparse ? 2 : 1;
        MPI_Datatype t = sparse ? every_other : MPI_INT;
        if ((it + me) % 7 == 0)
            for (int y = 0; y < 3; y++)
                sched_yield(); /* lag behind the others */
        for (int i = 0; i < c; i++) {
            want[i] = 0;
            for (int r = 0; r < n; r++)
                want[i] += val(r, it + i);
            in[i * stride] = val(me, it + i);
            out[i * stride] = -1;
        }
        if (in_place && me == root)
            for (int i = 0; i < c; i++)
                out[i * stride] = in[i * stride];
        OK(MPI_Reduce(in_place && me == root ? MPI_IN_PLACE : in, out, c, t, MPI_SUM, root,
                      MPI_COMM_WORLD));
        if (me == root)
            expect(me, "reduce", it, out, want, c, stride);
        for (int i = 0; i < c; i++)
            out[i * stride] = in_place ? in[i * stride] : -1;
        OK(MPI_Allreduce(in_place ? MPI_IN_PLACE : in, out, c, t, MPI_SUM, MPI_COMM_WORLD));
        expect(me, "allreduce", it, out, want, c, stride);
        if (n > 8)
            continue;
        int bc = 1 + (it * 13) % MAXB; /* ints per block */
        for (int r = 0; r < n; r++)
            for (int i = 0; i < bc; i++) {
                ts[r * bc + i] = val(me, it + 100 * r + i); /* our block for r */
                tr[r * bc + i] = in_place ? ts[r * bc + i] : -1;
            }
        OK(MPI_Alltoall(in_place ? MPI_IN_PLACE : ts, bc, MPI_INT, tr, bc, MPI_INT,
                        MPI_COMM_WORLD));
        for (int r = 0; r < n; r++)
            for (int i = 0; i < bc; i++)
                if (tr[r * bc + i] != val(r, it + 100 * me + i)) {
                    fprintf(stderr, "rank %d: alltoall %d of %d ints per block: block %d "
                            "element %d is %d, expected %d\n", me, it, bc, r, i,
                            tr[r * bc + i], val(r, it + 100 * me + i));
                    MPI_Abort(MPI_COMM_WORLD, 1);
                }
        /* gather, then scatter back, of bc ints per block, root moving */
        for (int i = 0; i < bc; i++)
            ts[i] = val(me, it + 7 * i);
        for (int i = 0; i < n * bc; i++)
            tr[i] = -1;
        OK(MPI_Gather(ts, bc, MPI_INT, tr, bc, MPI_INT, root, MPI_COMM_WORLD));
        if (me == root)
            for (int r = 0; r < n; r++)
                for (int i = 0; i < bc; i++)
                    if (tr[r * bc + i] != val(r, it + 7 * i)) {
                        fprintf(stderr, "rank %d: gather %d of %d ints: block %d element %d "
                                "is %d, expected %d\n", me, it, bc, r, i, tr[r * bc + i],
                                val(r, it + 7 * i));
                        MPI_Abort(MPI_COMM_WORLD, 1);
                    }
        for (int i = 0; i < bc; i++)
            ts[i] = -1;
        OK(MPI_Scatter(tr, bc, MPI_INT, ts, bc, MPI_INT, root, MPI_COMM_WORLD));
        for (int i = 0; i < bc; i++)
            if (ts[i] != val(me, it + 7 * i)) {
                fprintf(stderr, "rank %d: scatter %d of %d ints: element %d is %d, expected "
                        "%d\n", me, it, bc, i, ts[i], val(me, it + 7 * i));
                MPI_Abort(MPI_COMM_WORLD, 1);
            }
    }
    OK(MPI_Type_free(&every_other));
    OK(MPI_Type_free(&strided));
    if (me == 0)
        printf("ok: %d rounds of reduce, allreduce, alltoall, gather, scatter on %d ranks\n", ITERS, n);
    MPI_Finalize();
    return 0;
}
