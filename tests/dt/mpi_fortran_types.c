/* The Fortran named datatypes seen from C (mpi.h LOOM_FOREACH_FORTRAN_TYPE): gfortran's sizes
 * and extents, names, envelopes (named), the optional types gfortran lacks being null, each
 * type sent and received between ranks (ring), the pairs counted as two elements, and
 * external32 packing of a few. */
#include <string.h>
#include <mpi.h>
#include "comm_check.h"

struct shape {
    MPI_Datatype t;
    const char *name;
    int size;
};

static const struct shape shapes[] = {
    {MPI_INTEGER, "MPI_INTEGER", 4},
    {MPI_REAL, "MPI_REAL", 4},
    {MPI_DOUBLE_PRECISION, "MPI_DOUBLE_PRECISION", 8},
    {MPI_COMPLEX, "MPI_COMPLEX", 8},
    {MPI_DOUBLE_COMPLEX, "MPI_DOUBLE_COMPLEX", 16},
    {MPI_LOGICAL, "MPI_LOGICAL", 4},
    {MPI_CHARACTER, "MPI_CHARACTER", 1},
    {MPI_2REAL, "MPI_2REAL", 8},
    {MPI_2DOUBLE_PRECISION, "MPI_2DOUBLE_PRECISION", 16},
    {MPI_2INTEGER, "MPI_2INTEGER", 8},
    {MPI_INTEGER1, "MPI_INTEGER1", 1},
    {MPI_INTEGER2, "MPI_INTEGER2", 2},
    {MPI_INTEGER4, "MPI_INTEGER4", 4},
    {MPI_INTEGER8, "MPI_INTEGER8", 8},
    {MPI_INTEGER16, "MPI_INTEGER16", 16},
    {MPI_REAL4, "MPI_REAL4", 4},
    {MPI_REAL8, "MPI_REAL8", 8},
    {MPI_REAL16, "MPI_REAL16", 16},
    {MPI_COMPLEX8, "MPI_COMPLEX8", 8},
    {MPI_COMPLEX16, "MPI_COMPLEX16", 16},
    {MPI_COMPLEX32, "MPI_COMPLEX32", 32},
};
#define NSHAPES (int)(sizeof shapes / sizeof shapes[0])

static void describe(const struct shape *s)
{
    int size, len, ni, na, nd, comb;
    MPI_Aint lb, ext, tlb, text;
    char name[MPI_MAX_OBJECT_NAME];
    OK(MPI_Type_size(s->t, &size));
    CHECK_INT(size, s->size);
    OK(MPI_Type_get_extent(s->t, &lb, &ext));
    CHECK_INT(lb, 0);
    CHECK_INT(ext, s->size);
    OK(MPI_Type_get_true_extent(s->t, &tlb, &text));
    CHECK_INT(text, s->size);
    OK(MPI_Type_get_name(s->t, name, &len));
    CHECK_STR(name, s->name);
    CHECK_INT(len, (int)strlen(s->name));
    OK(MPI_Type_get_envelope(s->t, &ni, &na, &nd, &comb));
    CHECK_INT(comb, MPI_COMBINER_NAMED);
    CHECK_INT(MPI_Type_free((MPI_Datatype[]){s->t}), MPI_ERR_TYPE); /* predefined */
}

/* Each type around a ring: 3 elements of bytes that say who sent them. */
static void ring(int rank, int size)
{
    int to = (rank + 1) % size, from = (rank + size - 1) % size;
    for (int i = 0; i < NSHAPES; i++) {
        unsigned char out[3 * 32], in[3 * 32 + 8];
        int n = 3 * shapes[i].size;
        for (int b = 0; b < n; b++)
            out[b] = (unsigned char)(rank * 31 + i * 7 + b);
        memset(in, 0xee, sizeof in);
        MPI_Status st;
        OK(MPI_Sendrecv(out, 3, shapes[i].t, to, i, in, 3, shapes[i].t, from, i,
                        MPI_COMM_WORLD, &st));
        for (int b = 0; b < n; b++)
            CHECK_INT(in[b], (unsigned char)(from * 31 + i * 7 + b));
        CHECK_INT(in[n], 0xee);
        int count;
        OK(MPI_Get_count(&st, shapes[i].t, &count));
        CHECK_INT(count, 3);
    }
}

int main(int argc, char **argv)
{
    MPI_Init(&argc, &argv);
    OK(MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_RETURN));
    for (int i = 0; i < NSHAPES; i++)
        describe(&shapes[i]);
    /* the gfortran layouts a C program may rely on */
    CHECK_INT(sizeof(MPI_Fint), 4);
    CHECK(MPI_REAL2 == MPI_DATATYPE_NULL);
    CHECK(MPI_COMPLEX4 == MPI_DATATYPE_NULL);
    CHECK(MPI_INTEGER != MPI_INTEGER4 && MPI_REAL != MPI_REAL4); /* distinct named types */

    /* a pair is two basic elements */
    MPI_Status st;
    int n;
    OK(MPI_Status_set_elements(&st, MPI_2DOUBLE_PRECISION, 3));
    OK(MPI_Get_elements(&st, MPI_2DOUBLE_PRECISION, &n));
    CHECK_INT(n, 3);
    OK(MPI_Get_elements(&st, MPI_DOUBLE_PRECISION, &n));
    CHECK_INT(n, 3);
    OK(MPI_Get_count(&st, MPI_2DOUBLE_PRECISION, &n));
    CHECK_INT(n, MPI_UNDEFINED); /* 3 doubles are one pair and a half */

    /* derived types of Fortran types, and external32 (big-endian) */
    MPI_Datatype v;
    OK(MPI_Type_vector(2, 1, 2, MPI_DOUBLE_PRECISION, &v));
    OK(MPI_Type_commit(&v));
    MPI_Aint ext;
    OK(MPI_Type_get_extent(v, (MPI_Aint[]){0}, &ext));
    CHECK_INT(ext, 24);
    OK(MPI_Type_free(&v));
    MPI_Fint ints[2] = {1, 0x01020304};
    unsigned char ext32[8];
    MPI_Aint pos = 0, es;
    OK(MPI_Pack_external_size("external32", 2, MPI_INTEGER, &es));
    CHECK_INT(es, 8);
    OK(MPI_Pack_external("external32", ints, 2, MPI_INTEGER, ext32, sizeof ext32, &pos));
    CHECK(ext32[3] == 1 && ext32[4] == 1 && ext32[7] == 4);
    OK(MPI_Pack_external_size("external32", 1, MPI_COMPLEX32, &es));
    CHECK_INT(es, 32);

    ring(world_rank(), world_size());
    MPI_Finalize();
    return 0;
}
