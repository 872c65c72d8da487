/* The bad-argument walk (docs/bindings.md): every MPI call loom describes, called once for
 * each argument that has a bad value (a null handle, a negative count, a rank out of range,
 * NULL where a result goes...) with every other argument valid, under MPI_ERRORS_RETURN; each
 * must return the class that kind of argument gets in every call. All wrong answers are
 * listed before the test fails. Run with 2 ranks. */
#include <signal.h>
#include <stdatomic.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>
#include "check.h"
#include "walk.h"

/* Rank 0 walks, alone: each call, bad in one argument, must fail before it communicates.
 * (Not every rank could walk: an argument significant only at the root, bad at the root,
 * is a valid call elsewhere, which would then wait for the root.) Rank 1 is there for the
 * intercommunicator that some calls need. */
static struct walk walks[2]; /* one per rank (the test is not built with loomcc) */

void walk_user_fn(void *in, void *inout, int *len, MPI_Datatype *type)
{
    (void)in, (void)inout, (void)len, (void)type;
}

void walk_user_fn_c(void *in, void *inout, MPI_Count *len, MPI_Datatype *type)
{
    (void)in, (void)inout, (void)len, (void)type;
}

void walk_errhandler_fn(MPI_Comm *comm, int *code, ...)
{
    (void)comm, (void)code;
}

void walk_session_errhandler_fn(MPI_Session *session, int *code, ...)
{
    (void)session, (void)code;
}

void walk_win_errhandler_fn(MPI_Win *win, int *code, ...)
{
    (void)win, (void)code;
}

int walk_query_fn(void *extra_state, MPI_Status *status)
{
    (void)extra_state, (void)status;
    return MPI_SUCCESS;
}

int walk_free_fn(void *extra_state)
{
    (void)extra_state;
    return MPI_SUCCESS;
}

int walk_cancel_fn(void *extra_state, int complete)
{
    (void)extra_state, (void)complete;
    return MPI_SUCCESS;
}

/* A call that never returns names itself: the last call any rank began (the alarm is the
 * process's; each rank restarts it before each call). */
static _Atomic(const char *) last_call, last_param;

static void on_alarm(int sig)
{
    (void)sig;
    char line[256];
    int n = snprintf(line, sizeof line, "walk: %s with a bad %s did not return\n",
                     atomic_load(&last_call), atomic_load(&last_param));
    if (write(2, line, (size_t)n) < 0) {
        /* nothing more to do */
    }
    _exit(98);
}

void walk_reset(struct walk *W, const char *call, const char *param)
{
    W->call = call;
    W->param = param;
    atomic_store(&last_call, call);
    atomic_store(&last_param, param);
    for (int k = 0; k < WALK_N; k++) {
        W->ones[k] = 1;
        W->zeros[k] = 0;
        W->ints[k] = 0;
        W->ranges[k][0] = 0;
        W->ranges[k][1] = 0;
        W->ranges[k][2] = 1;
        W->aints[k] = 0;
        W->cones[k] = 1;
        W->czeros[k] = 0;
        W->counts[k] = 0;
        W->types[k] = MPI_INT;
        W->reqs[k] = MPI_REQUEST_NULL;
    }
    memset(W->statuses, 0, sizeof W->statuses);
    memset(&W->status, 0, sizeof W->status);
    W->newcomm = MPI_COMM_NULL;
    W->newgroup = MPI_GROUP_NULL;
    W->newtype = MPI_DATATYPE_NULL;
    W->newop = MPI_OP_NULL;
    W->newinfo = MPI_INFO_NULL;
    W->newerrhandler = MPI_ERRHANDLER_NULL;
    W->req = MPI_REQUEST_NULL;
    W->message = MPI_MESSAGE_NO_PROC;
    W->newsession = MPI_SESSION_NULL;
    W->newwin = MPI_WIN_NULL;
    W->i = W->position = 0;
    W->aint = 0;
    W->count = W->cposition = 0;
    W->ptr = NULL;
    alarm(60);
}

void walk_result(struct walk *W, int want, const char *want_name, int rc)
{
    W->tried++;
    int got = rc;
    if (rc != MPI_SUCCESS)
        MPI_Error_class(rc, &got);
    if (got == want)
        return;
    char text[MPI_MAX_ERROR_STRING];
    int len = 0;
    MPI_Error_string(got, text, &len);
    fprintf(stderr, "walk: %s with a bad %s: got class %d (%s), expected %s\n", W->call,
            W->param, got, text, want_name);
    W->wrong++;
}

int main(int argc, char **argv)
{
    MPI_Init(&argc, &argv);
    MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_RETURN);
    MPI_Comm_set_errhandler(MPI_COMM_SELF, MPI_ERRORS_RETURN);
    int world_rank, world_size;
    MPI_Comm_rank(MPI_COMM_WORLD, &world_rank);
    MPI_Comm_size(MPI_COMM_WORLD, &world_size);
    CHECK_INT(world_size, 2);
    struct walk *W = &walks[world_rank];
    CHECK_INT(MPI_Comm_dup(MPI_COMM_WORLD, &W->comm), MPI_SUCCESS);
    CHECK_INT(MPI_Comm_group(W->comm, &W->group), MPI_SUCCESS);
    CHECK_INT(MPI_Info_create(&W->info), MPI_SUCCESS);
    CHECK_INT(MPI_Comm_create_keyval(MPI_COMM_NULL_COPY_FN, MPI_COMM_NULL_DELETE_FN, &W->keyval,
                                     NULL),
              MPI_SUCCESS);
    MPI_Comm_size(W->comm, &W->size);
    CHECK_INT(MPI_Type_create_keyval(MPI_TYPE_NULL_COPY_FN, MPI_TYPE_NULL_DELETE_FN,
                                     &W->type_keyval, NULL),
              MPI_SUCCESS);
    int one = 1, zero = 0;
    CHECK_INT(MPI_Cart_create(W->comm, 1, &W->size, &one, 0, &W->cart), MPI_SUCCESS);
    int index = 1;
    CHECK_INT(MPI_Graph_create(MPI_COMM_SELF, 1, &index, &zero, 0, &W->graph), MPI_SUCCESS);
    CHECK_INT(MPI_Dist_graph_create_adjacent(MPI_COMM_SELF, 1, &zero, MPI_UNWEIGHTED, 1, &zero,
                                             MPI_UNWEIGHTED, MPI_INFO_NULL, 0, &W->dist),
              MPI_SUCCESS);
    /* two halves of comm, by parity, and the intercommunicator between them */
    int rank;
    MPI_Comm_rank(W->comm, &rank);
    CHECK(W->size >= 2);
    CHECK_INT(MPI_Comm_split(W->comm, rank % 2, rank, &W->half), MPI_SUCCESS);
    W->remote_leader = rank % 2 ? 0 : 1;
    CHECK_INT(MPI_Intercomm_create(W->half, 0, W->comm, W->remote_leader, 99, &W->inter),
              MPI_SUCCESS);
    CHECK_INT(MPI_Comm_group(W->half, &W->half_group), MPI_SUCCESS);
    CHECK_INT(MPI_Comm_remote_group(W->inter, &W->other_group), MPI_SUCCESS);
    CHECK_INT(MPI_Type_vector(2, 1, 2, MPI_INT, &W->vector), MPI_SUCCESS);
    CHECK_INT(MPI_Type_commit(&W->vector), MPI_SUCCESS);
    CHECK_INT(MPI_Session_init(MPI_INFO_NULL, MPI_ERRORS_RETURN, &W->session), MPI_SUCCESS);
    void *base;
    CHECK_INT(MPI_Win_allocate(64, 1, MPI_INFO_NULL, W->comm, &base, &W->win), MPI_SUCCESS);
    CHECK_INT(MPI_Win_allocate_shared(64, 1, MPI_INFO_NULL, W->comm, &base, &W->shared_win),
              MPI_SUCCESS);
    CHECK_INT(MPI_Win_create_dynamic(MPI_INFO_NULL, W->comm, &W->dynamic_win), MPI_SUCCESS);
    MPI_Win_set_errhandler(W->win, MPI_ERRORS_RETURN);
    MPI_Win_set_errhandler(W->shared_win, MPI_ERRORS_RETURN);
    MPI_Win_set_errhandler(W->dynamic_win, MPI_ERRORS_RETURN);
    CHECK_INT(MPI_Win_create_keyval(MPI_WIN_NULL_COPY_FN, MPI_WIN_NULL_DELETE_FN,
                                    &W->win_keyval, NULL),
              MPI_SUCCESS);
    static char walk_name[] = "walk";
    W->argv[0] = walk_name;
    W->argv[1] = NULL;
    for (int k = 0; k < WALK_N; k++) {
        W->distribs[k] = MPI_DISTRIBUTE_BLOCK;
        W->dargs[k] = MPI_DISTRIBUTE_DFLT_DARG;
    }
    W->bad_info = (MPI_Info)(void *)W->garbage;
    W->bad_request = (MPI_Request)(void *)W->garbage;
    signal(SIGALRM, on_alarm);

    if (rank == 0) {
        walk_calls(W);
        alarm(0);
        CHECK_INT(W->tried, walk_ntried);
        printf("walk: %d calls with a bad argument, %d answered a wrong class\n", W->tried,
               W->wrong);
    }
    MPI_Barrier(W->comm);
    MPI_Session_finalize(&W->session);
    MPI_Win_free_keyval(&W->win_keyval);
    CHECK_INT(MPI_Win_free(&W->dynamic_win), MPI_SUCCESS);
    CHECK_INT(MPI_Win_free(&W->shared_win), MPI_SUCCESS);
    CHECK_INT(MPI_Win_free(&W->win), MPI_SUCCESS);
    MPI_Type_free(&W->vector);
    MPI_Group_free(&W->other_group);
    MPI_Group_free(&W->half_group);
    MPI_Comm_free(&W->inter);
    MPI_Comm_free(&W->half);
    MPI_Comm_free(&W->dist);
    MPI_Comm_free(&W->graph);
    MPI_Comm_free(&W->cart);
    MPI_Type_free_keyval(&W->type_keyval);
    MPI_Comm_free_keyval(&W->keyval);
    MPI_Info_free(&W->info);
    MPI_Group_free(&W->group);
    MPI_Comm_free(&W->comm);
    MPI_Finalize();
    return W->wrong ? 1 : 0;
}
