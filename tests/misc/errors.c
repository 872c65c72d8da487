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

int main(int argc, char **argv)
{
    OK(MPI_Init(&argc, &argv));
    OK(MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_RETURN));
    memory();
    error_classes();
    info();
    OK(MPI_Finalize());
    return 0;
}
