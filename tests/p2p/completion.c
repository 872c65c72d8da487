/* Waitall, Waitany, Waitsome, Testall, Testany, Testsome: arrays mixing MPI_REQUEST_NULL and
 * live requests; arrays of only null handles (Waitany/Testany: index MPI_UNDEFINED,
 * Waitsome/Testsome: outcount MPI_UNDEFINED, Testall: flag true) and of none; tests that find
 * nothing complete (Testany: flag false and index MPI_UNDEFINED; Testsome: outcount 0;
 * Testall: flag false, handles kept). "Not complete yet" is made certain with barriers: the
 * peer sends a tag only after the barrier that follows the test. */
#include "p2p_check.h"

#define N 6

static void check_empty(MPI_Status *st)
{
    int count = -1;
    CHECK_INT(st->MPI_SOURCE, MPI_ANY_SOURCE);
    CHECK_INT(st->MPI_TAG, MPI_ANY_TAG);
    OK(MPI_Get_count(st, MPI_BYTE, &count));
    CHECK_INT(count, 0);
}

/* Post receives into in[] for tags 0..N-1 with null handles at odd slots' neighbours:
 * slots 1 and 4 are MPI_REQUEST_NULL. */
static void post(MPI_Request *r, int *in, int peer)
{
    for (int i = 0; i < N; i++) {
        in[i] = -1;
        if (i == 1 || i == 4)
            r[i] = MPI_REQUEST_NULL;
        else
            OK(MPI_Irecv(&in[i], 1, MPI_INT, peer, i, MPI_COMM_WORLD, &r[i]));
    }
}

static void send_tags(int rank, int peer, int from, int to)
{
    for (int i = from; i < to; i++) {
        if (i == 1 || i == 4)
            continue;
        int v = rank * 100 + i;
        OK(MPI_Send(&v, 1, MPI_INT, peer, i, MPI_COMM_WORLD));
    }
}

int main(int argc, char **argv)
{
    OK(MPI_Init(&argc, &argv));
    int rank = p2p_rank(), size = p2p_size(), peer = p2p_partner(rank, size);
    MPI_Request r[N];
    MPI_Status st[N];
    int in[N], idx[N], flag, index, outcount;

    /* empty and all-null arrays */
    MPI_Request nulls[3] = {MPI_REQUEST_NULL, MPI_REQUEST_NULL, MPI_REQUEST_NULL};
    memset(st, 0x55, sizeof st);
    OK(MPI_Waitall(3, nulls, st));
    for (int i = 0; i < 3; i++)
        check_empty(&st[i]);
    OK(MPI_Waitall(0, NULL, MPI_STATUSES_IGNORE));
    flag = 0;
    OK(MPI_Testall(3, nulls, &flag, st));
    CHECK_INT(flag, 1);
    index = 5;
    memset(st, 0x55, sizeof st);
    OK(MPI_Waitany(3, nulls, &index, &st[0]));
    CHECK_INT(index, MPI_UNDEFINED);
    check_empty(&st[0]);
    index = 5;
    flag = 0;
    OK(MPI_Testany(3, nulls, &index, &flag, &st[0]));
    CHECK_INT(flag, 1);
    CHECK_INT(index, MPI_UNDEFINED);
    index = 5;
    OK(MPI_Waitany(0, NULL, &index, MPI_STATUS_IGNORE));
    CHECK_INT(index, MPI_UNDEFINED);
    outcount = 5;
    OK(MPI_Waitsome(3, nulls, &outcount, idx, st));
    CHECK_INT(outcount, MPI_UNDEFINED);
    outcount = 5;
    OK(MPI_Testsome(3, nulls, &outcount, idx, st));
    CHECK_INT(outcount, MPI_UNDEFINED);
    outcount = 5;
    OK(MPI_Testsome(0, NULL, &outcount, NULL, MPI_STATUSES_IGNORE));
    CHECK_INT(outcount, MPI_UNDEFINED);

    /* nothing complete yet: the peer sends only after the next barrier */
    post(r, in, peer);
    flag = 1;
    OK(MPI_Testall(N, r, &flag, st));
    CHECK_INT(flag, 0);
    for (int i = 0; i < N; i++)
        CHECK((r[i] == MPI_REQUEST_NULL) == (i == 1 || i == 4));
    flag = 1;
    index = 5;
    OK(MPI_Testany(N, r, &index, &flag, &st[0]));
    CHECK_INT(flag, 0);
    CHECK_INT(index, MPI_UNDEFINED);
    outcount = 5;
    OK(MPI_Testsome(N, r, &outcount, idx, st));
    CHECK_INT(outcount, 0);
    OK(MPI_Barrier(MPI_COMM_WORLD));

    /* Waitall over the mix: statuses for null slots are empty */
    send_tags(rank, peer, 0, N);
    memset(st, 0x55, sizeof st);
    OK(MPI_Waitall(N, r, st));
    for (int i = 0; i < N; i++) {
        CHECK(r[i] == MPI_REQUEST_NULL);
        if (i == 1 || i == 4) {
            check_empty(&st[i]);
        } else {
            CHECK_STATUS(st[i], peer, i, sizeof(int));
            CHECK_INT(in[i], peer * 100 + i);
        }
    }
    OK(MPI_Barrier(MPI_COMM_WORLD));

    /* Waitany until MPI_UNDEFINED: each live request once */
    post(r, in, peer);
    send_tags(rank, peer, 0, N);
    int seen[N] = {0}, done = 0;
    for (;;) {
        OK(MPI_Waitany(N, r, &index, &st[0]));
        if (index == MPI_UNDEFINED)
            break;
        CHECK(index >= 0 && index < N && index != 1 && index != 4);
        CHECK_INT(seen[index], 0);
        seen[index] = 1;
        done++;
        CHECK(r[index] == MPI_REQUEST_NULL);
        CHECK_STATUS(st[0], peer, index, sizeof(int));
        CHECK_INT(in[index], peer * 100 + index);
    }
    CHECK_INT(done, N - 2);
    OK(MPI_Barrier(MPI_COMM_WORLD));

    /* Waitsome until MPI_UNDEFINED; messages sent in two halves around a barrier so that
     * Waitsome returns at least twice */
    post(r, in, peer);
    send_tags(rank, peer, 0, 3);
    memset(seen, 0, sizeof seen);
    done = 0;
    int calls = 0, second = 0;
    for (;;) {
        OK(MPI_Waitsome(N, r, &outcount, idx, st));
        if (outcount == MPI_UNDEFINED)
            break;
        CHECK(outcount >= 1 && outcount <= N - 2);
        for (int k = 0; k < outcount; k++) {
            int i = idx[k];
            CHECK(i >= 0 && i < N && i != 1 && i != 4);
            CHECK_INT(seen[i], 0);
            seen[i] = 1;
            CHECK(r[i] == MPI_REQUEST_NULL);
            CHECK_STATUS(st[k], peer, i, sizeof(int));
            CHECK_INT(in[i], peer * 100 + i);
        }
        done += outcount;
        calls++;
        if (done == 2 && !second) {
            /* the first half (tags 0, 2) came, in one call or two: now the rest */
            second = 1;
            OK(MPI_Barrier(MPI_COMM_WORLD));
            send_tags(rank, peer, 3, N);
        }
    }
    CHECK_INT(done, N - 2);
    CHECK(calls >= 2);

    /* Testany / Testsome / Testall polled to the end */
    OK(MPI_Barrier(MPI_COMM_WORLD));
    post(r, in, peer);
    send_tags(rank, peer, 0, N);
    memset(seen, 0, sizeof seen);
    done = 0;
    while (done < N - 2) {
        OK(MPI_Testany(N, r, &index, &flag, &st[0]));
        if (!flag) {
            CHECK_INT(index, MPI_UNDEFINED);
            continue;
        }
        CHECK(index >= 0 && index < N);
        CHECK_INT(seen[index], 0);
        seen[index] = 1;
        done++;
        CHECK_STATUS(st[0], peer, index, sizeof(int));
    }
    OK(MPI_Testany(N, r, &index, &flag, &st[0]));
    CHECK_INT(flag, 1);
    CHECK_INT(index, MPI_UNDEFINED);
    OK(MPI_Barrier(MPI_COMM_WORLD));

    post(r, in, peer);
    send_tags(rank, peer, 0, N);
    done = 0;
    while (done < N - 2) {
        OK(MPI_Testsome(N, r, &outcount, idx, MPI_STATUSES_IGNORE));
        CHECK(outcount != MPI_UNDEFINED);
        for (int k = 0; k < outcount; k++)
            CHECK_INT(in[idx[k]], peer * 100 + idx[k]);
        done += outcount;
    }
    OK(MPI_Barrier(MPI_COMM_WORLD));

    post(r, in, peer);
    send_tags(rank, peer, 0, N);
    do
        OK(MPI_Testall(N, r, &flag, st));
    while (!flag);
    for (int i = 0; i < N; i++) {
        CHECK(r[i] == MPI_REQUEST_NULL);
        if (i != 1 && i != 4)
            CHECK_INT(in[i], peer * 100 + i);
    }

    /* send requests in the arrays too (Waitall over sends and receives) */
    int out[N];
    for (int i = 0; i < N; i++) {
        out[i] = rank + i;
        OK(MPI_Irecv(&in[i], 1, MPI_INT, peer, 20 + i, MPI_COMM_WORLD, &r[i]));
    }
    MPI_Request both[2 * N];
    for (int i = 0; i < N; i++) {
        both[2 * i] = r[i];
        OK(MPI_Isend(&out[i], 1, MPI_INT, peer, 20 + i, MPI_COMM_WORLD, &both[2 * i + 1]));
    }
    OK(MPI_Waitall(2 * N, both, MPI_STATUSES_IGNORE));
    for (int i = 0; i < N; i++)
        CHECK_INT(in[i], peer + i);
    OK(MPI_Finalize());
    return 0;
}
