/* MPI_T's control variables are the configuration table: same count, names, descriptions,
 * datatypes, scopes (LIVE rows writable, the others constant), enumerations with the table's
 * words, a value set in the environment read back, categories that hold every cvar once.
 * Also the state machine without ranks: every call refuses before MPI_T_init_thread,
 * init/finalize are counted. Runs without ranks (MPI_T needs none). */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/config.h"
#include "mpit_check.h"

static void check_cvars_match_table(void)
{
    int n = -1;
    CHECK_OK(MPI_T_cvar_get_num(&n));
    CHECK_INT(n, LOOM_CFG_COUNT_);
    for (int i = 0; i < n; i++) {
        const struct loom_config_row *r = loom__config_row((enum loom_config_id)i);
        char name[128], desc[1024];
        int name_len = sizeof name, desc_len = sizeof desc, verb, bind, scope;
        MPI_Datatype type;
        MPI_T_enum e;
        CHECK_OK(MPI_T_cvar_get_info(i, name, &name_len, &verb, &type, &e, desc, &desc_len,
                                     &bind, &scope));
        CHECK(strcmp(name, r->name) == 0);
        CHECK_INT(name_len, strlen(r->name) + 1);
        char want[1024];
        snprintf(want, sizeof want, "%s (default \"%s\")", r->doc, r->def);
        CHECK(strcmp(desc, want) == 0);
        CHECK_INT(bind, MPI_T_BIND_NO_OBJECT);
        CHECK(verb >= MPI_T_VERBOSITY_USER_BASIC && verb <= MPI_T_VERBOSITY_MPIDEV_ALL);
        CHECK_INT(scope, loom__config_is_live((enum loom_config_id)i) ? MPI_T_SCOPE_ALL_EQ
                                                                      : MPI_T_SCOPE_CONSTANT);
        int idx = -1;
        CHECK_OK(MPI_T_cvar_get_index(r->name, &idx));
        CHECK_INT(idx, i);
        switch (r->type) {
        case LOOM_CONFIG_STRING: CHECK(type == MPI_CHAR); break;
        case LOOM_CONFIG_SIZE: CHECK(type == MPI_UNSIGNED_LONG_LONG); break;
        default: CHECK(type == MPI_INT); break;
        }
        CHECK((e != MPI_T_ENUM_NULL) == (r->type == LOOM_CONFIG_ENUM));
        if (e != MPI_T_ENUM_NULL) {
            /* the items, joined by '|', are the row's ACCEPTS */
            char joined[512] = "", ename[128];
            int items = 0, elen = sizeof ename;
            CHECK_OK(MPI_T_enum_get_info(e, &items, ename, &elen));
            CHECK(strcmp(ename, r->name) == 0);
            for (int k = 0; k < items; k++) {
                char w[64];
                int len = sizeof w, v = -1;
                CHECK_OK(MPI_T_enum_get_item(e, k, &v, w, &len));
                CHECK_INT(v, k);
                if (k)
                    strcat(joined, "|");
                strcat(joined, w);
            }
            CHECK(strcmp(joined, r->accepts) == 0);
            int v, len = 0;
            CHECK_RC(MPI_T_enum_get_item(e, items, &v, NULL, &len), MPI_T_ERR_INVALID_ITEM);
        }
    }
}

/* Each cvar is in exactly one layer category, the one its row names; the root holds the
 * layers. */
static void check_categories(void)
{
    int ncat = 0, seen[LOOM_CFG_COUNT_] = {0}, total = 0;
    CHECK_OK(MPI_T_category_get_num(&ncat));
    CHECK(ncat >= 2);
    int nsub = -1, root = -1;
    CHECK_OK(MPI_T_category_get_index("loom", &root));
    CHECK_OK(MPI_T_category_get_info(root, NULL, NULL, NULL, NULL, NULL, NULL, &nsub));
    CHECK_INT(nsub, ncat - 1);
    for (int c = 0; c < ncat; c++) {
        char name[64];
        int len = sizeof name, nc = -1, idx[LOOM_CFG_COUNT_];
        CHECK_OK(MPI_T_category_get_info(c, name, &len, NULL, NULL, &nc, NULL, NULL));
        CHECK_OK(MPI_T_category_get_cvars(c, LOOM_CFG_COUNT_, idx));
        for (int k = 0; k < nc; k++) {
            CHECK(strcmp(loom__config_layer((enum loom_config_id)idx[k]), name) == 0);
            seen[idx[k]]++;
        }
        total += nc;
    }
    CHECK_INT(total, LOOM_CFG_COUNT_);
    for (int i = 0; i < LOOM_CFG_COUNT_; i++)
        CHECK_INT(seen[i], 1);
}

/* Values set in the environment read back through MPI_T, one of each type. */
static void check_environment_values(void)
{
    setenv("LOOM_EAGER_MAX", "32K", 1);
    setenv("LOOM_PROGRESS", "thread", 1);
    setenv("LOOM_BIND", "compact", 1);
    setenv("LOOM_SPIN", "7", 1);
    setenv("LOOM_CELLS", "off", 1);
    CHECK_OK(loom__config_load(NULL, NULL, 0));
    MPI_T_cvar_handle h;
    int count;
    unsigned long long size = 0;
    CHECK_OK(MPI_T_cvar_handle_alloc(cvar_index("LOOM_EAGER_MAX"), NULL, &h, &count));
    CHECK_OK(MPI_T_cvar_read(h, &size));
    CHECK_INT(size, 32768);
    CHECK_OK(MPI_T_cvar_handle_free(&h));
    CHECK_INT(cvar_read_int("LOOM_PROGRESS"), enum_value("LOOM_PROGRESS", "thread"));
    CHECK_INT(cvar_read_int("LOOM_SPIN"), 7);
    CHECK_INT(cvar_read_int("LOOM_CELLS"), 0);
    char bind[64];
    CHECK_OK(MPI_T_cvar_handle_alloc(cvar_index("LOOM_BIND"), NULL, &h, &count));
    CHECK_INT(count, strlen("compact") + 1);
    CHECK_OK(MPI_T_cvar_read(h, bind));
    CHECK(strcmp(bind, "compact") == 0);
    /* a START row is never writable */
    CHECK_RC(MPI_T_cvar_write(h, "spread"), MPI_T_ERR_CVAR_SET_NEVER);
    CHECK_OK(MPI_T_cvar_handle_free(&h));
    CHECK(h == MPI_T_CVAR_HANDLE_NULL);
}

int main(void)
{
    int provided = -1, n;
    mpit_check_not_initialized();
    CHECK_OK(MPI_T_init_thread(MPI_THREAD_SINGLE, &provided));
    CHECK_INT(provided, MPI_THREAD_MULTIPLE);
    CHECK_OK(MPI_T_init_thread(MPI_THREAD_MULTIPLE, &provided)); /* counted: two finalizes */
    check_cvars_match_table();
    check_categories();
    check_environment_values();
    CHECK_OK(MPI_T_finalize());
    CHECK_OK(MPI_T_cvar_get_num(&n)); /* one init left */
    CHECK_OK(MPI_T_finalize());
    mpit_check_not_initialized();
    /* and again: a new epoch */
    CHECK_OK(MPI_T_init_thread(MPI_THREAD_FUNNELED, &provided));
    CHECK_OK(MPI_T_cvar_get_num(&n));
    CHECK_INT(n, LOOM_CFG_COUNT_);
    CHECK_OK(MPI_T_finalize());
    printf("mpit table: %d cvars match the configuration table\n", n);
    return 0;
}
