/* MPI_T around a rank's life: initialized before MPI_Init, used after MPI_Finalize, counted
 * init/finalize (every rank of the process calls it; the state is one per process). The
 * control variables show the values the job runs with (LOOM_NP from loomrun -n, values the
 * test's environment sets: argv[1] is LOOM_EAGER_MAX in bytes, argv[2] the LOOM_COLL_HIER
 * word); every pvar sits in one category; a handle started before MPI_Init counts the
 * job's messages and can still be read after MPI_Finalize. */
#include <stdlib.h>
#include <string.h>

#include "mpit_check.h"

/* Each of the n variables of one kind is listed by exactly one category. */
static void check_each_in_one_category(int n, int (*get)(int, int, int[]),
                                       int ncat_field /* 0: cvars, 1: pvars */)
{
    int ncat, seen[64] = {0};
    CHECK(n <= 64);
    CHECK_OK(MPI_T_category_get_num(&ncat));
    for (int c = 0; c < ncat; c++) {
        int nc, np, idx[64];
        CHECK_OK(MPI_T_category_get_info(c, NULL, NULL, NULL, NULL, &nc, &np, NULL));
        int k = ncat_field ? np : nc;
        CHECK(k <= 64);
        CHECK_OK(get(c, 64, idx));
        for (int j = 0; j < k; j++) {
            CHECK(idx[j] >= 0 && idx[j] < n);
            seen[idx[j]]++;
        }
    }
    for (int i = 0; i < n; i++)
        CHECK_INT(seen[i], 1);
}

int main(int argc, char **argv)
{
    int provided, rank, size, n, count, changed0, changed1;
    CHECK(argc >= 3);
    /* before MPI_Init, twice: counted */
    CHECK_OK(MPI_T_init_thread(MPI_THREAD_SINGLE, &provided));
    CHECK_OK(MPI_T_init_thread(MPI_THREAD_SINGLE, &provided));
    CHECK_OK(MPI_T_category_changed(&changed0));

    unsigned long long eager = 0;
    MPI_T_cvar_handle ch;
    CHECK_OK(MPI_T_cvar_handle_alloc(cvar_index("LOOM_EAGER_MAX"), NULL, &ch, &count));
    CHECK_OK(MPI_T_cvar_read(ch, &eager));
    CHECK_INT(eager, atoll(argv[1]));
    CHECK_OK(MPI_T_cvar_handle_free(&ch));
    CHECK_INT(cvar_read_int("LOOM_COLL_HIER"), enum_value("LOOM_COLL_HIER", argv[2]));

    MPI_T_pvar_session s;
    MPI_T_pvar_handle h;
    CHECK_OK(MPI_T_pvar_session_create(&s));
    CHECK_OK(MPI_T_pvar_handle_alloc(s, pvar_index("loom_messages_received"), NULL, &h,
                                     &count));
    CHECK_OK(MPI_T_pvar_start(s, h));

    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &size);
    CHECK_INT(cvar_read_int("LOOM_NP"), size);

    CHECK_OK(MPI_T_cvar_get_num(&n));
    check_each_in_one_category(n, MPI_T_category_get_cvars, 0);
    CHECK_OK(MPI_T_pvar_get_num(&n));
    check_each_in_one_category(n, MPI_T_category_get_pvars, 1);
    /* The root category lists the others, which list none. */
    int root, nsub, ncat, sub[16];
    CHECK_OK(MPI_T_category_get_num(&ncat));
    CHECK_OK(MPI_T_category_get_index("loom", &root));
    CHECK_OK(MPI_T_category_get_info(root, NULL, NULL, NULL, NULL, NULL, NULL, &nsub));
    CHECK_INT(nsub, ncat - 1);
    CHECK_OK(MPI_T_category_get_categories(root, 16, sub));
    for (int k = 0; k < nsub; k++) {
        int none;
        CHECK(sub[k] != root);
        CHECK_OK(MPI_T_category_get_info(sub[k], NULL, NULL, NULL, NULL, NULL, NULL, &none));
        CHECK_INT(none, 0);
    }
    /* The string convention: length 0 asks for the size; a short buffer truncates. */
    int len = 0;
    char name[4];
    CHECK_OK(MPI_T_category_get_info(root, NULL, &len, NULL, NULL, NULL, NULL, NULL));
    CHECK_INT(len, strlen("loom") + 1);
    len = sizeof name;
    CHECK_OK(MPI_T_category_get_info(root, name, &len, NULL, NULL, NULL, NULL, NULL));
    CHECK_INT(len, 4);
    CHECK(strcmp(name, "loo") == 0);

    /* One message from each rank to the next: counted by the handle started before Init. */
    int token = rank, got = -1;
    unsigned long long before, after;
    CHECK_OK(MPI_T_pvar_read(s, h, &before));
    MPI_Sendrecv(&token, 1, MPI_INT, (rank + 1) % size, 7, &got, 1, MPI_INT,
                 (rank + size - 1) % size, 7, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
    CHECK_OK(MPI_T_pvar_read(s, h, &after));
    CHECK_INT(after - before, 1);
    CHECK_INT(got, (rank + size - 1) % size);
    MPI_Finalize();

    /* After MPI_Finalize: still usable; the counters of this rank stay readable. */
    CHECK_OK(MPI_T_pvar_read(s, h, &after));
    CHECK(after >= before + 1);
    CHECK_OK(MPI_T_pvar_stop(s, h));
    CHECK_OK(MPI_T_pvar_session_free(&s));
    CHECK_INT(cvar_read_int("LOOM_NP"), size);
    CHECK_OK(MPI_T_category_changed(&changed1));
    CHECK_INT(changed1, changed0); /* nothing was added or removed */
    CHECK_OK(MPI_T_finalize());
    CHECK_OK(MPI_T_cvar_get_num(&n)); /* this rank's second init still holds */
    CHECK_OK(MPI_T_finalize());
    if (rank == 0)
        printf("mpit lifecycle: %d ranks\n", size);
    return 0;
}
