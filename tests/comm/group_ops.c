/* Group constructors and queries: incl, excl, range_incl, range_excl, union, intersection,
 * difference, translate_ranks, compare, rank, size, MPI_GROUP_EMPTY. */
#include "comm_check.h"

/* Check that g holds exactly the world ranks want[0..n-1], in that order. */
static void check_members(MPI_Group g, MPI_Group gw, int n, const int *want, int line)
{
    int size, ranks[64], w[64];
    OK(MPI_Group_size(g, &size));
    if (size != n) {
        fprintf(stderr, "line %d: group size %d, expected %d\n", line, size, n);
        CHECK(0);
    }
    for (int i = 0; i < n; i++)
        ranks[i] = i;
    OK(MPI_Group_translate_ranks(g, n, ranks, gw, w));
    for (int i = 0; i < n; i++)
        if (w[i] != want[i]) {
            fprintf(stderr, "line %d: member %d is world rank %d, expected %d\n", line, i, w[i],
                    want[i]);
            CHECK(0);
        }
}
#define MEMBERS(g, n, ...)                                                                     \
    do {                                                                                       \
        int want_[] = {__VA_ARGS__};                                                           \
        check_members(g, gw, n, want_, __LINE__);                                              \
    } while (0)

int main(int argc, char **argv)
{
    MPI_Init(&argc, &argv);
    int rank = world_rank(), size = world_size(), r, n, cmp;
    MPI_Group gw, a, b, c, u;
    OK(MPI_Comm_group(MPI_COMM_WORLD, &gw));

    /* incl / excl */
    int last = size - 1;
    int two[2] = {last, 0};
    OK(MPI_Group_incl(gw, size > 1 ? 2 : 1, two + (size > 1 ? 0 : 1), &a));
    if (size > 1)
        MEMBERS(a, 2, last, 0);
    OK(MPI_Group_rank(a, &r));
    CHECK_INT(r, rank == last ? 0 : rank == 0 ? (size > 1 ? 1 : 0) : MPI_UNDEFINED);
    OK(MPI_Group_excl(gw, 1, &last, &b)); /* all but the last */
    OK(MPI_Group_size(b, &n));
    CHECK_INT(n, size - 1);
    OK(MPI_Group_rank(b, &r));
    CHECK_INT(r, rank == last ? MPI_UNDEFINED : rank);

    /* set operations */
    OK(MPI_Group_union(a, b, &u)); /* a's order, then b's others: last, 0, 1, ..., last-1 */
    OK(MPI_Group_size(u, &n));
    CHECK_INT(n, size);
    int tr[64], trw[64];
    for (int i = 0; i < size; i++)
        tr[i] = i;
    OK(MPI_Group_translate_ranks(u, size, tr, gw, trw));
    CHECK_INT(trw[0], last);
    for (int i = 1; i < size; i++)
        CHECK_INT(trw[i], i - 1);
    OK(MPI_Group_compare(u, gw, &cmp));
    CHECK_INT(cmp, size == 1 ? MPI_IDENT : MPI_SIMILAR);
    OK(MPI_Group_free(&u));
    OK(MPI_Group_intersection(b, a, &c)); /* b's order: 0 only (when size > 1) */
    OK(MPI_Group_size(c, &n));
    CHECK_INT(n, size > 1 ? 1 : 0);
    if (size == 1)
        CHECK(c == MPI_GROUP_EMPTY);
    OK(MPI_Group_free(&c));
    OK(MPI_Group_difference(gw, b, &c)); /* the last alone */
    MEMBERS(c, 1, last);
    OK(MPI_Group_free(&c));
    OK(MPI_Group_difference(b, gw, &c));
    CHECK(c == MPI_GROUP_EMPTY);
    OK(MPI_Group_compare(c, MPI_GROUP_EMPTY, &cmp));
    CHECK_INT(cmp, MPI_IDENT);
    OK(MPI_Group_free(&c));
    OK(MPI_Group_union(MPI_GROUP_EMPTY, gw, &c));
    OK(MPI_Group_compare(c, gw, &cmp));
    CHECK_INT(cmp, MPI_IDENT);
    OK(MPI_Group_free(&c));

    /* ranges: evens, then the excluded odds */
    int ev[1][3] = {{0, last, 2}};
    OK(MPI_Group_range_incl(gw, 1, ev, &c));
    OK(MPI_Group_size(c, &n));
    CHECK_INT(n, (size + 1) / 2);
    OK(MPI_Group_translate_ranks(c, n, tr, gw, trw));
    for (int i = 0; i < n; i++)
        CHECK_INT(trw[i], 2 * i);
    MPI_Group odd;
    OK(MPI_Group_range_excl(gw, 1, ev, &odd));
    OK(MPI_Group_size(odd, &n));
    CHECK_INT(n, size / 2);
    OK(MPI_Group_translate_ranks(odd, n, tr, gw, trw));
    for (int i = 0; i < n; i++)
        CHECK_INT(trw[i], 2 * i + 1);
    OK(MPI_Group_free(&odd));
    OK(MPI_Group_free(&c));
    /* a descending range and a one-element range */
    int down[2][3] = {{last, 0, -1}, {0, 0, 5}};
    OK(MPI_Group_range_incl(gw, 1, down, &c));
    OK(MPI_Group_translate_ranks(c, size, tr, gw, trw));
    for (int i = 0; i < size; i++)
        CHECK_INT(trw[i], last - i);
    OK(MPI_Group_compare(c, gw, &cmp));
    CHECK_INT(cmp, size == 1 ? MPI_IDENT : MPI_SIMILAR);
    OK(MPI_Group_free(&c));
    OK(MPI_Group_range_incl(gw, 1, down + 1, &c));
    MEMBERS(c, 1, 0);
    OK(MPI_Group_free(&c));

    /* translate: PROC_NULL stays, absent ranks are UNDEFINED */
    int in[3] = {0, MPI_PROC_NULL, last}, out[3];
    OK(MPI_Group_translate_ranks(gw, 3, in, b, out));
    CHECK_INT(out[0], size > 1 ? 0 : MPI_UNDEFINED);
    CHECK_INT(out[1], MPI_PROC_NULL);
    CHECK_INT(out[2], MPI_UNDEFINED);
    OK(MPI_Group_translate_ranks(gw, 0, NULL, b, NULL));

    /* compare: unequal sizes, different members */
    OK(MPI_Group_compare(a, b, &cmp));
    CHECK_INT(cmp, MPI_UNEQUAL);
    OK(MPI_Group_incl(gw, 0, NULL, &c));
    CHECK(c == MPI_GROUP_EMPTY);
    OK(MPI_Group_free(&c));
    OK(MPI_Group_size(MPI_GROUP_EMPTY, &n));
    CHECK_INT(n, 0);
    OK(MPI_Group_rank(MPI_GROUP_EMPTY, &r));
    CHECK_INT(r, MPI_UNDEFINED);

    OK(MPI_Group_free(&a));
    OK(MPI_Group_free(&b));
    OK(MPI_Group_free(&gw));
    MPI_Finalize();
    return 0;
}
