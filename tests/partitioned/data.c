/* Partitioned send and receive between pairs of ranks (rank 2k with 2k+1; an odd rank out
 * with itself), both ways at once: for every pair of partition counts (equal and different,
 * each dividing 24 ints), three rounds of MPI_Start on the same requests, with the data
 * checked partition by partition as MPI_Parrived reports it, then in full after the wait.
 * Rounds alternate who comes first (the receive started before the sender's Pready, so Pready
 * moves the data; or every partition ready before the receive starts, so MPI_Start moves it)
 * and which calls complete (Wait, Waitall, Testall, Waitsome) and mark ready (Pready in
 * reverse order, Pready_range, Pready_list). Then a vector datatype on the receive side, and a
 * pair whose messages match in init order on one tag (completed with Waitany, Testany and
 * Testsome). */
#include <string.h>
#include "check.h"
#include "mpi.h"

#define OK(call) CHECK_INT((call), MPI_SUCCESS)
enum { N = 24, ROUNDS = 3 };

static int value(int from, int round, int i)
{
    return from * 100000 + round * 1000 + i;
}

static void mark_ready(MPI_Request s, int parts, int how)
{
    if (how == 0) {
        for (int p = parts - 1; p >= 0; p--)
            OK(MPI_Pready(p, s));
    } else if (how == 1) {
        OK(MPI_Pready_range(0, parts - 1, s));
    } else { /* pairwise swapped: 1 0 3 2 ... */
        int list[N];
        for (int k = 0; k < parts; k++)
            list[k] = k % 2 == 0 ? (k + 1 < parts ? k + 1 : k) : k - 1;
        OK(MPI_Pready_list(parts, list, s));
    }
}

/* Poll every receive partition until it arrives; check its ints as soon as it has. */
static void poll_arrivals(MPI_Request r, int rparts, const int *rbuf, int from, int round)
{
    int per = N / rparts, seen[N] = {0}, left = rparts;
    while (left > 0) {
        for (int p = 0; p < rparts; p++) {
            if (seen[p])
                continue;
            int flag = 0;
            OK(MPI_Parrived(r, p, &flag));
            if (!flag)
                continue;
            for (int i = p * per; i < (p + 1) * per; i++)
                CHECK_INT(rbuf[i], value(from, round, i));
            seen[p] = 1;
            left--;
        }
    }
}

static void one_pair(int me, int peer, int sparts, int rparts, int tag)
{
    int sbuf[N] = {0}, rbuf[N] = {0};
    MPI_Request s, r;
    OK(MPI_Psend_init(sbuf, sparts, N / sparts, MPI_INT, peer, tag, MPI_COMM_WORLD,
                      MPI_INFO_NULL, &s));
    OK(MPI_Precv_init(rbuf, rparts, N / rparts, MPI_INT, peer, tag, MPI_COMM_WORLD,
                      MPI_INFO_NULL, &r));
    for (int round = 0; round < ROUNDS; round++) {
        for (int i = 0; i < N; i++) {
            sbuf[i] = value(me, round, i);
            rbuf[i] = -1;
        }
        int flag = 1;
        if (round == 0) { /* receive first: Pready moves each partition */
            OK(MPI_Start(&r));
            OK(MPI_Barrier(MPI_COMM_WORLD));
            OK(MPI_Start(&s));
            mark_ready(s, sparts, 0);
        } else if (round == 1) { /* everything ready first: the receive's Start moves it */
            OK(MPI_Start(&s));
            mark_ready(s, sparts, 1);
            OK(MPI_Barrier(MPI_COMM_WORLD));
            OK(MPI_Start(&r));
        } else { /* both started together, then made ready (Pready moves them) */
            MPI_Request both[2] = {r, s};
            OK(MPI_Startall(2, both));
            OK(MPI_Barrier(MPI_COMM_WORLD));
            mark_ready(s, sparts, 2);
        }
        poll_arrivals(r, rparts, rbuf, peer, round);
        MPI_Status st[2];
        MPI_Request both[2] = {s, r};
        if (round == 0) {
            OK(MPI_Wait(&s, MPI_STATUS_IGNORE));
            OK(MPI_Wait(&r, &st[1]));
        } else if (round == 1) {
            OK(MPI_Waitall(2, both, st));
        } else {
            int done = 0;
            while (!done)
                OK(MPI_Testall(2, both, &done, st));
        }
        CHECK(both[0] == s && both[1] == r); /* persistent: the handles stay */
        CHECK_INT(st[1].MPI_SOURCE, peer);
        CHECK_INT(st[1].MPI_TAG, tag);
        int count = -1;
        OK(MPI_Get_count(&st[1], MPI_INT, &count));
        CHECK_INT(count, N);
        for (int i = 0; i < N; i++)
            CHECK_INT(rbuf[i], value(peer, round, i));
        /* inactive again: Parrived says arrived, the request's status is empty */
        OK(MPI_Parrived(r, rparts - 1, &flag));
        CHECK_INT(flag, 1);
        OK(MPI_Request_get_status(r, &flag, MPI_STATUS_IGNORE));
        CHECK_INT(flag, 1);
    }
    OK(MPI_Request_free(&s));
    OK(MPI_Request_free(&r));
    CHECK(s == MPI_REQUEST_NULL && r == MPI_REQUEST_NULL);
}

/* A vector type on the receive side: 12 ints every other int of a 24-int buffer, 4 receive
 * partitions of one 3-int vector each; the send side 6 partitions of 2 contiguous ints. */
static void vector_pair(int me, int peer)
{
    int sbuf[12], rbuf[24];
    MPI_Datatype vec;
    OK(MPI_Type_vector(3, 1, 2, MPI_INT, &vec));
    MPI_Datatype vec6;
    OK(MPI_Type_create_resized(vec, 0, 6 * sizeof(int), &vec6));
    OK(MPI_Type_commit(&vec6));
    MPI_Request s, r;
    OK(MPI_Psend_init(sbuf, 6, 2, MPI_INT, peer, 900, MPI_COMM_WORLD, MPI_INFO_NULL, &s));
    OK(MPI_Precv_init(rbuf, 4, 1, vec6, peer, 900, MPI_COMM_WORLD, MPI_INFO_NULL, &r));
    OK(MPI_Type_free(&vec6)); /* the requests keep it */
    OK(MPI_Type_free(&vec));
    for (int i = 0; i < 12; i++)
        sbuf[i] = value(me, 7, i);
    for (int i = 0; i < 24; i++)
        rbuf[i] = -1;
    OK(MPI_Start(&r));
    OK(MPI_Start(&s));
    OK(MPI_Pready_range(0, 5, s));
    MPI_Request both[2] = {s, r};
    int idx[2], out = 0, got = 0;
    while (got < 2) { /* Waitsome until both are done */
        OK(MPI_Waitsome(2, both, &out, idx, MPI_STATUSES_IGNORE));
        CHECK(out >= 1);
        got += out;
    }
    for (int i = 0; i < 24; i++)
        CHECK_INT(rbuf[i], i % 2 ? -1 : value(peer, 7, i / 2));
    OK(MPI_Request_free(&s));
    OK(MPI_Request_free(&r));
}

/* Two partitioned sends on one tag match the two receives in init order, and a send made
 * before its receive (or after) matches alike: the second pair is set up after a barrier. */
static void order_pair(int me, int peer)
{
    int a[4], b[4], ra[4], rb[4];
    MPI_Request s[2], r[2];
    for (int i = 0; i < 4; i++) {
        a[i] = value(me, 1, i);
        b[i] = value(me, 2, i);
    }
    OK(MPI_Psend_init(a, 2, 2, MPI_INT, peer, 5, MPI_COMM_WORLD, MPI_INFO_NULL, &s[0]));
    OK(MPI_Psend_init(b, 4, 1, MPI_INT, peer, 5, MPI_COMM_WORLD, MPI_INFO_NULL, &s[1]));
    OK(MPI_Barrier(MPI_COMM_WORLD));
    OK(MPI_Precv_init(ra, 1, 4, MPI_INT, peer, 5, MPI_COMM_WORLD, MPI_INFO_NULL, &r[0]));
    OK(MPI_Precv_init(rb, 2, 2, MPI_INT, peer, 5, MPI_COMM_WORLD, MPI_INFO_NULL, &r[1]));
    OK(MPI_Startall(2, r));
    OK(MPI_Startall(2, s));
    OK(MPI_Pready_range(0, 3, s[1]));
    OK(MPI_Pready_range(0, 1, s[0]));
    for (int k = 0; k < 2; k++) { /* Waitany on the sends, Testany/Testsome on the receives */
        int idx = -1;
        OK(MPI_Waitany(2, s, &idx, MPI_STATUS_IGNORE));
        CHECK(idx == 0 || idx == 1);
    }
    int idx = -1, flag = 0, out = 0, idxs[2];
    while (!flag)
        OK(MPI_Testany(2, r, &idx, &flag, MPI_STATUS_IGNORE));
    CHECK(idx == 0 || idx == 1);
    do
        OK(MPI_Testsome(2, r, &out, idxs, MPI_STATUSES_IGNORE));
    while (out == 0);
    CHECK_INT(out, 1);
    CHECK_INT(idxs[0], 1 - idx);
    OK(MPI_Testsome(2, r, &out, idxs, MPI_STATUSES_IGNORE)); /* both inactive now */
    CHECK_INT(out, MPI_UNDEFINED);
    for (int i = 0; i < 4; i++) {
        CHECK_INT(ra[i], value(peer, 1, i));
        CHECK_INT(rb[i], value(peer, 2, i));
    }
    for (int k = 0; k < 2; k++) {
        OK(MPI_Request_free(&s[k]));
        OK(MPI_Request_free(&r[k]));
    }
}

int main(int argc, char **argv)
{
    OK(MPI_Init(&argc, &argv));
    int rank, size;
    OK(MPI_Comm_rank(MPI_COMM_WORLD, &rank));
    OK(MPI_Comm_size(MPI_COMM_WORLD, &size));
    int peer = (rank ^ 1) < size ? rank ^ 1 : rank;
    static const int counts[] = {1, 3, 4, 8, 24};
    int tag = 0;
    for (int a = 0; a < 5; a++)
        for (int b = 0; b < 5; b++)
            one_pair(rank, peer, counts[a], counts[b], tag++);
    vector_pair(rank, peer);
    order_pair(rank, peer);
    OK(MPI_Finalize());
    return 0;
}
