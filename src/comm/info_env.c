/* comm/info_env.c — the contents of MPI_INFO_ENV and of MPI_Info_create_env's info.
 *
 * The standard's keys (MPI 4.1, section 11.2.4) and what they are in loom, one process whose
 * ranks are threads:
 *   command       the program (argv[0])
 *   argv          its arguments after the command, separated by spaces
 *   maxprocs      the number of ranks (loomrun -n, LOOM_NP)
 *   soft          the same: loom starts exactly that many ranks
 *   host          the machine's name (gethostname)
 *   arch          the machine's architecture (uname -m)
 *   wdir          the working directory at the time of the call
 *   thread_level  MPI_THREAD_MULTIPLE: what loom provides to every rank
 * `file` (an mpiexec argument) has no meaning here and is left out, as are values longer than
 * MPI_MAX_INFO_VAL. */
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/utsname.h>
#include <unistd.h>
#include "comm/comm.h"
#include "core/error.h"

/* Set key to value unless the value is too long for an info (then the key is left out). */
static int set_fit(struct loom_info *info, const char *key, const char *value)
{
    if (strlen(value) > MPI_MAX_INFO_VAL)
        return 0;
    return loom__info_set(info, key, value);
}

static int set_command(struct loom_info *info, int argc, char **argv)
{
    if (argv == NULL || argc < 1 || argv[0] == NULL)
        return 0;
    int rc = set_fit(info, "command", argv[0]);
    size_t len = 1;
    for (int i = 1; i < argc && argv[i] != NULL; i++)
        len += strlen(argv[i]) + 1;
    char *all = calloc(len, 1); /* freed below */
    if (all == NULL)
        return LOOM_ERR_NOMEM;
    for (int i = 1; i < argc && argv[i] != NULL; i++) {
        if (i > 1)
            strcat(all, " ");
        strcat(all, argv[i]);
    }
    if (rc == 0)
        rc = set_fit(info, "argv", all);
    free(all);
    return rc;
}

int loom__info_fill_env(struct loom_info *info, int argc, char **argv, int nranks)
{
    char num[32];
    snprintf(num, sizeof num, "%d", nranks);
    int rc = set_command(info, argc, argv);
    if (rc == 0)
        rc = loom__info_set(info, "maxprocs", num);
    if (rc == 0)
        rc = loom__info_set(info, "soft", num);
    char host[256];
    if (rc == 0 && gethostname(host, sizeof host) == 0) {
        host[sizeof host - 1] = '\0';
        rc = set_fit(info, "host", host);
    }
    struct utsname u;
    if (rc == 0 && uname(&u) == 0)
        rc = set_fit(info, "arch", u.machine);
    char wdir[PATH_MAX];
    if (rc == 0 && getcwd(wdir, sizeof wdir) != NULL)
        rc = set_fit(info, "wdir", wdir);
    if (rc == 0)
        rc = loom__info_set(info, "thread_level", "MPI_THREAD_MULTIPLE");
    return rc;
}
