/* pmi_parse.c — the PMI_process_mapping parser behind loom__pmi_local, on the mappings Hydra
 * writes (one host with too few slots, several hosts, uneven blocks) and on malformed ones; and
 * the hex helpers that carry binary addresses through the key-value space. */
#include <string.h>

#include "check.h"
#include "net/pmi.h"

/* Every rank of a size-rank job on `mapping` has local rank want_rank[r] of want_size[r]. */
static void expect_map(const char *mapping, int size, const int *want_rank, const int *want_size)
{
    for (int r = 0; r < size; r++) {
        int lr = -1, ls = -1;
        char err[256] = "";
        if (loom__pmi_parse_mapping(mapping, r, size, &lr, &ls, err, sizeof(err))) {
            fprintf(stderr, "%s, rank %d of %d: %s\n", mapping, r, size, err);
            _exit(99);
        }
        if (lr != want_rank[r] || ls != want_size[r]) {
            fprintf(stderr, "%s, rank %d of %d: local %d of %d, expected %d of %d\n", mapping, r,
                    size, lr, ls, want_rank[r], want_size[r]);
            _exit(99);
        }
    }
}

static void expect_bad(const char *mapping, int size)
{
    int lr, ls;
    char err[256] = "";
    if (loom__pmi_parse_mapping(mapping, 0, size, &lr, &ls, err, sizeof(err)) == 0) {
        fprintf(stderr, "'%s' with %d ranks was accepted (local %d of %d)\n", mapping, size, lr,
                ls);
        _exit(99);
    }
    CHECK(strstr(err, "PMI process mapping") != NULL);
}

int main(void)
{
    /* Hydra, 3 processes on one host it thinks has one slot: the block is dealt again. */
    expect_map("(vector,(0,1,1))", 3, (int[]){0, 1, 2}, (int[]){3, 3, 3});
    /* One host with 2 slots, 3 processes. */
    expect_map("(vector,(0,1,2))", 3, (int[]){0, 1, 2}, (int[]){3, 3, 3});
    /* Two hosts, one slot each, 3 processes: 0 and 2 on the first. */
    expect_map("(vector,(0,2,1))", 3, (int[]){0, 0, 1}, (int[]){2, 1, 2});
    /* Uneven blocks: host 0 has 2 slots, host 1 one; 5 processes: 0,1,3,4 | 2. */
    expect_map("(vector,(0,1,2),(1,1,1))", 5, (int[]){0, 1, 0, 2, 3}, (int[]){4, 4, 1, 4, 4});
    /* Two per host on two hosts; and four hosts. */
    expect_map("(vector,(0,2,2))", 4, (int[]){0, 1, 0, 1}, (int[]){2, 2, 2, 2});
    expect_map("(vector,(0,4,2))", 7, (int[]){0, 1, 0, 1, 0, 1, 0},
               (int[]){2, 2, 2, 2, 2, 2, 1});
    /* Blocks that name hosts out of order, with spaces. */
    expect_map(" (vector, (1,1,2) ,(0,1,1))", 4, (int[]){0, 1, 0, 2}, (int[]){3, 3, 1, 3});
    /* Alone. */
    expect_map("(vector,(0,1,1))", 1, (int[]){0}, (int[]){1});

    expect_bad("", 2);
    expect_bad("(vector)", 2);
    expect_bad("(vector,(0,1,0))", 2);
    expect_bad("(vector,(0,0,1))", 2);
    expect_bad("(vector,(0,1))", 2);
    expect_bad("(vector,(a,1,1))", 2);
    expect_bad("(vector,(-1,1,1))", 2);
    expect_bad("(list,(0,1,1))", 2);
    expect_bad("(vector,(0,1,1)", 1);
    expect_bad("(vector,(0,1,1)) trailing", 1);
    expect_bad("(vector,(0,1,1),)", 1);
    {
        int lr, ls;
        char err[128];
        CHECK(loom__pmi_parse_mapping("(vector,(0,1,1))", 3, 3, &lr, &ls, err, sizeof(err)) ==
              -1);
    }

    /* Hex: every byte value there and back, lowercase out, either case in. */
    unsigned char bytes[256], back[256];
    char text[2 * 256 + 1];
    for (int i = 0; i < 256; i++)
        bytes[i] = (unsigned char)i;
    loom__pmi_hex_encode(bytes, sizeof(bytes), text);
    CHECK_INT(strlen(text), 512);
    CHECK(strncmp(text, "000102", 6) == 0);
    CHECK(strcmp(text + 506, "fdfeff") == 0);
    CHECK_INT(loom__pmi_hex_decode(text, back, sizeof(back)), 256);
    CHECK(memcmp(bytes, back, 256) == 0);
    CHECK_INT(loom__pmi_hex_decode("DeadBEEF", back, 4), 4);
    CHECK_INT(back[0], 0xde);
    CHECK_INT(back[3], 0xef);
    CHECK_INT(loom__pmi_hex_decode("", back, 4), 0);
    loom__pmi_hex_encode(bytes, 0, text);
    CHECK(text[0] == '\0');
    CHECK_INT(loom__pmi_hex_decode("abc", back, 4), -1);        /* odd length */
    CHECK_INT(loom__pmi_hex_decode("zz", back, 4), -1);         /* not hex */
    CHECK_INT(loom__pmi_hex_decode("0g", back, 4), -1);         /* not hex */
    CHECK_INT(loom__pmi_hex_decode("0011223344", back, 4), -1); /* does not fit */
    CHECK_INT(loom__pmi_hex_decode("00112233", back, 4), 4);
    printf("mapping parser and hex helpers agree with every case\n");
    return 0;
}
