/* tests/privatize/cxx_other.cc — the second unit of the C++ privatization test: it defines
 * the extern variable both units use and a global object of its own, and is compiled with
 * -Wall -Wextra -Werror: the plugin must not warn about a C++ unit. Its `early` object has an
 * init_priority, which loom keeps across units. */
#include "cxx.h"

int shared_extern = 21;
static Counted other_obj(4);
/* init_priority: constructed before the objects of cxx.cc, although it is linked after it */
Counted early __attribute__((init_priority(101)))(20);

int other_read(void)
{
    return shared_extern;
}

int *other_address(void)
{
    return &shared_extern;
}

Counted &other_object(void)
{
    (void)inline_obj.value; /* this unit instantiates it too */
    (void)Tmpl<int>::object.value;
    return other_obj;
}
