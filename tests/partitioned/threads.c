/* MPI_Pready from several threads of a rank at once (MPI_THREAD_MULTIPLE): each round, four
 * pthreads of the sending rank mark an interleaved quarter of 16 partitions ready (Pready one
 * by one on even rounds, one Pready_list on odd ones), while the rank's own thread polls
 * MPI_Parrived on the 8 partitions of its receive and checks each as it lands. Pairs of ranks
 * (rank 2k with 2k+1, an odd rank out with itself), both ways, 10 rounds on the same requests;
 * the totals are checked after the threads are joined. */
#include <pthread.h>
#include "check.h"
#include "mpi.h"

#define OK(call) CHECK_INT((call), MPI_SUCCESS)
enum { SPARTS = 16, RPARTS = 8, PER = 256, N = SPARTS * PER, T = 4, ROUNDS = 10 };

struct job {
    MPI_Request s;
    int t, round, marked;
};

static void *ready_quarter(void *arg)
{
    struct job *j = arg;
    int list[SPARTS], n = 0;
    for (int p = j->t; p < SPARTS; p += T)
        list[n++] = p;
    if (j->round % 2 == 0) {
        for (int k = n - 1; k >= 0; k--)
            OK(MPI_Pready(list[k], j->s));
    } else {
        OK(MPI_Pready_list(n, list, j->s));
    }
    j->marked = n;
    return NULL;
}

int main(int argc, char **argv)
{
    int provided;
    OK(MPI_Init_thread(&argc, &argv, MPI_THREAD_MULTIPLE, &provided));
    CHECK_INT(provided, MPI_THREAD_MULTIPLE);
    int rank, size;
    OK(MPI_Comm_rank(MPI_COMM_WORLD, &rank));
    OK(MPI_Comm_size(MPI_COMM_WORLD, &size));
    int peer = (rank ^ 1) < size ? rank ^ 1 : rank;
    int *sbuf = calloc(N, sizeof *sbuf), *rbuf = calloc(N, sizeof *rbuf); /* per rank */
    CHECK(sbuf && rbuf);
    MPI_Request s, r;
    OK(MPI_Psend_init(sbuf, SPARTS, PER, MPI_INT, peer, 3, MPI_COMM_WORLD, MPI_INFO_NULL, &s));
    OK(MPI_Precv_init(rbuf, RPARTS, N / RPARTS, MPI_INT, peer, 3, MPI_COMM_WORLD,
                      MPI_INFO_NULL, &r));
    long long total = 0;
    for (int round = 0; round < ROUNDS; round++) {
        for (int i = 0; i < N; i++) {
            sbuf[i] = rank * 1000000 + round * 10000 + i;
            rbuf[i] = -1;
        }
        OK(MPI_Start(&r));
        OK(MPI_Start(&s));
        pthread_t th[T];
        struct job jobs[T];
        for (int t = 0; t < T; t++) {
            jobs[t] = (struct job){s, t, round, 0};
            CHECK_INT(pthread_create(&th[t], NULL, ready_quarter, &jobs[t]), 0);
        }
        int seen[RPARTS] = {0}, left = RPARTS;
        while (left > 0) {
            for (int p = 0; p < RPARTS; p++) {
                int flag = 0;
                if (seen[p])
                    continue;
                OK(MPI_Parrived(r, p, &flag));
                if (!flag)
                    continue;
                for (int i = p * (N / RPARTS); i < (p + 1) * (N / RPARTS); i++)
                    CHECK_INT(rbuf[i], peer * 1000000 + round * 10000 + i);
                seen[p] = 1;
                left--;
            }
        }
        for (int t = 0; t < T; t++) {
            CHECK_INT(pthread_join(th[t], NULL), 0);
            total += jobs[t].marked;
        }
        MPI_Request both[2] = {s, r};
        OK(MPI_Waitall(2, both, MPI_STATUSES_IGNORE));
        for (int i = 0; i < N; i++)
            CHECK_INT(rbuf[i], peer * 1000000 + round * 10000 + i);
    }
    CHECK_INT(total, (long long)ROUNDS * SPARTS);
    OK(MPI_Request_free(&s));
    OK(MPI_Request_free(&r));
    free(sbuf);
    free(rbuf);
    OK(MPI_Finalize());
    return 0;
}
