/* The predefined attributes of MPI_COMM_WORLD: values are pointers to ints. They cannot be
 * set, deleted or freed. */
#include "comm_check.h"

static int get(MPI_Comm c, int key)
{
    int *p = NULL, flag = 0;
    OK(MPI_Comm_get_attr(c, key, &p, &flag));
    CHECK_INT(flag, 1);
    CHECK(p != NULL);
    return *p;
}

int main(int argc, char **argv)
{
    MPI_Init(&argc, &argv);
    int size = world_size();
    CHECK(get(MPI_COMM_WORLD, MPI_TAG_UB) >= (1 << 30));
    CHECK_INT(get(MPI_COMM_WORLD, MPI_WTIME_IS_GLOBAL), 1);
    CHECK_INT(get(MPI_COMM_WORLD, MPI_UNIVERSE_SIZE), size);
    CHECK_INT(get(MPI_COMM_WORLD, MPI_APPNUM), 0);
    CHECK_INT(get(MPI_COMM_WORLD, MPI_HOST), MPI_PROC_NULL);
    CHECK_INT(get(MPI_COMM_WORLD, MPI_IO), MPI_ANY_SOURCE);
    MPI_Comm d;
    OK(MPI_Comm_dup(MPI_COMM_WORLD, &d));
    CHECK_INT(get(d, MPI_TAG_UB), get(MPI_COMM_WORLD, MPI_TAG_UB));
    OK(MPI_Comm_free(&d));

    MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_RETURN);
    int one = 1, key = MPI_TAG_UB;
    CHECK_INT(MPI_Comm_set_attr(MPI_COMM_WORLD, MPI_TAG_UB, &one), MPI_ERR_KEYVAL);
    CHECK_INT(MPI_Comm_delete_attr(MPI_COMM_WORLD, MPI_TAG_UB), MPI_ERR_KEYVAL);
    CHECK_INT(MPI_Comm_free_keyval(&key), MPI_ERR_KEYVAL);
    CHECK_INT(key, MPI_TAG_UB);
    CHECK(get(MPI_COMM_WORLD, MPI_TAG_UB) >= (1 << 30));
    MPI_Finalize();
    return 0;
}
