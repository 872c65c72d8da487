/* Writing a LIVE control variable changes what loom does at the next use: with
 * LOOM_COLL_BCAST_ALGO written by rank 0 (one write: the value is process-wide, so every rank
 * reads it back), the root of MPI_Bcast sends size-1 messages under "linear", ceil(log2 size)
 * under "binomial" and none under "shm" (direct copies), as the performance variable
 * loom_messages_sent shows. A string LIVE row (LOOM_SPLIT_TREE) takes a good value and keeps
 * its value on a bad or too long one; a START row is never writable. */
#include <string.h>

#include "mpit_check.h"

static int ceil_log2(int n)
{
    int k = 0;
    while ((1 << k) < n)
        k++;
    return k;
}

/* Messages this rank sends in one MPI_Bcast from root 0 under the algorithm in effect. */
static unsigned long long bcast_sends(MPI_T_pvar_session s, MPI_T_pvar_handle h)
{
    char buf[1000] = {0};
    unsigned long long a, b;
    MPI_Barrier(MPI_COMM_WORLD);
    CHECK_OK(MPI_T_pvar_read(s, h, &a));
    MPI_Bcast(buf, (int)sizeof buf, MPI_CHAR, 0, MPI_COMM_WORLD);
    CHECK_OK(MPI_T_pvar_read(s, h, &b));
    MPI_Barrier(MPI_COMM_WORLD);
    return b - a;
}

/* Rank 0 writes algo; everyone sees it after the barrier. */
static void set_bcast_algo(int rank, const char *algo)
{
    int v = enum_value("LOOM_COLL_BCAST_ALGO", algo);
    CHECK(v >= 0);
    MPI_Barrier(MPI_COMM_WORLD); /* nobody is in a bcast */
    if (rank == 0)
        CHECK_OK(cvar_write_int("LOOM_COLL_BCAST_ALGO", v));
    MPI_Barrier(MPI_COMM_WORLD);
    CHECK_INT(cvar_read_int("LOOM_COLL_BCAST_ALGO"), v);
}

static void check_string_row(void)
{
    MPI_T_cvar_handle h;
    int count, scope;
    char v[128];
    int i = cvar_index("LOOM_SPLIT_TREE");
    CHECK_OK(MPI_T_cvar_get_info(i, NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL, &scope));
    CHECK_INT(scope, MPI_T_SCOPE_ALL_EQ);
    CHECK_OK(MPI_T_cvar_handle_alloc(i, NULL, &h, &count));
    CHECK(count > 1 && count <= (int)sizeof v);
    CHECK_OK(MPI_T_cvar_read(h, v));
    char old[128];
    strcpy(old, v);
    CHECK_OK(MPI_T_cvar_write(h, "off"));
    CHECK_OK(MPI_T_cvar_read(h, v));
    CHECK(strcmp(v, "off") == 0);
    CHECK_OK(MPI_T_cvar_write(h, "2"));
    CHECK_OK(MPI_T_cvar_read(h, v));
    CHECK(strcmp(v, "2") == 0);
    CHECK_RC(MPI_T_cvar_write(h, "sideways"), MPI_T_ERR_INVALID);
    char longer[200];
    memset(longer, '1', sizeof longer - 1);
    longer[sizeof longer - 1] = '\0';
    CHECK_RC(MPI_T_cvar_write(h, longer), MPI_T_ERR_INVALID);
    CHECK_OK(MPI_T_cvar_read(h, v));
    CHECK(strcmp(v, "2") == 0); /* bad writes changed nothing */
    CHECK_OK(MPI_T_cvar_write(h, old));
    CHECK_OK(MPI_T_cvar_handle_free(&h));
}

int main(int argc, char **argv)
{
    int rank, size, provided, count;
    MPI_Init(&argc, &argv);
    CHECK_OK(MPI_T_init_thread(MPI_THREAD_MULTIPLE, &provided));
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &size);

    int before = cvar_read_int("LOOM_COLL_BCAST_ALGO");
    CHECK_INT(before, enum_value("LOOM_COLL_BCAST_ALGO", "auto")); /* the default */
    MPI_T_pvar_session s;
    MPI_T_pvar_handle h;
    CHECK_OK(MPI_T_pvar_session_create(&s));
    CHECK_OK(MPI_T_pvar_handle_alloc(s, pvar_index("loom_messages_sent"), NULL, &h, &count));
    CHECK_OK(MPI_T_pvar_start(s, h));

    set_bcast_algo(rank, "linear");
    CHECK_INT(bcast_sends(s, h), rank == 0 ? size - 1 : 0);
    set_bcast_algo(rank, "binomial");
    if (rank == 0)
        CHECK_INT(bcast_sends(s, h), ceil_log2(size));
    else
        bcast_sends(s, h);
    set_bcast_algo(rank, "shm");
    CHECK_INT(bcast_sends(s, h), 0);

    /* Out of the enumeration: refused, nothing changes. */
    MPI_Barrier(MPI_COMM_WORLD);
    if (rank == 0) {
        CHECK_RC(cvar_write_int("LOOM_COLL_BCAST_ALGO", 99), MPI_T_ERR_INVALID);
        CHECK_RC(cvar_write_int("LOOM_COLL_BCAST_ALGO", -1), MPI_T_ERR_INVALID);
        CHECK_INT(cvar_read_int("LOOM_COLL_BCAST_ALGO"), enum_value("LOOM_COLL_BCAST_ALGO", "shm"));
        /* a START row: never */
        CHECK_RC(cvar_write_int("LOOM_NP", size), MPI_T_ERR_CVAR_SET_NEVER);
        CHECK_RC(cvar_write_int("LOOM_PROGRESS", 0), MPI_T_ERR_CVAR_SET_NEVER);
        check_string_row();
    }
    set_bcast_algo(rank, "auto");

    CHECK_OK(MPI_T_pvar_session_free(&s));
    CHECK_OK(MPI_T_finalize());
    MPI_Finalize();
    if (rank == 0)
        printf("mpit cvar write: %d ranks\n", size);
    return 0;
}
