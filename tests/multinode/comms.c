/* Communicators across node processes: dup, idup, split (by parity, by node process with
 * reversed keys, a split of a split), create (one group, then disjoint groups),
 * MPI_COMM_TYPE_SHARED, and an intercommunicator (a message across, a split, a merge).
 * On each: sizes and ranks as MPI defines them, a message to every
 * other member straight after the constructor returns (small and large, so that some arrive
 * before the receiver's node process has made its half), wildcard receives, an allreduce
 * and a barrier. Many rounds of dup and free, so that context ids never clash. */
#define _DEFAULT_SOURCE /* usleep */
#include <mpi.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#define BIG (200 * 1000) /* over the eager size: a rendezvous */

static int failures;

static void check(int ok, const char *what, int rank)
{
    if (!ok) {
        fprintf(stderr, "comms: rank %d: %s\n", rank, what);
        failures++;
    }
}

/* Every member sends its world rank to every other member, small then big; every member
 * receives from anybody and checks that each other member was heard once. Then an allreduce
 * of the world ranks against the sum computed from the group, and a barrier. */
static void exercise(MPI_Comm c, const char *name)
{
    int wrank, rank, size;
    MPI_Comm_rank(MPI_COMM_WORLD, &wrank);
    MPI_Comm_rank(c, &rank);
    MPI_Comm_size(c, &size);
    int *big = malloc(BIG * sizeof *big), *rbig = malloc(BIG * sizeof *rbig);
    int *heard = calloc((size_t)size, sizeof *heard);
    MPI_Request *reqs = malloc(2 * (size_t)size * sizeof *reqs);
    for (int i = 0; i < BIG; i++)
        big[i] = wrank * 7 + i;
    int n = 0;
    for (int d = 0; d < size; d++)
        if (d != rank) {
            MPI_Isend(&wrank, 1, MPI_INT, d, 1, c, &reqs[n++]);
            MPI_Isend(big, BIG, MPI_INT, d, 2, c, &reqs[n++]);
        }
    /* the world rank of each member, from the group */
    MPI_Group g, wg;
    MPI_Comm_group(c, &g);
    MPI_Comm_group(MPI_COMM_WORLD, &wg);
    int *idx = malloc((size_t)size * sizeof *idx), *world = malloc((size_t)size * sizeof *world);
    for (int i = 0; i < size; i++)
        idx[i] = i;
    MPI_Group_translate_ranks(g, size, idx, wg, world);
    for (int k = 0; k < size - 1; k++) {
        int v;
        MPI_Status st;
        MPI_Recv(&v, 1, MPI_INT, MPI_ANY_SOURCE, 1, c, &st);
        check(st.MPI_SOURCE >= 0 && st.MPI_SOURCE < size && world[st.MPI_SOURCE] == v,
              "a small message's source is not its sender", wrank);
        if (st.MPI_SOURCE >= 0 && st.MPI_SOURCE < size)
            heard[st.MPI_SOURCE]++;
        MPI_Recv(rbig, BIG, MPI_INT, st.MPI_SOURCE, 2, c, MPI_STATUS_IGNORE);
        check(rbig[0] == v * 7 && rbig[BIG - 1] == v * 7 + BIG - 1, "a big message is wrong",
              wrank);
    }
    for (int i = 0; i < size; i++)
        check(heard[i] == (i != rank), "a member was not heard from exactly once", wrank);
    MPI_Waitall(n, reqs, MPI_STATUSES_IGNORE);
    int sum = 0, expect = 0;
    for (int i = 0; i < size; i++)
        expect += world[i];
    MPI_Allreduce(&wrank, &sum, 1, MPI_INT, MPI_SUM, c);
    check(sum == expect, "allreduce over the communicator is wrong", wrank);
    MPI_Barrier(c);
    if (failures)
        fprintf(stderr, "comms: rank %d: failed on %s\n", wrank, name);
    MPI_Group_free(&g);
    MPI_Group_free(&wg);
    free(idx), free(world), free(big), free(rbig), free(heard), free(reqs);
}

int main(int argc, char **argv)
{
    MPI_Init(&argc, &argv);
    int wrank, wsize;
    MPI_Comm_rank(MPI_COMM_WORLD, &wrank);
    MPI_Comm_size(MPI_COMM_WORLD, &wsize);

    for (int round = 0; round < 20; round++) {
        MPI_Comm d;
        /* the last rank comes late: it is the first to have the new communicator, and its
         * messages on it come right behind its part of the constructor, before the others
         * have theirs (the receiving node process keeps them until it has) */
        if (round % 5 == 0 && wrank == wsize - 1)
            usleep(20 * 1000);
        MPI_Comm_dup(MPI_COMM_WORLD, &d);
        int r, s, cmp;
        MPI_Comm_rank(d, &r);
        MPI_Comm_size(d, &s);
        MPI_Comm_compare(d, MPI_COMM_WORLD, &cmp);
        check(r == wrank && s == wsize && cmp == MPI_CONGRUENT, "dup's ranks", wrank);
        if (round % 5 == 0)
            exercise(d, "dup");
        MPI_Comm_free(&d);
    }

    /* idup, with a message and a collective on the parent while it is in flight */
    for (int round = 0; round < 3; round++) {
        MPI_Comm id;
        MPI_Request rq;
        if (round == 1 && wrank == wsize - 1)
            usleep(20 * 1000);
        MPI_Comm_idup(MPI_COMM_WORLD, &id, &rq);
        int token = wrank, got = -1;
        MPI_Sendrecv(&token, 1, MPI_INT, (wrank + 1) % wsize, 5, &got, 1, MPI_INT,
                     (wrank + wsize - 1) % wsize, 5, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
        check(got == (wrank + wsize - 1) % wsize, "a message beside an idup", wrank);
        MPI_Barrier(MPI_COMM_WORLD);
        MPI_Wait(&rq, MPI_STATUS_IGNORE);
        int r, s, cmp;
        MPI_Comm_rank(id, &r);
        MPI_Comm_size(id, &s);
        MPI_Comm_compare(id, MPI_COMM_WORLD, &cmp);
        check(r == wrank && s == wsize && cmp == MPI_CONGRUENT, "idup's ranks", wrank);
        exercise(id, "idup");
        MPI_Comm_free(&id);
    }

    MPI_Comm parity, rev, sub;
    MPI_Comm_split(MPI_COMM_WORLD, wrank % 2, wrank, &parity);
    int r, s;
    MPI_Comm_rank(parity, &r);
    MPI_Comm_size(parity, &s);
    check(r == wrank / 2 && s == (wsize + 1 - wrank % 2) / 2, "split by parity", wrank);
    exercise(parity, "parity");
    /* a split of a split: the upper half of each parity, ranked backwards */
    MPI_Comm_split(parity, r >= s / 2 ? 1 : MPI_UNDEFINED, -r, &sub);
    if (r >= s / 2) {
        int sr, ss;
        MPI_Comm_rank(sub, &sr);
        MPI_Comm_size(sub, &ss);
        check(ss == s - s / 2 && sr == s - 1 - r, "split of a split", wrank);
        exercise(sub, "split of a split");
        MPI_Comm_free(&sub);
    } else {
        check(sub == MPI_COMM_NULL, "MPI_UNDEFINED gave a communicator", wrank);
    }

    /* the shared-memory domain is the node process */
    MPI_Comm shm;
    MPI_Comm_split_type(MPI_COMM_WORLD, MPI_COMM_TYPE_SHARED, 0, MPI_INFO_NULL, &shm);
    int sr, ss;
    MPI_Comm_rank(shm, &sr);
    MPI_Comm_size(shm, &ss);
    int first = wrank - sr, nodes = 0, mine = 0;
    int *firsts = malloc((size_t)wsize * sizeof *firsts);
    MPI_Allgather(&first, 1, MPI_INT, firsts, 1, MPI_INT, MPI_COMM_WORLD);
    for (int i = 0; i < wsize; i++) {
        nodes += i == firsts[i];
        mine += firsts[i] == first;
    }
    check(mine == ss && nodes > 1, "MPI_COMM_TYPE_SHARED is not one node process", wrank);
    exercise(shm, "shared");

    /* by node process, highest world rank first: ranks across node processes in a new order */
    MPI_Comm_split(MPI_COMM_WORLD, 0, wsize - wrank, &rev);
    MPI_Comm_rank(rev, &r);
    check(r == wsize - 1 - wrank, "split with reversed keys", wrank);
    exercise(rev, "reversed");

    /* create: the even world ranks; then disjoint groups, the evens and the odds */
    MPI_Group wg, even, odd;
    MPI_Comm_group(MPI_COMM_WORLD, &wg);
    int range[1][3] = {{0, wsize - 1, 2}}, orange[1][3] = {{1, wsize - 1, 2}};
    MPI_Group_range_incl(wg, 1, range, &even);
    MPI_Group_range_incl(wg, 1, orange, &odd);
    MPI_Comm ce, cd;
    MPI_Comm_create(rev, even, &ce);
    check((wrank % 2 == 0) == (ce != MPI_COMM_NULL), "create's members", wrank);
    if (ce != MPI_COMM_NULL) {
        MPI_Comm_rank(ce, &r);
        check(r == wrank / 2, "create's ranks follow the group", wrank);
        exercise(ce, "create");
        MPI_Comm_free(&ce);
    }
    MPI_Comm_create(MPI_COMM_WORLD, wrank % 2 ? odd : even, &cd);
    MPI_Comm_rank(cd, &r);
    check(r == wrank / 2, "create with disjoint groups", wrank);
    exercise(cd, "disjoint create");

    /* an intercommunicator between the parities (leaders: world ranks 0 and 1), a message
     * across it, a split of it by halves of each side, and its merge */
    if (wsize > 1) {
        MPI_Comm inter, isplit, merged;
        MPI_Intercomm_create(parity, 0, MPI_COMM_WORLD, 1 - wrank % 2, 7, &inter);
        int rsize, lrank;
        MPI_Comm_remote_size(inter, &rsize);
        MPI_Comm_rank(inter, &lrank);
        check(rsize == (wsize + wrank % 2) / 2, "the intercommunicator's remote size", wrank);
        /* rank i of each side sends its world rank to rank i of the other, if there is one */
        int peer_w = -1, me_w = wrank;
        MPI_Request rq[2];
        int nrq = 0;
        if (lrank < rsize) {
            MPI_Irecv(&peer_w, 1, MPI_INT, lrank, 8, inter, &rq[nrq++]);
            MPI_Isend(&me_w, 1, MPI_INT, lrank, 8, inter, &rq[nrq++]);
        }
        MPI_Waitall(nrq, rq, MPI_STATUSES_IGNORE);
        check(lrank >= rsize || peer_w == 2 * lrank + 1 - wrank % 2,
              "a message across the intercommunicator", wrank);
        MPI_Comm_split(inter, lrank % 2, lrank, &isplit);
        if (isplit != MPI_COMM_NULL) {
            int a, b;
            MPI_Comm_size(isplit, &a);
            MPI_Comm_remote_size(isplit, &b);
            check(a > 0 && b > 0, "a split of the intercommunicator is empty on a side", wrank);
            MPI_Comm_free(&isplit);
        }
        MPI_Intercomm_merge(inter, wrank % 2, &merged);
        int mr;
        MPI_Comm_rank(merged, &mr);
        check(mr == (wrank % 2 ? (wsize + 1) / 2 + wrank / 2 : wrank / 2),
              "the merge's order (low group first)", wrank);
        exercise(merged, "merged");
        MPI_Comm_free(&merged);
        MPI_Comm_free(&inter);
    }

    MPI_Comm_free(&cd);
    MPI_Group_free(&even);
    MPI_Group_free(&odd);
    MPI_Group_free(&wg);
    MPI_Comm_free(&rev);
    MPI_Comm_free(&shm);
    MPI_Comm_free(&parity);
    free(firsts);
    int all = 0;
    MPI_Allreduce(&failures, &all, 1, MPI_INT, MPI_SUM, MPI_COMM_WORLD);
    if (wrank == 0 && all == 0)
        printf("comms: %d ranks ok\n", wsize);
    MPI_Finalize();
    return all != 0;
}
