/* comm/from_group_net.c — MPI_Comm_create_from_group and MPI_Intercomm_create_from_groups
 * over ranks of several node processes.
 *
 * The members meet by a string tag and nothing else: no communicator to talk through, and in
 * several node processes no memory to share. So they do not talk at all. Every member
 * computes the new context id from what all members know alike: the tag, the group(s) and how
 * many creations with this key the member made before (a member's k-th creation with a key
 * pairs with every other member's k-th, as in one node process, comm/from_group.c). The id is
 * a 64-bit hash of those with bit 62 set, apart from the ids node processes make
 * (loom__comm_context_id_new: the node process in bits 40 and up, far below bit 62), and its
 * doubles (the contexts' network names, 2 id and 2 id + 1) stay apart too. Two different
 * keys get the same id with a chance of about 2^-62 per pair of creations alive at once.
 * Then each member attaches its node process's half by that id (comm/attach.c), as the
 * constructors over a parent do; a message that a member of another node process sends on the
 * new communicator before this process's half exists is held until it does (net/net_ctx.c).
 *
 * Lock: `keys_lock` protects the list of keys and every count in it. A key stays for the
 * job: one per distinct (tag, groups) over several node processes, a tag and a count per
 * member. */
#include <pthread.h>
#include <stdlib.h>
#include <string.h>
#include "comm/comm.h"
#include "core/error.h"

struct key {
    struct key *next;
    char *tag;
    struct loom_group *g[2]; /* g[1] NULL for an intracommunicator */
    int *made;               /* [members in union order]: creations each made with this key */
};

static pthread_mutex_t keys_lock = PTHREAD_MUTEX_INITIALIZER;
static struct key *keys;

/* *k: how many creations member `me` made with this key before this one (which is then
 * counted). 0 or LOOM_ERR_NOMEM. */
static int ordinal(const char *tag, struct loom_group *g0, struct loom_group *g1, int me,
                   int *k)
{
    pthread_mutex_lock(&keys_lock);
    struct key *p = keys;
    while (p && !(strcmp(p->tag, tag) == 0 && loom__group_same(p->g[0], g0) &&
                  loom__group_same(p->g[1], g1)))
        p = p->next;
    if (p == NULL) {
        int n = g0->size + (g1 ? g1->size : 0);
        p = calloc(1, sizeof *p);
        if (p == NULL || (p->tag = strdup(tag)) == NULL ||
            (p->made = calloc((size_t)n, sizeof *p->made)) == NULL) {
            if (p)
                free(p->tag);
            free(p);
            pthread_mutex_unlock(&keys_lock);
            return LOOM_ERR_NOMEM;
        }
        p->g[0] = g0;
        p->g[1] = g1;
        loom__group_retain(g0);
        if (g1)
            loom__group_retain(g1);
        p->next = keys;
        keys = p;
    }
    *k = p->made[me]++;
    pthread_mutex_unlock(&keys_lock);
    return 0;
}

/* One step of the hash: x folded into h (the splitmix64 finalizer after an xor). */
static uint64_t fold(uint64_t h, uint64_t x)
{
    h ^= x + 0x9e3779b97f4a7c15ull;
    h ^= h >> 30;
    h *= 0xbf58476d1ce4e5b9ull;
    h ^= h >> 27;
    h *= 0x94d049bb133111ebull;
    return h ^ (h >> 31);
}

static uint64_t fold_group(uint64_t h, const struct loom_group *g)
{
    h = fold(h, (uint64_t)g->size);
    for (int i = 0; i < g->size; i++)
        h = fold(h, (uint64_t)(unsigned)g->world[i]);
    return h;
}

/* The context ids of the k-th creation with this key: n of them (1, or 3 for the two halves
 * and the union of an intercommunicator). */
static void ids_of(const char *tag, const struct loom_group *g0, const struct loom_group *g1,
                   int k, uint64_t *ids, int n)
{
    uint64_t h = fold(0, strlen(tag));
    for (const unsigned char *c = (const unsigned char *)tag; *c; c++)
        h = fold(h, *c);
    h = fold_group(h, g0);
    h = g1 ? fold_group(h, g1) : fold(h, UINT64_MAX);
    h = fold(h, (uint64_t)k);
    for (int j = 0; j < n; j++)
        ids[j] = (fold(h, (uint64_t)j) & ((1ull << 62) - 1)) | (1ull << 62);
}

int loom__from_group_attach(const char *tag, struct loom_group *g0, struct loom_group *g1,
                            int me, struct loom_comm_shared **sh, struct loom_inter_pair *pair)
{
    int k, rc = ordinal(tag, g0, g1, me, &k);
    if (rc != 0)
        return rc;
    uint64_t ids[3];
    ids_of(tag, g0, g1, k, ids, g1 ? 3 : 1);
    return g1 ? loom__inter_pair_attach(ids, g0, g1, pair)
              : loom__comm_shared_attach(ids[0], g0, sh);
}
