/* The bad-argument walk (docs/bindings.md): every MPI call loom describes, called once for
 * each argument that has a bad value (a null handle, a negative count, a rank out of range,
 * NULL where a result goes...) with every other argument valid, under MPI_ERRORS_RETURN; each
 * must return the class that kind of argument gets in every call. All wrong answers are
 * listed before the test fails. */
#include <signal.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>
#include "check.h"
#include "walk.h"

static struct walk walk; /* one rank runs the walk (NP 1) */

void walk_user_fn(void *in, void *inout, int *len, MPI_Datatype *type)
{
    (void)in, (void)inout, (void)len, (void)type;
}

void walk_errhandler_fn(MPI_Comm *comm, int *code, ...)
{
    (void)comm, (void)code;
}

/* A call that never returns names itself. */
static void on_alarm(int sig)
{
    (void)sig;
    char line[256];
    int n = snprintf(line, sizeof line, "walk: %s with a bad %s did not return\n", walk.call,
                     walk.param);
    if (write(2, line, (size_t)n) < 0) {
        /* nothing more to do */
    }
    _exit(98);
}

void walk_reset(struct walk *W, const char *call, const char *param)
{
    W->call = call;
    W->param = param;
    for (int k = 0; k < WALK_N; k++) {
        W->ones[k] = 1;
        W->zeros[k] = 0;
        W->ints[k] = 0;
        W->ranges[k][0] = 0;
        W->ranges[k][1] = 0;
        W->ranges[k][2] = 1;
        W->aints[k] = 0;
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
    W->i = W->position = 0;
    W->aint = 0;
    W->count = 0;
    W->ptr = NULL;
    alarm(60);
}

void walk_result(struct walk *W, int want, const char *want_name, int rc)
{
    alarm(0);
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
    struct walk *W = &walk;
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
    CHECK_INT(MPI_Type_vector(2, 1, 2, MPI_INT, &W->vector), MPI_SUCCESS);
    CHECK_INT(MPI_Type_commit(&W->vector), MPI_SUCCESS);
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

    walk_calls(W);

    CHECK_INT(W->tried, walk_ntried);
    printf("walk: %d calls with a bad argument, %d answered a wrong class\n", W->tried, W->wrong);
    MPI_Type_free(&W->vector);
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
