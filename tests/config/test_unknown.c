/* config_unknown: each LOOM_* name the table lacks draws one warning, with the closest known
 * name when it is close; known names, other variables and a NULL warn draw nothing. */
#include "config_test.h"

static char got[8][256];
static int ngot;

static void record(const char *msg)
{
    if (ngot < 8)
        snprintf(got[ngot], sizeof(got[ngot]), "%s", msg);
    ngot++;
}

/* msg was warned exactly once. */
static void expect(const char *msg)
{
    int n = 0;
    for (int i = 0; i < ngot && i < 8; i++)
        n += strcmp(got[i], msg) == 0;
    if (n != 1) {
        fprintf(stderr, "warning \"%s\": seen %d times, expected once; warnings were:\n", msg, n);
        for (int i = 0; i < ngot && i < 8; i++)
            fprintf(stderr, "  %s\n", got[i]);
        failures++;
    }
}

int main(void)
{
    char err[512] = "";
    clear_loom_env();
    setenv("LOOM_SPN", "5", 1);
    setenv("LOOM_EAGERMAX", "1K", 1);
    setenv("LOOM_binding", "compact", 1);
    setenv("LOOM_Spin", "1", 1);
    setenv("LOOM_FOO", "1", 1);
    setenv("LOOM_AB", "1", 1);
    setenv("LOOM_SPIN", "7", 1);     /* known */
    setenv("NOT_LOOM_SPN", "1", 1);  /* not ours */
    setenv("loom_spin", "1", 1);     /* not ours: case matters for the prefix */
    CHECK_LL(loom__config_load(record, err, sizeof(err)), 0);
    expect("unknown variable LOOM_SPN (did you mean LOOM_SPIN?)");
    expect("unknown variable LOOM_EAGERMAX (did you mean LOOM_EAGER_MAX?)");
    expect("unknown variable LOOM_binding (did you mean LOOM_BIND?)");
    expect("unknown variable LOOM_Spin (did you mean LOOM_SPIN?)");
    expect("unknown variable LOOM_FOO");
    expect("unknown variable LOOM_AB");
    CHECK_LL(ngot, 6);
    /* Unknown names do not stop the load. */
    CHECK_LL(loom__config_int(LOOM_CFG_SPIN), 7);

    /* Unknown names are still reported when a known one is bad. */
    ngot = 0;
    setenv("LOOM_SPIN", "x", 1);
    CHECK_LL(loom__config_load(record, err, sizeof(err)), -1);
    CHECK_LL(ngot, 6);
    CHECK_HAS(err, "LOOM_SPIN=x");

    /* warn may be NULL. */
    setenv("LOOM_SPIN", "8", 1);
    CHECK_LL(loom__config_load(NULL, err, sizeof(err)), 0);
    CHECK_LL(loom__config_int(LOOM_CFG_SPIN), 8);
    return finish("config_unknown");
}
