/* Bad input to the attribute calls, under MPI_ERRORS_RETURN: MPI_ERR_KEYVAL for keyvals never
 * made, freed or invalid; MPI_ERR_COMM; MPI_ERR_ARG for missing outputs. */
#include "comm_check.h"

int main(int argc, char **argv)
{
    MPI_Init(&argc, &argv);
    world_rank();
    MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_RETURN);
    int kv, flag;
    void *val;

    CHECK_INT(MPI_Comm_set_attr(MPI_COMM_WORLD, 123456, NULL), MPI_ERR_KEYVAL);
    CHECK_INT(MPI_Comm_get_attr(MPI_COMM_WORLD, 123456, &val, &flag), MPI_ERR_KEYVAL);
    CHECK_INT(MPI_Comm_delete_attr(MPI_COMM_WORLD, 123456), MPI_ERR_KEYVAL);
    CHECK_INT(MPI_Comm_get_attr(MPI_COMM_WORLD, MPI_KEYVAL_INVALID, &val, &flag),
              MPI_ERR_KEYVAL);
    int invalid = MPI_KEYVAL_INVALID;
    CHECK_INT(MPI_Comm_free_keyval(&invalid), MPI_ERR_KEYVAL);
    CHECK_INT(MPI_Comm_free_keyval(NULL), MPI_ERR_ARG);
    CHECK_INT(MPI_Comm_create_keyval(MPI_COMM_NULL_COPY_FN, MPI_COMM_NULL_DELETE_FN, NULL, NULL),
              MPI_ERR_ARG);

    OK(MPI_Comm_create_keyval(MPI_COMM_NULL_COPY_FN, MPI_COMM_NULL_DELETE_FN, &kv, NULL));
    CHECK_INT(MPI_Comm_set_attr(MPI_COMM_NULL, kv, NULL), MPI_ERR_COMM);
    CHECK_INT(MPI_Comm_get_attr(MPI_COMM_NULL, kv, &val, &flag), MPI_ERR_COMM);
    CHECK_INT(MPI_Comm_delete_attr(MPI_COMM_NULL, kv), MPI_ERR_COMM);
    CHECK_INT(MPI_Comm_get_attr(MPI_COMM_WORLD, kv, NULL, &flag), MPI_ERR_ARG);
    CHECK_INT(MPI_Comm_get_attr(MPI_COMM_WORLD, kv, &val, NULL), MPI_ERR_ARG);

    /* a freed keyval */
    int stale = kv;
    OK(MPI_Comm_free_keyval(&kv));
    CHECK_INT(MPI_Comm_set_attr(MPI_COMM_WORLD, stale, NULL), MPI_ERR_KEYVAL);
    CHECK_INT(MPI_Comm_get_attr(MPI_COMM_WORLD, stale, &val, &flag), MPI_ERR_KEYVAL);
    CHECK_INT(MPI_Comm_free_keyval(&stale), MPI_ERR_KEYVAL);

    /* an attribute on a freed communicator */
    MPI_Comm c, old;
    OK(MPI_Comm_create_keyval(MPI_COMM_NULL_COPY_FN, MPI_COMM_NULL_DELETE_FN, &kv, NULL));
    OK(MPI_Comm_dup(MPI_COMM_WORLD, &c));
    old = c;
    OK(MPI_Comm_free(&c));
    CHECK_INT(MPI_Comm_set_attr(old, kv, NULL), MPI_ERR_COMM);
    OK(MPI_Comm_free_keyval(&kv));
    MPI_Finalize();
    return 0;
}
