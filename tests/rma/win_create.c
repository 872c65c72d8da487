/* Window creation and the queries on a window (MPI 4.1 sections 12.2 and 12.2.6), for each of
 * the four flavors: MPI_Win_create (some ranks exposing no memory), MPI_Win_allocate,
 * MPI_Win_allocate_shared and MPI_Win_create_dynamic. On each window: the predefined
 * attributes (MPI_WIN_BASE is the base pointer itself, MPI_WIN_SIZE points to an MPI_Aint,
 * MPI_WIN_DISP_UNIT and MPI_WIN_CREATE_FLAVOR and MPI_WIN_MODEL to ints), the group against the
 * communicator's, the name (empty until set), the info (a valid object the caller frees;
 * MPI_Win_set_info with "no_locks" "false"), and MPI_Win_free setting the handle to MPI_WIN_NULL.
 * One put per origin into every rank that exposes memory checks that each origin scales the
 * displacement by the target's disp_unit, not its own. Windows on the halves of an
 * MPI_Comm_split work side by side, each within its own group. */
#include <stdint.h>
#include "p2p_check.h"

/* What rank r of a job exposes in the MPI_Win_create window: nothing on every third rank
 * (counting from 1), otherwise one slot per rank of the communicator; the disp_unit differs
 * between neighbours so that an origin using its own unit would land in the wrong place. */
static int exposes(int r)
{
    return r % 3 != 1;
}

static int unit_of(int r)
{
    return r % 2 ? 16 : 8;
}

/* The value origin o puts into target t's slot o. */
static int64_t slot_value(int o, int t)
{
    return (int64_t)o * 100000 + t * 100 + 7;
}

enum { POISON = -3 };

/* The predefined attributes of win against what the window was made with. */
static void check_attrs(MPI_Win win, void *base, MPI_Aint size, int unit, int flavor)
{
    void *got_base = (void *)&got_base; /* anything but the expected value */
    MPI_Aint *got_size = NULL;
    int *got_unit = NULL, *got_flavor = NULL, *got_model = NULL, flag = 0;

    OK(MPI_Win_get_attr(win, MPI_WIN_BASE, &got_base, &flag));
    CHECK(flag);
    CHECK(got_base == base);
    flag = 0;
    OK(MPI_Win_get_attr(win, MPI_WIN_SIZE, &got_size, &flag));
    CHECK(flag && got_size != NULL);
    CHECK_INT(*got_size, size);
    flag = 0;
    OK(MPI_Win_get_attr(win, MPI_WIN_DISP_UNIT, &got_unit, &flag));
    CHECK(flag && got_unit != NULL);
    CHECK_INT(*got_unit, unit);
    flag = 0;
    OK(MPI_Win_get_attr(win, MPI_WIN_CREATE_FLAVOR, &got_flavor, &flag));
    CHECK(flag && got_flavor != NULL);
    CHECK_INT(*got_flavor, flavor);
    flag = 0;
    OK(MPI_Win_get_attr(win, MPI_WIN_MODEL, &got_model, &flag));
    CHECK(flag && got_model != NULL);
    CHECK_INT(*got_model, MPI_WIN_UNIFIED);
}

/* The group of the window is the group of the communicator it was made on. */
static void check_group(MPI_Win win, MPI_Comm comm)
{
    MPI_Group wg = MPI_GROUP_NULL, cg = MPI_GROUP_NULL;
    int cmp = -1, wsize = -1, csize = -2, wrank = -1, crank = -2;
    OK(MPI_Win_get_group(win, &wg));
    CHECK(wg != MPI_GROUP_NULL);
    OK(MPI_Comm_group(comm, &cg));
    OK(MPI_Group_compare(wg, cg, &cmp));
    CHECK_INT(cmp, MPI_IDENT);
    OK(MPI_Group_size(wg, &wsize));
    OK(MPI_Comm_size(comm, &csize));
    CHECK_INT(wsize, csize);
    OK(MPI_Group_rank(wg, &wrank));
    OK(MPI_Comm_rank(comm, &crank));
    CHECK_INT(wrank, crank);
    OK(MPI_Group_free(&wg));
    OK(MPI_Group_free(&cg));
    CHECK(wg == MPI_GROUP_NULL);
}

/* The name: empty until set (MPI 4.1 section 7.8: with no name associated, the empty
 * string), then what was set (a name per rank: names are local). */
static void check_name(MPI_Win win, int rank, const char *what)
{
    char name[MPI_MAX_OBJECT_NAME], want[MPI_MAX_OBJECT_NAME];
    int len = -1;
    memset(name, 'x', sizeof name);
    OK(MPI_Win_get_name(win, name, &len));
#ifndef OPEN_MPI /* Open MPI 4.1 names new windows itself ("pt2pt window 3") */
    CHECK_INT(len, 0);
    CHECK_INT(name[0], 0);
#endif
    snprintf(want, sizeof want, "%s window of rank %d", what, rank);
    OK(MPI_Win_set_name(win, want));
    OK(MPI_Win_get_name(win, name, &len));
    CHECK_INT(len, (int)strlen(want));
    CHECK(strcmp(name, want) == 0);
    /* a second name replaces the first */
    OK(MPI_Win_set_name(win, "w"));
    OK(MPI_Win_get_name(win, name, &len));
    CHECK_INT(len, 1);
    CHECK(strcmp(name, "w") == 0);
}

/* The info of a window is a new object the caller frees; "no_locks" "false" is accepted by
 * MPI_Win_set_info (collective) and, where the window reports the key, reported as set. */
static void check_info(MPI_Win win)
{
    MPI_Info info = MPI_INFO_NULL, hint = MPI_INFO_NULL;
    int nkeys = -1, flag = 0;
    char value[MPI_MAX_INFO_VAL + 1];

    OK(MPI_Win_get_info(win, &info));
    CHECK(info != MPI_INFO_NULL);
    OK(MPI_Info_get_nkeys(info, &nkeys));
    CHECK(nkeys >= 0);
    OK(MPI_Info_free(&info));
    CHECK(info == MPI_INFO_NULL);

    OK(MPI_Info_create(&hint));
    OK(MPI_Info_set(hint, "no_locks", "false"));
    OK(MPI_Win_set_info(win, hint));
    OK(MPI_Info_free(&hint));
    OK(MPI_Win_get_info(win, &info));
    CHECK(info != MPI_INFO_NULL);
#if MPI_VERSION >= 4
    int buflen = sizeof value;
    OK(MPI_Info_get_string(info, "no_locks", &buflen, value, &flag));
#else /* Open MPI 4.1, where the tests are also validated, is MPI 3.1 */
    OK(MPI_Info_get(info, "no_locks", MPI_MAX_INFO_VAL, value, &flag));
#endif
    if (flag)
        CHECK(strcmp(value, "false") == 0);
    OK(MPI_Info_free(&info));
}

static void check_queries(MPI_Win win, MPI_Comm comm, int rank, const char *what)
{
    check_group(win, comm);
    check_name(win, rank, what);
    check_info(win);
}

static void free_win(MPI_Win *win)
{
    OK(MPI_Win_free(win));
    CHECK(*win == MPI_WIN_NULL);
}

/* Each origin puts slot_value(o, t) into slot o of every target t that exposes memory, under
 * fence, the displacement counted in the target's unit; then checks its own slots. `base`
 * holds `n` slots of unit_of(rank) bytes (an int64_t at the start of each). */
static void put_to_all(MPI_Win win, int64_t *base, int rank, int n, int (*has)(int))
{
    int64_t *src = malloc(sizeof(int64_t) * (size_t)n);
    CHECK(src != NULL);
    OK(MPI_Win_fence(MPI_MODE_NOPRECEDE, win));
    for (int t = 0; t < n; t++) {
        if (!has(t))
            continue;
        src[t] = slot_value(rank, t);
        OK(MPI_Put(&src[t], 1, MPI_INT64_T, t, rank, 1, MPI_INT64_T, win));
    }
    OK(MPI_Win_fence(MPI_MODE_NOSUCCEED, win));
    if (has(rank)) {
        int step = unit_of(rank) / (int)sizeof(int64_t);
        for (int o = 0; o < n; o++) {
            CHECK_INT(base[o * step], slot_value(o, rank));
            for (int k = 1; k < step; k++)
                CHECK_INT(base[o * step + k], POISON);
        }
    }
    free(src);
}

static int always(int r)
{
    return r >= 0;
}

/* MPI_Win_create, no memory on some ranks. */
static void flavor_create(MPI_Comm comm, const char *what)
{
    int rank, n;
    OK(MPI_Comm_rank(comm, &rank));
    OK(MPI_Comm_size(comm, &n));
    MPI_Aint size = exposes(rank) ? (MPI_Aint)n * unit_of(rank) : 0;
    int64_t *mem = NULL;
    if (size) {
        mem = malloc((size_t)size);
        CHECK(mem != NULL);
        for (size_t i = 0; i < (size_t)size / sizeof *mem; i++)
            mem[i] = POISON;
    }
    MPI_Win win = MPI_WIN_NULL;
    OK(MPI_Win_create(mem, size, unit_of(rank), MPI_INFO_NULL, comm, &win));
    CHECK(win != MPI_WIN_NULL);
    check_attrs(win, mem, size, unit_of(rank), MPI_WIN_FLAVOR_CREATE);
    check_queries(win, comm, rank, what);
    put_to_all(win, mem, rank, n, exposes);
    free_win(&win);
    free(mem);
}

/* MPI_Win_allocate: memory from MPI, usable to its last byte; the units as above. */
static void flavor_allocate(MPI_Comm comm, const char *what)
{
    int rank, n;
    OK(MPI_Comm_rank(comm, &rank));
    OK(MPI_Comm_size(comm, &n));
    MPI_Aint size = (MPI_Aint)n * 16;
    int64_t *mem = NULL;
    MPI_Win win = MPI_WIN_NULL;
    OK(MPI_Win_allocate(size, unit_of(rank), MPI_INFO_NULL, comm, &mem, &win));
    CHECK(win != MPI_WIN_NULL);
    CHECK(mem != NULL);
    for (int i = 0; i < 2 * n; i++)
        mem[i] = POISON;
    check_attrs(win, mem, size, unit_of(rank), MPI_WIN_FLAVOR_ALLOCATE);
    check_queries(win, comm, rank, what);
    put_to_all(win, mem, rank, n, always);
    free_win(&win);
}

/* MPI_Win_allocate with size 0 on every rank: a window all the same. */
static void flavor_allocate_empty(MPI_Comm comm)
{
    void *mem = NULL;
    MPI_Win win = MPI_WIN_NULL;
    MPI_Aint *got_size = NULL;
    int flag = 0;
    OK(MPI_Win_allocate(0, 1, MPI_INFO_NULL, comm, &mem, &win));
    CHECK(win != MPI_WIN_NULL);
    OK(MPI_Win_get_attr(win, MPI_WIN_SIZE, &got_size, &flag));
    CHECK(flag);
    CHECK_INT(*got_size, 0);
    OK(MPI_Win_fence(0, win));
    OK(MPI_Win_fence(0, win));
    free_win(&win);
}

/* MPI_Win_allocate_shared: the memory of every rank is reachable by load and store. */
static void flavor_shared(MPI_Comm comm, const char *what)
{
    int rank;
    OK(MPI_Comm_rank(comm, &rank));
    MPI_Aint size = (MPI_Aint)16 * (rank + 1);
    int *mem = NULL;
    MPI_Win win = MPI_WIN_NULL;
    OK(MPI_Win_allocate_shared(size, sizeof(int), MPI_INFO_NULL, comm, &mem, &win));
    CHECK(win != MPI_WIN_NULL);
    CHECK(mem != NULL);
    memset(mem, 0x5a, (size_t)size);
    check_attrs(win, mem, size, sizeof(int), MPI_WIN_FLAVOR_SHARED);
    check_queries(win, comm, rank, what);
    free_win(&win);
}

/* MPI_Win_create_dynamic: no memory until attached; the effective base is MPI_BOTTOM, the
 * size 0 and the unit 1 (MPI 4.1 section 12.2.4). */
static void flavor_dynamic(MPI_Comm comm, const char *what)
{
    int rank;
    OK(MPI_Comm_rank(comm, &rank));
    MPI_Win win = MPI_WIN_NULL;
    OK(MPI_Win_create_dynamic(MPI_INFO_NULL, comm, &win));
    CHECK(win != MPI_WIN_NULL);
    check_attrs(win, MPI_BOTTOM, 0, 1, MPI_WIN_FLAVOR_DYNAMIC);
    check_queries(win, comm, rank, what);
    free_win(&win);
}

/* Several windows alive at once: created in one order, freed in another, each keeping its
 * own attributes. */
static void several_at_once(MPI_Comm comm)
{
    enum { K = 4 };
    MPI_Win w[K];
    int *mem[K];
    for (int k = 0; k < K; k++) {
        OK(MPI_Win_allocate((MPI_Aint)(k + 1) * 16, 4, MPI_INFO_NULL, comm, &mem[k], &w[k]));
        for (int j = 0; j < k; j++)
            CHECK(w[j] != w[k]);
    }
    for (int k = 0; k < K; k++)
        check_attrs(w[k], mem[k], (MPI_Aint)(k + 1) * 16, 4, MPI_WIN_FLAVOR_ALLOCATE);
    free_win(&w[2]);
    free_win(&w[0]);
    check_attrs(w[1], mem[1], 32, 4, MPI_WIN_FLAVOR_ALLOCATE);
    check_attrs(w[3], mem[3], 64, 4, MPI_WIN_FLAVOR_ALLOCATE);
    free_win(&w[3]);
    free_win(&w[1]);
}

/* Windows on the two halves of MPI_Comm_split (even and odd world ranks), alive together:
 * each half's puts stay within it. */
static void on_split(int wrank)
{
    MPI_Comm half;
    OK(MPI_Comm_split(MPI_COMM_WORLD, wrank % 2, -wrank, &half)); /* reversed order */
    int hrank, hsize;
    OK(MPI_Comm_rank(half, &hrank));
    OK(MPI_Comm_size(half, &hsize));

    int *mem = NULL;
    MPI_Win win = MPI_WIN_NULL;
    OK(MPI_Win_allocate((MPI_Aint)sizeof(int) * 4, sizeof(int), MPI_INFO_NULL, half, &mem, &win));
    check_attrs(win, mem, sizeof(int) * 4, sizeof(int), MPI_WIN_FLAVOR_ALLOCATE);
    check_group(win, half);
    mem[0] = mem[1] = POISON;

    /* each rank puts its world rank into its right neighbour within the half, slot 0, and
     * its colour into slot 1 */
    int right = (hrank + 1) % hsize;
    int src[2] = {wrank, wrank % 2};
    OK(MPI_Win_fence(MPI_MODE_NOPRECEDE, win));
    OK(MPI_Put(src, 2, MPI_INT, right, 0, 2, MPI_INT, win));
    OK(MPI_Win_fence(MPI_MODE_NOSUCCEED, win));
    /* half ranks go by decreasing world rank: my left neighbour in the half is the next world
     * rank of my colour, wrapping to the smallest */
    int n;
    OK(MPI_Comm_size(MPI_COMM_WORLD, &n));
    int members = (n - wrank % 2 + 1) / 2;
    CHECK_INT(hsize, members);
    int want_left = wrank + 2 < n ? wrank + 2 : wrank % 2;
    CHECK_INT(mem[0], want_left);
    CHECK_INT(mem[1], wrank % 2);
    free_win(&win);

    flavor_create(half, "split");
    OK(MPI_Comm_free(&half));
}

/* A window on MPI_COMM_SELF (a group of one) over an int 4 bytes into a malloc'ed block: the
 * base need not be aligned beyond its type; MPI_WIN_BASE is that base and a put lands there,
 * not around it. */
#ifdef MPICH_VERSION
/* MPICH 4.0.2 (ch4) rounds a window's base down to 16 bytes: MPI_WIN_BASE reports the rounded
 * address and RMA lands there. Under MPICH the base is the aligned block itself. */
enum { SELF_OFFSET = 0 };
#else
enum { SELF_OFFSET = 1 };
#endif
static void on_self(int rank)
{
    int *block = malloc(4 * sizeof(int)), *one = block + SELF_OFFSET;
    CHECK(block != NULL);
    for (int i = 0; i < 4; i++)
        block[i] = POISON;
    MPI_Win self = MPI_WIN_NULL;
    OK(MPI_Win_create(one, sizeof *one, sizeof *one, MPI_INFO_NULL, MPI_COMM_SELF, &self));
    check_attrs(self, one, sizeof *one, sizeof *one, MPI_WIN_FLAVOR_CREATE);
    check_group(self, MPI_COMM_SELF);
    int v = rank + 40;
    OK(MPI_Win_fence(0, self));
    OK(MPI_Put(&v, 1, MPI_INT, 0, 0, 1, MPI_INT, self));
    OK(MPI_Win_fence(0, self));
    for (int i = 0; i < 4; i++)
        CHECK_INT(block[i], i == SELF_OFFSET ? rank + 40 : POISON);
    free_win(&self);
    free(block);
}

int main(int argc, char **argv)
{
    OK(MPI_Init(&argc, &argv));
    int rank = p2p_rank();

    flavor_create(MPI_COMM_WORLD, "create");
    flavor_allocate(MPI_COMM_WORLD, "allocate");
    flavor_allocate_empty(MPI_COMM_WORLD);
    flavor_shared(MPI_COMM_WORLD, "shared");
    flavor_dynamic(MPI_COMM_WORLD, "dynamic");
    several_at_once(MPI_COMM_WORLD);
    on_split(rank);

    on_self(rank);

    OK(MPI_Finalize());
    return 0;
}
