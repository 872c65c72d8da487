/* tests/privatize/kinds_lib.c — built with loomcc into a static library (libkinds.a). */
#include "kinds.h"

int lib_value = -1;
static int lib_hidden;
static int *lib_ptr = &lib_hidden;

int lib_get(void)
{
    return lib_hidden;
}

void lib_set(int v)
{
    *lib_ptr = v;
}

int lib_ptr_ok(void)
{
    return lib_ptr == &lib_hidden;
}

void *lib_address(void)
{
    return &lib_hidden;
}
