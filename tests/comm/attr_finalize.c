/* Attributes on MPI_COMM_SELF are deleted at MPI_Finalize, newest first, and those on
 * MPI_COMM_WORLD too; the delete callbacks print, the test checks the output. */
#include "comm_check.h"

static _Thread_local int rank_of_thread;
static _Thread_local int deleted_second; /* 1 once "second" was deleted */

static int on_delete(MPI_Comm c, int kv, void *val, void *extra)
{
    (void)kv, (void)extra;
    const char *what = val;
    if (strcmp(what, "second") == 0)
        deleted_second = 1;
    if (strcmp(what, "first") == 0 && !deleted_second) {
        printf("rank %d: wrong order: first deleted before second\n", rank_of_thread);
        return MPI_ERR_OTHER;
    }
    if (c == MPI_COMM_SELF && strcmp(what, "first") == 0)
        printf("rank %d: self attribute deleted at finalize\n", rank_of_thread);
    return MPI_SUCCESS;
}

int main(int argc, char **argv)
{
    MPI_Init(&argc, &argv);
    rank_of_thread = world_rank();
    int kv;
    OK(MPI_Comm_create_keyval(MPI_COMM_NULL_COPY_FN, on_delete, &kv, NULL));
    int kv2;
    OK(MPI_Comm_create_keyval(MPI_COMM_NULL_COPY_FN, on_delete, &kv2, NULL));
    OK(MPI_Comm_set_attr(MPI_COMM_SELF, kv, "first"));
    OK(MPI_Comm_set_attr(MPI_COMM_SELF, kv2, "second"));
    OK(MPI_Comm_set_attr(MPI_COMM_WORLD, kv2, "world"));
    OK(MPI_Comm_free_keyval(&kv));
    OK(MPI_Comm_free_keyval(&kv2));
    fflush(stdout);
    MPI_Finalize();
    fflush(stdout);
    return 0;
}
