/* MPI 4.1's status accessors (MPI_Status_set/get_source, _tag, _error), MPI_Pcontrol and
 * MPI_Type_get_value_index: values; their bad arguments are in errors.c and the walk. */
#include "small_check.h"

static void status_fields(int rank)
{
    MPI_Status st;
    int v = -1;
    OK(MPI_Status_set_source(&st, 3));
    OK(MPI_Status_set_tag(&st, 77));
    OK(MPI_Status_set_error(&st, MPI_ERR_TRUNCATE));
    CHECK_INT(st.MPI_SOURCE, 3);
    CHECK_INT(st.MPI_TAG, 77);
    CHECK_INT(st.MPI_ERROR, MPI_ERR_TRUNCATE);
    OK(MPI_Status_get_source(&st, &v));
    CHECK_INT(v, 3);
    OK(MPI_Status_get_tag(&st, &v));
    CHECK_INT(v, 77);
    OK(MPI_Status_get_error(&st, &v));
    CHECK_INT(v, MPI_ERR_TRUNCATE);
    /* the members written directly read back through the calls */
    st.MPI_SOURCE = MPI_PROC_NULL;
    st.MPI_TAG = MPI_ANY_TAG;
    st.MPI_ERROR = MPI_SUCCESS;
    OK(MPI_Status_get_source(&st, &v));
    CHECK_INT(v, MPI_PROC_NULL);
    OK(MPI_Status_get_tag(&st, &v));
    CHECK_INT(v, MPI_ANY_TAG);
    OK(MPI_Status_get_error(&st, &v));
    CHECK_INT(v, MPI_SUCCESS);
    /* setting a field leaves the count alone */
    int count = -1;
    OK(MPI_Status_set_elements(&st, MPI_INT, 5));
    OK(MPI_Status_set_source(&st, 1));
    OK(MPI_Get_count(&st, MPI_INT, &count));
    CHECK_INT(count, 5);
    /* a real receive's status, read through the calls */
    int x = rank, y = -1;
    OK(MPI_Sendrecv(&x, 1, MPI_INT, 0, 12, &y, 1, MPI_INT, MPI_ANY_SOURCE, MPI_ANY_TAG,
                    MPI_COMM_SELF, &st));
    OK(MPI_Status_get_source(&st, &v));
    CHECK_INT(v, 0); /* rank 0 of MPI_COMM_SELF */
    OK(MPI_Status_get_tag(&st, &v));
    CHECK_INT(v, 12);
}

static void value_index(void)
{
    static const struct {
        MPI_Datatype value, index, pair;
    } cases[] = {
        {MPI_FLOAT, MPI_INT, MPI_FLOAT_INT},
        {MPI_DOUBLE, MPI_INT, MPI_DOUBLE_INT},
        {MPI_LONG, MPI_INT, MPI_LONG_INT},
        {MPI_INT, MPI_INT, MPI_2INT},
        {MPI_SHORT, MPI_INT, MPI_SHORT_INT},
        {MPI_LONG_DOUBLE, MPI_INT, MPI_LONG_DOUBLE_INT},
        /* no such pair: MPI_DATATYPE_NULL, not an error */
        {MPI_INT, MPI_LONG, MPI_DATATYPE_NULL},
        {MPI_FLOAT, MPI_SHORT, MPI_DATATYPE_NULL},
        {MPI_CHAR, MPI_INT, MPI_DATATYPE_NULL},
        {MPI_FLOAT_INT, MPI_INT, MPI_DATATYPE_NULL},
    };
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        MPI_Datatype p = MPI_BYTE;
        OK(MPI_Type_get_value_index(cases[i].value, cases[i].index, &p));
        CHECK(p == cases[i].pair);
    }
    /* a derived type has no pair either */
    MPI_Datatype c, p = MPI_BYTE;
    OK(MPI_Type_contiguous(1, MPI_FLOAT, &c));
    OK(MPI_Type_get_value_index(c, MPI_INT, &p));
    CHECK(p == MPI_DATATYPE_NULL);
    OK(MPI_Type_free(&c));
    /* the pair works with MPI_MINLOC */
    struct {
        double v;
        int i;
    } in = {1.5, 4}, out = {0, -1};
    OK(MPI_Type_get_value_index(MPI_DOUBLE, MPI_INT, &p));
    OK(MPI_Allreduce(&in, &out, 1, p, MPI_MINLOC, MPI_COMM_SELF));
    CHECK(out.v == 1.5);
    CHECK_INT(out.i, 4);
}

int main(int argc, char **argv)
{
    int rank;
    MPI_Init(&argc, &argv);
    MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_RETURN);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    status_fields(rank);
    value_index();
    /* MPI_Pcontrol: any level, with or without more arguments, does nothing and succeeds */
    OK(MPI_Pcontrol(0));
    OK(MPI_Pcontrol(1));
    OK(MPI_Pcontrol(2, "more", 3.5, &rank));
    OK(PMPI_Pcontrol(-4, 1));
    MPI_Finalize();
    return 0;
}
