/* idup.c — MPI_Comm_idup and MPI_Comm_idup_with_info, of intra- and intercommunicators,
 * with other operations outstanding on the parent around them (nonblocking collectives and
 * messages, completed in another order than started): once its request completes, the new
 * communicator is congruent with its parent, carries the copied attributes and the info,
 * and works for messages and collectives apart from the parent. */
#include <stdlib.h>
#include "inter_util.h"

static int copy_fn(MPI_Comm c, int kv, void *extra, void *in, void *out, int *flag)
{
    (void)c, (void)kv, (void)extra;
    *(void **)out = (void *)((size_t)in + 1); /* the copy says it is one */
    *flag = 1;
    return MPI_SUCCESS;
}

/* d (complete) is a working copy of parent: congruent, attribute copied, its own context. */
static void check_copy(MPI_Comm parent, MPI_Comm d, int kv, int inter)
{
    int cmp, flag, size, psize, rank, prank;
    OK(MPI_Comm_compare(parent, d, &cmp));
    CHECK_INT(cmp, MPI_CONGRUENT);
    OK(MPI_Comm_test_inter(d, &flag));
    CHECK_INT(flag, inter);
    OK(MPI_Comm_size(d, &size));
    OK(MPI_Comm_size(parent, &psize));
    CHECK_INT(size, psize);
    OK(MPI_Comm_rank(d, &rank));
    OK(MPI_Comm_rank(parent, &prank));
    CHECK_INT(rank, prank);
    void *val;
    OK(MPI_Comm_get_attr(d, kv, &val, &flag));
    CHECK_INT(flag, 1);
    CHECK_INT((size_t)val, 1000 + prank + 1);
    /* a message on d is not received on the parent: the parent's receive, posted first,
     * gets the second message */
    int rsize = size;
    if (inter)
        OK(MPI_Comm_remote_size(d, &rsize));
    int to = (rank + 1) % rsize, from = inter ? rank % rsize : (rank - 1 + size) % size;
    int expect = inter ? 0 : 1; /* how many messages come to us on each */
    if (inter)
        for (int r = 0; r < rsize; r++)
            expect += (r + 1) % size == rank;
    int a = 10 + rank, b = 20 + rank;
    MPI_Request rq[2];
    int *got_d = malloc(sizeof(int) * (size_t)(expect + 1));
    int *got_p = malloc(sizeof(int) * (size_t)(expect + 1));
    CHECK(got_d && got_p);
    MPI_Request *rp = malloc(sizeof *rp * (size_t)(expect + 1));
    CHECK(rp);
    for (int i = 0; i < expect; i++)
        OK(MPI_Irecv(&got_p[i], 1, MPI_INT, MPI_ANY_SOURCE, 3, parent, &rp[i]));
    OK(MPI_Isend(&a, 1, MPI_INT, to, 3, d, &rq[0]));
    OK(MPI_Isend(&b, 1, MPI_INT, to, 3, parent, &rq[1]));
    for (int i = 0; i < expect; i++)
        OK(MPI_Recv(&got_d[i], 1, MPI_INT, MPI_ANY_SOURCE, 3, d, MPI_STATUS_IGNORE));
    OK(MPI_Waitall(expect, rp, MPI_STATUSES_IGNORE));
    OK(MPI_Waitall(2, rq, MPI_STATUSES_IGNORE));
    for (int i = 0; i < expect; i++) {
        CHECK(got_d[i] >= 10 && got_d[i] < 20);
        CHECK(got_p[i] >= 20 && got_p[i] < 30);
    }
    (void)from;
    free(got_d);
    free(got_p);
    free(rp);
    /* a collective on d */
    int one = 1, sum = 0;
    OK(MPI_Allreduce(&one, &sum, 1, MPI_INT, MPI_SUM, d));
    CHECK_INT(sum, rsize);
}

static void intra(int kv)
{
    MPI_Comm w = MPI_COMM_WORLD, d1, d2, d3;
    int rank = world_rank(), n = world_size();
    OK(MPI_Comm_set_attr(w, kv, (void *)(size_t)(1000 + rank)));
    MPI_Info info;
    OK(MPI_Info_create(&info));
    OK(MPI_Info_set(info, "loom_test_key", "idup"));
    int one = 1, sum = 0, token = rank, got = -1;
    MPI_Request r[7];
    OK(MPI_Iallreduce(&one, &sum, 1, MPI_INT, MPI_SUM, w, &r[0]));
    OK(MPI_Comm_idup(w, &d1, &r[1]));
    OK(MPI_Irecv(&got, 1, MPI_INT, (rank - 1 + n) % n, 5, w, &r[2]));
    OK(MPI_Comm_idup_with_info(w, info, &d2, &r[3]));
    OK(MPI_Ibarrier(w, &r[4]));
    OK(MPI_Isend(&token, 1, MPI_INT, (rank + 1) % n, 5, w, &r[5]));
    OK(MPI_Comm_idup(w, &d3, &r[6]));
    OK(MPI_Info_free(&info)); /* the call copied it */
    /* complete the dups last first, the others after */
    OK(MPI_Wait(&r[6], MPI_STATUS_IGNORE));
    OK(MPI_Wait(&r[3], MPI_STATUS_IGNORE));
    OK(MPI_Waitall(7, r, MPI_STATUSES_IGNORE));
    CHECK_INT(sum, n);
    CHECK_INT(got, (rank - 1 + n) % n);
    CHECK(d1 != d2 && d2 != d3 && d1 != MPI_COMM_NULL);
    check_copy(w, d1, kv, 0);
    check_copy(w, d2, kv, 0);
    check_copy(w, d3, kv, 0);
    MPI_Info used;
    char val[32];
    int flag;
    OK(MPI_Comm_get_info(d2, &used));
    OK(MPI_Info_get(used, "loom_test_key", (int)sizeof val - 1, val, &flag));
    CHECK_INT(flag, 1);
    CHECK_STR(val, "idup");
    OK(MPI_Info_free(&used));
    /* a dup of a dup, tested with MPI_Test until it completes */
    MPI_Comm d4;
    MPI_Request q;
    OK(MPI_Comm_idup(d1, &d4, &q));
    for (flag = 0; !flag;)
        OK(MPI_Test(&q, &flag, MPI_STATUS_IGNORE));
    CHECK(q == MPI_REQUEST_NULL);
    int cmp;
    OK(MPI_Comm_compare(d4, w, &cmp));
    CHECK_INT(cmp, MPI_CONGRUENT);
    OK(MPI_Comm_free(&d4));
    OK(MPI_Comm_free(&d1));
    OK(MPI_Comm_free(&d2));
    OK(MPI_Comm_free(&d3));
    OK(MPI_Comm_delete_attr(w, kv));
}

static void inter(int kv)
{
    struct halves h;
    halves_make(&h, 9);
    OK(MPI_Comm_set_attr(h.inter, kv, (void *)(size_t)(1000 + h.lrank)));
    int buf = -1;
    MPI_Request r[3];
    MPI_Comm d;
    /* the low half's rank 0 broadcasts to the high half */
    int root = h.high ? 0 : (h.lrank == 0 ? MPI_ROOT : MPI_PROC_NULL);
    if (root == MPI_ROOT)
        buf = 4242;
    OK(MPI_Ibcast(&buf, 1, MPI_INT, root, h.inter, &r[0]));
    OK(MPI_Comm_idup(h.inter, &d, &r[1]));
    OK(MPI_Ibarrier(h.inter, &r[2]));
    OK(MPI_Wait(&r[1], MPI_STATUS_IGNORE));
    OK(MPI_Waitall(3, r, MPI_STATUSES_IGNORE));
    if (h.high)
        CHECK_INT(buf, 4242);
    check_copy(h.inter, d, kv, 1);
    OK(MPI_Comm_free(&d));
    OK(MPI_Comm_delete_attr(h.inter, kv));
    halves_free(&h);
}

int main(int argc, char **argv)
{
    OK(MPI_Init(&argc, &argv));
    OK(MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_RETURN));
    int kv;
    OK(MPI_Comm_create_keyval(copy_fn, MPI_COMM_NULL_DELETE_FN, &kv, NULL));
    intra(kv);
    if (world_size() >= 2)
        inter(kv);
    OK(MPI_Comm_free_keyval(&kv));
    OK(MPI_Finalize());
    return 0;
}
