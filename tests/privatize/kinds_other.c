/* tests/privatize/kinds_other.c — a second translation unit: extern definitions used by
 * kinds.c and a use of kinds.c's main_defined through extern. */
#include "kinds.h"

int other_counter;
int *other_ptr = &other_counter;
static int other_static;

int other_value(void)
{
    return other_static;
}

void other_set(int v)
{
    other_static = v;
    other_counter = v;
}

int other_main_defined(void)
{
    extern int main_defined; /* a block-scope extern declaration */
    return main_defined;
}
