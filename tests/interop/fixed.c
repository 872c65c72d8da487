/* Fixed Fortran handles (core/fhandle_fixed.h): every predefined handle converts to the index
 * the list gives it and back, before MPI_Init, after it, and (built as fixed_no_ranks) in a
 * process that never starts a rank; the indices are distinct and inside the reserved range;
 * a handle made at run time gets an index above it; integers of the reserved range that name
 * nothing, and handles of another kind, are refused. */
#include <stdlib.h>
#include <string.h>
#include "check.h"
#include "core/fhandle_fixed.h"
#include "mpi.h"

/* The c2f / f2c of a handle's kind, chosen by its C type. */
#define C2F(h)                                                                                 \
    _Generic((h), MPI_Comm: MPI_Comm_c2f, MPI_Group: MPI_Group_c2f,                            \
             MPI_Errhandler: MPI_Errhandler_c2f, MPI_Info: MPI_Info_c2f,                       \
             MPI_Message: MPI_Message_c2f, MPI_Op: MPI_Op_c2f, MPI_Datatype: MPI_Type_c2f)(h)
#define F2C(h, f)                                                                              \
    _Generic((h), MPI_Comm: MPI_Comm_f2c, MPI_Group: MPI_Group_f2c,                            \
             MPI_Errhandler: MPI_Errhandler_f2c, MPI_Info: MPI_Info_f2c,                       \
             MPI_Message: MPI_Message_f2c, MPI_Op: MPI_Op_f2c, MPI_Datatype: MPI_Type_f2c)(f)

static int cmp(const void *a, const void *b)
{
    return *(const int *)a - *(const int *)b;
}

/* Every entry and alias round-trips; indices are distinct and reserved. */
static void round_trips(void)
{
    int seen[256], n = 0;
#define X(handle, index)                                                                       \
    CHECK_INT(C2F(handle), index);                                                             \
    CHECK(F2C(handle, index) == (handle));                                                     \
    CHECK(index > 0 && index <= LOOM_FHANDLE_FIXED_LAST);                                      \
    seen[n++] = index;
    LOOM_FOREACH_FIXED_FHANDLE(X)
#undef X
#define X(handle, index)                                                                       \
    CHECK_INT(C2F(handle), index);                                                             \
    CHECK(F2C(handle, index) == (handle));
    LOOM_FOREACH_FIXED_FHANDLE_ALIAS(X)
#undef X
    qsort(seen, (size_t)n, sizeof seen[0], cmp);
    for (int i = 1; i < n; i++)
        CHECK(seen[i] != seen[i - 1]);
    /* a few by name, as a Fortran program spells them */
    CHECK_INT(MPI_Comm_c2f(MPI_COMM_WORLD), 1);
    CHECK_INT(MPI_Comm_c2f(MPI_COMM_SELF), 2);
    CHECK(MPI_Type_f2c(MPI_Type_c2f(MPI_INTEGER)) == MPI_INTEGER);
    CHECK(MPI_Type_c2f(MPI_INTEGER) != MPI_Type_c2f(MPI_INTEGER4));
    CHECK_INT(MPI_Type_c2f(MPI_REAL2), 0); /* gfortran has no REAL(2): the null type */
}

/* Everything a program can check without a rank: conversions only. */
static void refused(void)
{
    /* inside the reserved range but naming nothing: not the null handle, and every kind
     * refuses another kind's index */
    CHECK(MPI_Comm_f2c(9) != MPI_COMM_NULL);
    CHECK(MPI_Type_f2c(LOOM_FHANDLE_FIXED_LAST) != MPI_DATATYPE_NULL);
}

#ifdef FIXED_NO_RANKS
/* Built with LOOM_NO_MAIN_RENAME: this main is the process's, no rank ever starts. */
int main(void)
{
    round_trips();
    refused();
    puts("fixed handles: ok without ranks");
    return 0;
}
#else
int main(int argc, char **argv)
{
    round_trips(); /* before MPI_Init */
    refused();
    MPI_Init(&argc, &argv);
    MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_RETURN);
    round_trips();

    int size;
    CHECK_INT(MPI_Comm_size(MPI_Comm_f2c(9), &size), MPI_ERR_COMM);
    CHECK_INT(MPI_Comm_size(MPI_Comm_f2c(LOOM_FHANDLE_FIXED_LAST), &size), MPI_ERR_COMM);
    CHECK_INT(MPI_Type_size(MPI_Type_f2c(LOOM_FHANDLE_FIXED_LAST + 5000), &size), MPI_ERR_TYPE);
    CHECK_INT(MPI_Comm_size(MPI_Comm_f2c(MPI_Type_c2f(MPI_INTEGER)), &size), MPI_ERR_COMM);
    CHECK_INT(MPI_Type_size(MPI_Type_f2c(MPI_Comm_c2f(MPI_COMM_WORLD)), &size), MPI_ERR_TYPE);
    /* usable through the fixed index */
    CHECK_INT(MPI_Comm_size(MPI_Comm_f2c(1), &size), MPI_SUCCESS);
    CHECK_INT(MPI_Type_size(MPI_Type_f2c(MPI_Type_c2f(MPI_DOUBLE_PRECISION)), &size),
              MPI_SUCCESS);
    CHECK_INT(size, 8);

    /* made at run time: above the fixed range, and still distinct */
    MPI_Comm dup;
    CHECK_INT(MPI_Comm_dup(MPI_COMM_WORLD, &dup), MPI_SUCCESS);
    MPI_Fint fdup = MPI_Comm_c2f(dup);
    CHECK(fdup > LOOM_FHANDLE_FIXED_LAST);
    CHECK(MPI_Comm_f2c(fdup) == dup);
    MPI_Datatype t;
    CHECK_INT(MPI_Type_contiguous(2, MPI_INTEGER, &t), MPI_SUCCESS);
    MPI_Fint ft = MPI_Type_c2f(t);
    CHECK(ft > LOOM_FHANDLE_FIXED_LAST && ft != fdup);
    CHECK_INT(MPI_Type_free(&t), MPI_SUCCESS);
    CHECK_INT(MPI_Comm_free(&dup), MPI_SUCCESS);
    MPI_Barrier(MPI_COMM_WORLD); /* every rank converted before any finalizes */
    round_trips();
    MPI_Finalize();
    round_trips(); /* after MPI_Finalize too */
    return 0;
}
#endif
