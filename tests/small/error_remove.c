/* MPI 4.1's MPI_Remove_error_class, _code and _string: each rank adds a class, two codes and
 * strings, checks that the removals go in the order the standard requires (a code's string
 * before the code, the codes before their class; a class's string goes with it), that a
 * removed value is unknown to MPI_Error_class / MPI_Error_string and to a second removal, and
 * that values added afterwards are new ones. Every rank at once: the table is the job's, one
 * for all the ranks (comm/error_class.h), so the ranks also race on it. Refusals are
 * MPI_ERR_ARG. */
#include <string.h>
#include "small_check.h"

static void check_string(int v, const char *want)
{
    char text[MPI_MAX_ERROR_STRING];
    int len = -1;
    OK(MPI_Error_string(v, text, &len));
    CHECK(strcmp(text, want) == 0);
    CHECK_INT(len, (int)strlen(want));
}

static void round_trip(int rank, int round)
{
    int cls, c1, c2, c, got;
    char text[64];
    OK(MPI_Add_error_class(&cls));
    OK(MPI_Add_error_code(cls, &c1));
    OK(MPI_Add_error_code(cls, &c2));
    snprintf(text, sizeof text, "rank %d round %d class", rank, round);
    OK(MPI_Add_error_string(cls, text));
    OK(MPI_Add_error_string(c1, "code one"));

    /* predefined values are never removed */
    FAILS(MPI_Remove_error_class(MPI_ERR_OTHER), MPI_ERR_ARG);
    FAILS(MPI_Remove_error_code(MPI_ERR_TRUNCATE), MPI_ERR_ARG);
    FAILS(MPI_Remove_error_string(MPI_ERR_ARG), MPI_ERR_ARG);
    FAILS(MPI_Remove_error_class(MPI_SUCCESS), MPI_ERR_ARG);
    /* a class is not a code, nor a code a class */
    FAILS(MPI_Remove_error_code(cls), MPI_ERR_ARG);
    FAILS(MPI_Remove_error_class(c2), MPI_ERR_ARG);
    /* order: codes before their class, a code's string before the code */
    FAILS(MPI_Remove_error_class(cls), MPI_ERR_ARG);
    FAILS(MPI_Remove_error_code(c1), MPI_ERR_ARG);
    /* no string to remove */
    FAILS(MPI_Remove_error_string(c2), MPI_ERR_ARG);
    check_string(c1, "code one"); /* refusals change nothing */

    OK(MPI_Remove_error_string(c1));
    check_string(c1, ""); /* known, without a string */
    FAILS(MPI_Remove_error_string(c1), MPI_ERR_ARG);
    OK(MPI_Remove_error_code(c1));
    FAILS(MPI_Error_class(c1, &got), MPI_ERR_ARG);
    FAILS(MPI_Remove_error_code(c1), MPI_ERR_ARG);
    FAILS(MPI_Add_error_string(c1, "again"), MPI_ERR_ARG);
    OK(MPI_Error_class(c2, &got)); /* the other code stays */
    CHECK_INT(got, cls);
    FAILS(MPI_Remove_error_class(cls), MPI_ERR_ARG); /* c2 is left */
    OK(MPI_Remove_error_code(c2));
    OK(MPI_Error_class(cls, &got)); /* the class stays until removed */
    CHECK_INT(got, cls);
    check_string(cls, text);
    OK(MPI_Remove_error_class(cls)); /* its string goes with it */
    FAILS(MPI_Error_class(cls, &got), MPI_ERR_ARG);
    FAILS(MPI_Error_string(cls, text, &got), MPI_ERR_ARG);
    FAILS(MPI_Remove_error_class(cls), MPI_ERR_ARG);
    FAILS(MPI_Add_error_code(cls, &c), MPI_ERR_ARG); /* no codes for a removed class */

    /* new values are new: nothing removed is handed out again */
    int cls2, c3;
    OK(MPI_Add_error_class(&cls2));
    OK(MPI_Add_error_code(cls2, &c3));
    CHECK(cls2 != cls && cls2 != c1 && cls2 != c2);
    CHECK(c3 != cls && c3 != c1 && c3 != c2);
    OK(MPI_Error_class(c3, &got));
    CHECK_INT(got, cls2);
    OK(MPI_Remove_error_code(c3));
    OK(MPI_Remove_error_class(cls2));
}

int main(int argc, char **argv)
{
    int rank;
    MPI_Init(&argc, &argv);
    MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_RETURN);
    MPI_Comm_set_errhandler(MPI_COMM_SELF, MPI_ERRORS_RETURN);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    for (int round = 0; round < 20; round++)
        round_trip(rank, round);
    MPI_Finalize();
    return 0;
}
