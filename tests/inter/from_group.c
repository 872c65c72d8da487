/* from_group.c — MPI_Comm_create_from_group and MPI_Intercomm_create_from_groups: the new
 * communicator has the group's order, the given error handler and info; creations with
 * different string tags may be called in different orders by different ranks (they do not
 * mix), and creations that follow each other with the same tag give distinct communicators. */
#include <stdlib.h>
#include "inter_util.h"

/* c's ranks are the world ranks want[0..n) in order, as every member sees them. */
static void check_order(MPI_Comm c, const int *want, int n)
{
    int size, me = world_rank();
    OK(MPI_Comm_size(c, &size));
    CHECK_INT(size, n);
    int *got = malloc(sizeof *got * (size_t)n);
    CHECK(got);
    OK(MPI_Allgather(&me, 1, MPI_INT, got, 1, MPI_INT, c));
    for (int i = 0; i < n; i++)
        CHECK_INT(got[i], want[i]);
    free(got);
}

/* A message on `a` is not received on `b`: rank 0 sends on b then on a; rank size-1 receives
 * on a first. */
static void apart(MPI_Comm a, MPI_Comm b)
{
    int rank, size, x = 1, y = 2, got = 0;
    OK(MPI_Comm_rank(a, &rank));
    OK(MPI_Comm_size(a, &size));
    if (rank == 0) {
        OK(MPI_Send(&y, 1, MPI_INT, size - 1, 0, b));
        OK(MPI_Send(&x, 1, MPI_INT, size - 1, 0, a));
    }
    if (rank == size - 1) {
        OK(MPI_Recv(&got, 1, MPI_INT, 0, 0, a, MPI_STATUS_IGNORE));
        CHECK_INT(got, 1);
        OK(MPI_Recv(&got, 1, MPI_INT, 0, 0, b, MPI_STATUS_IGNORE));
        CHECK_INT(got, 2);
    }
}

static void intra(void)
{
    int me = world_rank(), n = world_size();
    MPI_Group wg, rev;
    OK(MPI_Comm_group(MPI_COMM_WORLD, &wg));
    int *ranks = malloc(sizeof *ranks * (size_t)n), *id = malloc(sizeof *id * (size_t)n);
    CHECK(ranks && id);
    for (int i = 0; i < n; i++) {
        ranks[i] = n - 1 - i;
        id[i] = i;
    }
    OK(MPI_Group_incl(wg, n, ranks, &rev));
    MPI_Info info;
    OK(MPI_Info_create(&info));
    OK(MPI_Info_set(info, "loom_test_key", "from_group"));

    /* two tags, called in opposite orders by even and odd ranks */
    MPI_Comm one, two;
    if (me % 2 == 0) {
        OK(MPI_Comm_create_from_group(wg, "loom.test.one", info, MPI_ERRORS_RETURN, &one));
        OK(MPI_Comm_create_from_group(rev, "loom.test.two", MPI_INFO_NULL, MPI_ERRORS_ARE_FATAL,
                                      &two));
    } else {
        OK(MPI_Comm_create_from_group(rev, "loom.test.two", MPI_INFO_NULL, MPI_ERRORS_ARE_FATAL,
                                      &two));
        OK(MPI_Comm_create_from_group(wg, "loom.test.one", info, MPI_ERRORS_RETURN, &one));
    }
    OK(MPI_Info_free(&info));
    check_order(one, id, n);
    check_order(two, ranks, n);
    int rank;
    OK(MPI_Comm_rank(two, &rank));
    CHECK_INT(rank, n - 1 - me);
    MPI_Errhandler eh;
    OK(MPI_Comm_get_errhandler(one, &eh));
    CHECK(eh == MPI_ERRORS_RETURN);
    OK(MPI_Errhandler_free(&eh));
    OK(MPI_Comm_get_errhandler(two, &eh));
    CHECK(eh == MPI_ERRORS_ARE_FATAL);
    OK(MPI_Errhandler_free(&eh));
    MPI_Info used;
    char val[32];
    int flag;
    OK(MPI_Comm_get_info(one, &used));
    OK(MPI_Info_get(used, "loom_test_key", (int)sizeof val - 1, val, &flag));
    CHECK_INT(flag, 1);
    CHECK_STR(val, "from_group");
    OK(MPI_Info_free(&used));
    int cmp;
    OK(MPI_Comm_compare(one, MPI_COMM_WORLD, &cmp));
    CHECK_INT(cmp, MPI_CONGRUENT);

    /* the same tag twice in a row: two communicators */
    MPI_Comm s1, s2;
    OK(MPI_Comm_create_from_group(wg, "loom.test.seq", MPI_INFO_NULL, MPI_ERRORS_RETURN, &s1));
    OK(MPI_Comm_create_from_group(wg, "loom.test.seq", MPI_INFO_NULL, MPI_ERRORS_RETURN, &s2));
    CHECK(s1 != s2);
    OK(MPI_Comm_compare(s1, s2, &cmp));
    CHECK_INT(cmp, MPI_CONGRUENT);
    apart(s1, s2);
    apart(one, s1);

    /* the empty group: a local call */
    MPI_Comm e = MPI_COMM_WORLD;
    OK(MPI_Comm_create_from_group(MPI_GROUP_EMPTY, "loom.test.empty", MPI_INFO_NULL,
                                  MPI_ERRORS_RETURN, &e));
    CHECK(e == MPI_COMM_NULL);

    OK(MPI_Comm_free(&s1));
    OK(MPI_Comm_free(&s2));
    OK(MPI_Comm_free(&one));
    OK(MPI_Comm_free(&two));
    OK(MPI_Group_free(&rev));
    OK(MPI_Group_free(&wg));
    free(ranks);
    free(id);
}

/* The halves of world as groups; leaders: the last rank of each half. */
static void inter(void)
{
    int me = world_rank(), n = world_size(), low = n / 2, high = me >= low;
    MPI_Group wg, lg, hg;
    OK(MPI_Comm_group(MPI_COMM_WORLD, &wg));
    int lr[1][3] = {{0, low - 1, 1}}, hr[1][3] = {{low, n - 1, 1}};
    OK(MPI_Group_range_incl(wg, 1, lr, &lg));
    OK(MPI_Group_range_incl(wg, 1, hr, &hg));
    int lsize = high ? n - low : low, rsize = n - lsize;
    MPI_Comm ic;
    OK(MPI_Intercomm_create_from_groups(high ? hg : lg, lsize - 1, high ? lg : hg, rsize - 1,
                                        "loom.test.inter", MPI_INFO_NULL, MPI_ERRORS_RETURN,
                                        &ic));
    int flag, size, rank;
    OK(MPI_Comm_test_inter(ic, &flag));
    CHECK_INT(flag, 1);
    OK(MPI_Comm_size(ic, &size));
    CHECK_INT(size, lsize);
    OK(MPI_Comm_remote_size(ic, &size));
    CHECK_INT(size, rsize);
    OK(MPI_Comm_rank(ic, &rank));
    CHECK_INT(rank, high ? me - low : me);
    /* every rank sends its world rank to remote rank 0, which checks them */
    OK(MPI_Send(&me, 1, MPI_INT, 0, 1, ic));
    if (rank == 0)
        for (int i = 0; i < rsize; i++) {
            int w;
            MPI_Status st;
            OK(MPI_Recv(&w, 1, MPI_INT, MPI_ANY_SOURCE, 1, ic, &st));
            CHECK_INT(w, high ? st.MPI_SOURCE : low + st.MPI_SOURCE);
        }
    MPI_Comm m;
    OK(MPI_Intercomm_merge(ic, high, &m));
    int *id = malloc(sizeof *id * (size_t)n);
    CHECK(id);
    for (int i = 0; i < n; i++)
        id[i] = i;
    check_order(m, id, n);
    free(id);
    OK(MPI_Comm_free(&m));
    OK(MPI_Comm_free(&ic));
    OK(MPI_Group_free(&lg));
    OK(MPI_Group_free(&hg));
    OK(MPI_Group_free(&wg));
}

int main(int argc, char **argv)
{
    OK(MPI_Init(&argc, &argv));
    OK(MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_RETURN));
    intra();
    if (world_size() >= 2)
        inter();
    OK(MPI_Finalize());
    return 0;
}
