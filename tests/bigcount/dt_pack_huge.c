/* MPI_Pack_c and MPI_Unpack_c on real buffers beyond 2 GiB (two of 2^31 + 1 MiB bytes, about
 * 4 GiB in all: this test runs alone): a pack and an unpack of more than 2^31 elements,
 * unpacking and packing at positions beyond INT_MAX, types whose displacements go beyond
 * 2^31 bytes, and external32 at a position beyond INT_MAX. Bytes are checked in full where a
 * whole buffer moved (memcmp), else at the places the types name. One rank. */
#include <stdint.h>
#include <stdlib.h>
#include "dt_common.h"

#define G2 ((MPI_Count)1 << 31)
#define S (G2 + ((MPI_Count)1 << 20)) /* bytes of each buffer */

/* byte i of the source pattern (not periodic at any power of two) */
static unsigned char pattern(MPI_Count i)
{
    return (unsigned char)(i * 131 + (i >> 20) * 7 + (i >> 31));
}

int main(int argc, char **argv)
{
    MPI_Init(&argc, &argv);
    OK(MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_RETURN));
    unsigned char *b1 = malloc((size_t)S), *b2 = malloc((size_t)S); /* freed at the end */
    CHECK(b1 != NULL && b2 != NULL);
    for (MPI_Count i = 0; i < S; i++)
        b1[i] = pattern(i);

    /* more than 2^31 elements in one pack: the whole buffer, position ending beyond INT_MAX */
    MPI_Count pos = 0;
    OK(MPI_Pack_c(b1, S, MPI_BYTE, b2, S, &pos, MPI_COMM_WORLD));
    CHECK_INT(pos, S);
    CHECK(memcmp(b1, b2, (size_t)S) == 0);

    /* unpack at a position beyond INT_MAX */
    int ints[1000];
    pos = G2 + 12345;
    OK(MPI_Unpack_c(b2, S, &pos, ints, 1000, MPI_INT, MPI_COMM_WORLD));
    CHECK_INT(pos, G2 + 12345 + 4000);
    CHECK(memcmp(ints, b1 + G2 + 12345, sizeof ints) == 0);

    /* pack at a position beyond INT_MAX */
    double dv[3] = {1.5, -2.25, 1e300};
    pos = G2 + 777;
    OK(MPI_Pack_c(dv, 3, MPI_DOUBLE, b2, S, &pos, MPI_COMM_WORLD));
    CHECK_INT(pos, G2 + 777 + 24);
    CHECK(memcmp(b2 + G2 + 777, dv, sizeof dv) == 0);
    CHECK(b2[G2 + 776] == pattern(G2 + 776) && b2[G2 + 801] == pattern(G2 + 801));
    /* the last bytes of the buffer, and one beyond: truncation */
    pos = S - 16;
    OK(MPI_Pack_c(dv, 2, MPI_DOUBLE, b2, S, &pos, MPI_COMM_WORLD));
    CHECK_INT(pos, S);
    EXPECT(MPI_Pack_c(dv, 1, MPI_DOUBLE, b2, S, &pos, MPI_COMM_WORLD), MPI_ERR_TRUNCATE);

    /* a type with a displacement beyond 2^31 bytes, packed from the real buffer */
    MPI_Count bl[] = {16, 16}, d[] = {5, G2 + 99};
    MPI_Datatype t;
    OK(MPI_Type_create_hindexed_c(2, bl, d, MPI_BYTE, &t));
    OK(MPI_Type_commit(&t));
    unsigned char small[64];
    pos = 0;
    OK(MPI_Pack_c(b1, 1, t, small, sizeof small, &pos, MPI_COMM_WORLD));
    CHECK_INT(pos, 32);
    CHECK(memcmp(small, b1 + 5, 16) == 0 && memcmp(small + 16, b1 + G2 + 99, 16) == 0);
    /* ... and unpacked into it at the same places */
    memset(small, 0xA5, 32);
    pos = 0;
    OK(MPI_Unpack_c(small, sizeof small, &pos, b1, 1, t, MPI_COMM_WORLD));
    CHECK(b1[5] == 0xA5 && b1[G2 + 99 + 15] == 0xA5 && b1[G2 + 99 + 16] == pattern(G2 + 115));
    OK(MPI_Type_free(&t));

    /* a vector whose stride is beyond 2^31 bytes (2^30 + 1 shorts) */
    OK(MPI_Type_vector_c(2, 4, ((MPI_Count)1 << 30) + 1, MPI_SHORT, &t));
    OK(MPI_Type_commit(&t));
    pos = 0;
    OK(MPI_Pack_c(b2, 1, t, small, sizeof small, &pos, MPI_COMM_WORLD));
    CHECK_INT(pos, 16);
    CHECK(memcmp(small, b2, 8) == 0 && memcmp(small + 8, b2 + G2 + 2, 8) == 0);
    OK(MPI_Type_free(&t));

    /* external32 at a position beyond INT_MAX: big-endian ints */
    int iv[3] = {1, -2, 0x01020304}, back[3] = {0};
    pos = G2 + 1001;
    OK(MPI_Pack_external_c("external32", iv, 3, MPI_INT, b2, S, &pos));
    CHECK_INT(pos, G2 + 1013);
    unsigned char *e = b2 + G2 + 1001;
    CHECK(e[3] == 1 && e[4] == 0xFF && e[7] == 0xFE && e[8] == 1 && e[11] == 4);
    pos = G2 + 1001;
    OK(MPI_Unpack_external_c("external32", b2, S, &pos, back, 3, MPI_INT));
    CHECK_INT(pos, G2 + 1013);
    CHECK(back[0] == 1 && back[1] == -2 && back[2] == 0x01020304);

    /* more than 2^31 elements in one unpack: b2 (changed above) back into b1 */
    pos = 0;
    OK(MPI_Unpack_c(b2, S, &pos, b1, S, MPI_BYTE, MPI_COMM_WORLD));
    CHECK_INT(pos, S);
    CHECK(memcmp(b1, b2, (size_t)S) == 0);
    CHECK(memcmp(b1 + G2 + 777, dv, sizeof dv) == 0);
    free(b1);
    free(b2);
    MPI_Finalize();
    return 0;
}
