/* pmi_fake.c — the PMI client against a scripted server in this test: replies that come one
 * byte at a time (the client must put lines together), several lines in one write (the
 * PMI_PORT handshake), signals while the client waits (EINTR), a refusal (rc!=0: the error
 * carries the server's msg), values longer than the server's maxes, a server that closes;
 * PMI_PORT=host:port with PMI_ID on loopback; loom__pmi_abort from a second thread while the
 * first is blocked in a fence, and before any init. The PMI-1 server is the one used even when
 * PMIx variables are set too (the nearest launcher wins, net/pmi.h). */
#include <arpa/inet.h>
#include <errno.h>
#include <netinet/in.h>
#include <pthread.h>
#include <signal.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/wait.h>
#include <time.h>

#include "check.h"
#include "net/pmi.h"

/* One step of the server's script: read a request line that starts with `expect`, then send
 * `reply` (NULL: none) one byte at a time, or all at once with WHOLE; CLOSE closes the
 * connection instead of replying; POKE writes a byte to the server's `poke` descriptor once
 * the request is read; `signals` first interrupts the client thread that many times. A NULL
 * expect ends the script. */
enum { WHOLE = 1, CLOSE = 2, POKE = 4 };
struct step {
    const char *expect;
    const char *reply;
    int flags, signals;
};

struct server {
    int fd;
    const struct step *script;
    pthread_t client; /* the thread to interrupt */
    int poke;
    int keep_open; /* leave fd open when the script ends (the caller closes it) */
};

static void read_request(int fd, char *line, size_t cap)
{
    size_t n = 0;
    for (;;) {
        char c;
        ssize_t r = read(fd, &c, 1);
        if (r < 0 && errno == EINTR)
            continue;
        if (r <= 0) {
            fprintf(stderr, "fake server: the client closed after '%.*s'\n", (int)n, line);
            _exit(99);
        }
        if (c == '\n')
            break;
        CHECK(n + 1 < cap);
        line[n++] = c;
    }
    line[n] = '\0';
}

static void send_all(int fd, const char *p, size_t len)
{
    while (len > 0) {
        ssize_t n = write(fd, p, len);
        if (n < 0 && errno == EINTR)
            continue;
        CHECK(n > 0);
        p += n;
        len -= (size_t)n;
    }
}

static void *serve(void *arg)
{
    struct server *s = arg;
    static char line[16384];
    for (const struct step *st = s->script; st->expect; st++) {
        read_request(s->fd, line, sizeof(line));
        if (strncmp(line, st->expect, strlen(st->expect)) != 0) {
            fprintf(stderr, "fake server: got '%.300s', expected '%s...'\n", line, st->expect);
            _exit(99);
        }
        if (st->flags & CLOSE)
            break;
        if (st->flags & POKE)
            send_all(s->poke, "!", 1);
        for (int i = 0; i < st->signals; i++) {
            struct timespec t = {0, 5000000};
            nanosleep(&t, NULL);
            pthread_kill(s->client, SIGUSR1);
        }
        if (!st->reply)
            continue;
        if (st->flags & WHOLE)
            send_all(s->fd, st->reply, strlen(st->reply));
        else
            for (const char *c = st->reply; *c; c++)
                send_all(s->fd, c, 1);
    }
    if (!s->keep_open)
        close(s->fd);
    return NULL;
}

static void on_signal(int sig)
{
    (void)sig;
}

/* What every session starts with: init, the maxes (values up to 99 bytes), the space's name. */
#define INIT_STEPS                                                                             \
    {"cmd=init pmi_version=1 pmi_subversion=1",                                               \
     "cmd=response_to_init pmi_version=1 pmi_subversion=1 rc=0\n", 0, 0},                     \
        {"cmd=get_maxes", "cmd=maxes kvsname_max=256 keylen_max=64 vallen_max=100\n", 0, 0},  \
        {"cmd=get_my_kvsname", "cmd=my_kvsname kvsname=kvs_test_0\n", 0, 0}

/* PMI_FD names one end of a socket pair; the server thread serves the other. */
static void start_fd_server(struct server *s, pthread_t *th, const struct step *script,
                            int rank, int size)
{
    int sv[2];
    CHECK(socketpair(AF_UNIX, SOCK_STREAM, 0, sv) == 0);
    char text[32];
    snprintf(text, sizeof(text), "%d", sv[0]);
    setenv("PMI_FD", text, 1);
    snprintf(text, sizeof(text), "%d", rank);
    setenv("PMI_RANK", text, 1);
    snprintf(text, sizeof(text), "%d", size);
    setenv("PMI_SIZE", text, 1);
    unsetenv("PMI_PORT");
    unsetenv("PMI_ID");
    *s = (struct server){sv[1], script, pthread_self(), -1, 0};
    if (th)
        CHECK(pthread_create(th, NULL, serve, s) == 0);
}

static void expect_err(int rc, const char *err, const char *want)
{
    if (rc != -1 || !strstr(err, want)) {
        fprintf(stderr, "got rc %d and '%s', expected -1 and an error with '%s'\n", rc, err,
                want);
        _exit(99);
    }
}

/* Abort, before any init and from a second thread during a fence, in children. The thread
 * waits for the server's word that barrier_in has arrived: the fence is then blocked. */
static void *abort_thread(void *arg)
{
    int poked = *(int *)arg;
    char c;
    while (read(poked, &c, 1) < 0 && errno == EINTR)
        ;
    loom__pmi_abort(7, "the test aborts");
}

static void test_abort(void)
{
    pid_t pid = fork();
    CHECK(pid >= 0);
    if (pid == 0) {
        unsetenv("PMI_FD");
        unsetenv("PMI_PORT");
        loom__pmi_abort(5, "never initialized");
    }
    int status;
    CHECK(waitpid(pid, &status, 0) == pid);
    CHECK(WIFEXITED(status));
    CHECK_INT(WEXITSTATUS(status), 5);

    static const struct step script[] = {INIT_STEPS, {"cmd=barrier_in", NULL, POKE, 0},
                                         {"cmd=abort exitcode=7", NULL, 0, 0},
                                         {NULL, NULL, 0, 0}};
    struct server s;
    start_fd_server(&s, NULL, script, 0, 2);
    int pk[2];
    CHECK(pipe(pk) == 0);
    s.poke = pk[1];
    s.keep_open = 1; /* until the child is gone: a closed server would end its fence first */
    pid = fork();
    CHECK(pid >= 0);
    if (pid == 0) {
        close(s.fd);
        close(pk[1]);
        int rank, size;
        char err[256];
        CHECK(loom__pmi_init(&rank, &size, err, sizeof(err)) == 0);
        /* The fence never ends (the server does not answer it): the abort must get through
         * anyway, from another thread. */
        pthread_t th;
        CHECK(pthread_create(&th, NULL, abort_thread, &pk[0]) == 0);
        loom__pmi_fence(err, sizeof(err));
        _exit(98);
    }
    close(atoi(getenv("PMI_FD")));
    close(pk[0]);
    serve(&s); /* returns once it has read the abort line */
    CHECK(waitpid(pid, &status, 0) == pid);
    CHECK(WIFEXITED(status));
    CHECK_INT(WEXITSTATUS(status), 7);
    close(s.fd);
    close(pk[1]);
}

static void test_fd_session(void)
{
    char big[200];
    memset(big, 'x', sizeof(big) - 1);
    big[sizeof(big) - 1] = '\0';
    static const struct step script[] = {
        INIT_STEPS,
        {"cmd=put kvsname=kvs_test_0 key=addr-1 value=00ff",
         "cmd=put_result rc=0 msg=success\n", 0, 0},
        {"cmd=barrier_in", "cmd=barrier_out\n", 0, 3},
        {"cmd=get kvsname=kvs_test_0 key=addr-0",
         "cmd=get_result rc=0 msg=success value=abcdef\n", 0, 2},
        {"cmd=get kvsname=kvs_test_0 key=nokey",
         "cmd=get_result rc=-1 msg=key_nokey_not_found value=unknown\n", 0, 0},
        {"cmd=get kvsname=kvs_test_0 key=addr-0",
         "cmd=get_result rc=0 msg=success value=abcdef\n", 0, 0},
        {"cmd=put kvsname=kvs_test_0 key=refused", "cmd=put_result rc=-1 msg=duplicate_key\n",
         WHOLE, 0},
        {"cmd=get kvsname=kvs_test_0 key=PMI_process_mapping",
         "cmd=get_result rc=0 msg=success value=(vector,(0,2,1))\n", 0, 0},
        {"cmd=finalize", "cmd=finalize_ack\n", 0, 0},
        {NULL, NULL, 0, 0}};
    struct server s;
    pthread_t th;
    start_fd_server(&s, &th, script, 1, 3);
    /* an outer PMIx launcher's variables, inherited: PMI_FD is still the server */
    setenv("PMIX_NAMESPACE", "outer", 1);
    setenv("PMIX_RANK", "0", 1);
    CHECK(loom__pmi_present() == 1);
    int rank = -1, size = -1;
    char err[256] = "", value[64];
    CHECK(loom__pmi_init(&rank, &size, err, sizeof(err)) == 0);
    CHECK_INT(rank, 1);
    CHECK_INT(size, 3);
    CHECK_INT(loom__pmi_value_max(), 99); /* vallen_max counts the NUL */
    expect_err(loom__pmi_init(&rank, &size, err, sizeof(err)), err, "already initialized");
    CHECK(loom__pmi_put("addr-1", "00ff", err, sizeof(err)) == 0);
    /* Refused before anything is sent: too long, a space, '=', empty. */
    expect_err(loom__pmi_put("long", big, err, sizeof(err)), err, "longer than the PMI server");
    expect_err(loom__pmi_put("k", "a b", err, sizeof(err)), err, "space");
    expect_err(loom__pmi_put("k=1", "ab", err, sizeof(err)), err, "'='");
    expect_err(loom__pmi_put("k", "", err, sizeof(err)), err, "empty");
    CHECK(loom__pmi_fence(err, sizeof(err)) == 0);
    CHECK(loom__pmi_get(0, "addr-0", value, sizeof(value), err, sizeof(err)) == 0);
    CHECK(strcmp(value, "abcdef") == 0);
    expect_err(loom__pmi_get(0, "nokey", value, sizeof(value), err, sizeof(err)), err,
               "key_nokey_not_found");
    expect_err(loom__pmi_get(0, "addr-0", value, 4, err, sizeof(err)), err, "buffer holds 3");
    expect_err(loom__pmi_put("refused", "1", err, sizeof(err)), err, "duplicate_key");
    int lr = -1, ls = -1;
    CHECK(loom__pmi_local(&lr, &ls, err, sizeof(err)) == 0);
    CHECK_INT(lr, 0); /* ranks 0 and 2 share node 0, rank 1 is alone on node 1 */
    CHECK_INT(ls, 1);
    CHECK(loom__pmi_finalize(err, sizeof(err)) == 0);
    expect_err(loom__pmi_fence(err, sizeof(err)), err, "not connected");
    CHECK(pthread_join(th, NULL) == 0);
    unsetenv("PMIX_NAMESPACE");
    unsetenv("PMIX_RANK");
}

/* The server closes while the client waits for a reply: the error names PMI, and the client
 * can be initialized again afterwards. */
static void test_closed(void)
{
    static const struct step script[] = {INIT_STEPS, {"cmd=barrier_in", NULL, CLOSE, 0},
                                         {NULL, NULL, 0, 0}};
    struct server s;
    pthread_t th;
    start_fd_server(&s, &th, script, 0, 1);
    int rank, size;
    char err[256] = "";
    CHECK(loom__pmi_init(&rank, &size, err, sizeof(err)) == 0);
    expect_err(loom__pmi_fence(err, sizeof(err)), err, "PMI fence: the PMI server closed");
    CHECK(pthread_join(th, NULL) == 0);
    expect_err(loom__pmi_put("a", "b", err, sizeof(err)), err, "not connected");

    /* A server that closes at once, and one that answers out of turn. */
    static const struct step gone[] = {{"cmd=init", NULL, CLOSE, 0}, {NULL, NULL, 0, 0}};
    start_fd_server(&s, &th, gone, 0, 1);
    expect_err(loom__pmi_init(&rank, &size, err, sizeof(err)), err,
               "PMI init: the PMI server closed");
    CHECK(pthread_join(th, NULL) == 0);
    static const struct step odd[] = {
        {"cmd=init", "cmd=response_to_init pmi_version=1 pmi_subversion=1 rc=-2 msg=too_old\n",
         0, 0},
        {NULL, NULL, 0, 0}};
    start_fd_server(&s, &th, odd, 0, 1);
    expect_err(loom__pmi_init(&rank, &size, err, sizeof(err)), err, "too_old");
    CHECK(pthread_join(th, NULL) == 0);
}

struct listener {
    int l;
    struct server *s;
};
static void *accept_and_serve(void *arg)
{
    struct listener *li = arg;
    int fd;
    do
        fd = accept(li->l, NULL, NULL);
    while (fd < 0 && errno == EINTR);
    CHECK(fd >= 0);
    li->s->fd = fd;
    return serve(li->s);
}

/* PMI_PORT: connect to a listening server on loopback, handshake with PMI_ID. No mapping:
 * loom__pmi_local falls back on MPI_LOCALRANKID / MPI_LOCALNRANKS. */
static void test_port(void)
{
    int l = socket(AF_INET, SOCK_STREAM, 0);
    CHECK(l >= 0);
    struct sockaddr_in a = {.sin_family = AF_INET, .sin_addr.s_addr = htonl(INADDR_LOOPBACK)};
    socklen_t alen = sizeof(a);
    CHECK(bind(l, (struct sockaddr *)&a, sizeof(a)) == 0);
    CHECK(listen(l, 1) == 0);
    CHECK(getsockname(l, (struct sockaddr *)&a, &alen) == 0);
    char text[64];
    snprintf(text, sizeof(text), "127.0.0.1:%d", ntohs(a.sin_port));
    unsetenv("PMI_FD");
    unsetenv("PMI_RANK");
    unsetenv("PMI_SIZE");
    setenv("PMI_PORT", text, 1);
    setenv("PMI_ID", "5", 1);
    setenv("MPI_LOCALRANKID", "2", 1);
    setenv("MPI_LOCALNRANKS", "3", 1);
    CHECK(loom__pmi_present() == 1);
    static const struct step script[] = {
        {"cmd=initack pmiid=5",
         "cmd=initack\ncmd=set size=7\ncmd=set rank=5\ncmd=set debug=0\n", WHOLE, 0},
        INIT_STEPS,
        {"cmd=get kvsname=kvs_test_0 key=PMI_process_mapping",
         "cmd=get_result rc=-1 msg=key_PMI_process_mapping_not_found value=unknown\n", 0, 0},
        {"cmd=finalize", "cmd=finalize_ack\n", 0, 0},
        {NULL, NULL, 0, 0}};
    struct server s = {-1, script, pthread_self(), -1, 0};
    struct listener li = {l, &s};
    pthread_t th;
    CHECK(pthread_create(&th, NULL, accept_and_serve, &li) == 0);
    int rank = -1, size = -1, lr = -1, ls = -1;
    char err[256] = "";
    if (loom__pmi_init(&rank, &size, err, sizeof(err))) {
        fprintf(stderr, "init over PMI_PORT: %s\n", err);
        _exit(99);
    }
    CHECK_INT(rank, 5);
    CHECK_INT(size, 7);
    CHECK(loom__pmi_local(&lr, &ls, err, sizeof(err)) == 0);
    CHECK_INT(lr, 2);
    CHECK_INT(ls, 3);
    CHECK(loom__pmi_finalize(err, sizeof(err)) == 0);
    CHECK(pthread_join(th, NULL) == 0);
    close(l);

    /* Nobody listens there any more: the error names the server. */
    setenv("PMI_PORT", text, 1);
    expect_err(loom__pmi_init(&rank, &size, err, sizeof(err)), err,
               "cannot connect to the PMI server");
    setenv("PMI_PORT", "nocolon", 1);
    expect_err(loom__pmi_init(&rank, &size, err, sizeof(err)), err, "is not host:port");
}

int main(void)
{
    struct sigaction sa = {.sa_handler = on_signal}; /* no SA_RESTART: reads see EINTR */
    sigemptyset(&sa.sa_mask);
    CHECK(sigaction(SIGUSR1, &sa, NULL) == 0);
    unsetenv("PMI_FD");
    unsetenv("PMI_PORT");
    CHECK(loom__pmi_present() == 0);
    char err[256] = "";
    int rank, size;
    expect_err(loom__pmi_init(&rank, &size, err, sizeof(err)), err, "no PMI server");
    test_abort(); /* first: it forks, and a child of a process without threads is simplest */
    test_fd_session();
    test_closed();
    test_port();
    printf("the PMI client passed every scripted exchange\n");
    return 0;
}
