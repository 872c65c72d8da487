/* merge.c — MPI_Intercomm_merge: the group whose members pass high = false comes first; when
 * both pass the same value the two groups still come whole, in their local order, and every
 * member agrees on the order. The merged communicator is a working intracommunicator. */
#include <stdlib.h>
#include "inter_util.h"

/* The merged communicator's world ranks in its rank order, as every member sees them. */
static int *order(MPI_Comm m, int n)
{
    int me = world_rank();
    int *w = malloc(sizeof *w * (size_t)n);
    CHECK(w);
    OK(MPI_Allgather(&me, 1, MPI_INT, w, 1, MPI_INT, m));
    return w;
}

static void check_merge(struct halves *h, int low_high, int high_high)
{
    MPI_Comm m;
    OK(MPI_Intercomm_merge(h->inter, h->high ? high_high : low_high, &m));
    int flag = 1, size, rank;
    OK(MPI_Comm_test_inter(m, &flag));
    CHECK_INT(flag, 0);
    OK(MPI_Comm_size(m, &size));
    CHECK_INT(size, h->n);
    OK(MPI_Comm_rank(m, &rank));
    int *w = order(m, h->n);
    /* which half comes first: the one that passed 0; else whichever came, but whole */
    int high_first = low_high != high_high ? low_high : w[0] >= h->low_size;
    int first_size = high_first ? h->n - h->low_size : h->low_size;
    for (int i = 0; i < h->n; i++) {
        int in_first = i < first_size;
        int from_high = in_first ? high_first : !high_first;
        int r = in_first ? i : i - first_size;
        CHECK_INT(w[i], half_world(h, from_high, r));
    }
    CHECK_INT(w[rank], world_rank());
    /* everybody saw the same order: the sum of rank * world rank is the same everywhere */
    long long mine = 0, all[2];
    for (int i = 0; i < h->n; i++)
        mine += (long long)i * w[i];
    long long pair[2] = {mine, -mine};
    OK(MPI_Allreduce(pair, all, 2, MPI_LONG_LONG, MPI_MAX, m));
    CHECK(all[0] == mine && -all[1] == mine);
    free(w);
    MPI_Errhandler eh;
    OK(MPI_Comm_get_errhandler(m, &eh));
    CHECK(eh == MPI_ERRORS_RETURN); /* inherited from the intercommunicator */
    OK(MPI_Errhandler_free(&eh));
    OK(MPI_Comm_free(&m));
}

int main(int argc, char **argv)
{
    OK(MPI_Init(&argc, &argv));
    OK(MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_RETURN));
    if (world_size() >= 2) {
        struct halves h;
        halves_make(&h, 7);
        check_merge(&h, 0, 1);
        check_merge(&h, 1, 0);
        check_merge(&h, 0, 0);
        check_merge(&h, 1, 1);
        check_merge(&h, 0, 7); /* any nonzero value is true */
        halves_free(&h);
    } else {
        MPI_Comm m = MPI_COMM_WORLD;
        CHECK_INT(MPI_Intercomm_merge(MPI_COMM_WORLD, 0, &m), MPI_ERR_COMM);
    }
    OK(MPI_Finalize());
    return 0;
}
