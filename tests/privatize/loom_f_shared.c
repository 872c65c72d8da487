/* tests/privatize/loom_f_shared.c — a variable whose symbol starts with loom_f_ (loom's
 * Fortran bindings keep their sentinels under that prefix in libloom) stays shared in C too;
 * the test compiles it with the plugin's verbose notes and reads them. */
int loom_f_c_sentinel[2];
int per_rank_neighbour;

int *sentinel_address(void)
{
    per_rank_neighbour++;
    return loom_f_c_sentinel;
}
