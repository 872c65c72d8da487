/* The MPI-1/2 names MPICH and Open MPI still declare, each doing what its modern equivalent
 * does: keyvals and attributes (copied by MPI_DUP_FN on a dup, deleted through the delete
 * callback), error handlers (set, got back, called on an error), type bounds (against
 * MPI_Type_get_extent on a resized type), hvector / hindexed / struct (the same layout as
 * the modern calls: same size, extent and packed bytes, and a message sent with one received
 * with the other), and MPI_Address. */
#include <stdint.h>
#include "misc_check.h"

static int deleted(MPI_Comm comm, int keyval, void *val, void *extra)
{
    (void)comm, (void)keyval;
    *(int *)extra += *(int *)val; /* extra_state: the rank's own counter */
    return MPI_SUCCESS;
}

static _Thread_local int handled_class = -1; /* the rank's thread runs its handler */
static void handler(MPI_Comm *comm, int *code, ...)
{
    (void)comm;
    MPI_Error_class(*code, &handled_class);
}

static void attributes(void)
{
    int keyval, count = 0, val = 5, *got, flag = 0;
    OK(MPI_Keyval_create(MPI_DUP_FN, deleted, &keyval, &count));
    OK(MPI_Attr_put(MPI_COMM_WORLD, keyval, &val));
    OK(MPI_Attr_get(MPI_COMM_WORLD, keyval, &got, &flag));
    CHECK(flag && got == &val);
    MPI_Comm dup;
    OK(MPI_Comm_dup(MPI_COMM_WORLD, &dup));
    OK(MPI_Comm_get_attr(dup, keyval, &got, &flag)); /* the modern call sees it */
    CHECK(flag && got == &val);
    OK(MPI_Attr_delete(dup, keyval));
    CHECK_INT(count, 5);
    OK(MPI_Attr_get(dup, keyval, &got, &flag));
    CHECK_INT(flag, 0);
    OK(MPI_Comm_free(&dup));
    OK(MPI_Attr_delete(MPI_COMM_WORLD, keyval));
    CHECK_INT(count, 10);
    OK(MPI_Keyval_free(&keyval));
    CHECK_INT(keyval, MPI_KEYVAL_INVALID);
    int *ub;
    OK(MPI_Attr_get(MPI_COMM_WORLD, MPI_TAG_UB, &ub, &flag));
    CHECK(flag && *ub >= 32767);
}

static void errhandlers(void)
{
    MPI_Errhandler eh, got;
    OK(MPI_Errhandler_create(handler, &eh));
    OK(MPI_Errhandler_set(MPI_COMM_WORLD, eh));
    OK(MPI_Errhandler_get(MPI_COMM_WORLD, &got));
    CHECK(got == eh);
    OK(MPI_Errhandler_free(&got));
    int size, x = 0;
    OK(MPI_Comm_size(MPI_COMM_WORLD, &size));
    MPI_Send(&x, 1, MPI_INT, size, 0, MPI_COMM_WORLD); /* a bad rank: the handler runs */
    CHECK_INT(handled_class, MPI_ERR_RANK);
    OK(MPI_Errhandler_set(MPI_COMM_WORLD, MPI_ERRORS_RETURN));
    OK(MPI_Errhandler_free(&eh));
}

static void bounds(void)
{
    MPI_Datatype t;
    OK(MPI_Type_create_resized(MPI_INT, -4, 16, &t));
    MPI_Aint lb, ub, extent, glb, gextent;
    OK(MPI_Type_get_extent(t, &glb, &gextent));
    OK(MPI_Type_extent(t, &extent));
    OK(MPI_Type_lb(t, &lb));
    OK(MPI_Type_ub(t, &ub));
    CHECK_INT(extent, gextent);
    CHECK_INT(lb, glb);
    CHECK_INT(ub, glb + gextent);
    CHECK_INT(lb, -4);
    CHECK_INT(ub, 12);
    OK(MPI_Type_free(&t));
    OK(MPI_Type_extent(MPI_DOUBLE, &extent));
    CHECK_INT(extent, sizeof(double));
}

/* old and new describe the same layout: same size and extent, same packed bytes of src */
static void same_layout(MPI_Datatype old, MPI_Datatype mod, const void *src)
{
    OK(MPI_Type_commit(&old));
    OK(MPI_Type_commit(&mod));
    int s1, s2;
    MPI_Aint lb1, e1, lb2, e2;
    OK(MPI_Type_size(old, &s1));
    OK(MPI_Type_size(mod, &s2));
    CHECK_INT(s1, s2);
    OK(MPI_Type_get_extent(old, &lb1, &e1));
    OK(MPI_Type_get_extent(mod, &lb2, &e2));
    CHECK_INT(lb1, lb2);
    CHECK_INT(e1, e2);
    char p1[512], p2[512];
    int pos1 = 0, pos2 = 0;
    OK(MPI_Pack(src, 1, old, p1, sizeof p1, &pos1, MPI_COMM_WORLD));
    OK(MPI_Pack(src, 1, mod, p2, sizeof p2, &pos2, MPI_COMM_WORLD));
    CHECK_INT(pos1, pos2);
    CHECK(memcmp(p1, p2, (size_t)pos1) == 0);
    /* a message sent with the deprecated type arrives right through the modern one */
    int rank, size;
    OK(MPI_Comm_rank(MPI_COMM_WORLD, &rank));
    OK(MPI_Comm_size(MPI_COMM_WORLD, &size));
    char dst[256];
    memset(dst, 0, sizeof dst);
    OK(MPI_Sendrecv(src, 1, old, rank, 7, dst, 1, mod, rank, 7, MPI_COMM_WORLD,
                    MPI_STATUS_IGNORE));
    int pos3 = 0;
    char p3[512];
    OK(MPI_Pack(dst, 1, mod, p3, sizeof p3, &pos3, MPI_COMM_WORLD));
    CHECK(memcmp(p1, p3, (size_t)pos1) == 0);
    OK(MPI_Type_free(&old));
    OK(MPI_Type_free(&mod));
}

static void constructors(void)
{
    char src[256];
    for (int i = 0; i < 256; i++)
        src[i] = (char)(i * 7 + 1);
    MPI_Datatype a, b;
    OK(MPI_Type_hvector(3, 2, 24, MPI_INT, &a));
    OK(MPI_Type_create_hvector(3, 2, 24, MPI_INT, &b));
    same_layout(a, b, src);
    int bl[3] = {1, 3, 2};
    MPI_Aint disp[3] = {40, 0, 100};
    OK(MPI_Type_hindexed(3, bl, disp, MPI_SHORT, &a));
    OK(MPI_Type_create_hindexed(3, bl, disp, MPI_SHORT, &b));
    same_layout(a, b, src);
    MPI_Datatype types[3] = {MPI_CHAR, MPI_DOUBLE, MPI_INT};
    MPI_Aint sdisp[3] = {0, 8, 32};
    OK(MPI_Type_struct(3, bl, sdisp, types, &a));
    OK(MPI_Type_create_struct(3, bl, sdisp, types, &b));
    same_layout(a, b, src);
}

int main(int argc, char **argv)
{
    OK(MPI_Init(&argc, &argv));
    attributes();
    errhandlers();
    bounds();
    constructors();
    int x;
    MPI_Aint a1, a2;
    OK(MPI_Address(&x, &a1));
    OK(MPI_Get_address(&x, &a2));
    CHECK_INT(a1, a2);
    CHECK(a1 == (MPI_Aint)(uintptr_t)&x);
    OK(MPI_Finalize());
    return 0;
}
