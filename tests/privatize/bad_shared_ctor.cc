// tests/privatize/bad_shared_ctor.cc — must not compile: in a C++ unit whose static
// initialization loom runs once per rank, a shared variable initialized at run time would be
// initialized once per rank. The plugin names each one: a LOOM_SHARED object with a
// constructor, and a const class member (shared: other units see it const) set by a call.
#include <mpi.h>
#include <string>

LOOM_SHARED std::string shared_name = "shared";
struct Limits {
    static const unsigned long width;
};
const unsigned long Limits::width = shared_name.size() * 2;
std::string per_rank_name = "per rank"; // makes the unit's static initialization per rank
