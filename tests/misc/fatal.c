/* Under the default handler a bad call of this family ends the job with status 1 and one line
 * naming the call, the rank and the reason. The case is the first argument. */
#include <stdlib.h>
#include "misc_check.h"

int main(int argc, char **argv)
{
    OK(MPI_Init(&argc, &argv));
    CHECK(argc == 2);
    const char *c = argv[1];
    int x = 0;
    MPI_Aint a;
    if (strcmp(c, "free_mem") == 0)
        MPI_Free_mem(&x);
    else if (strcmp(c, "alloc_mem") == 0)
        MPI_Alloc_mem(-1, MPI_INFO_NULL, &a);
    else if (strcmp(c, "add_error_string") == 0)
        MPI_Add_error_string(MPI_ERR_ARG, "mine");
    else if (strcmp(c, "info_get_string") == 0)
        MPI_Info_get_string(MPI_INFO_ENV, "maxprocs", NULL, NULL, &x);
    else if (strcmp(c, "attr_put") == 0)
        MPI_Attr_put(MPI_COMM_WORLD, 424242, &x);
    else if (strcmp(c, "wait_null_status") == 0) {
        MPI_Request r = MPI_REQUEST_NULL;
        MPI_Waitall(1, &r, NULL);
    }
    fprintf(stderr, "the bad call returned\n");
    return 3;
}
