/* MPI_Comm_dup / MPI_Comm_dup_with_info: same group and ranks, a new context (IDENT only with
 * itself, CONGRUENT with its parent), error handler inherited, usable at once. */
#include "comm_check.h"

int main(int argc, char **argv)
{
    MPI_Init(&argc, &argv);
    int rank = world_rank(), size = world_size(), r, n, cmp, len;
    char name[MPI_MAX_OBJECT_NAME];

    MPI_Comm d, dd;
    OK(MPI_Comm_dup(MPI_COMM_WORLD, &d));
    CHECK(d != MPI_COMM_NULL && d != MPI_COMM_WORLD);
    OK(MPI_Comm_rank(d, &r));
    CHECK_INT(r, rank);
    OK(MPI_Comm_size(d, &n));
    CHECK_INT(n, size);
    OK(MPI_Comm_compare(d, MPI_COMM_WORLD, &cmp));
    CHECK_INT(cmp, MPI_CONGRUENT);
    OK(MPI_Comm_compare(d, d, &cmp));
    CHECK_INT(cmp, MPI_IDENT);
    OK(MPI_Comm_get_name(d, name, &len));
    CHECK_INT(len, 0);
    OK(MPI_Barrier(d));

    /* a dup of a dup; and of MPI_COMM_SELF */
    OK(MPI_Comm_dup(d, &dd));
    OK(MPI_Comm_compare(d, dd, &cmp));
    CHECK_INT(cmp, MPI_CONGRUENT);
    OK(MPI_Comm_free(&dd));
    CHECK(dd == MPI_COMM_NULL);
    MPI_Comm s;
    OK(MPI_Comm_dup(MPI_COMM_SELF, &s));
    OK(MPI_Comm_size(s, &n));
    CHECK_INT(n, 1);
    OK(MPI_Comm_free(&s));

    /* the error handler is inherited */
    MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_RETURN);
    MPI_Comm e;
    OK(MPI_Comm_dup(MPI_COMM_WORLD, &e));
    MPI_Errhandler eh;
    OK(MPI_Comm_get_errhandler(e, &eh));
    CHECK(eh == MPI_ERRORS_RETURN);
    CHECK_INT(MPI_Comm_rank(e, NULL), MPI_ERR_ARG);
    OK(MPI_Comm_free(&e));

    /* with info: the hints given replace the parent's */
    MPI_Info info, got;
    OK(MPI_Info_create(&info));
    OK(MPI_Info_set(info, "loom_test_hint", "yes"));
    OK(MPI_Comm_set_info(d, info));
    OK(MPI_Info_free(&info));
    OK(MPI_Comm_dup(d, &dd)); /* plain dup keeps the parent's hints */
    OK(MPI_Comm_get_info(dd, &got));
    OK(MPI_Info_get_nkeys(got, &n));
    CHECK_INT(n, 1);
    OK(MPI_Info_free(&got));
    OK(MPI_Comm_free(&dd));
    OK(MPI_Info_create(&info));
    OK(MPI_Info_set(info, "other", "1"));
    OK(MPI_Comm_dup_with_info(d, info, &dd));
    OK(MPI_Info_free(&info));
    OK(MPI_Comm_get_info(dd, &got));
    char v[16];
    int flag;
    OK(MPI_Info_get(got, "loom_test_hint", sizeof v - 1, v, &flag));
    CHECK_INT(flag, 0);
    OK(MPI_Info_get(got, "other", sizeof v - 1, v, &flag));
    CHECK_INT(flag, 1);
    CHECK_STR(v, "1");
    OK(MPI_Info_free(&got));
    OK(MPI_Comm_compare(dd, MPI_COMM_WORLD, &cmp));
    CHECK_INT(cmp, MPI_CONGRUENT);
    OK(MPI_Barrier(dd));
    OK(MPI_Comm_free(&dd));
    OK(MPI_Comm_dup_with_info(d, MPI_INFO_NULL, &dd));
    OK(MPI_Comm_free(&dd));

    /* many dups alive at once, freed in another order */
    MPI_Comm many[16];
    for (int i = 0; i < 16; i++)
        OK(MPI_Comm_dup(i % 2 ? d : MPI_COMM_WORLD, &many[i]));
    for (int i = 0; i < 16; i++) {
        OK(MPI_Comm_rank(many[i], &r));
        CHECK_INT(r, rank);
    }
    for (int i = 15; i >= 0; i -= 2)
        OK(MPI_Comm_free(&many[i]));
    for (int i = 0; i < 16; i += 2)
        OK(MPI_Comm_free(&many[i]));
    OK(MPI_Comm_free(&d));
    MPI_Finalize();
    return 0;
}
