/* Derived datatypes on both sides of a message: vector sent into contiguous and back,
 * struct (with padding) to struct and to its basic elements, indexed, resized (tiling
 * copies), different derived types on the two sides; small (eager) and large (rendezvous)
 * counts, posted and unexpected. Data lands exactly where the receive type says and
 * nothing else in the buffer changes. */
#include "p2p_check.h"

/* Send count x stype from sb and receive rcount x rtype into rb; posted or unexpected. */
static void move(const void *sb, int count, MPI_Datatype stype, void *rb, int rcount,
                 MPI_Datatype rtype, int peer, int tag, int posted)
{
    MPI_Request sreq, rreq;
    if (posted) {
        OK(MPI_Irecv(rb, rcount, rtype, peer, tag, MPI_COMM_WORLD, &rreq));
        OK(MPI_Barrier(MPI_COMM_WORLD));
        OK(MPI_Isend(sb, count, stype, peer, tag, MPI_COMM_WORLD, &sreq));
    } else {
        OK(MPI_Isend(sb, count, stype, peer, tag, MPI_COMM_WORLD, &sreq));
        OK(MPI_Barrier(MPI_COMM_WORLD));
        OK(MPI_Irecv(rb, rcount, rtype, peer, tag, MPI_COMM_WORLD, &rreq));
    }
    OK(MPI_Wait(&rreq, MPI_STATUS_IGNORE));
    OK(MPI_Wait(&sreq, MPI_STATUS_IGNORE));
    OK(MPI_Barrier(MPI_COMM_WORLD));
}

struct rec {
    char c;     /* 7 bytes of padding follow */
    double d;
    short s[3]; /* then 2 bytes of padding */
    int i;
};

int main(int argc, char **argv)
{
    OK(MPI_Init(&argc, &argv));
    int rank = p2p_rank(), size = p2p_size(), peer = p2p_partner(rank, size);

    for (int posted = 0; posted < 2; posted++)
        for (int big = 0; big < 2; big++) {
            int reps = big ? 2000 : 4; /* vectors of 3 x 4 doubles: 96 B .. 192 KB */
            int tag = posted * 2 + big;

            /* vector (3 blocks of 4 doubles, stride 7) -> contiguous doubles */
            MPI_Datatype vec0, vec;
            OK(MPI_Type_vector(3, 4, 7, MPI_DOUBLE, &vec0));
            OK(MPI_Type_create_resized(vec0, 0, 21 * sizeof(double), &vec));
            OK(MPI_Type_commit(&vec));
            size_t nd = (size_t)reps * 21;
            double *spread = p2p_malloc(nd * sizeof(double));
            double *packed = p2p_malloc((size_t)reps * 12 * sizeof(double) + 64);
            for (size_t i = 0; i < nd; i++)
                spread[i] = (i % 7) < 4 && (i % 21) < 18 ? rank * 1e6 + (double)i : -1.0;
            memset(packed, 0x5a, (size_t)reps * 12 * sizeof(double) + 64);
            move(spread, reps, vec, packed, reps * 12, MPI_DOUBLE, peer, tag, posted);
            for (int v = 0, k = 0; v < reps; v++)
                for (int b = 0; b < 3; b++)
                    for (int e = 0; e < 4; e++, k++)
                        CHECK(packed[k] == peer * 1e6 + (double)(v * 21 + b * 7 + e));
            CHECK_BYTES((unsigned char *)(packed + reps * 12), 64, 0x5a);

            /* and back: contiguous -> vector, the gaps untouched */
            for (size_t i = 0; i < nd; i++)
                spread[i] = -2.0;
            for (int k = 0; k < reps * 12; k++)
                packed[k] = rank * 1e6 + k;
            move(packed, reps * 12, MPI_DOUBLE, spread, reps, vec, peer, tag, posted);
            for (size_t i = 0, k = 0; i < nd; i++) {
                int in_block = (i % 21) < 18 && (i % 7) < 4;
                CHECK(spread[i] == (in_block ? peer * 1e6 + (double)k++ : -2.0));
            }
            OK(MPI_Type_free(&vec));
            OK(MPI_Type_free(&vec0));
            free(spread);
            free(packed);

            /* struct with padding -> same struct; and -> its elements packed */
            int nrec = big ? 5000 : 3;
            MPI_Datatype rt;
            int bl[4] = {1, 1, 3, 1};
            MPI_Aint disp[4] = {offsetof(struct rec, c), offsetof(struct rec, d),
                                offsetof(struct rec, s), offsetof(struct rec, i)};
            MPI_Datatype ty[4] = {MPI_CHAR, MPI_DOUBLE, MPI_SHORT, MPI_INT};
            MPI_Datatype rt0;
            OK(MPI_Type_create_struct(4, bl, disp, ty, &rt0));
            OK(MPI_Type_create_resized(rt0, 0, sizeof(struct rec), &rt));
            OK(MPI_Type_commit(&rt));
            struct rec *sr = p2p_malloc(sizeof *sr * (size_t)nrec);
            struct rec *rr = p2p_malloc(sizeof *rr * (size_t)nrec);
            memset(sr, 0x11, sizeof *sr * (size_t)nrec);
            memset(rr, 0x22, sizeof *rr * (size_t)nrec);
            for (int i = 0; i < nrec; i++) {
                sr[i].c = (char)('a' + (rank + i) % 26);
                sr[i].d = rank + i * 0.5;
                sr[i].s[0] = (short)i, sr[i].s[1] = (short)-i, sr[i].s[2] = (short)rank;
                sr[i].i = rank * 100000 + i;
            }
            move(sr, nrec, rt, rr, nrec, rt, peer, tag, posted);
            for (int i = 0; i < nrec; i++) {
                CHECK_INT(rr[i].c, 'a' + (peer + i) % 26);
                CHECK(rr[i].d == peer + i * 0.5);
                CHECK_INT(rr[i].s[0], (short)i);
                CHECK_INT(rr[i].s[1], (short)-i);
                CHECK_INT(rr[i].s[2], peer);
                CHECK_INT(rr[i].i, peer * 100000 + i);
                /* the padding was not written */
                CHECK_BYTES((unsigned char *)&rr[i] + 1, offsetof(struct rec, d) - 1, 0x22);
            }
            /* struct -> packed bytes: 1 + 8 + 6 + 4 = 19 bytes per record */
            size_t recbytes = 1 + sizeof(double) + 3 * sizeof(short) + sizeof(int);
            unsigned char *flat = p2p_malloc(recbytes * (size_t)nrec);
            move(sr, nrec, rt, flat, (int)(recbytes * (size_t)nrec), MPI_BYTE, peer, tag,
                 posted);
            for (int i = 0; i < nrec; i++) {
                unsigned char *p = flat + recbytes * (size_t)i;
                double d;
                int iv;
                CHECK_INT(p[0], 'a' + (peer + i) % 26);
                memcpy(&d, p + 1, sizeof d);
                CHECK(d == peer + i * 0.5);
                memcpy(&iv, p + 1 + sizeof d + 3 * sizeof(short), sizeof iv);
                CHECK_INT(iv, peer * 100000 + i);
            }
            free(flat);
            OK(MPI_Type_free(&rt));
            OK(MPI_Type_free(&rt0));
            free(sr);
            free(rr);

            /* indexed (sender) -> vector (receiver): ints at {0..1, 5..7, 12} of every 16
             * into 6 ints out of every 8 */
            MPI_Datatype ix0, ix, v20, v2;
            int ibl[3] = {2, 3, 1}, idp[3] = {0, 5, 12};
            OK(MPI_Type_indexed(3, ibl, idp, MPI_INT, &ix0));
            OK(MPI_Type_create_resized(ix0, 0, 16 * sizeof(int), &ix));
            OK(MPI_Type_commit(&ix));
            OK(MPI_Type_vector(2, 3, 4, MPI_INT, &v20)); /* 3 of every 4, twice */
            OK(MPI_Type_create_resized(v20, 0, 8 * sizeof(int), &v2));
            OK(MPI_Type_commit(&v2));
            int n = big ? 10000 : 2;
            int *a = p2p_malloc(sizeof(int) * 16 * (size_t)n);
            int *b = p2p_malloc(sizeof(int) * 8 * (size_t)n);
            for (int i = 0; i < 16 * n; i++)
                a[i] = rank * 1000000 + i;
            for (int i = 0; i < 8 * n; i++)
                b[i] = -1;
            move(a, n, ix, b, n, v2, peer, tag, posted);
            static const int sel[6] = {0, 1, 5, 6, 7, 12}, dst[6] = {0, 1, 2, 4, 5, 6};
            for (int r = 0; r < n; r++) {
                for (int j = 0; j < 6; j++)
                    CHECK_INT(b[r * 8 + dst[j]], peer * 1000000 + r * 16 + sel[j]);
                CHECK_INT(b[r * 8 + 3], -1);
                CHECK_INT(b[r * 8 + 7], -1);
            }
            free(a);
            free(b);
            OK(MPI_Type_free(&ix));
            OK(MPI_Type_free(&ix0));
            OK(MPI_Type_free(&v2));
            OK(MPI_Type_free(&v20));
        }
    OK(MPI_Finalize());
    return 0;
}
