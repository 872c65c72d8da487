/* Several threads of each rank use MPI_T at once (the state is one per process, under one
 * lock): each initializes MPI_T, opens its own session and handles, sends ROUNDS messages to
 * its own rank while reading, resetting and writing its handles, writes and reads the LIVE
 * string variable LOOM_SPLIT_TREE (a reader sees one of the written values whole, never a
 * mix), allocates and frees cvar handles, then finalizes. After the join, a handle the main
 * thread started before shows exactly THREADS * ROUNDS messages each way: every thread of a
 * rank counts for the rank. */
#include <pthread.h>
#include <string.h>

#include "mpit_check.h"

#define THREADS 4
#define ROUNDS 50

struct work {
    int rank, tag;
};

static void *run(void *p)
{
    struct work *w = p;
    int provided, count;
    CHECK_OK(MPI_T_init_thread(MPI_THREAD_MULTIPLE, &provided));
    MPI_T_pvar_session s;
    MPI_T_pvar_handle sent, recv;
    CHECK_OK(MPI_T_pvar_session_create(&s));
    CHECK_OK(MPI_T_pvar_handle_alloc(s, pvar_index("loom_messages_sent"), NULL, &sent, &count));
    CHECK_OK(MPI_T_pvar_handle_alloc(s, pvar_index("loom_messages_received"), NULL, &recv,
                                     &count));
    CHECK_OK(MPI_T_pvar_start(s, MPI_T_PVAR_ALL_HANDLES));
    int split = cvar_index("LOOM_SPLIT_TREE");
    const char *mine = w->tag % 2 ? "off" : "auto";
    unsigned long long last = 0;
    for (int i = 0; i < ROUNDS; i++) {
        int out = i, in = -1;
        unsigned long long v;
        MPI_Sendrecv(&out, 1, MPI_INT, w->rank, w->tag, &in, 1, MPI_INT, w->rank, w->tag,
                     MPI_COMM_WORLD, MPI_STATUS_IGNORE);
        CHECK_INT(in, i);
        /* The rank's count only grows, and this thread's own messages are in it. */
        CHECK_OK(MPI_T_pvar_read(s, sent, &v));
        CHECK(v >= last + 1);
        last = v;
        MPI_T_cvar_handle ch;
        char text[64];
        CHECK_OK(MPI_T_cvar_handle_alloc(split, NULL, &ch, &count));
        CHECK(count <= (int)sizeof text);
        CHECK_OK(MPI_T_cvar_write(ch, mine));
        CHECK_OK(MPI_T_cvar_read(ch, text));
        CHECK(strcmp(text, "off") == 0 || strcmp(text, "auto") == 0);
        CHECK_OK(MPI_T_cvar_handle_free(&ch));
    }
    unsigned long long r;
    CHECK_OK(MPI_T_pvar_readreset(s, recv, &r));
    CHECK(r >= ROUNDS && r <= THREADS * ROUNDS);
    CHECK_OK(MPI_T_pvar_stop(s, MPI_T_PVAR_ALL_HANDLES));
    CHECK_OK(MPI_T_pvar_session_free(&s));
    CHECK_OK(MPI_T_finalize());
    return NULL;
}

int main(int argc, char **argv)
{
    int provided, tprov, rank, count;
    MPI_Init_thread(&argc, &argv, MPI_THREAD_MULTIPLE, &provided);
    CHECK_INT(provided, MPI_THREAD_MULTIPLE);
    CHECK_OK(MPI_T_init_thread(MPI_THREAD_MULTIPLE, &tprov));
    CHECK_INT(tprov, MPI_THREAD_MULTIPLE);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);

    MPI_T_pvar_session s;
    MPI_T_pvar_handle sent, recv;
    unsigned long long s0, s1, r0, r1;
    CHECK_OK(MPI_T_pvar_session_create(&s));
    CHECK_OK(MPI_T_pvar_handle_alloc(s, pvar_index("loom_messages_sent"), NULL, &sent, &count));
    CHECK_OK(MPI_T_pvar_handle_alloc(s, pvar_index("loom_messages_received"), NULL, &recv,
                                     &count));
    CHECK_OK(MPI_T_pvar_start(s, MPI_T_PVAR_ALL_HANDLES));
    MPI_Barrier(MPI_COMM_WORLD);
    CHECK_OK(MPI_T_pvar_read(s, sent, &s0));
    CHECK_OK(MPI_T_pvar_read(s, recv, &r0));

    pthread_t th[THREADS];
    struct work w[THREADS];
    for (int t = 0; t < THREADS; t++) {
        w[t] = (struct work){rank, t};
        CHECK(pthread_create(&th[t], NULL, run, &w[t]) == 0);
    }
    for (int t = 0; t < THREADS; t++)
        pthread_join(th[t], NULL);

    CHECK_OK(MPI_T_pvar_read(s, sent, &s1));
    CHECK_OK(MPI_T_pvar_read(s, recv, &r1));
    CHECK_INT(s1 - s0, THREADS * ROUNDS);
    CHECK_INT(r1 - r0, THREADS * ROUNDS);
    CHECK_OK(MPI_T_pvar_session_free(&s));
    MPI_Barrier(MPI_COMM_WORLD);
    CHECK_OK(MPI_T_finalize());
    MPI_Finalize();
    if (rank == 0)
        printf("mpit threads: %d threads per rank\n", THREADS);
    return 0;
}
