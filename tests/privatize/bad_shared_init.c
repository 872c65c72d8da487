/* tests/privatize/bad_shared_init.c — must not compile with privatization: a shared variable
 * cannot hold the address of a per-rank one (each rank's copy is elsewhere). */
#include <mpi.h>

int per_rank;
LOOM_SHARED int *shared_ptr = &per_rank;

int main(void)
{
    return *shared_ptr;
}
