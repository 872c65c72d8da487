/* tests/privatize/cxx.cc — C++ globals are per rank (docs/privatize.md, C++): namespace-scope
 * variables, class static members, function-local statics with constructors, global objects
 * with constructors and destructors, a std::vector and a std::string, template static members,
 * an inline variable and an extern variable defined in the other unit (cxx_other.cc). Each rank
 * checks the initial values, writes its rank everywhere, meets the others and checks it reads
 * its own; the ranks compare addresses. A thread_local stays per thread. Every Counted object
 * is constructed and destroyed once per rank, on the rank's thread: the process's destructor
 * below checks the totals after the ranks have ended. Built with END_WITH_EXIT, the ranks end
 * with exit(0) after MPI_Finalize instead of returning from main. */
#include <pthread.h>
#include <cstdio>
#include <cstdlib>
#include <string>
#include <vector>
#include "check.h"
#include "cxx.h"
#include "own_address.h"

LOOM_SHARED int cxx_ctors, cxx_dtors, cxx_nranks;
LOOM_SHARED pthread_t cxx_main_thread;
int my_rank = -1;

Counted::Counted(int v) : value(v)
{
    CHECK(!pthread_equal(pthread_self(), cxx_main_thread)); /* on a rank's thread */
    __atomic_fetch_add(&cxx_ctors, 1, __ATOMIC_SEQ_CST);
}

Counted::~Counted()
{
    /* On the rank's thread, before the rank's copies go: the rank's view, written by its main */
    CHECK(!pthread_equal(pthread_self(), cxx_main_thread));
    CHECK_INT(owner, my_rank);
    __atomic_fetch_add(&cxx_dtors, 1, __ATOMIC_SEQ_CST);
}

/* The process's own: the main thread, before anything of the ranks runs... */
__attribute__((constructor)) static void record_main_thread(void)
{
    cxx_main_thread = pthread_self();
}

/* ...and after the ranks have ended (and run their destructors): one construction and one
 * destruction per object and per rank. _exit: the job's status says it. */
__attribute__((destructor)) static void check_totals(void)
{
    int n = cxx_nranks, c = cxx_ctors, d = cxx_dtors;
    if (n < 1 || c != COUNTED_PER_RANK * n || d != c) {
        fprintf(stderr, "cxx: %d ranks, %d constructions, %d destructions (want %d each)\n", n,
                c, d, COUNTED_PER_RANK * n);
        fflush(NULL);
        _exit(98);
    }
    printf("cxx: %d constructions and destructions for %d ranks\n", c, n);
    fflush(stdout);
}

namespace ns {
int counter = 8;
}
int Holder::member = 9;
std::string Holder::name = "holder";

int x = 3;
int *px = &x;      /* constant-initialized in C++: the rank's x */
int &rx = x;
int dyn = x + 1;   /* dynamically initialized: 4 in every rank */
int saw_early = early.value; /* 20: early (init_priority) is built before this unit's */
Counted global_obj(1);
Counted arr[2] = {Counted(5), Counted(6)}; /* destroyed by one function (__tcf_) */
std::vector<int> vec(4, 7);
std::string str = "hello";
thread_local int tls_var = 5;

static Counted &local(void)
{
    static Counted c(3); /* at first use, once per rank (its guard is per rank) */
    return c;
}

static void check_initial(void)
{
    CHECK_INT(x, 3);
    CHECK(px == &x);
    CHECK(&rx == &x);
    CHECK_INT(dyn, 4);
    CHECK_INT(saw_early, 20);
    CHECK_INT(ns::counter, 8);
    CHECK_INT(Holder::member, 9);
    CHECK(Holder::name == "holder");
    CHECK_INT(global_obj.value, 1);
    CHECK_INT(arr[0].value, 5);
    CHECK_INT(arr[1].value, 6);
    CHECK_INT(vec.size(), 4);
    CHECK_INT(vec[3], 7);
    CHECK(str == "hello");
    CHECK_INT(Tmpl<int>::value, 7);
    CHECK_INT(Tmpl<int>::object.value, 13);
    CHECK_INT(inline_var, 11);
    CHECK_INT(inline_obj.value, 12);
    CHECK_INT(tls_var, 5);
    CHECK_INT(local().value, 3);
    CHECK_INT(shared_extern, 21);
    CHECK_INT(other_object().value, 4);
}

static void write_rank(int r)
{
    my_rank = r;
    x = 100 + r;
    dyn = 200 + r;
    ns::counter = r;
    Holder::member = r;
    Holder::name = "rank " + std::to_string(r);
    global_obj.value = r;
    arr[0].value = arr[1].value = r;
    vec.assign((size_t)r + 1, r);
    str = "string of rank " + std::to_string(r);
    Tmpl<int>::value = r;
    Tmpl<int>::object.value = r;
    inline_var = r;
    inline_obj.value = r;
    tls_var = r;
    local().value = r;
    shared_extern = 300 + r;
    other_object().value = r;
    for (Counted *c : {&global_obj, &arr[0], &arr[1], &local(), &other_object(), &inline_obj,
                       &Tmpl<int>::object, &early})
        c->owner = r;
}

static void check_rank(int r)
{
    CHECK_INT(x, 100 + r);
    CHECK_INT(*px, 100 + r);
    CHECK_INT(rx, 100 + r);
    CHECK_INT(dyn, 200 + r);
    CHECK_INT(ns::counter, r);
    CHECK_INT(Holder::member, r);
    CHECK(Holder::name == "rank " + std::to_string(r));
    CHECK_INT(global_obj.value, r);
    CHECK_INT(arr[1].value, r);
    CHECK_INT(vec.size(), r + 1);
    CHECK_INT(vec[(size_t)r], r);
    CHECK(str == "string of rank " + std::to_string(r));
    CHECK_INT(Tmpl<int>::value, r);
    CHECK_INT(Tmpl<int>::object.value, r);
    CHECK_INT(inline_var, r);
    CHECK_INT(inline_obj.value, r);
    CHECK_INT(tls_var, r);
    CHECK_INT(local().value, r);
    CHECK_INT(shared_extern, 300 + r);
    CHECK_INT(other_read(), 300 + r); /* one variable for both units */
    CHECK(other_address() == &shared_extern);
    CHECK_INT(other_object().value, r);
}

LOOM_SHARED int hits;

int main(int argc, char **argv)
{
    check_initial(); /* before MPI_Init: constructed before the rank's main */
    MPI_Init(&argc, &argv);
    int rank, size;
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &size);
    if (rank == 0)
        cxx_nranks = size;
    write_rank(rank);
    __atomic_fetch_add(&hits, 1, __ATOMIC_SEQ_CST);
    MPI_Barrier(MPI_COMM_WORLD);
    check_rank(rank);
    CHECK_INT(__atomic_load_n(&hits, __ATOMIC_SEQ_CST), size);
    check_own_address(&x);
    check_own_address(&ns::counter);
    check_own_address(&Holder::member);
    check_own_address(&Holder::name);
    check_own_address(&global_obj);
    check_own_address(&vec);
    check_own_address(&str);
    check_own_address(&Tmpl<int>::value);
    check_own_address(&inline_var);
    check_own_address(&inline_obj);
    check_own_address(&local());
    check_own_address(&shared_extern);
    MPI_Barrier(MPI_COMM_WORLD);
    check_rank(rank);
    if (rank == 0)
        printf("cxx: %d ranks each read their own values\n", size);
    MPI_Finalize();
#ifdef END_WITH_EXIT
    exit(0); /* ends the rank only: its destructors run, as a process's do at exit */
#endif
    return 0;
}
