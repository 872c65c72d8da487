/* Unit test of the group and info internals (no ranks needed): set operations keep the
 * standard's order, incl/excl, compare, and the info list's order, overwrite and delete. */
#include <stdio.h>
#include <string.h>
#include "check.h"
#include "comm/comm.h"
#include "core/rank.h"

static struct loom_group *of(int n, const int *w)
{
    struct loom_group *g = loom__group_new(n);
    CHECK(g != NULL);
    for (int i = 0; i < n; i++)
        g->world[i] = w[i];
    return g;
}

static void same(struct loom_group *g, int n, const int *w)
{
    CHECK_INT(g->size, n);
    for (int i = 0; i < n; i++)
        CHECK_INT(g->world[i], w[i]);
}

int main(void)
{
    loom__job.nranks = 8;
    int wa[] = {5, 1, 3}, wb[] = {3, 7, 5, 0};
    struct loom_group *a = of(3, wa), *b = of(4, wb), *r;

    CHECK_INT(loom__group_union(a, b, &r), 0);
    same(r, 5, (int[]){5, 1, 3, 7, 0});
    loom__group_release(r);
    CHECK_INT(loom__group_intersection(a, b, &r), 0);
    same(r, 2, (int[]){5, 3});
    loom__group_release(r);
    CHECK_INT(loom__group_difference(b, a, &r), 0);
    same(r, 2, (int[]){7, 0});
    loom__group_release(r);
    CHECK_INT(loom__group_difference(a, a, &r), 0);
    CHECK(r == &loom_mpi_group_empty);

    CHECK_INT(loom__group_incl(b, 2, (int[]){3, 1}, &r), 0);
    same(r, 2, (int[]){0, 7});
    loom__group_release(r);
    CHECK_INT(loom__group_excl(b, 2, (int[]){0, 2}, &r), 0);
    same(r, 2, (int[]){7, 0});
    loom__group_release(r);

    CHECK_INT(loom__group_rank_of(b, 5), 2);
    CHECK_INT(loom__group_rank_of(b, 6), MPI_UNDEFINED);
    struct loom_group *a2 = of(3, (int[]){3, 5, 1});
    CHECK_INT(loom__group_compare(a, a), MPI_IDENT);
    CHECK_INT(loom__group_compare(a, a2), MPI_SIMILAR);
    CHECK_INT(loom__group_compare(a, b), MPI_UNEQUAL);
    struct loom_group *a3 = of(3, (int[]){3, 5, 2});
    CHECK_INT(loom__group_compare(a, a3), MPI_UNEQUAL);
    loom__group_release(a3);
    loom__group_release(a2);

    /* references: a retained group survives one release */
    loom__group_retain(a);
    loom__group_release(a);
    CHECK(loom__group_invalid_reason(a) == NULL);
    loom__group_release(a);
    CHECK(strcmp(loom__group_invalid_reason(a), "group was freed") == 0);
    loom__group_release(b);

    struct loom_info *info = loom__info_new();
    char key[MPI_MAX_INFO_KEY + 1], val[8];
    CHECK_INT(loom__info_set(info, "x", "1"), 0);
    CHECK_INT(loom__info_set(info, "y", "22"), 0);
    CHECK_INT(loom__info_set(info, "x", "333"), 0);
    CHECK_INT(loom__info_nkeys(info), 2);
    CHECK_INT(loom__info_nthkey(info, 0, key), 0);
    CHECK(strcmp(key, "x") == 0);
    CHECK_INT(loom__info_get(info, "x", val, 3), 3); /* full length, truncated copy */
    CHECK(strcmp(val, "33") == 0);
    CHECK_INT(loom__info_get(info, "z", NULL, 0), -1);
    struct loom_info *copy = loom__info_dup(info);
    CHECK_INT(loom__info_delete(info, "x"), 0);
    CHECK_INT(loom__info_delete(info, "x"), -1);
    CHECK_INT(loom__info_nthkey(info, 0, key), 0);
    CHECK(strcmp(key, "y") == 0);
    CHECK_INT(loom__info_nkeys(copy), 2);
    loom__info_free(info);
    loom__info_free(copy);
    printf("ok\n");
    return 0;
}
