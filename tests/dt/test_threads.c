/* tests/dt/test_threads.c — several threads copy disjoint chunks of one message between two
 * non-contiguous layouts at once (as large messages are cut into tasks): the types are only
 * read, so the result must equal one whole copy. Worth running under TSan. */
#include <pthread.h>
#include "dt_check.h"

#define NTHREADS 4
#define CHUNK 4099 /* bytes, not a multiple of anything in the layouts */

static struct loom_datatype *st, *dt;
static int *src, *dst, *whole;
static size_t total;
static pthread_barrier_t start;

static void *worker(void *arg)
{
    size_t me = (size_t)arg;
    pthread_barrier_wait(&start);
    for (size_t off = me * CHUNK; off < total; off += NTHREADS * CHUNK) {
        size_t len = total - off < CHUNK ? total - off : CHUNK;
        loom__dt_copy(dst, dt, 1, src, st, 2, off, len);
    }
    return NULL;
}

int main(void)
{
    /* 2 x 100000 blocks of 3 ints, stride 5 ints -> 300000 blocks of 2 ints, stride 3 ints */
    st = dt_hvector(100000, 3, 20, &loom_mpi_int);
    dt = dt_hvector(300000, 2, 12, &loom_mpi_int);
    total = loom__dt_stream_size(st, 2);
    CHECK_INT(total, loom__dt_stream_size(dt, 1));
    size_t sbytes = (size_t)st->extent * 2, dbytes = (size_t)dt->extent;
    src = malloc(sbytes);
    dst = calloc(1, dbytes);
    whole = calloc(1, dbytes);
    for (size_t k = 0; k < sbytes / 4; k++)
        src[k] = (int)k;
    loom__dt_copy(whole, dt, 1, src, st, 2, 0, total);

    pthread_t th[NTHREADS];
    pthread_barrier_init(&start, NULL, NTHREADS);
    for (size_t t = 0; t < NTHREADS; t++)
        pthread_create(&th[t], NULL, worker, (void *)t);
    for (size_t t = 0; t < NTHREADS; t++)
        pthread_join(th[t], NULL);
    CHECK(memcmp(dst, whole, dbytes) == 0);
    /* spot check against the layouts: int k of the stream */
    for (size_t k = 0; k < total / 4; k += 9973) {
        size_t e = k / 300000, sb = k % 300000 / 3, sj = k % 3, db = k / 2, dj = k % 2;
        CHECK_INT(whole[db * 3 + dj], src[e * (size_t)st->extent / 4 + sb * 5 + sj]);
    }
    loom__dt_free(st);
    loom__dt_free(dt);
    free(src);
    free(dst);
    free(whole);
    return dt_result();
}
