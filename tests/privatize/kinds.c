/* tests/privatize/kinds.c — every kind of variable with static storage duration is per rank
 * when built with loomcc (privatization on by default): each rank checks the initial values,
 * writes its rank into all of them, meets the others at barriers, and checks it still reads
 * its own values; pointers initialized with the address of another global point to the rank's
 * own copy. With kinds_other.c (extern across units) and libkinds.a (a static library built
 * with loomcc). */
#include <errno.h>
#include <mpi.h>
#include <stdint.h>
#include <string.h>
#include <unistd.h>
#include "check.h"
#include "kinds.h"

int g_tentative;                 /* tentative definition */
int g_init = 7;                  /* file-scope global with an initializer */
static int s_static;             /* static global */
static int s_init = 9;
double g_array[100] = {[99] = 1.5};
struct point {
    int x, y;
    char name[8];
} g_struct = {1, 2, "p"};
int main_defined = 11;           /* used by kinds_other.c through extern */

static int twice(int v) { return 2 * v; }
static int thrice(int v) { return 3 * v; }

int *g_ptr = &g_tentative;                               /* address of another global */
static int *s_ptr_arr[3] = {&s_static, NULL, &g_init};   /* array of such pointers */
struct holder {
    int *p;
    int (*fn)(int);
    const char *label;
} g_holders[2] = {{&g_init, twice, "a"}, {&s_static, thrice, "b"}}; /* structs of them */
int (*g_fn)(int) = twice;                                /* function pointer */
int **g_pp = &g_ptr;                                     /* address of a pointer */
int *const g_cptr = &g_tentative;                        /* const pointer: per rank too */
char *g_str = "hello";                                   /* a string literal stays shared */
int *g_range[4] = {[0 ... 3] = &g_init};                 /* GNU range designator */
double *g_elem = &g_array[42];                           /* address of an element */
char *g_member = g_struct.name;                          /* address of a member */
static const int table[4] = {1, 2, 3, 4};                /* const: may stay shared */
int *g_literal = (int[]){10, 20, 30};                    /* compound literal */
_Thread_local int g_tls = 5;                             /* already per thread */

/* A function-local static and one pointing at it. */
static int counter(void)
{
    static int calls;
    static int *calls_ptr = &calls;
    return ++*calls_ptr;
}

static void check_initial(void)
{
    CHECK_INT(g_tentative, 0);
    CHECK_INT(g_init, 7);
    CHECK_INT(s_static, 0);
    CHECK_INT(s_init, 9);
    CHECK(g_array[99] == 1.5 && g_array[0] == 0.0);
    CHECK(g_struct.x == 1 && g_struct.y == 2 && strcmp(g_struct.name, "p") == 0);
    CHECK(g_ptr == &g_tentative);
    CHECK(s_ptr_arr[0] == &s_static && s_ptr_arr[1] == NULL && s_ptr_arr[2] == &g_init);
    CHECK(g_holders[0].p == &g_init && g_holders[1].p == &s_static);
    CHECK_INT(g_holders[0].fn(5), 10);
    CHECK_INT(g_holders[1].fn(5), 15);
    CHECK(strcmp(g_holders[1].label, "b") == 0);
    CHECK_INT(g_fn(4), 8);
    CHECK(g_pp == &g_ptr && g_cptr == &g_tentative);
    CHECK(strcmp(g_str, "hello") == 0);
    for (int i = 0; i < 4; i++)
        CHECK(g_range[i] == &g_init);
    CHECK(g_elem == &g_array[42] && g_member == g_struct.name);
    CHECK_INT(table[3], 4);
    CHECK(g_literal[0] == 10 && g_literal[2] == 30);
    CHECK_INT(g_tls, 5);
    CHECK_INT(counter(), 1);
    CHECK_INT(other_value(), 0);
    CHECK(other_ptr == &other_counter && other_counter == 0);
    CHECK_INT(other_main_defined(), 11);
    CHECK_INT(lib_get(), 0);
    CHECK(lib_ptr_ok());
    CHECK_INT(lib_value, -1);
}

static void write_all(int r)
{
    g_tentative = r;
    g_init = r + 1;
    s_static = r + 2;
    s_init = r + 3;
    for (int i = 0; i < 100; i++)
        g_array[i] = r;
    g_struct.x = r;
    g_struct.name[0] = (char)('a' + r);
    *g_holders[1].p += 0;   /* writes s_static through its pointer: same value */
    g_fn = r % 2 ? thrice : twice;
    g_literal[1] = r;
    g_tls = r;
    for (int i = 0; i < r; i++)
        counter();
    other_set(r);
    main_defined = r + 4;
    lib_set(r);
    lib_value = r + 5;
}

static void check_own(int r)
{
    CHECK_INT(g_tentative, r);
    CHECK_INT(*g_ptr, r);
    CHECK_INT(**g_pp, r);
    CHECK_INT(*g_cptr, r);
    CHECK_INT(g_init, r + 1);
    CHECK_INT(*s_ptr_arr[2], r + 1);
    CHECK_INT(*g_range[3], r + 1);
    CHECK_INT(*g_holders[0].p, r + 1);
    CHECK_INT(s_static, r + 2);
    CHECK_INT(*s_ptr_arr[0], r + 2);
    CHECK_INT(*g_holders[1].p, r + 2);
    CHECK_INT(s_init, r + 3);
    for (int i = 0; i < 100; i++)
        CHECK(g_array[i] == r);
    CHECK(*g_elem == r);
    CHECK_INT(g_struct.x, r);
    CHECK_INT(*g_member, 'a' + r);
    CHECK_INT(g_fn(10), r % 2 ? 30 : 20);
    CHECK_INT(g_literal[1], r);
    CHECK_INT(g_tls, r);
    CHECK_INT(other_value(), r);
    CHECK_INT(*other_ptr, r);
    CHECK_INT(other_counter, r);
    CHECK_INT(other_main_defined(), r + 4);
    CHECK_INT(lib_get(), r);
    CHECK(lib_ptr_ok());
    CHECK_INT(lib_value, r + 5);
}

int main(int argc, char **argv)
{
    check_initial(); /* before MPI_Init: no other rank has touched these copies */
    MPI_Init(&argc, &argv);
    int rank, size;
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &size);
    write_all(rank);
    MPI_Barrier(MPI_COMM_WORLD);
    usleep(1000 * (unsigned)(size - rank)); /* let the others run in between */
    MPI_Barrier(MPI_COMM_WORLD);
    check_own(rank);
    CHECK_INT(counter(), rank + 2); /* 1 before, `rank` in write_all, this one */

    /* Every rank's copy is at its own address; errno (libc's, already per thread, left alone
     * by the plugin) too. Library calls may change errno's value, so only its address is
     * compared. */
    uintptr_t mine[3] = {(uintptr_t)&g_tentative, (uintptr_t)lib_address(), (uintptr_t)&errno};
    uintptr_t all[3 * 64];
    CHECK(size <= 64);
    MPI_Allgather(mine, 3 * (int)sizeof(uintptr_t), MPI_BYTE, all, 3 * (int)sizeof(uintptr_t),
                  MPI_BYTE, MPI_COMM_WORLD);
    for (int i = 0; i < size; i++)
        for (int j = 0; j < i; j++)
            for (int k = 0; k < 3; k++)
                CHECK(all[3 * i + k] != all[3 * j + k]);
    MPI_Barrier(MPI_COMM_WORLD);
    check_own(rank);
    if (rank == 0)
        printf("kinds: %d ranks each read their own values\n", size);
    MPI_Finalize();
    return 0;
}
