/* Generalized requests completed from other threads (created inside the rank: they act for
 * it): each round, NT threads each complete one request after the rank thread has announced
 * that it is about to wait, while the rank waits in Waitall, Waitany, Waitsome or a Test loop
 * (in turn); one more request per round is freed by the rank first, so its free_fn runs on
 * the thread that completes it. Callback counts checked after every round. */
#include <pthread.h>
#include <sched.h>
#include <stdatomic.h>
#include "coll_check.h"
#include "greq_state.h"

#define NT 4
#define ROUNDS 20

struct job {
    MPI_Request req;
    _Atomic int *go; /* the rank is about to wait: complete now */
};

static void *completer(void *p)
{
    struct job *j = p;
    while (!atomic_load(j->go))
        sched_yield();
    OK(MPI_Grequest_complete(j->req));
    return NULL;
}

int main(int argc, char **argv)
{
    OK(MPI_Init(&argc, &argv));
    OK(MPI_Comm_set_errhandler(MPI_COMM_SELF, MPI_ERRORS_RETURN));
    for (int round = 0; round < ROUNDS; round++) {
        struct greq g[NT + 1];
        struct job jobs[NT + 1];
        MPI_Request r[NT];
        pthread_t th[NT + 1];
        _Atomic int go;
        atomic_init(&go, 0);
        for (int t = 0; t <= NT; t++) {
            greq_init(&g[t], t, round, t + 1);
            OK(greq_start(&g[t], &jobs[t].req));
            jobs[t].go = &go;
            if (t < NT)
                r[t] = jobs[t].req;
            CHECK(pthread_create(&th[t], NULL, completer, &jobs[t]) == 0);
        }
        MPI_Request extra = jobs[NT].req;
        OK(MPI_Request_free(&extra)); /* its thread's MPI_Grequest_complete frees it */
        atomic_store(&go, 1);
        int way = round % 4, idx, out, ids[NT], flag = 0, left = NT;
        MPI_Status st[NT];
        switch (way) {
        case 0:
            OK(MPI_Waitall(NT, r, st));
            break;
        case 1:
            while (left--) {
                MPI_Status one;
                OK(MPI_Waitany(NT, r, &idx, &one));
                CHECK(idx >= 0 && idx < NT);
                st[idx] = one;
            }
            break;
        case 2:
            while (left > 0) {
                MPI_Status some[NT];
                OK(MPI_Waitsome(NT, r, &out, ids, some));
                CHECK(out >= 1);
                for (int k = 0; k < out; k++)
                    st[ids[k]] = some[k];
                left -= out;
            }
            break;
        default:
            while (!flag)
                OK(MPI_Testall(NT, r, &flag, st));
        }
        for (int t = 0; t <= NT; t++)
            CHECK(pthread_join(th[t], NULL) == 0);
        for (int t = 0; t < NT; t++) {
            CHECK(r[t] == MPI_REQUEST_NULL);
            CHECK_INT(st[t].MPI_SOURCE, t);
            CHECK_INT(st[t].MPI_TAG, round);
            CHECK_INT(atomic_load(&g[t].queries), 1);
            CHECK_INT(atomic_load(&g[t].frees), 1);
        }
        CHECK_INT(atomic_load(&g[NT].frees), 1); /* freed early: by its completer */
        CHECK_INT(atomic_load(&g[NT].queries), 0);
    }
    OK(MPI_Finalize());
    return 0;
}
