/* Small bcasts and allgathers go through the contributors' inline buffers in the slot: the
 * root (every contributor, for allgather) packs its data there and returns without waiting
 * for its readers, and reuses one of its two buffers only once every reader of the
 * collective before last is done. Here one root runs far ahead: thousands of bcasts and
 * allgathers in a row with sizes across the inline limit (1 .. 1024 bytes, so both paths
 * alternate), while every other rank lags now and then (it yields its core a few times
 * before a call). Each result is checked: a buffer reused too early shows up as a wrong
 * value. With 8 ranks on 2 cores the lag is real. */
#include <sched.h>
#include "coll_check.h"

#if defined(__SANITIZE_THREAD__) || defined(__SANITIZE_ADDRESS__)
#define ITERS 400
#else
#define ITERS 4000
#endif
#define MAXB 1024

int main(int argc, char **argv)
{
    MPI_Init(&argc, &argv);
    int me, n;
    MPI_Comm_rank(MPI_COMM_WORLD, &me);
    MPI_Comm_size(MPI_COMM_WORLD, &n);
    static _Thread_local unsigned char b[MAXB], w[MAXB], g[MAXB * 8], gw[MAXB * 8];
    char what[96];
    for (int it = 0; it < ITERS; it++) {
        int bytes = 1 + (it * 37) % MAXB; /* 1 .. MAXB: inline and not, in turn */
        if (me != 0 && (it + me) % 7 == 0)
            for (int y = 0; y < 3; y++)
                sched_yield(); /* lag behind the root */
        for (int i = 0; i < bytes; i++) {
            w[i] = (unsigned char)(val(0, it + i) & 0xff);
            b[i] = me == 0 ? w[i] : 0;
        }
        OK(MPI_Bcast(b, bytes, MPI_UNSIGNED_CHAR, 0, MPI_COMM_WORLD));
        for (int i = 0; i < bytes; i++)
            if (b[i] != w[i]) {
                fprintf(stderr, "rank %d: bcast %d of %d bytes: byte %d is %d, expected %d\n",
                        me, it, bytes, i, b[i], w[i]);
                MPI_Abort(MPI_COMM_WORLD, 1);
            }
        int gb = bytes / n + 1; /* each rank's block */
        unsigned char mine[MAXB + 1];
        for (int i = 0; i < gb; i++)
            mine[i] = (unsigned char)(val(me, it + i) & 0xff);
        for (int r = 0; r < n; r++)
            for (int i = 0; i < gb; i++)
                gw[r * gb + i] = (unsigned char)(val(r, it + i) & 0xff);
        snprintf(what, sizeof what, "allgather %d of %d bytes per rank", it, gb);
        OK(MPI_Allgather(mine, gb, MPI_UNSIGNED_CHAR, g, gb, MPI_UNSIGNED_CHAR,
                         MPI_COMM_WORLD));
        for (int i = 0; i < gb * n; i++)
            if (g[i] != gw[i]) {
                fprintf(stderr, "rank %d: %s: byte %d is %d, expected %d\n", me, what, i, g[i],
                        gw[i]);
                MPI_Abort(MPI_COMM_WORLD, 1);
            }
    }
    if (me == 0)
        printf("ok: %d bcasts and allgathers on %d ranks\n", ITERS, n);
    MPI_Finalize();
    return 0;
}
