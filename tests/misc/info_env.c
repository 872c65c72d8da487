/* MPI_Info_create_env (before MPI_Init, with the program's arguments, with none, with other
 * ones) and MPI_INFO_ENV: the standard's keys that a loom job has, each with the value the
 * test finds on its own (the program, its arguments, the number of ranks, the host, the
 * architecture, the working directory, the thread level). MPI_Info_get_string: the value
 * truncated to *buflen - 1 characters, *buflen set to the whole length + 1, nothing changed
 * for a missing key. Run with the arguments "alpha beta". */
#define _GNU_SOURCE
#include <limits.h>
#include <stdlib.h>
#include <sys/utsname.h>
#include <unistd.h>
#include "misc_check.h"

static void get(MPI_Info info, const char *key, char *v)
{
    int len = MPI_MAX_INFO_VAL + 1, flag = 0;
    OK(MPI_Info_get_string(info, key, &len, v, &flag));
    if (!flag)
        fprintf(stderr, "key %s missing\n", key);
    CHECK(flag);
    CHECK_INT(len, (int)strlen(v) + 1);
}

/* The keys every env info has, against what the test finds itself. */
static void check_env(MPI_Info info, int nranks, const char *command, const char *args)
{
    char v[MPI_MAX_INFO_VAL + 1], want[PATH_MAX];
    get(info, "command", v);
    CHECK_STR(v, command);
    get(info, "argv", v);
    CHECK_STR(v, args);
    snprintf(want, sizeof want, "%d", nranks);
    get(info, "maxprocs", v);
    CHECK_STR(v, want);
    get(info, "soft", v);
    CHECK_STR(v, want);
    CHECK(gethostname(want, sizeof want) == 0);
    get(info, "host", v);
    CHECK_STR(v, want);
    struct utsname u;
    CHECK(uname(&u) == 0);
    get(info, "arch", v);
    CHECK_STR(v, u.machine);
    CHECK(getcwd(want, sizeof want) != NULL);
    get(info, "wdir", v);
    CHECK_STR(v, want);
    get(info, "thread_level", v);
    CHECK_STR(v, "MPI_THREAD_MULTIPLE");
}

static void get_string(void)
{
    MPI_Info info;
    OK(MPI_Info_create(&info));
    OK(MPI_Info_set(info, "k", "hello"));
    char v[16];
    int len = 0, flag = 0;
    OK(MPI_Info_get_string(info, "k", &len, NULL, &flag)); /* buflen 0: the length only */
    CHECK_INT(flag, 1);
    CHECK_INT(len, 6);
    memset(v, '#', sizeof v);
    len = 3;
    OK(MPI_Info_get_string(info, "k", &len, v, &flag));
    CHECK_INT(len, 6);
    CHECK_STR(v, "he");
    len = 6;
    OK(MPI_Info_get_string(info, "k", &len, v, &flag));
    CHECK_STR(v, "hello");
    len = (int)sizeof v;
    OK(MPI_Info_get_string(info, "k", &len, v, &flag));
    CHECK_INT(len, 6);
    CHECK_STR(v, "hello");
    len = 9;
    flag = 1;
    OK(MPI_Info_get_string(info, "absent", &len, v, &flag));
    CHECK_INT(flag, 0);
    CHECK_INT(len, 9); /* unchanged */
    CHECK_STR(v, "hello");
    OK(MPI_Info_free(&info));
}

int main(int argc, char **argv)
{
    CHECK_INT(argc, 3);
    MPI_Info before;
    OK(MPI_Info_create_env(argc, argv, &before)); /* before MPI_Init */
    OK(MPI_Init(&argc, &argv));
    int size;
    OK(MPI_Comm_size(MPI_COMM_WORLD, &size));
    check_env(before, size, argv[0], "alpha beta");
    OK(MPI_Info_free(&before));
    check_env(MPI_INFO_ENV, size, argv[0], "alpha beta");

    MPI_Info none, other;
    OK(MPI_Info_create_env(0, NULL, &none)); /* the rank's own arguments */
    check_env(none, size, argv[0], "alpha beta");
    OK(MPI_Info_free(&none));
    char *mine[] = {"prog", "x", "y z", NULL};
    OK(MPI_Info_create_env(3, mine, &other));
    check_env(other, size, "prog", "x y z");
    OK(MPI_Info_set(other, "extra", "1")); /* a user's info: it can change */
    OK(MPI_Info_free(&other));

    get_string();
    OK(MPI_Finalize());
    return 0;
}
