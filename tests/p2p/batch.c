/* Nonblocking sends published in batches (p2p/batch.h): MPI_Isend of a message that goes into
 * cells writes them and leaves the message unpublished until the sender's next MPI call of
 * another kind, a send into another ring, a full batch, or a receiver that waits for it. Each
 * section checks what would break if a batch were lost, published out of order, or kept from
 * its receiver:
 *  1. order: rank 0 sends rank 1 runs of MPI_Isend in cells (1 to 40 bytes, one cell, or 41
 *     to 940, several; runs of 1 to 50 messages, so that batches fill, or lack room for the
 *     next message, and publish themselves), each run followed by another way to the same
 *     rank (a blocking MPI_Send, an MPI_Isend of several cells, an MPI_Issend, an MPI_Isend
 *     too large for cells), a send to rank 2 (when there is one), an MPI_Iprobe, or nothing;
 *     MPI_Waitall only every third run. Rank 1 receives every message with MPI_ANY_TAG: each
 *     must come in the order sent (its tag is its index), with its size and bytes;
 *  2. a sender that leaves MPI: rank 0 starts 1 or 5 MPI_Isend, then waits outside MPI (it
 *     yields until a flag in rank 1's memory says the messages came) before it completes
 *     them; rank 1 receives them with MPI_Recv, MPI_Irecv + MPI_Waitall, an MPI_Iprobe loop
 *     or an MPI_Testall loop. Without a receiver that publishes its sender's batch this
 *     never ends (the test times out). One round in three the sender pauses 20 ms first, so
 *     that the receiver is asleep when the batch opens (and at once with LOOM_SPIN=0
 *     LOOM_YIELD=0): the sender must see the sleeper and wake it;
 *  3. threads (MPI_THREAD_MULTIPLE): two threads of rank 0 batch into the same ring at once,
 *     with tags 0 and 1; the second leaves MPI after its last MPI_Isend, until rank 1 has
 *     received everything. Rank 1 receives with MPI_ANY_TAG and checks each thread's order.
 * Ranks are threads of one process: rank 1 sends rank 0 the address of its flag. Jobs of 2
 * and 3 ranks; ranks from 3 on only join the barriers. */
#define _POSIX_C_SOURCE 200809L /* nanosleep */
#include <pthread.h>
#include <sched.h>
#include <stdatomic.h>
#include <stdint.h>
#include <time.h>
#include "p2p_check.h"

#define RUNS 60
#define MOST_IN_RUN 50
#define LARGE 20000 /* above the cells, whatever the eager limit */
#define MULTI 300   /* several cells */
#define REQS 256
#define ROUNDS 24
#define THREAD_MSGS 400
#define TAG_DETOUR 7

enum detour { NONE, SEND, ISEND_MULTI, ISSEND, ISEND_LARGE, OTHER_RANK, IPROBE, NDETOURS };

/* One cell, or (one run in four) several: at most 940 bytes, the cells' limit with rings of
 * 64 cells (jobs of up to 62 ranks). */
static size_t run_len(int r)
{
    return (size_t)(r % 4 == 3 ? 41 + (r * 97) % 900 : 1 + (r * 7) % 40);
}

static int run_count(int r)
{
    return 1 + (r * 11) % MOST_IN_RUN;
}

/* The size of the message a detour sends to rank 1, 0 for none. */
static size_t detour_len(enum detour d)
{
    return d == SEND || d == ISSEND ? 8 : d == ISEND_MULTI ? MULTI : d == ISEND_LARGE ? LARGE : 0;
}

static void order_sender(int size)
{
    static const size_t slot = LARGE; /* every message its own buffer until MPI_Waitall */
    unsigned char *bufs = p2p_malloc(REQS * slot);
    MPI_Request req[REQS];
    int nreq = 0, idx = 0, flag;
    for (int r = 0; r < RUNS; r++) {
        for (int i = 0; i < run_count(r); i++, idx++) {
            unsigned char *b = bufs + (size_t)nreq * slot;
            p2p_fill(b, run_len(r), (unsigned)idx);
            OK(MPI_Isend(b, (int)run_len(r), MPI_BYTE, 1, idx, MPI_COMM_WORLD, &req[nreq++]));
        }
        enum detour d = (enum detour)(r % NDETOURS);
        unsigned char *b = bufs + (size_t)nreq * slot;
        size_t len = detour_len(d);
        if (len > 0)
            p2p_fill(b, len, (unsigned)idx);
        if (d == SEND)
            OK(MPI_Send(b, (int)len, MPI_BYTE, 1, idx, MPI_COMM_WORLD));
        else if (d == ISEND_MULTI || d == ISEND_LARGE)
            OK(MPI_Isend(b, (int)len, MPI_BYTE, 1, idx, MPI_COMM_WORLD, &req[nreq++]));
        else if (d == ISSEND)
            OK(MPI_Issend(b, (int)len, MPI_BYTE, 1, idx, MPI_COMM_WORLD, &req[nreq++]));
        else if (d == OTHER_RANK && size > 2) {
            memcpy(b, &r, sizeof r);
            OK(MPI_Isend(b, 1, MPI_INT, 2, TAG_DETOUR, MPI_COMM_WORLD, &req[nreq++]));
        }
        else if (d == IPROBE)
            OK(MPI_Iprobe(MPI_ANY_SOURCE, MPI_ANY_TAG, MPI_COMM_WORLD, &flag, MPI_STATUS_IGNORE));
        idx += len > 0;
        if (r % 3 == 2 || r == RUNS - 1) {
            OK(MPI_Waitall(nreq, req, MPI_STATUSES_IGNORE));
            nreq = 0;
        }
    }
    free(bufs);
}

static void order_receiver(void)
{
    unsigned char *buf = p2p_malloc(LARGE);
    int idx = 0;
    for (int r = 0; r < RUNS; r++) {
        size_t len = detour_len((enum detour)(r % NDETOURS));
        for (int i = 0; i <= run_count(r); i++) {
            size_t want = i < run_count(r) ? run_len(r) : len;
            if (want == 0)
                break;
            MPI_Status st;
            OK(MPI_Recv(buf, LARGE, MPI_BYTE, 0, MPI_ANY_TAG, MPI_COMM_WORLD, &st));
            CHECK_STATUS(st, 0, idx, (int)want); /* the tag is the index: in order */
            CHECK_FILL(buf, want, (unsigned)idx);
            idx++;
        }
    }
    free(buf);
}

/* Rank 2 gets the detours to another rank, in order. */
static void order_other(void)
{
    for (int r = 0; r < RUNS; r++) {
        if (r % NDETOURS != OTHER_RANK)
            continue;
        int got = -1;
        OK(MPI_Recv(&got, 1, MPI_INT, 0, TAG_DETOUR, MPI_COMM_WORLD, MPI_STATUS_IGNORE));
        CHECK_INT(got, r);
    }
}

enum how { RECV, WAITALL, IPROBE_LOOP, TESTALL_LOOP, NHOWS };

static unsigned leave_id(int q, int i)
{
    return (unsigned)(100000 + q * 16 + i);
}

static void leave_sender(_Atomic int *flag)
{
    unsigned char bufs[5][8];
    MPI_Request req[5];
    for (int q = 0; q < ROUNDS; q++) {
        int n = q % 2 ? 5 : 1;
        if (q % 3 == 0) {
            struct timespec pause = {0, 20 * 1000 * 1000};
            nanosleep(&pause, NULL); /* the receiver falls asleep in its wait */
        }
        for (int i = 0; i < n; i++) {
            p2p_fill(bufs[i], 8, leave_id(q, i));
            OK(MPI_Isend(bufs[i], 8, MPI_BYTE, 1, i, MPI_COMM_WORLD, &req[i]));
        }
        /* Out of MPI until the receiver has them: they must reach it without us. */
        while (atomic_load_explicit(flag, memory_order_acquire) != q + 1)
            sched_yield();
        OK(MPI_Waitall(n, req, MPI_STATUSES_IGNORE));
    }
}

static void leave_receiver(_Atomic int *flag)
{
    unsigned char bufs[5][8];
    MPI_Request req[5];
    MPI_Status st[5];
    for (int q = 0; q < ROUNDS; q++) {
        int n = q % 2 ? 5 : 1, done = 0;
        switch ((enum how)((q / 2) % NHOWS)) {
        case RECV:
            for (int i = 0; i < n; i++)
                OK(MPI_Recv(bufs[i], 8, MPI_BYTE, 0, i, MPI_COMM_WORLD, &st[i]));
            break;
        case WAITALL:
            for (int i = 0; i < n; i++)
                OK(MPI_Irecv(bufs[i], 8, MPI_BYTE, 0, i, MPI_COMM_WORLD, &req[i]));
            OK(MPI_Waitall(n, req, st));
            break;
        case IPROBE_LOOP:
            for (int i = 0; i < n; i++) {
                for (int found = 0; !found;)
                    OK(MPI_Iprobe(0, i, MPI_COMM_WORLD, &found, MPI_STATUS_IGNORE));
                OK(MPI_Recv(bufs[i], 8, MPI_BYTE, 0, i, MPI_COMM_WORLD, &st[i]));
            }
            break;
        default:
            for (int i = 0; i < n; i++)
                OK(MPI_Irecv(bufs[i], 8, MPI_BYTE, 0, i, MPI_COMM_WORLD, &req[i]));
            while (!done)
                OK(MPI_Testall(n, req, &done, st));
            break;
        }
        for (int i = 0; i < n; i++) {
            CHECK_STATUS(st[i], 0, i, 8);
            CHECK_FILL(bufs[i], 8, leave_id(q, i));
        }
        atomic_store_explicit(flag, q + 1, memory_order_release);
    }
}

struct thread_arg {
    int t;
    _Atomic int *flag; /* the second thread waits on it outside MPI */
};

static void *thread_sender(void *p)
{
    struct thread_arg *a = p;
    unsigned char (*bufs)[8] = p2p_malloc(THREAD_MSGS * 8);
    MPI_Request *req = p2p_malloc(THREAD_MSGS * sizeof *req);
    int from = 0;
    for (int i = 0; i < THREAD_MSGS; i++) {
        p2p_fill(bufs[i], 8, (unsigned)(a->t * THREAD_MSGS + i));
        OK(MPI_Isend(bufs[i], 8, MPI_BYTE, 1, a->t, MPI_COMM_WORLD, &req[i]));
        if (i % 23 == 22 && a->t == 0) { /* the first thread completes as it goes */
            OK(MPI_Waitall(i + 1 - from, req + from, MPI_STATUSES_IGNORE));
            from = i + 1;
        }
    }
    if (a->t == 1) /* the second leaves MPI with its last batch */
        while (atomic_load_explicit(a->flag, memory_order_acquire) == 0)
            sched_yield();
    OK(MPI_Waitall(THREAD_MSGS - from, req + from, MPI_STATUSES_IGNORE));
    free(req);
    free(bufs);
    return NULL;
}

static void threads_sender(_Atomic int *flag)
{
    pthread_t th[2];
    struct thread_arg args[2] = {{0, flag}, {1, flag}};
    for (int t = 0; t < 2; t++)
        CHECK_INT(pthread_create(&th[t], NULL, thread_sender, &args[t]), 0);
    for (int t = 0; t < 2; t++)
        CHECK_INT(pthread_join(th[t], NULL), 0);
}

static void threads_receiver(_Atomic int *flag)
{
    int next[2] = {0, 0};
    unsigned char buf[8];
    for (int k = 0; k < 2 * THREAD_MSGS; k++) {
        MPI_Status st;
        OK(MPI_Recv(buf, 8, MPI_BYTE, 0, MPI_ANY_TAG, MPI_COMM_WORLD, &st));
        CHECK(st.MPI_TAG == 0 || st.MPI_TAG == 1);
        int t = st.MPI_TAG;
        CHECK_STATUS(st, 0, t, 8);
        CHECK_FILL(buf, 8, (unsigned)(t * THREAD_MSGS + next[t])); /* each thread's order */
        next[t]++;
    }
    CHECK_INT(next[0], THREAD_MSGS);
    CHECK_INT(next[1], THREAD_MSGS);
    atomic_store_explicit(flag, 1, memory_order_release);
}

int main(int argc, char **argv)
{
    int provided;
    OK(MPI_Init_thread(&argc, &argv, MPI_THREAD_MULTIPLE, &provided));
    CHECK_INT(provided, MPI_THREAD_MULTIPLE);
    int rank = p2p_rank(), size = p2p_size();
    CHECK(size >= 2);

    if (rank == 0)
        order_sender(size);
    else if (rank == 1)
        order_receiver();
    else if (rank == 2)
        order_other();
    OK(MPI_Barrier(MPI_COMM_WORLD));

    /* Rank 1's flags, in its memory; rank 0 learns their address. */
    _Atomic int *flags = NULL;
    if (rank == 1) {
        flags = p2p_malloc(2 * sizeof *flags);
        atomic_init(&flags[0], 0);
        atomic_init(&flags[1], 0);
        uintptr_t at = (uintptr_t)flags;
        OK(MPI_Send(&at, sizeof at, MPI_BYTE, 0, 0, MPI_COMM_WORLD));
    } else if (rank == 0) {
        uintptr_t at = 0;
        OK(MPI_Recv(&at, sizeof at, MPI_BYTE, 1, 0, MPI_COMM_WORLD, MPI_STATUS_IGNORE));
        flags = (_Atomic int *)at;
    }
    if (rank == 0)
        leave_sender(&flags[0]);
    else if (rank == 1)
        leave_receiver(&flags[0]);
    OK(MPI_Barrier(MPI_COMM_WORLD));

    if (rank == 0)
        threads_sender(&flags[1]);
    else if (rank == 1)
        threads_receiver(&flags[1]);
    OK(MPI_Barrier(MPI_COMM_WORLD));
    if (rank == 1)
        free(flags);
    if (rank == 0)
        printf("p2p_batch: %d ranks: ok\n", size);
    OK(MPI_Finalize());
    return 0;
}
