/* errors.c — what the bad-argument walk cannot reach (tests/bindings): error classes of the
 * session calls with MPI_ERRORS_RETURN on MPI_COMM_SELF (invalid session handles) and on the
 * session (other arguments), a session's own handler called with the session and the code,
 * handlers of one kind refused by the other, MPI_Session_init's errors through its argument. */
#include <stdlib.h>
#include "sess_check.h"

#define CLASS(call, want)                                                                      \
    do {                                                                                       \
        int rc_ = (call), cls_ = rc_;                                                          \
        if (rc_ != MPI_SUCCESS)                                                                \
            MPI_Error_class(rc_, &cls_);                                                       \
        CHECK_INT(cls_, want);                                                                 \
    } while (0)

/* per rank: the handler runs on the calling rank's thread (the test is not built with
 * loomcc, so plain globals would be shared by the ranks) */
static _Thread_local int calls, last_code;
static _Thread_local MPI_Session last_session;
static MPI_Session rank0_session; /* shared by the ranks: rank 0 writes it before a barrier */

static void on_error(MPI_Session *s, int *code, ...)
{
    calls++;
    last_code = *code;
    last_session = *s;
}

static void comm_handler(MPI_Comm *c, int *code, ...)
{
    (void)c, (void)code;
}

int main(int argc, char **argv)
{
    MPI_Errhandler eh;
    /* before any initialization: the handler MPI_Session_init is given */
    OK(MPI_Session_create_errhandler(on_error, &eh));
    MPI_Session s, t;
    OK(MPI_Session_init(MPI_INFO_NULL, eh, &s));
    OK(MPI_Comm_set_errhandler(MPI_COMM_SELF, MPI_ERRORS_RETURN));

    /* invalid handles: MPI_ERR_SESSION, on MPI_COMM_SELF */
    long garbage[8] = {0};
    MPI_Session bad = (MPI_Session)(void *)garbage;
    int n;
    CLASS(MPI_Session_get_num_psets(MPI_SESSION_NULL, MPI_INFO_NULL, &n), MPI_ERR_SESSION);
    CLASS(MPI_Session_get_num_psets(bad, MPI_INFO_NULL, &n), MPI_ERR_SESSION);
    MPI_Session null = MPI_SESSION_NULL;
    CLASS(MPI_Session_finalize(&null), MPI_ERR_SESSION);
    CLASS(MPI_Session_finalize(&bad), MPI_ERR_SESSION);
    OK(MPI_Session_init(MPI_INFO_NULL, MPI_ERRORS_RETURN, &t));
    MPI_Session stale = t;
    OK(MPI_Session_finalize(&t));
    CHECK(t == MPI_SESSION_NULL);
    CLASS(MPI_Session_finalize(&stale), MPI_ERR_SESSION); /* finalized already */
    MPI_Group g;
    CLASS(MPI_Group_from_session_pset(stale, "mpi://WORLD", &g), MPI_ERR_SESSION);
    CHECK_INT(calls, 0); /* none of these reached the session's handler */
    char text[MPI_MAX_ERROR_STRING];
    int len;
    OK(MPI_Error_string(MPI_ERR_SESSION, text, &len));
    CHECK(strcmp(text, "invalid session") == 0);

    /* other arguments: on the session, through its handler, which returns */
    CLASS(MPI_Group_from_session_pset(s, "mpi://NOWHERE", &g), MPI_ERR_ARG);
    CHECK_INT(calls, 1);
    CHECK_INT(last_code, MPI_ERR_ARG);
    CHECK(last_session == s);
    CLASS(MPI_Group_from_session_pset(s, "mpi://world", &g), MPI_ERR_ARG); /* case counts */
    MPI_Info info;
    CLASS(MPI_Session_get_pset_info(s, "", &info), MPI_ERR_ARG);
    char name[MPI_MAX_PSET_NAME_LEN];
    int plen = sizeof name, npsets = 0;
    OK(MPI_Session_get_num_psets(s, MPI_INFO_NULL, &npsets)); /* hardware ones included */
    CLASS(MPI_Session_get_nth_pset(s, MPI_INFO_NULL, npsets, &plen, name), MPI_ERR_ARG);
    CLASS(MPI_Session_get_nth_pset(s, MPI_INFO_NULL, -1, &plen, name), MPI_ERR_ARG);
    plen = 8;
    CLASS(MPI_Session_get_nth_pset(s, MPI_INFO_NULL, 0, &plen, NULL), MPI_ERR_ARG);
    plen = -1;
    CLASS(MPI_Session_get_nth_pset(s, MPI_INFO_NULL, 0, &plen, name), MPI_ERR_ARG);
    MPI_Info bad_info = (MPI_Info)(void *)garbage;
    CLASS(MPI_Session_get_num_psets(s, bad_info, &n), MPI_ERR_INFO);
    CHECK_INT(calls, 8);
    CHECK_INT(last_code, MPI_ERR_INFO);

    /* MPI_Session_call_errhandler: the handler with the code given */
    OK(MPI_Session_call_errhandler(s, MPI_ERR_OTHER));
    CHECK_INT(calls, 9);
    CHECK_INT(last_code, MPI_ERR_OTHER);
    CHECK(last_session == s);

    /* handlers of one kind only */
    MPI_Errhandler ceh, got;
    OK(MPI_Comm_create_errhandler(comm_handler, &ceh));
    CLASS(MPI_Session_set_errhandler(s, ceh), MPI_ERR_ARG);
    CHECK_INT(calls, 10);
    CLASS(MPI_Comm_set_errhandler(MPI_COMM_SELF, eh), MPI_ERR_ARG);
    CLASS(MPI_Session_init(MPI_INFO_NULL, ceh, &t), MPI_ERR_ARG);
    OK(MPI_Errhandler_free(&ceh));
    CHECK_INT(calls, 10);

    /* get/set: the handler set is the one got; MPI_ERRORS_RETURN stops the calls */
    OK(MPI_Session_get_errhandler(s, &got));
    CHECK(got == eh);
    OK(MPI_Errhandler_free(&got));
    OK(MPI_Session_set_errhandler(s, MPI_ERRORS_RETURN));
    OK(MPI_Session_get_errhandler(s, &got));
    CHECK(got == MPI_ERRORS_RETURN);
    CLASS(MPI_Session_get_pset_info(s, "nowhere", &info), MPI_ERR_ARG);
    CHECK_INT(calls, 10);
    OK(MPI_Session_set_errhandler(s, eh));

    /* MPI_Session_init's errors go to its errhandler argument (no session yet) */
    t = MPI_SESSION_NULL;
    CLASS(MPI_Session_init(bad_info, eh, &t), MPI_ERR_INFO);
    CHECK_INT(calls, 11);
    CHECK(last_session == MPI_SESSION_NULL);
    CHECK(t == MPI_SESSION_NULL);
    CLASS(MPI_Session_init(MPI_INFO_NULL, eh, NULL), MPI_ERR_ARG);
    CHECK_INT(calls, 12);
    /* the hints given come back with the thread level */
    MPI_Info hints;
    OK(MPI_Info_create(&hints));
    OK(MPI_Info_set(hints, "loom.test", "yes"));
    OK(MPI_Session_init(hints, eh, &t));
    OK(MPI_Info_free(&hints));
    OK(MPI_Session_get_info(t, &info));
    char val[16];
    int vlen = sizeof val, flag = 0;
    OK(MPI_Info_get_string(info, "loom.test", &vlen, val, &flag));
    CHECK(flag == 1 && strcmp(val, "yes") == 0);
    OK(MPI_Info_free(&info));
    OK(MPI_Session_finalize(&t));

    /* a session's handler given to a communicator made from a group (whose errors go to
     * MPI_COMM_WORLD's handler: MPI_Init for it) */
    OK(MPI_Init(&argc, &argv));
    OK(MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_RETURN));
    MPI_Comm c;
    MPI_Group wg;
    OK(MPI_Group_from_session_pset(s, "mpi://SELF", &wg));
    CLASS(MPI_Comm_create_from_group(wg, "loom.test.errors", MPI_INFO_NULL, eh, &c),
          MPI_ERR_ARG);
    OK(MPI_Group_free(&wg));
    /* a session is its rank's: another rank's handle is no session here */
    int me;
    OK(MPI_Comm_rank(MPI_COMM_WORLD, &me));
    if (me == 0)
        rank0_session = s;
    OK(MPI_Barrier(MPI_COMM_WORLD)); /* orders the write above before the reads below */
    if (me == 1)
        CLASS(MPI_Session_get_num_psets(rank0_session, MPI_INFO_NULL, &n), MPI_ERR_SESSION);
    OK(MPI_Barrier(MPI_COMM_WORLD));
    CHECK_INT(calls, 12); /* not rank 0's handler either */
    OK(MPI_Errhandler_free(&eh)); /* the session keeps its reference */
    CLASS(MPI_Session_call_errhandler(s, MPI_ERR_ARG), MPI_SUCCESS);
    CHECK_INT(calls, 13);
    OK(MPI_Session_finalize(&s));
    OK(MPI_Finalize());
    return 0;
}
