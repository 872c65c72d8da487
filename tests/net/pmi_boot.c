/* pmi_boot.c — a node process's bootstrap through a real PMI launcher (MPICH's Hydra, run by
 * hydra.sh). Not an MPI program: it calls the PMI client directly.
 *   pmi_boot job N [local]   under a launcher of N processes: put this process's rank and a
 *                            hex blob as long as the server allows, fence, get and check every
 *                            other's; loom__pmi_local agrees with Hydra's MPI_LOCALRANKID /
 *                            MPI_LOCALNRANKS and, with `local`, says all N share this host;
 *                            a missing key is an error naming it; finalize. Prints one line.
 *   pmi_boot abort N DIR     the others write DIR/pid.<rank> and wait in a fence that only
 *                            the abort ends (the launcher kills them, or the fence fails);
 *                            process 1, once their pids are there, aborts the job with
 *                            exit code 3.
 *   pmi_boot alone           started without a launcher: loom__pmi_present() is 0 and init
 *                            says why it cannot start.
 *   pmi_boot pmix-alone      PMIX_NAMESPACE and PMIX_RANK set but no PMIx server: present
 *                            is 1 (the PMIx client is chosen) and init says the server is
 *                            unreachable. */
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "check.h"
#include "net/pmi.h"

#define OK(call)                                                                               \
    do {                                                                                       \
        if ((call) != 0) {                                                                     \
            fprintf(stderr, "node process %d: %s: %s\n", rank, #call, err);                    \
            _exit(99);                                                                         \
        }                                                                                      \
    } while (0)

/* Process r's blob: len bytes that differ between processes and positions. */
static void blob(int r, unsigned char *b, size_t len)
{
    unsigned x = 2654435761u * (unsigned)(r + 1);
    for (size_t i = 0; i < len; i++) {
        x = x * 1103515245u + 12345u;
        b[i] = (unsigned char)(x >> 16);
    }
}

static int job(int n, int all_local)
{
    int rank = -1, size = -1;
    char err[512] = "";
    CHECK(loom__pmi_present() == 1);
    OK(loom__pmi_init(&rank, &size, err, sizeof(err)));
    CHECK_INT(size, n);
    CHECK(rank >= 0 && rank < n);

    size_t vmax = loom__pmi_value_max();
    CHECK(vmax >= 64);
    size_t len = vmax / 2; /* its hex fills the longest value the server takes */
    unsigned char *mine = malloc(len), *theirs = malloc(len);
    char *text = malloc(2 * len + 1), *got = malloc(vmax + 1);
    CHECK(mine && theirs && text && got);
    char key[32], num[32];
    snprintf(key, sizeof(key), "rank-%d", rank);
    snprintf(num, sizeof(num), "%d", rank);
    OK(loom__pmi_put(key, num, err, sizeof(err)));
    blob(rank, mine, len);
    loom__pmi_hex_encode(mine, len, text);
    snprintf(key, sizeof(key), "blob-%d", rank);
    OK(loom__pmi_put(key, text, err, sizeof(err)));
    /* One byte more than the server takes is refused before it is sent. */
    {
        char *over = malloc(vmax + 2);
        CHECK(over);
        memset(over, 'a', vmax + 1);
        over[vmax + 1] = '\0';
        CHECK(loom__pmi_put("too-long", over, err, sizeof(err)) == -1);
        CHECK(strstr(err, "longer than the PMI server") != NULL);
        free(over);
    }
    OK(loom__pmi_fence(err, sizeof(err)));

    for (int r = 0; r < n; r++) {
        snprintf(key, sizeof(key), "rank-%d", r);
        OK(loom__pmi_get(r, key, got, vmax + 1, err, sizeof(err)));
        CHECK_INT(atoi(got), r);
        snprintf(key, sizeof(key), "blob-%d", r);
        OK(loom__pmi_get(r, key, got, vmax + 1, err, sizeof(err)));
        CHECK_INT(strlen(got), 2 * len);
        CHECK_INT(loom__pmi_hex_decode(got, theirs, len), (long)len);
        blob(r, mine, len);
        CHECK(memcmp(mine, theirs, len) == 0);
    }
    CHECK(loom__pmi_get(0, "nobody-put-this", got, vmax + 1, err, sizeof(err)) == -1);
    CHECK(strstr(err, "nobody-put-this") != NULL);

    int lr = -1, ls = -1;
    OK(loom__pmi_local(&lr, &ls, err, sizeof(err)));
    const char *hr = getenv("MPI_LOCALRANKID"), *hs = getenv("MPI_LOCALNRANKS");
    if (hr && hs) {
        CHECK_INT(lr, atoi(hr));
        CHECK_INT(ls, atoi(hs));
    }
    if (all_local) {
        CHECK_INT(ls, n);
        CHECK_INT(lr, rank);
    }
    /* A second round after the first: the space is still there. */
    OK(loom__pmi_put("round-2", num, err, sizeof(err)));
    OK(loom__pmi_fence(err, sizeof(err)));
    OK(loom__pmi_finalize(err, sizeof(err)));
    printf("node process %d of %d: ok, local %d of %d\n", rank, size, lr, ls);
    free(mine);
    free(theirs);
    free(text);
    free(got);
    return 0;
}

static int aborting(int n, const char *dir)
{
    int rank = -1, size = -1;
    char err[512] = "";
    OK(loom__pmi_init(&rank, &size, err, sizeof(err)));
    CHECK_INT(size, n);
    char path[4096];
    if (rank == 1) {
        /* once every other process has written its pid (so the test knows they all ran and
         * can check they are gone), or after 30 s */
        for (int r = 0, tries = 0; r < n && tries < 3000; r += r == 0 ? 2 : 1) {
            snprintf(path, sizeof(path), "%s/pid.%d", dir, r);
            while (access(path, F_OK) != 0 && tries++ < 3000)
                usleep(10000);
        }
        loom__pmi_abort(3, "node process 1 gives up");
    }
    snprintf(path, sizeof(path), "%s/pid.%d", dir, rank);
    char tmp[4104];
    snprintf(tmp, sizeof(tmp), "%s.tmp", path);
    FILE *f = fopen(tmp, "w");
    CHECK(f != NULL);
    fprintf(f, "%ld\n", (long)getpid());
    CHECK(fclose(f) == 0);
    CHECK(rename(tmp, path) == 0); /* whole, once it appears */
    /* Process 1 never comes: the launcher ends this process, or (PMIx) the fence fails
     * because a member is gone; it never succeeds. */
    if (loom__pmi_fence(err, sizeof(err)) == 0) {
        fprintf(stderr, "node process %d: the fence succeeded without node process 1\n", rank);
        return 98;
    }
    fprintf(stderr, "node process %d: the fence failed after the abort: %s\n", rank, err);
    return 97;
}

int main(int argc, char **argv)
{
    if (argc >= 3 && strcmp(argv[1], "job") == 0)
        return job(atoi(argv[2]), argc >= 4 && strcmp(argv[3], "local") == 0);
    if (argc >= 4 && strcmp(argv[1], "abort") == 0)
        return aborting(atoi(argv[2]), argv[3]);
    if (argc >= 2 && strcmp(argv[1], "alone") == 0) {
        CHECK(loom__pmi_present() == 0);
        int rank, size;
        char err[256] = "";
        CHECK(loom__pmi_init(&rank, &size, err, sizeof(err)) == -1);
        CHECK(strstr(err, "no PMI server") != NULL);
        printf("alone: no PMI launcher, and init says so\n");
        return 0;
    }
    if (argc >= 2 && strcmp(argv[1], "pmix-alone") == 0) {
        CHECK(loom__pmi_present() == 1);
        int rank, size;
        char err[256] = "";
        CHECK(loom__pmi_init(&rank, &size, err, sizeof(err)) == -1);
        CHECK(strstr(err, "PMIx init") != NULL && strstr(err, "unreachable") != NULL);
        printf("pmix-alone: %s\n", err);
        return 0;
    }
    fprintf(stderr, "usage: pmi_boot job N [local] | abort N DIR | alone | pmix-alone\n");
    return 2;
}
