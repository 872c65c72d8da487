/* A reduction over more than INT_MAX elements, on real memory (about 4 GiB): MPI_Reduce_local_c
 * of 2^31 + 10 bytes with an int user function (MPI_Op_create), which the standard lets see at
 * most INT_MAX elements at once: loom calls it in pieces of at most INT_MAX (here INT_MAX then
 * 11), never with a truncated length; with a big-count function (MPI_Op_create_c), called
 * once with the whole MPI_Count length; and with MPI_BXOR. Every piece is checked by
 * sampling, and the pieces cover every element exactly once. */
#include <limits.h>
#include <stdint.h>
#include "coll_check.h"

static _Thread_local long long lens[8];
static _Thread_local int ncalls;
static _Thread_local size_t covered;

static void add_int(void *in, void *inout, int *len, MPI_Datatype *type)
{
    CHECK(*type == MPI_BYTE);
    CHECK(ncalls < 8);
    lens[ncalls++] = *len;
    const unsigned char *a = in;
    unsigned char *b = inout;
    for (int i = 0; i < *len; i++)
        b[i] = (unsigned char)(b[i] + a[i]);
    covered += (size_t)*len;
}

static void add_c(void *in, void *inout, MPI_Count *len, MPI_Datatype *type)
{
    CHECK(*type == MPI_BYTE);
    CHECK(ncalls < 8);
    lens[ncalls++] = *len;
    const unsigned char *a = in;
    unsigned char *b = inout;
    for (MPI_Count i = 0; i < *len; i++)
        b[i] = (unsigned char)(b[i] + a[i]);
    covered += (size_t)*len;
}

static unsigned char in_at(size_t i)
{
    return (unsigned char)(i * 7 + (i >> 20));
}

static unsigned char inout_at(size_t i)
{
    return (unsigned char)(i >> 8);
}

static void check(const unsigned char *b, size_t count, int times)
{
    for (size_t i = 0; i < count; i += 65521)
        CHECK_INT(b[i], (unsigned char)(inout_at(i) + times * in_at(i)));
    for (size_t i = (size_t)INT_MAX - 16; i < count; i++) /* across the pieces' border */
        CHECK_INT(b[i], (unsigned char)(inout_at(i) + times * in_at(i)));
}

int main(int argc, char **argv)
{
    MPI_Init(&argc, &argv);
    const MPI_Count count = (MPI_Count)INT_MAX + 11;
    unsigned char *a = malloc((size_t)count), *b = malloc((size_t)count);
    CHECK(a != NULL && b != NULL);
    for (size_t i = 0; i < (size_t)count; i++) {
        a[i] = in_at(i);
        b[i] = inout_at(i);
    }
    MPI_Op op_int, op_c;
    OK(MPI_Op_create(add_int, 1, &op_int));
    OK(MPI_Op_create_c(add_c, 1, &op_c));

    OK(MPI_Reduce_local_c(a, b, count, MPI_BYTE, op_int));
    CHECK_INT(ncalls, 2);
    CHECK_INT(lens[0], INT_MAX);
    CHECK_INT(lens[1], 11);
    CHECK_INT(covered, count);
    check(b, (size_t)count, 1);

    ncalls = 0;
    covered = 0;
    OK(MPI_Reduce_local_c(a, b, count, MPI_BYTE, op_c));
    CHECK_INT(ncalls, 1);
    CHECK_INT(lens[0], count);
    check(b, (size_t)count, 2);

    /* a predefined operation over all of it: b ^= a, twice, is b again */
    OK(MPI_Reduce_local_c(a, b, count, MPI_BYTE, MPI_BXOR));
    OK(MPI_Reduce_local_c(a, b, count, MPI_BYTE, MPI_BXOR));
    check(b, (size_t)count, 2);

    OK(MPI_Op_free(&op_int));
    OK(MPI_Op_free(&op_c));
    free(a);
    free(b);
    MPI_Finalize();
    return 0;
}
