/* net/pmi_wire.c — the client of a launcher's PMI-1 server, "simple PMI" on the wire (Hydra,
 * Slurm's pmi2 plugin), one of the two clients behind net/pmi.h (net/pmi_impl.h).
 *
 * The protocol is lines of space-separated key=value words, one request and (but for abort)
 * one reply each:
 *   cmd=init pmi_version=1 pmi_subversion=1   -> cmd=response_to_init ... rc=0
 *   cmd=get_maxes                             -> cmd=maxes kvsname_max= keylen_max= vallen_max=
 *   cmd=get_my_kvsname                        -> cmd=my_kvsname kvsname=
 *   cmd=put kvsname= key= value=              -> cmd=put_result rc= msg=
 *   cmd=barrier_in                            -> cmd=barrier_out
 *   cmd=get kvsname= key=                     -> cmd=get_result rc= msg= value=
 *   cmd=finalize                              -> cmd=finalize_ack
 *   cmd=abort exitcode=                       (no reply: the launcher ends the job)
 * The launcher hands the connection over as an inherited socket (PMI_FD, with PMI_RANK and
 * PMI_SIZE), or names a server to connect to (PMI_PORT=host:port, with PMI_ID): then the
 * client first says `cmd=initack pmiid=ID` and the server answers `cmd=initack`, then
 * `cmd=set size=`, `cmd=set rank=`, `cmd=set debug=`, each a line of its own.
 *
 * A reply may arrive in pieces and several lines in one read (the initack answer does): lines
 * are cut from a buffer that keeps what follows the last one. Reads and writes go on after
 * EINTR and after partial transfers; a server that closes, or a socket error, drops the
 * connection (the client can then be initialized again) and names PMI in the error. */
#include <errno.h>
#include <netdb.h>
#include <pthread.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <time.h>
#include <unistd.h>

#include "core/atomic.h"
#include "net/pmi_impl.h"

/* The longest line either side sends. Hydra's limits are 256 (kvs name), 64 (key) and 1024
 * (value); a server that allows longer values gets them clamped so that a put still fits. */
#define LINE_CAP 8192
#define KVS_CAP 256
#define LINE_SLACK 512 /* "cmd=put kvsname=", the name, " key=", the key, " value=", '\n' */

/* The one client of this process.
 * `lock` serializes whole exchanges (request and reply): the header asks for one thread at a
 * time, and the lock turns a second caller into a wait rather than mixed lines on the wire.
 * Every field is read and written under `lock`, except those that loom__pmi_abort reads
 * without it (it may run on a thread while another holds `lock` blocked in a fence):
 *   abort_fd  the connection once init has completed, -1 otherwise: stored under `lock`
 *             (release, after rank and the handshake), loaded by abort (acquire);
 *   wbusy     a spin flag around each write of a request line (acquire exchange to take,
 *             release store to drop), so that abort's line is not written into the middle of
 *             another one; abort waits for it a bounded time and never takes `lock`. */
static struct {
    pthread_mutex_t lock;
    int fd;                /* -1 when not connected */
    _Atomic int abort_fd;  /* fd once init is done; -1 before and after */
    _Atomic int wbusy;     /* 1 while a request line is being written */
    int rank, size;
    size_t key_max, val_max; /* without the NUL */
    char kvs[KVS_CAP + 1];
    char in[LINE_CAP]; /* bytes read past the last line cut */
    size_t in_len;
    char req[LINE_CAP];   /* the request being sent */
    char reply[LINE_CAP]; /* the last reply line, NUL-terminated, without '\n' */
} pmi = {.lock = PTHREAD_MUTEX_INITIALIZER, .fd = -1, .abort_fd = -1};


/* Drop the connection after an I/O failure: the stream is out of step and cannot be used. */
static void drop(void)
{
    loom__store_release(&pmi.abort_fd, -1); /* pairs with abort's acquire load */
    if (pmi.fd >= 0)
        close(pmi.fd);
    pmi.fd = -1;
    pmi.in_len = 0;
}

/* Write len bytes to fd whole, across EINTR and partial writes. MSG_NOSIGNAL keeps a closed
 * server from killing the process with SIGPIPE; a descriptor that is not a socket (a pipe a
 * launcher might hand over) falls back to write(). 0 or an errno. */
static int write_all(int fd, const char *p, size_t len)
{
    while (len > 0) {
        ssize_t n = send(fd, p, len, MSG_NOSIGNAL);
        if (n < 0 && errno == ENOTSOCK)
            n = write(fd, p, len);
        if (n < 0) {
            if (errno == EINTR || errno == EAGAIN)
                continue;
            return errno;
        }
        p += n;
        len -= (size_t)n;
    }
    return 0;
}

/* Send pmi.req (a complete line ending in '\n'). 0, or -1 with the connection dropped. */
static int send_req(const char *what, char *err, size_t errlen)
{
    int fd = pmi.fd;
    while (loom__exchange_acq_rel(&pmi.wbusy, 1))
        loom__cpu_relax();
    int e = write_all(fd, pmi.req, strlen(pmi.req));
    loom__store_release(&pmi.wbusy, 0); /* pairs with the exchange of the next writer */
    if (e) {
        drop();
        loom__pmi_seterr(err, errlen, "PMI %s: cannot write to the PMI server: %s", what, strerror(e));
        return -1;
    }
    return 0;
}

/* Read the next line into pmi.reply. 0, or -1 with the connection dropped. */
static int read_line(const char *what, char *err, size_t errlen)
{
    int fd = pmi.fd;
    for (;;) {
        char *nl = memchr(pmi.in, '\n', pmi.in_len);
        if (nl) {
            size_t n = (size_t)(nl - pmi.in);
            memcpy(pmi.reply, pmi.in, n);
            pmi.reply[n] = '\0';
            pmi.in_len -= n + 1;
            memmove(pmi.in, nl + 1, pmi.in_len);
            return 0;
        }
        if (pmi.in_len == sizeof(pmi.in)) {
            drop();
            loom__pmi_seterr(err, errlen, "PMI %s: the PMI server sent a line longer than %zu bytes", what,
                   sizeof(pmi.in));
            return -1;
        }
        ssize_t n = read(fd, pmi.in + pmi.in_len, sizeof(pmi.in) - pmi.in_len);
        if (n < 0 && (errno == EINTR || errno == EAGAIN))
            continue;
        if (n < 0) {
            int e = errno;
            drop();
            loom__pmi_seterr(err, errlen, "PMI %s: cannot read from the PMI server: %s", what, strerror(e));
            return -1;
        }
        if (n == 0) {
            drop();
            loom__pmi_seterr(err, errlen, "PMI %s: the PMI server closed the connection", what);
            return -1;
        }
        pmi.in_len += (size_t)n;
    }
}

/* The value of key in a line of key=value words, copied into out[cap]; 1 if found, 0 if not
 * (or if it does not fit). A value runs to the next space. */
static int field(const char *line, const char *key, char *out, size_t cap)
{
    size_t kl = strlen(key);
    const char *p = line;
    while (*p) {
        while (*p == ' ')
            p++;
        const char *w = p;
        while (*p && *p != ' ')
            p++;
        if ((size_t)(p - w) > kl && strncmp(w, key, kl) == 0 && w[kl] == '=') {
            size_t vl = (size_t)(p - w) - kl - 1;
            if (vl >= cap)
                return 0;
            memcpy(out, w + kl + 1, vl);
            out[vl] = '\0';
            return 1;
        }
    }
    return 0;
}

/* A whole number field; 1 if found and well formed. */
static int int_field(const char *line, const char *key, long *v)
{
    char text[32], *end;
    if (!field(line, key, text, sizeof(text)) || text[0] == '\0')
        return 0;
    errno = 0;
    *v = strtol(text, &end, 10);
    return *end == '\0' && errno == 0;
}

/* Send pmi.req and read the reply, which must be cmd=<want>; a reply with rc other than 0 is
 * the server's refusal, reported with its msg. 0 or -1. */
static int exchange(const char *what, const char *want, char *err, size_t errlen)
{
    if (send_req(what, err, errlen) || read_line(what, err, errlen))
        return -1;
    char cmd[64];
    if (!field(pmi.reply, "cmd", cmd, sizeof(cmd)) || strcmp(cmd, want) != 0) {
        loom__pmi_seterr(err, errlen, "PMI %s: the PMI server answered '%.200s', expected cmd=%s", what,
               pmi.reply, want);
        return -1;
    }
    long rc;
    if (field(pmi.reply, "rc", cmd, sizeof(cmd)) && (!int_field(pmi.reply, "rc", &rc) || rc)) {
        char msg[256];
        if (!field(pmi.reply, "msg", msg, sizeof(msg)))
            snprintf(msg, sizeof(msg), "no reason given");
        loom__pmi_seterr(err, errlen, "PMI %s: the PMI server refused (rc=%s): %s", what, cmd, msg);
        return -1;
    }
    return 0;
}

/* Format a request into pmi.req; -1 if it does not fit (which the callers' checks of the
 * lengths rule out). */
static int req(char *err, size_t errlen, const char *fmt, ...)
    __attribute__((format(printf, 3, 4)));
static int req(char *err, size_t errlen, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    int n = vsnprintf(pmi.req, sizeof(pmi.req), fmt, ap);
    va_end(ap);
    if (n < 0 || (size_t)n >= sizeof(pmi.req)) {
        loom__pmi_seterr(err, errlen, "PMI: a request of %d bytes is longer than %zu", n, sizeof(pmi.req));
        return -1;
    }
    return 0;
}

/* A whole number from the environment, or -1 when unset or not a number in [0, 2^30]. */
static long env_num(const char *name)
{
    const char *s = getenv(name);
    if (!s || !*s)
        return -1;
    char *end;
    errno = 0;
    long v = strtol(s, &end, 10);
    if (*end || errno || v < 0 || v > 1L << 30)
        return -1;
    return v;
}

int loom__pmi_wire_present(void)
{
    if (getenv("PMI_FD"))
        return 1;
    return getenv("PMI_PORT") && (getenv("PMI_ID") || getenv("PMI_RANK"));
}

/* Connect to PMI_PORT=host:port. The socket or -1. */
static int connect_port(const char *port_env, char *err, size_t errlen)
{
    char host[256];
    const char *colon = strrchr(port_env, ':');
    if (!colon || colon == port_env || (size_t)(colon - port_env) >= sizeof(host) || !colon[1]) {
        loom__pmi_seterr(err, errlen, "PMI init: PMI_PORT='%.100s' is not host:port", port_env);
        return -1;
    }
    memcpy(host, port_env, (size_t)(colon - port_env));
    host[colon - port_env] = '\0';
    struct addrinfo hints = {.ai_family = AF_UNSPEC, .ai_socktype = SOCK_STREAM}, *res, *ai;
    int rc = getaddrinfo(host, colon + 1, &hints, &res);
    if (rc) {
        loom__pmi_seterr(err, errlen, "PMI init: cannot resolve the PMI server %.100s: %s", port_env,
               gai_strerror(rc));
        return -1;
    }
    int fd = -1, e = 0;
    for (ai = res; ai; ai = ai->ai_next) {
        fd = socket(ai->ai_family, ai->ai_socktype | SOCK_CLOEXEC, ai->ai_protocol);
        if (fd < 0) {
            e = errno;
            continue;
        }
        int c;
        do
            c = connect(fd, ai->ai_addr, ai->ai_addrlen);
        while (c < 0 && errno == EINTR);
        if (c == 0)
            break;
        e = errno;
        close(fd);
        fd = -1;
    }
    freeaddrinfo(res);
    if (fd < 0)
        loom__pmi_seterr(err, errlen, "PMI init: cannot connect to the PMI server %.100s: %s", port_env,
               strerror(e));
    return fd;
}

/* The PMI_PORT handshake: say who we are, learn the job's size and our rank. */
static int port_handshake(long id, int *rank, int *size, char *err, size_t errlen)
{
    if (req(err, errlen, "cmd=initack pmiid=%ld\n", id) ||
        exchange("init", "initack", err, errlen))
        return -1;
    long v;
    for (int i = 0; i < 3; i++) {
        if (read_line("init", err, errlen))
            return -1;
        char cmd[16];
        if (!field(pmi.reply, "cmd", cmd, sizeof(cmd)) || strcmp(cmd, "set") != 0) {
            loom__pmi_seterr(err, errlen, "PMI init: the PMI server answered '%.200s', expected cmd=set",
                   pmi.reply);
            return -1;
        }
        if (int_field(pmi.reply, "size", &v))
            *size = (int)v;
        else if (int_field(pmi.reply, "rank", &v))
            *rank = (int)v;
    }
    return 0;
}

/* Called by net/pmi.c only when loom__pmi_wire_present() holds and no client is alive. */
static int init_locked(int *rank, int *size, char *err, size_t errlen)
{
    pmi.in_len = 0;
    int r = -1, s = -1;
    const char *port = getenv("PMI_PORT");
    if (getenv("PMI_FD")) {
        long fd = env_num("PMI_FD");
        r = (int)env_num("PMI_RANK");
        s = (int)env_num("PMI_SIZE");
        if (fd < 0 || r < 0 || s < 1) {
            loom__pmi_seterr(err, errlen,
                   "PMI init: PMI_FD, PMI_RANK and PMI_SIZE must be numbers (the launcher set "
                   "PMI_FD='%.20s' PMI_RANK='%.20s' PMI_SIZE='%.20s')",
                   getenv("PMI_FD"), getenv("PMI_RANK") ? getenv("PMI_RANK") : "",
                   getenv("PMI_SIZE") ? getenv("PMI_SIZE") : "");
            return -1;
        }
        pmi.fd = (int)fd;
    } else { /* PMI_PORT, with PMI_ID or PMI_RANK (loom__pmi_wire_present) */
        long id = env_num(getenv("PMI_ID") ? "PMI_ID" : "PMI_RANK");
        if (id < 0) {
            loom__pmi_seterr(err, errlen, "PMI init: PMI_PORT is set but PMI_ID is not a number");
            return -1;
        }
        int fd = connect_port(port, err, errlen);
        if (fd < 0)
            return -1;
        pmi.fd = fd;
        if (port_handshake(id, &r, &s, err, errlen))
            goto out_with_fd;
        if (r < 0 || s < 1) {
            loom__pmi_seterr(err, errlen, "PMI init: the PMI server did not say this process's rank and "
                                "the job's size");
            goto out_with_fd;
        }
    }
    if (r >= s) {
        loom__pmi_seterr(err, errlen, "PMI init: rank %d is not below the job's size %d", r, s);
        goto out_with_fd;
    }

    if (req(err, errlen, "cmd=init pmi_version=1 pmi_subversion=1\n") ||
        exchange("init", "response_to_init", err, errlen))
        goto out_with_fd;
    long kvs_max, key_max, val_max;
    if (req(err, errlen, "cmd=get_maxes\n") || exchange("init", "maxes", err, errlen))
        goto out_with_fd;
    if (!int_field(pmi.reply, "kvsname_max", &kvs_max) ||
        !int_field(pmi.reply, "keylen_max", &key_max) ||
        !int_field(pmi.reply, "vallen_max", &val_max) || kvs_max < 2 || key_max < 2 ||
        val_max < 2) {
        loom__pmi_seterr(err, errlen, "PMI init: the PMI server's maxes are not understood: '%.200s'",
               pmi.reply);
        goto out_with_fd;
    }
    /* The maxes count the NUL of the server's buffers: MPICH's client sizes its buffers with
     * them. One less is what fits for sure. */
    pmi.key_max = (size_t)key_max - 1;
    pmi.val_max = (size_t)val_max - 1;
    if (pmi.key_max > 256)
        pmi.key_max = 256;
    if (pmi.val_max > LINE_CAP - LINE_SLACK - KVS_CAP - pmi.key_max)
        pmi.val_max = LINE_CAP - LINE_SLACK - KVS_CAP - pmi.key_max;
    if (req(err, errlen, "cmd=get_my_kvsname\n") ||
        exchange("init", "my_kvsname", err, errlen))
        goto out_with_fd;
    if (!field(pmi.reply, "kvsname", pmi.kvs, sizeof(pmi.kvs)) || !pmi.kvs[0]) {
        loom__pmi_seterr(err, errlen, "PMI init: the PMI server gave no key-value space name: '%.200s'",
               pmi.reply);
        goto out_with_fd;
    }
    pmi.rank = r;
    pmi.size = s;
    loom__store_release(&pmi.abort_fd, pmi.fd); /* pairs with abort's acquire load */
    *rank = r;
    *size = s;
    return 0;

out_with_fd:
    drop();
    return -1;
}

static int wire_init(int *rank, int *size, char *err, size_t errlen)
{
    pthread_mutex_lock(&pmi.lock);
    int rc = init_locked(rank, size, err, errlen);
    pthread_mutex_unlock(&pmi.lock);
    return rc;
}

static int wire_alive(void)
{
    pthread_mutex_lock(&pmi.lock);
    int up = pmi.fd >= 0;
    pthread_mutex_unlock(&pmi.lock);
    return up;
}

static size_t wire_key_max(void)
{
    pthread_mutex_lock(&pmi.lock);
    size_t v = pmi.key_max;
    pthread_mutex_unlock(&pmi.lock);
    return v;
}

static size_t wire_value_max(void)
{
    pthread_mutex_lock(&pmi.lock);
    size_t v = pmi.val_max;
    pthread_mutex_unlock(&pmi.lock);
    return v;
}

/* The space is flat: the keys carry their owner's number (net/pmi.h). */
static int wire_put(const char *key, const char *value, char *err, size_t errlen)
{
    pthread_mutex_lock(&pmi.lock);
    int rc = -1;
    if (!req(err, errlen, "cmd=put kvsname=%s key=%s value=%s\n", pmi.kvs, key, value))
        rc = exchange("put", "put_result", err, errlen);
    pthread_mutex_unlock(&pmi.lock);
    return rc;
}

static int wire_fence(char *err, size_t errlen)
{
    pthread_mutex_lock(&pmi.lock);
    int rc = -1;
    if (!req(err, errlen, "cmd=barrier_in\n"))
        rc = exchange("fence", "barrier_out", err, errlen);
    pthread_mutex_unlock(&pmi.lock);
    return rc;
}

static int get_locked(const char *key, char *value, size_t len, char *err, size_t errlen)
{
    char what[300]; /* errors name the key */
    snprintf(what, sizeof(what), "get %s", key);
    if (req(err, errlen, "cmd=get kvsname=%s key=%s\n", pmi.kvs, key) ||
        exchange(what, "get_result", err, errlen))
        return -1;
    /* The value is the rest of the line after "value=": it has no spaces by the put rule. */
    const char *v = strstr(pmi.reply, " value=");
    v = v ? v + 7 : (strncmp(pmi.reply, "value=", 6) == 0 ? pmi.reply + 6 : NULL);
    if (!v) {
        loom__pmi_seterr(err, errlen, "PMI get %s: the PMI server's answer has no value: '%.200s'", key,
               pmi.reply);
        return -1;
    }
    size_t n = strcspn(v, " ");
    if (n >= len) {
        loom__pmi_seterr(err, errlen, "PMI get %s: the value is %zu bytes, the buffer holds %zu", key, n,
               len ? len - 1 : 0);
        return -1;
    }
    memcpy(value, v, n);
    value[n] = '\0';
    return 0;
}

static int wire_get(int node, const char *key, char *value, size_t len, char *err,
                    size_t errlen)
{
    (void)node; /* the key names it */
    pthread_mutex_lock(&pmi.lock);
    int rc = get_locked(key, value, len, err, errlen);
    pthread_mutex_unlock(&pmi.lock);
    return rc;
}

static int wire_local(int *local_rank, int *local_size, char *err, size_t errlen)
{
    pthread_mutex_lock(&pmi.lock);
    char map[LINE_CAP];
    int rc = -1;
    int rank = pmi.rank, size = pmi.size;
    if (req(err, errlen, "cmd=get kvsname=%s key=PMI_process_mapping\n", pmi.kvs) ||
        send_req("local", err, errlen) || read_line("local", err, errlen))
        goto out;
    char cmd[32];
    if (!field(pmi.reply, "cmd", cmd, sizeof(cmd)) || strcmp(cmd, "get_result") != 0) {
        loom__pmi_seterr(err, errlen, "PMI local: the PMI server answered '%.200s', expected "
                            "cmd=get_result", pmi.reply);
        goto out;
    }
    /* A server without the key answers rc!=0: then Hydra's variables, else alone. */
    long code;
    const char *v = strstr(pmi.reply, " value=");
    if (int_field(pmi.reply, "rc", &code) && code == 0 && v && v[7]) {
        snprintf(map, sizeof(map), "%s", v + 7);
        map[strcspn(map, " ")] = '\0';
        rc = loom__pmi_parse_mapping(map, rank, size, local_rank, local_size, err, errlen);
        goto out;
    }
    long lr = env_num("MPI_LOCALRANKID"), ls = env_num("MPI_LOCALNRANKS");
    if (lr >= 0 && ls >= 1 && lr < ls) {
        *local_rank = (int)lr;
        *local_size = (int)ls;
    } else {
        *local_rank = 0;
        *local_size = 1;
    }
    rc = 0;
out:
    pthread_mutex_unlock(&pmi.lock);
    return rc;
}

static int wire_finalize(char *err, size_t errlen)
{
    pthread_mutex_lock(&pmi.lock);
    int rc = -1;
    if (!req(err, errlen, "cmd=finalize\n")) {
        rc = exchange("finalize", "finalize_ack", err, errlen);
        drop(); /* the job is over for this process either way */
    }
    pthread_mutex_unlock(&pmi.lock);
    return rc;
}

/* Any thread, even while another holds `lock` in a fence: it never takes the lock, allocates
 * nothing and uses only write() and nanosleep(). The caller has written the message and exits
 * after. */
static void wire_abort(int code, const char *msg)
{
    (void)msg; /* the wire has no field for it: the caller wrote it to stderr */
    int fd = loom__load_acquire(&pmi.abort_fd); /* pairs with the release stores of init, drop */
    if (fd < 0)
        return;
    /* Hydra ends the job as soon as the abort line arrives, and what this process wrote to
     * stderr but its proxy has not yet forwarded is lost with it: give the proxy a moment to
     * pass the message on (it usually does; nothing here can make sure). */
    struct timespec pause = {0, 100000000};
    nanosleep(&pause, NULL);
    /* Wait up to about a second for a request line being written to end, so that ours does
     * not land inside it; past that, write anyway (the job must end). An abort that races
     * with finalize may write to a descriptor just closed: the write then fails, and the
     * process exits all the same. */
    struct timespec ms = {0, 1000000};
    int taken = 0;
    for (int i = 0; i < 1000 && !(taken = !loom__exchange_acq_rel(&pmi.wbusy, 1)); i++)
        nanosleep(&ms, NULL);
    char line[64];
    size_t at = 0;
    loom__pmi_cat_str(line, sizeof(line), &at, "cmd=abort exitcode=");
    loom__pmi_cat_int(line, sizeof(line), &at, code);
    loom__pmi_cat_str(line, sizeof(line), &at, "\n");
    (void)write_all(fd, line, at);
    if (taken)
        loom__store_release(&pmi.wbusy, 0);
}

const struct loom_pmi_client loom__pmi_wire = {
    .init = wire_init,
    .alive = wire_alive,
    .local = wire_local,
    .key_max = wire_key_max,
    .value_max = wire_value_max,
    .put = wire_put,
    .fence = wire_fence,
    .get = wire_get,
    .finalize = wire_finalize,
    .abort = wire_abort,
};
