/* Threads of every rank at once on the big-count datatype calls: each thread builds types
 * with the _c constructors on a shared large-count member, decodes the shared type through
 * get_contents_c (new handles of one type handed out while other threads free theirs), and
 * packs and unpacks its own buffer with MPI_Pack_c / MPI_Unpack_c at its own region of one
 * shared packed buffer. Results are checked in each thread and after the join. */
#include <pthread.h>
#include "dt_common.h"

#define THREADS 4
#define ROUNDS 40
#define REGION 512 /* bytes of the shared packed buffer per thread */

struct work {
    MPI_Datatype shared; /* a struct of large-count members, read by all threads */
    unsigned char *packed; /* shared by the rank's threads; this thread's region only */
    int id;
    long long packed_bytes; /* what this thread packed, over all rounds */
};

static void *run(void *p)
{
    struct work *w = p;
    int src[128], dst[128];
    for (int i = 0; i < ROUNDS; i++) {
        for (int k = 0; k < 128; k++)
            src[k] = w->id * 100000 + i * 100 + k;
        MPI_Count bl[] = {2, 1, 3}, d[] = {i % 4, 10, 20};
        MPI_Datatype t, v;
        OK(MPI_Type_indexed_c(3, bl, d, MPI_INT, &t));
        OK(MPI_Type_vector_c(2, 1, 2, t, &v)); /* built on a large-count member */
        OK(MPI_Type_commit(&v));
        MPI_Count pos = (MPI_Count)w->id * REGION, size;
        OK(MPI_Pack_size_c(1, v, MPI_COMM_WORLD, &size));
        CHECK_INT(size, 2 * 6 * 4);
        OK(MPI_Pack_c(src, 1, v, w->packed, (MPI_Count)THREADS * REGION, &pos,
                      MPI_COMM_WORLD));
        CHECK_INT(pos, (MPI_Count)w->id * REGION + size);
        w->packed_bytes += pos - (MPI_Count)w->id * REGION;
        for (int k = 0; k < 128; k++)
            dst[k] = -1;
        pos = (MPI_Count)w->id * REGION;
        OK(MPI_Unpack_c(w->packed, (MPI_Count)THREADS * REGION, &pos, dst, 1, v,
                        MPI_COMM_WORLD));
        /* t's ints lie at d0, d0+1, 10, 20, 21, 22 (lb d0, extent 23 - d0 ints); the
         * vector's block b starts 2b extents further */
        int want[] = {(int)d[0], (int)d[0] + 1, 10, 20, 21, 22}, ext = 23 - (int)d[0];
        for (int b = 0; b < 2; b++)
            for (int k = 0; k < 6; k++)
                CHECK_INT(dst[2 * b * ext + want[k]], src[2 * b * ext + want[k]]);
        CHECK_INT(dst[5], -1); /* a hole of t stays untouched */
        OK(MPI_Type_free(&v));
        OK(MPI_Type_free(&t));

        /* decode the shared type while the other threads do the same */
        MPI_Count ni, na, nl, nd;
        int comb, iv[1];
        MPI_Aint av[1];
        MPI_Count lc[8];
        MPI_Datatype dv[2];
        OK(MPI_Type_get_envelope_c(w->shared, &ni, &na, &nl, &nd, &comb));
        CHECK(comb == MPI_COMBINER_STRUCT && nl == 5 && nd == 2);
        OK(MPI_Type_get_contents_c(w->shared, 0, 0, 8, 2, iv, av, lc, dv));
        CHECK(lc[0] == 2 && lc[4] == 64);
        envelope_c_is(dv[0], 0, 0, 5, 1, MPI_COMBINER_HINDEXED_BLOCK);
        OK(MPI_Type_free(&dv[0]));
    }
    return NULL;
}

int main(int argc, char **argv)
{
    int provided;
    MPI_Init_thread(&argc, &argv, MPI_THREAD_MULTIPLE, &provided);
    CHECK_INT(provided, MPI_THREAD_MULTIPLE);
    OK(MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_RETURN));
    MPI_Datatype hb, s;
    MPI_Count hd[] = {0, 16, 40};
    OK(MPI_Type_create_hindexed_block_c(3, 2, hd, MPI_INT, &hb));
    MPI_Datatype ty[] = {hb, MPI_DOUBLE};
    MPI_Count bl[] = {1, 2}, d[] = {0, 64};
    OK(MPI_Type_create_struct_c(2, bl, d, ty, &s));
    OK(MPI_Type_free(&hb));
    unsigned char packed[THREADS * REGION];
    struct work w[THREADS];
    pthread_t th[THREADS];
    for (int t = 0; t < THREADS; t++)
        w[t] = (struct work){s, packed, t, 0};
    for (int t = 0; t < THREADS; t++)
        CHECK_INT(pthread_create(&th[t], NULL, run, &w[t]), 0);
    for (int t = 0; t < THREADS; t++)
        CHECK_INT(pthread_join(th[t], NULL), 0);
    for (int t = 0; t < THREADS; t++)
        CHECK_INT(w[t].packed_bytes, (long long)ROUNDS * 48);
    OK(MPI_Type_free(&s));
    MPI_Finalize();
    return 0;
}
