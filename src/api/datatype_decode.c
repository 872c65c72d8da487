/* api/datatype_decode.c — MPI_Type_get_envelope and MPI_Type_get_contents, and their
 * big-count _c forms: how a type was built, from the record its constructor left
 * (dt/contents.c). A big-count constructor's record has large counts, which only the _c
 * forms can return.
 *
 * get_contents returns the types the constructor was given: a predefined one as itself, a
 * derived one as a new handle on the same type (dt's clone: same layout, same record), which
 * the caller frees -- as the standard says, even when the original handle was freed long ago.
 * Calling get_contents on a named type is erroneous (MPI_ERR_ARG), as is an array too short
 * for the envelope's counts. Errors go to MPI_COMM_WORLD's handler (datatype calls have no
 * communicator). */
#include <limits.h>
#include "api/api.h"
#include "dt/dt.h"

#define FAIL(fn, cls, ...) loom__api_error(MPI_COMM_WORLD, fn, cls, __VA_ARGS__)

/* The int forms on a type made by a big-count constructor: they have no place for its large
 * counts, so they refuse it with MPI_ERR_TYPE (MPI 4.1 5.1.13: "a datatype that requires an
 * output value of num_large_counts > 0"; it is decoded with the _c forms); counts beyond an
 * int (an int constructor with more than INT_MAX integer arguments in all) are
 * MPI_ERR_VALUE_TOO_LARGE. MPI_SUCCESS or the class reported. */
static int check_int_form(const char *fn, const struct loom_dt_contents *c)
{
    if (c == NULL)
        return MPI_SUCCESS;
    if (c->nl > 0)
        return FAIL(fn, MPI_ERR_TYPE,
                    "datatype was made by a big-count constructor (%lld large counts): use %s_c",
                    c->nl, fn);
    if (c->ni > INT_MAX || c->na > INT_MAX || c->nd > INT_MAX)
        return FAIL(fn, MPI_ERR_VALUE_TOO_LARGE,
                    "the envelope's counts %lld, %lld, %lld do not fit an int", c->ni, c->na,
                    c->nd);
    return MPI_SUCCESS;
}

/* Both forms of get_envelope: n[] receives the numbers of integers, addresses, large counts
 * and datatypes. */
static int envelope(const char *fn, MPI_Datatype datatype, const void *num_integers,
                    const void *num_addresses, const void *num_large_counts,
                    const void *num_datatypes, const int *combiner, MPI_Count n[4])
{
    const char *why = loom__dt_bad_handle(datatype);
    if (why)
        return FAIL(fn, MPI_ERR_TYPE, "datatype %s", why);
    if (!num_integers || !num_addresses || !num_large_counts || !num_datatypes || !combiner)
        return FAIL(fn, MPI_ERR_ARG, "%s is NULL",
                    !num_integers       ? "num_integers"
                    : !num_addresses    ? "num_addresses"
                    : !num_large_counts ? "num_large_counts"
                    : !num_datatypes    ? "num_datatypes"
                                        : "combiner");
    const struct loom_dt_contents *c = datatype->contents;
    n[0] = c ? c->ni : 0;
    n[1] = c ? c->na : 0;
    n[2] = c ? c->nl : 0;
    n[3] = c ? c->nd : 0;
    return MPI_SUCCESS;
}

int loom__mpi_type_get_envelope(MPI_Datatype datatype, int *num_integers, int *num_addresses,
                                int *num_datatypes, int *combiner)
{
    LOOM_API_ENTER("MPI_Type_get_envelope");
    static const char fn[] = "MPI_Type_get_envelope";
    MPI_Count n[4];
    int rc = envelope(fn, datatype, num_integers, num_addresses, "", num_datatypes, combiner, n);
    if (rc)
        return rc;
    rc = check_int_form(fn, datatype->contents);
    if (rc)
        return rc;
    *num_integers = (int)n[0];
    *num_addresses = (int)n[1];
    *num_datatypes = (int)n[3];
    *combiner = loom__dt_combiner(datatype);
    return MPI_SUCCESS;
}

int loom__mpi_type_get_envelope_c(MPI_Datatype datatype, MPI_Count *num_integers,
                                  MPI_Count *num_addresses, MPI_Count *num_large_counts,
                                  MPI_Count *num_datatypes, int *combiner)
{
    LOOM_API_ENTER("MPI_Type_get_envelope_c");
    MPI_Count n[4];
    int rc = envelope("MPI_Type_get_envelope_c", datatype, num_integers, num_addresses,
                      num_large_counts, num_datatypes, combiner, n);
    if (rc)
        return rc;
    *num_integers = n[0];
    *num_addresses = n[1];
    *num_large_counts = n[2];
    *num_datatypes = n[3];
    *combiner = loom__dt_combiner(datatype);
    return MPI_SUCCESS;
}

/* Both forms of get_contents (the int form passes max_large_counts 0 and no array, and has
 * checked that the type has no large counts). */
static int contents(const char *fn, MPI_Datatype datatype, MPI_Count max_integers,
                    MPI_Count max_addresses, MPI_Count max_large_counts,
                    MPI_Count max_datatypes, int array_of_integers[],
                    MPI_Aint array_of_addresses[], MPI_Count array_of_large_counts[],
                    MPI_Datatype array_of_datatypes[], int int_form)
{
    const char *why = loom__dt_bad_handle(datatype);
    if (why)
        return FAIL(fn, MPI_ERR_TYPE, "datatype %s", why);
    const struct loom_dt_contents *c = datatype->contents;
    if (c == NULL)
        return FAIL(fn, MPI_ERR_ARG, "datatype %s is a named type (combiner MPI_COMBINER_NAMED)",
                    datatype->name);
    if (int_form) {
        int rc = check_int_form(fn, c);
        if (rc)
            return rc;
    }
    if (max_integers < c->ni || max_addresses < c->na || max_large_counts < c->nl ||
        max_datatypes < c->nd)
        return FAIL(fn, MPI_ERR_ARG,
                    "max_integers %lld, max_addresses %lld, max_large_counts %lld, "
                    "max_datatypes %lld are less than the envelope's %lld, %lld, %lld, %lld",
                    max_integers, max_addresses, max_large_counts, max_datatypes, c->ni, c->na,
                    c->nl, c->nd);
    if ((c->ni > 0 && !array_of_integers) || (c->na > 0 && !array_of_addresses) ||
        (c->nl > 0 && !array_of_large_counts) || (c->nd > 0 && !array_of_datatypes))
        return FAIL(fn, MPI_ERR_ARG, "array_of_%s is NULL",
                    c->ni > 0 && !array_of_integers        ? "integers"
                    : c->na > 0 && !array_of_addresses     ? "addresses"
                    : c->nl > 0 && !array_of_large_counts ? "large_counts"
                                                           : "datatypes");
    /* the handles first: nothing is written if one cannot be made */
    for (MPI_Count i = 0; i < c->nd; i++) {
        struct loom_datatype *m = c->types[i];
        int rc = m->predefined ? 0 : loom__dt_clone(m, &array_of_datatypes[i]);
        if (rc) {
            while (i-- > 0)
                if (!c->types[i]->predefined)
                    loom__dt_free(array_of_datatypes[i]);
            return loom__api_error_code(MPI_COMM_WORLD, fn, rc);
        }
        if (m->predefined)
            array_of_datatypes[i] = m;
    }
    for (MPI_Count i = 0; i < c->ni; i++)
        array_of_integers[i] = c->ints[i];
    for (MPI_Count i = 0; i < c->na; i++)
        array_of_addresses[i] = c->addrs[i];
    for (MPI_Count i = 0; i < c->nl; i++)
        array_of_large_counts[i] = c->large[i];
    return MPI_SUCCESS;
}

int loom__mpi_type_get_contents(MPI_Datatype datatype, int max_integers, int max_addresses,
                                int max_datatypes, int array_of_integers[],
                                MPI_Aint array_of_addresses[], MPI_Datatype array_of_datatypes[])
{
    LOOM_API_ENTER("MPI_Type_get_contents");
    return contents("MPI_Type_get_contents", datatype, max_integers, max_addresses, 0,
                    max_datatypes, array_of_integers, array_of_addresses, NULL,
                    array_of_datatypes, 1);
}

int loom__mpi_type_get_contents_c(MPI_Datatype datatype, MPI_Count max_integers,
                                  MPI_Count max_addresses, MPI_Count max_large_counts,
                                  MPI_Count max_datatypes, int array_of_integers[],
                                  MPI_Aint array_of_addresses[], MPI_Count array_of_large_counts[],
                                  MPI_Datatype array_of_datatypes[])
{
    LOOM_API_ENTER("MPI_Type_get_contents_c");
    return contents("MPI_Type_get_contents_c", datatype, max_integers, max_addresses,
                    max_large_counts, max_datatypes, array_of_integers, array_of_addresses,
                    array_of_large_counts, array_of_datatypes, 0);
}
