/* tests/privatize/cxx.h — what the two units of the C++ privatization test (cxx.cc,
 * cxx_other.cc) share: every kind of C++ variable with static storage, and an object type
 * that counts its constructions and destructions in counters shared by all ranks. */
#ifndef LOOM_TEST_PRIVATIZE_CXX_H
#define LOOM_TEST_PRIVATIZE_CXX_H
#include <mpi.h>
#include <pthread.h>
#include <string>
#include <vector>

/* Shared by all ranks on purpose: how many Counted objects were constructed and destroyed,
 * the main thread (recorded by a constructor of the process), and the number of ranks. */
extern LOOM_SHARED int cxx_ctors, cxx_dtors, cxx_nranks;
extern LOOM_SHARED pthread_t cxx_main_thread;

/* The rank's own number, written by its main: per rank. */
extern int my_rank;

/* Constructed and destroyed on the rank's thread, never on the main thread; `owner` is set
 * by the rank's main and checked by the destructor (it must see the rank's copy). */
struct Counted {
    int value;
    int owner = -1;
    explicit Counted(int v);
    ~Counted();
};

extern int shared_extern;   /* defined in cxx_other.cc: per rank, one for both units */
int other_read(void);       /* shared_extern as cxx_other.cc sees it */
int *other_address(void);   /* &shared_extern as cxx_other.cc sees it */
Counted &other_object(void);
extern Counted early; /* cxx_other.cc, init_priority(101) */

namespace ns {
extern int counter;
}

struct Holder {
    static int member;
    static std::string name;
};

template <class T> struct Tmpl {
    static T value;
    static Counted object;
};
template <class T> T Tmpl<T>::value = T(7);
template <class T> Counted Tmpl<T>::object(13);

inline int inline_var = 11;
inline Counted inline_obj(12); /* guarded: once per rank although both units define it */

/* Counted objects each rank constructs: global_obj, local(), arr[2] (cxx.cc), other_obj and
 * early (cxx_other.cc), inline_obj and Tmpl<int>::object (comdat, once). */
enum { COUNTED_PER_RANK = 8 };
#endif
