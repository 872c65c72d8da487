/* A point-to-point message of more than INT_MAX bytes, on real memory: rank 0 sends
 * 2^31 + 77 bytes with MPI_Send_c, rank 1 receives them with MPI_Recv_c into a larger buffer;
 * then back with MPI_Isend_c / MPI_Irecv_c. The data is checked in full, the status gives the
 * count to MPI_Get_count_c and MPI_UNDEFINED to the int MPI_Get_count (it does not fit). */
#include <limits.h>
#include "p2p_check.h"

static const size_t NBYTES = ((size_t)1 << 31) + 77;

/* The pattern, by 8-byte words (fast enough for 2 GiB under the sanitizers): each word
 * tells its index, so a chunk moved to the wrong place shows. */
static uint64_t word_at(size_t w, unsigned salt)
{
    return (w * 0x9e3779b97f4a7c15ull) ^ salt;
}

static void fill(unsigned char *b, unsigned salt)
{
    size_t nw = NBYTES / 8;
    for (size_t w = 0; w < nw; w++) {
        uint64_t x = word_at(w, salt);
        memcpy(b + 8 * w, &x, 8);
    }
    for (size_t i = 8 * nw; i < NBYTES; i++)
        b[i] = (unsigned char)(i ^ salt);
}

static void check_status(const MPI_Status *st, int source)
{
    MPI_Count c = 0;
    int ci = 0;
    CHECK_INT(st->MPI_SOURCE, source);
    OK(MPI_Get_count_c(st, MPI_BYTE, &c));
    CHECK(c == (MPI_Count)NBYTES);
    OK(MPI_Get_elements_c(st, MPI_BYTE, &c));
    CHECK(c == (MPI_Count)NBYTES);
    OK(MPI_Get_count(st, MPI_BYTE, &ci));
    CHECK_INT(ci, MPI_UNDEFINED);
    OK(MPI_Get_elements(st, MPI_BYTE, &ci));
    CHECK_INT(ci, MPI_UNDEFINED);
}

static void check_data(const unsigned char *b, unsigned salt)
{
    size_t nw = NBYTES / 8;
    for (size_t w = 0; w < nw; w++) {
        uint64_t x;
        memcpy(&x, b + 8 * w, 8);
        if (x != word_at(w, salt)) {
            fprintf(stderr, "word %zu is %llx, expected %llx\n", w, (unsigned long long)x,
                    (unsigned long long)word_at(w, salt));
            _exit(99);
        }
    }
    for (size_t i = 8 * nw; i < NBYTES; i++)
        CHECK_INT(b[i], (unsigned char)(i ^ salt));
}

int main(int argc, char **argv)
{
    OK(MPI_Init(&argc, &argv));
    int rank = p2p_rank();
    CHECK_INT(p2p_size(), 2);
    unsigned char *buf = malloc(NBYTES + 4096);
    CHECK(buf != NULL);
    MPI_Status st;
    MPI_Request req;
    if (rank == 0) {
        fill(buf, 1);
        OK(MPI_Send_c(buf, (MPI_Count)NBYTES, MPI_BYTE, 1, 7, MPI_COMM_WORLD));
        OK(MPI_Irecv_c(buf, (MPI_Count)NBYTES + 4096, MPI_BYTE, 1, 8, MPI_COMM_WORLD, &req));
        OK(MPI_Wait(&req, &st));
        check_status(&st, 1);
        check_data(buf, 2);
    } else {
        OK(MPI_Recv_c(buf, (MPI_Count)NBYTES + 4096, MPI_BYTE, 0, 7, MPI_COMM_WORLD, &st));
        check_status(&st, 0);
        check_data(buf, 1);
        fill(buf, 2);
        OK(MPI_Isend_c(buf, (MPI_Count)NBYTES, MPI_BYTE, 0, 8, MPI_COMM_WORLD, &req));
        OK(MPI_Wait(&req, MPI_STATUS_IGNORE));
    }
    free(buf);
    OK(MPI_Finalize());
    return 0;
}
