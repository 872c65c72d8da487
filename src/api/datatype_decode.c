/* api/datatype_decode.c — MPI_Type_get_envelope and MPI_Type_get_contents: how a type was
 * built, from the record its constructor left (dt/contents.c).
 *
 * get_contents returns the types the constructor was given: a predefined one as itself, a
 * derived one as a new handle on the same type (dt's clone: same layout, same record), which
 * the caller frees -- as the standard says, even when the original handle was freed long ago.
 * Calling get_contents on a named type is erroneous (MPI_ERR_ARG), as is an array too short
 * for the envelope's counts. Errors go to MPI_COMM_WORLD's handler (datatype calls have no
 * communicator). */
#include "api/api.h"
#include "dt/dt.h"

#define FAIL(fn, cls, ...) loom__api_error(MPI_COMM_WORLD, fn, cls, __VA_ARGS__)

int loom__mpi_type_get_envelope(MPI_Datatype datatype, int *num_integers, int *num_addresses,
                                int *num_datatypes, int *combiner)
{
    LOOM_API_ENTER("MPI_Type_get_envelope");
    static const char fn[] = "MPI_Type_get_envelope";
    const char *why = loom__dt_bad_handle(datatype);
    if (why)
        return FAIL(fn, MPI_ERR_TYPE, "datatype %s", why);
    if (!num_integers || !num_addresses || !num_datatypes || !combiner)
        return FAIL(fn, MPI_ERR_ARG, "%s is NULL",
                    !num_integers    ? "num_integers"
                    : !num_addresses ? "num_addresses"
                    : !num_datatypes ? "num_datatypes"
                                     : "combiner");
    const struct loom_dt_contents *c = datatype->contents;
    *num_integers = c ? c->ni : 0;
    *num_addresses = c ? c->na : 0;
    *num_datatypes = c ? c->nd : 0;
    *combiner = loom__dt_combiner(datatype);
    return MPI_SUCCESS;
}

int loom__mpi_type_get_contents(MPI_Datatype datatype, int max_integers, int max_addresses,
                                int max_datatypes, int array_of_integers[],
                                MPI_Aint array_of_addresses[], MPI_Datatype array_of_datatypes[])
{
    LOOM_API_ENTER("MPI_Type_get_contents");
    static const char fn[] = "MPI_Type_get_contents";
    const char *why = loom__dt_bad_handle(datatype);
    if (why)
        return FAIL(fn, MPI_ERR_TYPE, "datatype %s", why);
    const struct loom_dt_contents *c = datatype->contents;
    if (c == NULL)
        return FAIL(fn, MPI_ERR_ARG, "datatype %s is a named type (combiner MPI_COMBINER_NAMED)",
                    datatype->name);
    if (max_integers < c->ni || max_addresses < c->na || max_datatypes < c->nd)
        return FAIL(fn, MPI_ERR_ARG,
                    "max_integers %d, max_addresses %d, max_datatypes %d are less than the "
                    "envelope's %d, %d, %d",
                    max_integers, max_addresses, max_datatypes, c->ni, c->na, c->nd);
    if ((c->ni > 0 && !array_of_integers) || (c->na > 0 && !array_of_addresses) ||
        (c->nd > 0 && !array_of_datatypes))
        return FAIL(fn, MPI_ERR_ARG, "array_of_%s is NULL",
                    c->ni > 0 && !array_of_integers    ? "integers"
                    : c->na > 0 && !array_of_addresses ? "addresses"
                                                       : "datatypes");
    /* the handles first: nothing is written if one cannot be made */
    for (int i = 0; i < c->nd; i++) {
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
    for (int i = 0; i < c->ni; i++)
        array_of_integers[i] = c->ints[i];
    for (int i = 0; i < c->na; i++)
        array_of_addresses[i] = c->addrs[i];
    return MPI_SUCCESS;
}
