/* Generalized requests (under MPI_ERRORS_RETURN on MPI_COMM_SELF): completed by each of
 * Wait, Test, Waitall, Waitany, Waitsome, Testall, Testany, Testsome, among null and inactive
 * persistent requests; the status is query_fn's (source, tag, count, cancelled); query_fn runs
 * once, then free_fn once; MPI_Request_get_status runs query_fn and leaves the request;
 * MPI_Cancel calls cancel_fn with complete right; MPI_Request_free before completion leaves
 * free_fn to MPI_Grequest_complete (no query), after completion runs it at once; errors of
 * query_fn and free_fn are the wait's error, MPI_ERR_IN_STATUS with per-status errors for the
 * array calls; cancel_fn's error is MPI_Cancel's. */
#include "coll_check.h"
#include "greq_state.h"

enum { WAIT, TEST, WAITALL, WAITANY, WAITSOME, TESTALL, TESTANY, TESTSOME, NWAYS };

/* Complete r[0..n) (active ones complete already) by `way`; statuses into st (n of them for
 * the array calls). Returns the calls' error code (the last one that failed). */
static int complete_by(int way, MPI_Request r[], int n, MPI_Status st[])
{
    int rc = MPI_SUCCESS, flag = 0, idx, out, ids[8];
    switch (way) {
    case WAIT:
    case TEST:
        for (int i = 0; i < n; i++) {
            int e = way == WAIT ? MPI_Wait(&r[i], &st[i]) : MPI_Test(&r[i], &flag, &st[i]);
            if (e != MPI_SUCCESS)
                rc = e;
            CHECK(way == WAIT || flag);
        }
        return rc;
    case WAITALL:
        return MPI_Waitall(n, r, st);
    case TESTALL:
        rc = MPI_Testall(n, r, &flag, st);
        CHECK(flag);
        return rc;
    case WAITANY:
    case TESTANY:
        for (;;) {
            MPI_Status one;
            int e = way == WAITANY ? MPI_Waitany(n, r, &idx, &one)
                                   : MPI_Testany(n, r, &idx, &flag, &one);
            if (e != MPI_SUCCESS)
                rc = e;
            if (idx == MPI_UNDEFINED)
                return rc;
            st[idx] = one;
        }
    default:
        for (;;) {
            MPI_Status some[8];
            int e = way == WAITSOME ? MPI_Waitsome(n, r, &out, ids, some)
                                    : MPI_Testsome(n, r, &out, ids, some);
            if (e != MPI_SUCCESS && e != MPI_ERR_IN_STATUS)
                return e;
            if (e != MPI_SUCCESS)
                rc = e;
            if (out == MPI_UNDEFINED)
                return rc;
            for (int k = 0; k < out; k++)
                st[ids[k]] = some[k];
        }
    }
}

static void each_completion_call(void)
{
    for (int way = 0; way < NWAYS; way++) {
        struct greq g[2];
        MPI_Request r[4];
        MPI_Status st[4];
        int x = 0, y = 0;
        greq_init(&g[0], 11, 21, 3);
        greq_init(&g[1], 12, 22, 5);
        r[0] = MPI_REQUEST_NULL;
        OK(greq_start(&g[0], &r[1]));
        OK(MPI_Allreduce_init(&x, &y, 1, MPI_INT, MPI_SUM, MPI_COMM_WORLD, MPI_INFO_NULL,
                              &r[2])); /* inactive */
        OK(greq_start(&g[1], &r[3]));
        /* not complete: tests say so and run no callback */
        int flag = 1;
        OK(MPI_Test(&r[1], &flag, MPI_STATUS_IGNORE));
        CHECK_INT(flag, 0);
        OK(MPI_Testall(4, r, &flag, MPI_STATUSES_IGNORE));
        CHECK_INT(flag, 0);
        int out = -1, ids[4];
        OK(MPI_Testsome(4, r, &out, ids, MPI_STATUSES_IGNORE));
        CHECK_INT(out, 0);
        CHECK_INT(atomic_load(&g[0].queries) + atomic_load(&g[1].queries), 0);
        OK(MPI_Grequest_complete(r[3]));
        OK(MPI_Grequest_complete(r[1]));
        MPI_Request pr = r[2];
        OK(complete_by(way, r, 4, st));
        CHECK(r[1] == MPI_REQUEST_NULL && r[3] == MPI_REQUEST_NULL);
        CHECK(r[2] == pr);
        for (int k = 0; k < 2; k++) {
            MPI_Status *s = &st[k ? 3 : 1];
            CHECK_INT(atomic_load(&g[k].queries), 1);
            CHECK_INT(atomic_load(&g[k].frees), 1);
            CHECK_INT(atomic_load(&g[k].queries_at_free), 1); /* free after query */
            CHECK_INT(s->MPI_SOURCE, g[k].source);
            CHECK_INT(s->MPI_TAG, g[k].tag);
            int count = -1;
            OK(MPI_Get_count(s, MPI_INT, &count));
            CHECK_INT(count, g[k].count);
        }
        OK(MPI_Request_free(&r[2]));
    }
}

static void get_status_cancel_free(void)
{
    struct greq g;
    MPI_Request r;
    MPI_Status st;
    int flag = -1;
    /* get_status: nothing until complete, then query_fn, request kept */
    greq_init(&g, 3, 4, 2);
    OK(greq_start(&g, &r));
    OK(MPI_Request_get_status(r, &flag, &st));
    CHECK_INT(flag, 0);
    CHECK_INT(atomic_load(&g.queries), 0);
    /* cancel before completion: complete = false */
    OK(MPI_Cancel(&r));
    CHECK_INT(atomic_load(&g.cancels), 1);
    CHECK_INT(atomic_load(&g.cancel_complete), 0);
    OK(MPI_Grequest_complete(r));
    OK(MPI_Request_get_status(r, &flag, &st));
    CHECK_INT(flag, 1);
    CHECK_INT(atomic_load(&g.queries), 1);
    CHECK_INT(atomic_load(&g.frees), 0);
    CHECK_INT(st.MPI_SOURCE, 3);
    /* cancel after completion: complete = true */
    OK(MPI_Cancel(&r));
    CHECK_INT(atomic_load(&g.cancel_complete), 1);
    OK(MPI_Wait(&r, &st));
    CHECK(r == MPI_REQUEST_NULL);
    OK(MPI_Test_cancelled(&st, &flag));
    CHECK_INT(flag, 1);
    CHECK_INT(atomic_load(&g.queries), 2);
    CHECK_INT(atomic_load(&g.frees), 1);

    /* freed before completion: free_fn waits for MPI_Grequest_complete (the user's copy of
     * the handle stays valid until then); query_fn never runs */
    greq_init(&g, 0, 0, 0);
    OK(greq_start(&g, &r));
    MPI_Request copy = r;
    OK(MPI_Request_free(&r));
    CHECK(r == MPI_REQUEST_NULL);
    CHECK_INT(atomic_load(&g.frees), 0);
    OK(MPI_Grequest_complete(copy));
    CHECK_INT(atomic_load(&g.frees), 1);
    CHECK_INT(atomic_load(&g.queries), 0);
    /* freed after completion: free_fn at once */
    greq_init(&g, 0, 0, 0);
    OK(greq_start(&g, &r));
    OK(MPI_Grequest_complete(r));
    OK(MPI_Request_free(&r));
    CHECK_INT(atomic_load(&g.frees), 1);
    CHECK_INT(atomic_load(&g.queries), 0);
}

static void callback_errors(void)
{
    struct greq g[3];
    MPI_Request r[3];
    MPI_Status st[3];
    int cls;
    /* query_fn's error is the wait's; free_fn still runs */
    greq_init(&g[0], 0, 0, 0);
    g[0].query_err = MPI_ERR_OTHER;
    OK(greq_start(&g[0], &r[0]));
    OK(MPI_Grequest_complete(r[0]));
    MPI_Error_class(MPI_Wait(&r[0], &st[0]), &cls);
    CHECK_INT(cls, MPI_ERR_OTHER);
    CHECK(r[0] == MPI_REQUEST_NULL);
    CHECK_INT(atomic_load(&g[0].frees), 1);
    /* free_fn's error when query_fn succeeds */
    greq_init(&g[0], 0, 0, 0);
    g[0].free_err = MPI_ERR_INTERN;
    OK(greq_start(&g[0], &r[0]));
    OK(MPI_Grequest_complete(r[0]));
    int flag = 0;
    MPI_Error_class(MPI_Test(&r[0], &flag, &st[0]), &cls);
    CHECK_INT(cls, MPI_ERR_INTERN);
    CHECK_INT(flag, 1);
    /* arrays: MPI_ERR_IN_STATUS, each status its own error */
    for (int way = WAITALL; way < NWAYS; way++) {
        if (way == WAITANY || way == TESTANY)
            continue; /* single-status calls: the error is the call's, as for Wait */
        for (int k = 0; k < 3; k++) {
            greq_init(&g[k], k, k, k);
            OK(greq_start(&g[k], &r[k]));
            OK(MPI_Grequest_complete(r[k]));
            st[k].MPI_ERROR = -1;
        }
        g[1].query_err = MPI_ERR_OTHER;
        int rc = complete_by(way, r, 3, st);
        CHECK_INT(rc, MPI_ERR_IN_STATUS);
        CHECK_INT(st[0].MPI_ERROR, MPI_SUCCESS);
        CHECK_INT(st[1].MPI_ERROR, MPI_ERR_OTHER);
        CHECK_INT(st[2].MPI_ERROR, MPI_SUCCESS);
        for (int k = 0; k < 3; k++) {
            CHECK(r[k] == MPI_REQUEST_NULL);
            CHECK_INT(atomic_load(&g[k].frees), 1);
        }
    }
    /* cancel_fn's error is MPI_Cancel's */
    greq_init(&g[0], 0, 0, 0);
    g[0].cancel_err = MPI_ERR_OTHER;
    OK(greq_start(&g[0], &r[0]));
    MPI_Error_class(MPI_Cancel(&r[0]), &cls);
    CHECK_INT(cls, MPI_ERR_OTHER);
    OK(MPI_Grequest_complete(r[0]));
    OK(MPI_Wait(&r[0], MPI_STATUS_IGNORE));
}

int main(int argc, char **argv)
{
    OK(MPI_Init(&argc, &argv));
    OK(MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_RETURN));
    OK(MPI_Comm_set_errhandler(MPI_COMM_SELF, MPI_ERRORS_RETURN));
    each_completion_call();
    get_status_cancel_free();
    callback_errors();
    OK(MPI_Finalize());
    return 0;
}
