/* Every call of this family with each bad argument it takes, under MPI_ERRORS_RETURN: the
 * standard's class comes back, nothing is changed, and the job goes on. */
#include <stdint.h>
#include <stdlib.h>
#include "misc_check.h"

static void memory(void)
{
    void *p = (void *)0x1;
    MPI_Info freed;
    OK(MPI_Info_create(&freed));
    MPI_Info stale = freed;
    OK(MPI_Info_free(&freed));
    FAILS(MPI_Alloc_mem(-1, MPI_INFO_NULL, &p), MPI_ERR_ARG);
    FAILS(MPI_Alloc_mem(8, stale, &p), MPI_ERR_INFO);
    FAILS(MPI_Alloc_mem(8, MPI_INFO_NULL, NULL), MPI_ERR_ARG);
    FAILS(MPI_Alloc_mem((MPI_Aint)1 << 62, MPI_INFO_NULL, &p), MPI_ERR_NO_MEM);
    CHECK(p == (void *)0x1);
    /* MPI_Free_mem takes only what MPI_Alloc_mem gave, once */
    int on_stack;
    FAILS(MPI_Free_mem(&on_stack), MPI_ERR_BASE);
    char *from_malloc = malloc(64);
    CHECK(from_malloc != NULL);
    FAILS(MPI_Free_mem(from_malloc), MPI_ERR_BASE);
    from_malloc[63] = 1; /* still ours: loom did not free it */
    free(from_malloc);
    char *b;
    OK(MPI_Alloc_mem(128, MPI_INFO_NULL, &b));
    FAILS(MPI_Free_mem(b + 64), MPI_ERR_BASE);
    b[127] = 1; /* the block lives on */
    OK(MPI_Free_mem(b));
    FAILS(MPI_Free_mem(b), MPI_ERR_BASE);
}

static void error_classes(void)
{
    int cls = -1, code = -1, len = 0;
    char text[MPI_MAX_ERROR_STRING];
    FAILS(MPI_Add_error_class(NULL), MPI_ERR_ARG);
    OK(MPI_Add_error_class(&cls));
    FAILS(MPI_Add_error_code(cls, NULL), MPI_ERR_ARG);
    FAILS(MPI_Add_error_code(MPI_SUCCESS, &code), MPI_ERR_ARG);
    FAILS(MPI_Add_error_code(-5, &code), MPI_ERR_ARG);
    FAILS(MPI_Add_error_code(cls + 1000000, &code), MPI_ERR_ARG);
    CHECK_INT(code, -1);
    OK(MPI_Add_error_code(cls, &code));
    int code2 = -1;
    FAILS(MPI_Add_error_code(code, &code2), MPI_ERR_ARG); /* a code is not a class */
    CHECK_INT(code2, -1);
    FAILS(MPI_Add_error_string(MPI_ERR_ARG, "mine"), MPI_ERR_ARG); /* predefined */
    FAILS(MPI_Add_error_string(MPI_SUCCESS, "mine"), MPI_ERR_ARG);
    FAILS(MPI_Add_error_string(code + 1000000, "mine"), MPI_ERR_ARG);
    FAILS(MPI_Add_error_string(-3, "mine"), MPI_ERR_ARG);
    FAILS(MPI_Add_error_string(code, NULL), MPI_ERR_ARG);
    char too_long[MPI_MAX_ERROR_STRING + 1] = {0};
    memset(too_long, 'x', MPI_MAX_ERROR_STRING);
    FAILS(MPI_Add_error_string(code, too_long), MPI_ERR_ARG);
    OK(MPI_Error_string(code, text, &len));
    CHECK_STR(text, ""); /* the refused strings were not kept */
    FAILS(MPI_Error_class(code + 1000000, &cls), MPI_ERR_ARG);
    FAILS(MPI_Error_string(code + 1000000, text, &len), MPI_ERR_ARG);
    FAILS(MPI_Comm_call_errhandler(MPI_COMM_NULL, code), MPI_ERR_COMM);
}

static void info(void)
{
    MPI_Info info, stale;
    OK(MPI_Info_create(&info));
    OK(MPI_Info_set(info, "k", "v"));
    OK(MPI_Info_create(&stale));
    MPI_Info freed = stale;
    OK(MPI_Info_free(&freed));
    char v[8] = "unset", long_key[MPI_MAX_INFO_KEY + 2];
    memset(long_key, 'k', sizeof long_key - 1);
    long_key[sizeof long_key - 1] = '\0';
    int len = 8, flag = -1;
    FAILS(MPI_Info_get_string(MPI_INFO_NULL, "k", &len, v, &flag), MPI_ERR_INFO);
    FAILS(MPI_Info_get_string(stale, "k", &len, v, &flag), MPI_ERR_INFO);
    FAILS(MPI_Info_get_string(info, NULL, &len, v, &flag), MPI_ERR_INFO_KEY);
    FAILS(MPI_Info_get_string(info, "", &len, v, &flag), MPI_ERR_INFO_KEY);
    FAILS(MPI_Info_get_string(info, long_key, &len, v, &flag), MPI_ERR_INFO_KEY);
    FAILS(MPI_Info_get_string(info, "k", NULL, v, &flag), MPI_ERR_ARG);
    FAILS(MPI_Info_get_string(info, "k", &len, v, NULL), MPI_ERR_ARG);
    FAILS(MPI_Info_get_string(info, "k", &len, NULL, &flag), MPI_ERR_ARG);
    len = -1;
    FAILS(MPI_Info_get_string(info, "k", &len, v, &flag), MPI_ERR_ARG);
    CHECK_INT(len, -1);
    CHECK_INT(flag, -1);
    CHECK_STR(v, "unset");
    MPI_Info out = MPI_INFO_NULL;
    char *args[] = {"prog", NULL};
    FAILS(MPI_Info_create_env(1, args, NULL), MPI_ERR_ARG);
    FAILS(MPI_Info_create_env(-1, args, &out), MPI_ERR_ARG);
    FAILS(MPI_Info_create_env(2, NULL, &out), MPI_ERR_ARG);
    CHECK(out == MPI_INFO_NULL);
    OK(MPI_Info_free(&info));
}

static void deprecated(void)
{
    int keyval = MPI_KEYVAL_INVALID, flag, *val, bl = 1;
    MPI_Aint a, disp = 0;
    MPI_Errhandler eh = MPI_ERRHANDLER_NULL;
    MPI_Datatype t = MPI_DATATYPE_NULL, bad_types[1] = {MPI_DATATYPE_NULL};
    static const long zeros[16];
    MPI_Errhandler junk = (MPI_Errhandler)(void *)zeros;
    FAILS(MPI_Keyval_create(MPI_NULL_COPY_FN, MPI_NULL_DELETE_FN, NULL, NULL), MPI_ERR_ARG);
    FAILS(MPI_Keyval_free(&keyval), MPI_ERR_KEYVAL);
    FAILS(MPI_Keyval_free(NULL), MPI_ERR_ARG);
    OK(MPI_Keyval_create(MPI_NULL_COPY_FN, MPI_NULL_DELETE_FN, &keyval, NULL));
    FAILS(MPI_Attr_put(MPI_COMM_NULL, keyval, &bl), MPI_ERR_COMM);
    FAILS(MPI_Attr_put(MPI_COMM_WORLD, MPI_TAG_UB, &bl), MPI_ERR_KEYVAL);
    FAILS(MPI_Attr_put(MPI_COMM_WORLD, 999999, &bl), MPI_ERR_KEYVAL);
    FAILS(MPI_Attr_get(MPI_COMM_NULL, keyval, &val, &flag), MPI_ERR_COMM);
    FAILS(MPI_Attr_get(MPI_COMM_WORLD, keyval, &val, NULL), MPI_ERR_ARG);
    FAILS(MPI_Attr_get(MPI_COMM_WORLD, keyval, NULL, &flag), MPI_ERR_ARG);
    FAILS(MPI_Attr_get(MPI_COMM_WORLD, 999999, &val, &flag), MPI_ERR_KEYVAL);
    FAILS(MPI_Attr_delete(MPI_COMM_NULL, keyval), MPI_ERR_COMM);
    FAILS(MPI_Attr_delete(MPI_COMM_WORLD, 999999), MPI_ERR_KEYVAL);
    OK(MPI_Keyval_free(&keyval));
    FAILS(MPI_Errhandler_create(NULL, &eh), MPI_ERR_ARG);
    FAILS(MPI_Errhandler_set(MPI_COMM_NULL, MPI_ERRORS_RETURN), MPI_ERR_COMM);
    FAILS(MPI_Errhandler_set(MPI_COMM_WORLD, junk), MPI_ERR_ARG);
    FAILS(MPI_Errhandler_set(MPI_COMM_WORLD, MPI_ERRHANDLER_NULL), MPI_ERR_ARG);
    FAILS(MPI_Errhandler_get(MPI_COMM_NULL, &eh), MPI_ERR_COMM);
    FAILS(MPI_Errhandler_get(MPI_COMM_WORLD, NULL), MPI_ERR_ARG);
    CHECK(eh == MPI_ERRHANDLER_NULL);
    FAILS(MPI_Type_extent(MPI_DATATYPE_NULL, &a), MPI_ERR_TYPE);
    FAILS(MPI_Type_extent(MPI_INT, NULL), MPI_ERR_ARG);
    FAILS(MPI_Type_lb(MPI_DATATYPE_NULL, &a), MPI_ERR_TYPE);
    FAILS(MPI_Type_lb(MPI_INT, NULL), MPI_ERR_ARG);
    FAILS(MPI_Type_ub(MPI_DATATYPE_NULL, &a), MPI_ERR_TYPE);
    FAILS(MPI_Type_ub(MPI_INT, NULL), MPI_ERR_ARG);
    FAILS(MPI_Type_hvector(-1, 1, 8, MPI_INT, &t), MPI_ERR_COUNT);
    FAILS(MPI_Type_hvector(1, -1, 8, MPI_INT, &t), MPI_ERR_ARG);
    FAILS(MPI_Type_hvector(1, 1, 8, MPI_DATATYPE_NULL, &t), MPI_ERR_TYPE);
    FAILS(MPI_Type_hvector(1, 1, 8, MPI_INT, NULL), MPI_ERR_ARG);
    FAILS(MPI_Type_hindexed(-1, &bl, &disp, MPI_INT, &t), MPI_ERR_COUNT);
    FAILS(MPI_Type_hindexed(1, NULL, &disp, MPI_INT, &t), MPI_ERR_ARG);
    FAILS(MPI_Type_hindexed(1, &bl, NULL, MPI_INT, &t), MPI_ERR_ARG);
    FAILS(MPI_Type_hindexed(1, &bl, &disp, MPI_DATATYPE_NULL, &t), MPI_ERR_TYPE);
    FAILS(MPI_Type_hindexed(1, &bl, &disp, MPI_INT, NULL), MPI_ERR_ARG);
    FAILS(MPI_Type_struct(-1, &bl, &disp, bad_types, &t), MPI_ERR_COUNT);
    FAILS(MPI_Type_struct(1, NULL, &disp, bad_types, &t), MPI_ERR_ARG);
    FAILS(MPI_Type_struct(1, &bl, NULL, bad_types, &t), MPI_ERR_ARG);
    FAILS(MPI_Type_struct(1, &bl, &disp, NULL, &t), MPI_ERR_ARG);
    FAILS(MPI_Type_struct(1, &bl, &disp, bad_types, &t), MPI_ERR_TYPE);
    CHECK(t == MPI_DATATYPE_NULL);
    FAILS(MPI_Address(&bl, NULL), MPI_ERR_ARG);
}

int main(int argc, char **argv)
{
    OK(MPI_Init(&argc, &argv));
    OK(MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_RETURN));
    memory();
    error_classes();
    info();
    deprecated();
    OK(MPI_Finalize());
    return 0;
}
