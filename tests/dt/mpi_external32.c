/* MPI_Pack_external / MPI_Unpack_external / MPI_Pack_external_size with "external32":
 * byte-exact encodings of known values of each kind of basic type (big-endian, the
 * standard's sizes: long 4 bytes, wchar 2, long double 16 in IEEE binary128), derived types
 * (no padding in the packed form), round trips back to native values, a running position,
 * and the errors: another datarep, overflow, and a long that does not fit 32 bits. */
#include <complex.h>
#include <stdint.h>
#include <wchar.h>
#include <mpi.h>
#include "comm_check.h"

/* Pack count elements of t at buf into external32 and compare with the bytes want[n]. */
static void expect_bytes(const void *buf, int count, MPI_Datatype t, const unsigned char *want,
                         int n)
{
    MPI_Aint size, pos = 0;
    unsigned char out[256];
    memset(out, 0xee, sizeof out);
    OK(MPI_Pack_external_size("external32", count, t, &size));
    CHECK_INT(size, n);
    OK(MPI_Pack_external("external32", buf, count, t, out, sizeof out, &pos));
    CHECK_INT(pos, n);
    for (int i = 0; i < n; i++)
        if (out[i] != want[i]) {
            fprintf(stderr, "byte %d is %02x, expected %02x\n", i, out[i], want[i]);
            CHECK(0);
        }
    CHECK_INT(out[n], 0xee); /* nothing beyond */
}

/* Unpack n bytes into count elements of t at buf; all n bytes consumed. */
static void unpack(const unsigned char *in, int n, void *buf, int count, MPI_Datatype t)
{
    MPI_Aint pos = 0;
    OK(MPI_Unpack_external("external32", in, n, &pos, buf, count, t));
    CHECK_INT(pos, n);
}

int main(int argc, char **argv)
{
    MPI_Init(&argc, &argv);
    OK(MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_RETURN));

    int i2[2] = {0x01020304, -2};
    static const unsigned char wi[] = {1, 2, 3, 4, 0xff, 0xff, 0xff, 0xfe};
    expect_bytes(i2, 2, MPI_INT, wi, 8);
    int ib[2];
    unpack(wi, 8, ib, 2, MPI_INT);
    CHECK(ib[0] == i2[0] && ib[1] == i2[1]);

    short s = -2;
    static const unsigned char ws[] = {0xff, 0xfe};
    expect_bytes(&s, 1, MPI_SHORT, ws, 2);

    long l[2] = {-5, 0x7fffffffL};
    static const unsigned char wl[] = {0xff, 0xff, 0xff, 0xfb, 0x7f, 0xff, 0xff, 0xff};
    expect_bytes(l, 2, MPI_LONG, wl, 8);
    long lb[2];
    unpack(wl, 8, lb, 2, MPI_LONG);
    CHECK(lb[0] == -5 && lb[1] == 0x7fffffffL);
    unsigned long ul = 0xfffffffeUL;
    static const unsigned char wul[] = {0xff, 0xff, 0xff, 0xfe};
    expect_bytes(&ul, 1, MPI_UNSIGNED_LONG, wul, 4);
    unsigned long ulb;
    unpack(wul, 4, &ulb, 1, MPI_UNSIGNED_LONG);
    CHECK(ulb == 0xfffffffeUL); /* zero-extended, not sign-extended */

    long long ll = -0x0102030405060708LL;
    static const unsigned char wll[] = {0xfe, 0xfd, 0xfc, 0xfb, 0xfa, 0xf9, 0xf8, 0xf8};
    expect_bytes(&ll, 1, MPI_LONG_LONG, wll, 8);

    wchar_t wc = L'A';
    static const unsigned char wwc[] = {0x00, 0x41};
    expect_bytes(&wc, 1, MPI_WCHAR, wwc, 2);

    char c3[3] = {'a', 'b', 'c'};
    expect_bytes(c3, 3, MPI_CHAR, (const unsigned char *)"abc", 3);
    _Bool bo = 1;
    static const unsigned char wbo[] = {1};
    expect_bytes(&bo, 1, MPI_C_BOOL, wbo, 1);
    uint16_t u16 = 0xabcd;
    static const unsigned char wu16[] = {0xab, 0xcd};
    expect_bytes(&u16, 1, MPI_UINT16_T, wu16, 2);
    MPI_Aint ai = 0x1122334455667788LL;
    static const unsigned char wai[] = {0x11, 0x22, 0x33, 0x44, 0x55, 0x66, 0x77, 0x88};
    expect_bytes(&ai, 1, MPI_AINT, wai, 8);

    float f = 1.5f;
    static const unsigned char wf[] = {0x3f, 0xc0, 0, 0};
    expect_bytes(&f, 1, MPI_FLOAT, wf, 4);
    double dd[2] = {1.0, -0.5};
    static const unsigned char wd[] = {0x3f, 0xf0, 0, 0, 0, 0, 0, 0, 0xbf, 0xe0, 0, 0, 0, 0, 0, 0};
    expect_bytes(dd, 2, MPI_DOUBLE, wd, 16);
    double db[2];
    unpack(wd, 16, db, 2, MPI_DOUBLE);
    CHECK(db[0] == 1.0 && db[1] == -0.5);

    /* long double as binary128: 1.0 is 3fff 0..., -2.5 is c000 4000 0... */
    long double ld[2] = {1.0L, -2.5L};
    unsigned char wld[32] = {0x3f, 0xff};
    wld[16] = 0xc0;
    wld[17] = 0x00;
    wld[18] = 0x40;
    expect_bytes(ld, 2, MPI_LONG_DOUBLE, wld, 32);
    long double ldb[2] = {0, 0};
    unpack(wld, 32, ldb, 2, MPI_LONG_DOUBLE);
    CHECK(ldb[0] == 1.0L && ldb[1] == -2.5L);
    long double third = 1.0L / 3.0L, thirdb = 0;
    unsigned char tmp[64];
    MPI_Aint pos = 0;
    OK(MPI_Pack_external("external32", &third, 1, MPI_LONG_DOUBLE, tmp, sizeof tmp, &pos));
    unpack(tmp, 16, &thirdb, 1, MPI_LONG_DOUBLE);
    CHECK(thirdb == third); /* every bit of the native form survives */

    float _Complex fc = 1.0f - 1.0f * I;
    static const unsigned char wfc[] = {0x3f, 0x80, 0, 0, 0xbf, 0x80, 0, 0};
    expect_bytes(&fc, 1, MPI_C_FLOAT_COMPLEX, wfc, 8);

    /* pair and derived types: members back to back, no padding */
    struct { double d; int i; } di = {2.0, 7};
    static const unsigned char wdi[] = {0x40, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 7};
    expect_bytes(&di, 1, MPI_DOUBLE_INT, wdi, 12);
    struct { char c; double d; short s; } st[2] = {{'x', 1.0, 3}, {'y', -0.5, -1}};
    MPI_Datatype ty[] = {MPI_CHAR, MPI_DOUBLE, MPI_SHORT}, t;
    int bl[] = {1, 1, 1};
    MPI_Aint disp[] = {offsetof(__typeof__(st[0]), c), offsetof(__typeof__(st[0]), d),
                       offsetof(__typeof__(st[0]), s)};
    OK(MPI_Type_create_struct(3, bl, disp, ty, &t));
    OK(MPI_Type_commit(&t));
    static const unsigned char wst[] = {'x', 0x3f, 0xf0, 0, 0, 0, 0, 0, 0, 0, 3,
                                        'y', 0xbf, 0xe0, 0, 0, 0, 0, 0, 0, 0xff, 0xff};
    expect_bytes(st, 2, t, wst, 22);
    __typeof__(st[0]) stb[2];
    memset(stb, 0, sizeof stb);
    unpack(wst, 22, stb, 2, t);
    CHECK(stb[0].c == 'x' && stb[0].d == 1.0 && stb[0].s == 3);
    CHECK(stb[1].c == 'y' && stb[1].d == -0.5 && stb[1].s == -1);
    OK(MPI_Type_free(&t));

    /* a vector of longs (every other one) within a running position */
    long lv[4] = {1, 99, -1, 99};
    MPI_Datatype vec;
    OK(MPI_Type_vector(2, 1, 2, MPI_LONG, &vec));
    OK(MPI_Type_commit(&vec));
    unsigned char buf[32];
    pos = 0;
    OK(MPI_Pack_external("external32", &s, 1, MPI_SHORT, buf, sizeof buf, &pos));
    OK(MPI_Pack_external("external32", lv, 1, vec, buf, sizeof buf, &pos));
    CHECK_INT(pos, 10);
    static const unsigned char wv[] = {0xff, 0xfe, 0, 0, 0, 1, 0xff, 0xff, 0xff, 0xff};
    CHECK(memcmp(buf, wv, 10) == 0);
    long lvb[4] = {0, 5, 0, 5};
    short sb = 0;
    pos = 0;
    OK(MPI_Unpack_external("external32", buf, 10, &pos, &sb, 1, MPI_SHORT));
    OK(MPI_Unpack_external("external32", buf, 10, &pos, lvb, 1, vec));
    CHECK(sb == -2 && lvb[0] == 1 && lvb[1] == 5 && lvb[2] == -1 && lvb[3] == 5);

    /* errors */
    pos = 0;
    CHECK_INT(MPI_Pack_external("native", lv, 1, vec, buf, sizeof buf, &pos), MPI_ERR_ARG);
    CHECK_INT(MPI_Pack_external("external32", lv, 1, vec, buf, 7, &pos), MPI_ERR_TRUNCATE);
    CHECK_INT(pos, 0);
    pos = 4;
    CHECK_INT(MPI_Unpack_external("external32", buf, 10, &pos, lvb, 1, vec), MPI_ERR_TRUNCATE);
    long big = 1L << 40;
    pos = 0;
    CHECK_INT(MPI_Pack_external("external32", &big, 1, MPI_LONG, buf, sizeof buf, &pos),
              MPI_ERR_CONVERSION);
    OK(MPI_Type_free(&vec));
    MPI_Finalize();
    return 0;
}
