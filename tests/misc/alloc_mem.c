/* MPI_Alloc_mem and MPI_Free_mem: blocks of every size (0 included) aligned to 64 bytes or
 * more, writable over their whole size, distinct while live; the info key
 * mpi_minimum_memory_alignment raises the alignment, other keys are ignored; the threads of a
 * rank allocate and free at once, a block freed by another thread than its allocator's. */
#include <pthread.h>
#include <stdint.h>
#include <stdlib.h>
#include "misc_check.h"

#define THREADS 4
#define ROUNDS 300

/* one per thread; each rank has its own (ranks are threads of one process: no globals) */
struct job {
    int t;
    void *(*blocks)[ROUNDS]; /* [THREADS][ROUNDS], the rank's */
};

static void *worker(void *arg)
{
    struct job *j = arg;
    int t = j->t;
    void *(*blocks)[ROUNDS] = j->blocks;
    for (int i = 0; i < ROUNDS; i++) {
        size_t size = (size_t)(i * 37 % 1000) + 1;
        void *p;
        OK(MPI_Alloc_mem((MPI_Aint)size, MPI_INFO_NULL, &p));
        CHECK((uintptr_t)p % 64 == 0);
        memset(p, t + 1, size);
        blocks[t][i] = p;
        if (i % 2 == 0) {
            unsigned char *c = p;
            CHECK_INT(c[size - 1], t + 1);
            OK(MPI_Free_mem(p));
            blocks[t][i] = NULL;
        }
    }
    return NULL;
}

/* frees the odd blocks another thread allocated */
static void *reaper(void *arg)
{
    struct job *j = arg;
    int t = j->t;
    void *(*blocks)[ROUNDS] = j->blocks;
    for (int i = 1; i < ROUNDS; i += 2) {
        unsigned char *c = blocks[t][i];
        CHECK_INT(c[0], t + 1);
        OK(MPI_Free_mem(c));
    }
    return NULL;
}

int main(int argc, char **argv)
{
    OK(MPI_Init(&argc, &argv));
    int rank;
    OK(MPI_Comm_rank(MPI_COMM_WORLD, &rank));

    /* sizes, alignment, distinct live blocks */
    MPI_Aint sizes[] = {0, 1, 63, 64, 65, 4096, 1 << 20};
    enum { NS = sizeof sizes / sizeof sizes[0] };
    char *p[NS];
    for (int i = 0; i < NS; i++) {
        OK(MPI_Alloc_mem(sizes[i], MPI_INFO_NULL, &p[i]));
        CHECK(p[i] != NULL);
        CHECK((uintptr_t)p[i] % 64 == 0);
        memset(p[i], rank, (size_t)sizes[i]);
        for (int j = 0; j < i; j++)
            CHECK(p[i] != p[j]);
    }
    for (int i = 0; i < NS; i++)
        OK(MPI_Free_mem(p[i]));

    /* info: the alignment hint is used, other keys are accepted and ignored */
    MPI_Info info;
    OK(MPI_Info_create(&info));
    OK(MPI_Info_set(info, "mpi_minimum_memory_alignment", "4096"));
    OK(MPI_Info_set(info, "some_other_hint", "yes"));
    for (int i = 0; i < 8; i++) {
        void *q;
        OK(MPI_Alloc_mem(100 + i, info, &q));
        CHECK((uintptr_t)q % 4096 == 0);
        OK(MPI_Free_mem(q));
    }
    OK(MPI_Info_set(info, "mpi_minimum_memory_alignment", "3000")); /* not a power of two */
    void *q;
    OK(MPI_Alloc_mem(10, info, &q));
    CHECK((uintptr_t)q % 64 == 0);
    OK(MPI_Free_mem(q));
    OK(MPI_Info_free(&info));
    OK(MPI_Free_mem(NULL)); /* as free(NULL) */

    /* threads of one rank at once; the odd blocks freed by other threads */
    pthread_t th[THREADS];
    struct job jobs[THREADS];
    void *(*blocks)[ROUNDS] = calloc(THREADS, sizeof *blocks);
    CHECK(blocks != NULL);
    for (int t = 0; t < THREADS; t++) {
        jobs[t] = (struct job){t, blocks};
        CHECK(pthread_create(&th[t], NULL, worker, &jobs[t]) == 0);
    }
    for (int t = 0; t < THREADS; t++)
        CHECK(pthread_join(th[t], NULL) == 0);
    for (int t = 0; t < THREADS; t++) {
        jobs[t].t = (t + 1) % THREADS;
        CHECK(pthread_create(&th[t], NULL, reaper, &jobs[t]) == 0);
    }
    for (int t = 0; t < THREADS; t++)
        CHECK(pthread_join(th[t], NULL) == 0);
    free(blocks);

    /* a block from one rank freed by another (one address space): rank 0's block, sent as an
     * address to rank 1 */
    int size;
    OK(MPI_Comm_size(MPI_COMM_WORLD, &size));
    if (size > 1 && rank < 2) {
        MPI_Aint addr;
        if (rank == 0) {
            void *b;
            OK(MPI_Alloc_mem(256, MPI_INFO_NULL, &b));
            addr = (MPI_Aint)(uintptr_t)b;
            OK(MPI_Send(&addr, 1, MPI_AINT, 1, 0, MPI_COMM_WORLD));
        } else {
            OK(MPI_Recv(&addr, 1, MPI_AINT, 0, 0, MPI_COMM_WORLD, MPI_STATUS_IGNORE));
            OK(MPI_Free_mem((void *)(uintptr_t)addr));
        }
    }
    OK(MPI_Finalize());
    return 0;
}
