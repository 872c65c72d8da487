/* core/trace_write.c — the LOOM_TRACE files, written once at job end from the per-thread
 * event buffers (core/trace_thread.h): <prefix>.trace in the Pajé format (ViTE, pajeng) and
 * <prefix>.json in the Chrome trace-event format (Perfetto, chrome://tracing).
 *
 * Each thread's events open and close nested states (MPI call > wait > task). Replaying them
 * gives the thread's timeline as a sequence of segments, each labelled with its innermost
 * state: "compute" (a rank thread outside MPI), the MPI function's name, "wait", "idle" (a
 * progress thread with nothing to do), "task for rank R", and "truncated" after a full buffer.
 * Both files show the same segments: Pajé as SetState events of one state type on one
 * container per thread (inside one container per rank), merged into one time-ordered stream
 * as Pajé readers expect; JSON as complete ("X") events, pid = rank, tid = thread, with the
 * core, the rank served and the enclosing MPI call in args. */
#include <errno.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "core/rank.h"
#include "core/trace.h"
#include "core/trace_thread.h"

/* Labels: fixed ones first, then one "task for rank R" per rank, then the MPI functions met. */
enum { L_COMPUTE = 0, L_WAIT, L_IDLE, L_TASK, L_TRUNCATED, L_RANK0 };
enum cat { C_COMPUTE, C_MPI, C_WAIT, C_IDLE, C_TASK, C_TRUNCATED };
static const char *const cat_name[] = {"compute", "mpi", "wait", "idle", "task", "truncated"};

struct labels {
    char **name; /* [n] (owned) */
    enum cat *cat;
    int n, cap;
    /* MPI function name pointers seen -> label id: open addressing, power-of-2 size */
    const char **key;
    int *val;
    int keycap, keys;
};

static int label_add(struct labels *L, const char *name, enum cat c)
{
    if (L->n == L->cap) {
        int cap = L->cap ? 2 * L->cap : 64;
        char **nn = realloc(L->name, sizeof *nn * (size_t)cap);
        if (!nn)
            return -1;
        L->name = nn;
        enum cat *nc = realloc(L->cat, sizeof *nc * (size_t)cap);
        if (!nc)
            return -1;
        L->cat = nc;
        L->cap = cap;
    }
    char *s = strdup(name);
    if (!s)
        return -1;
    L->name[L->n] = s;
    L->cat[L->n] = c;
    return L->n++;
}

static size_t hash_ptr(const void *p)
{
    uintptr_t x = (uintptr_t)p;
    x ^= x >> 17;
    x *= 0x9e3779b97f4a7c15ull;
    return (size_t)(x >> 20);
}

static int key_put(struct labels *L, const char *k, int v)
{
    if (2 * (L->keys + 1) > L->keycap) {
        int cap = L->keycap ? 2 * L->keycap : 256;
        const char **nk = calloc((size_t)cap, sizeof *nk);
        int *nv = calloc((size_t)cap, sizeof *nv);
        if (!nk || !nv) {
            free(nk);
            free(nv);
            return -1;
        }
        for (int i = 0; i < L->keycap; i++) {
            if (!L->key[i])
                continue;
            size_t h = hash_ptr(L->key[i]) & (size_t)(cap - 1);
            while (nk[h])
                h = (h + 1) & (size_t)(cap - 1);
            nk[h] = L->key[i];
            nv[h] = L->val[i];
        }
        free(L->key);
        free(L->val);
        L->key = nk;
        L->val = nv;
        L->keycap = cap;
    }
    size_t h = hash_ptr(k) & (size_t)(L->keycap - 1);
    while (L->key[h])
        h = (h + 1) & (size_t)(L->keycap - 1);
    L->key[h] = k;
    L->val[h] = v;
    L->keys++;
    return 0;
}

/* The label of MPI function fn (a pointer to a literal; equal texts share one label). */
static int label_api(struct labels *L, const char *fn)
{
    if (L->keycap) {
        size_t h = hash_ptr(fn) & (size_t)(L->keycap - 1);
        for (; L->key[h]; h = (h + 1) & (size_t)(L->keycap - 1))
            if (L->key[h] == fn)
                return L->val[h];
    }
    int id = -1;
    for (int i = 0; i < L->n && id < 0; i++)
        if (L->cat[i] == C_MPI && strcmp(L->name[i], fn) == 0)
            id = i;
    if (id < 0)
        id = label_add(L, fn, C_MPI);
    if (id < 0 || key_put(L, fn, id) != 0)
        return L_COMPUTE; /* out of memory: a wrong name beats no trace */
    return id;
}

static void labels_free(struct labels *L)
{
    for (int i = 0; i < L->n; i++)
        free(L->name[i]);
    free(L->name);
    free(L->cat);
    free(L->key);
    free(L->val);
}

/* One thread's replay: its state stack. */
#define MAX_DEPTH 64
struct frame {
    int type;
    const char *name;
    int arg;
};
struct replay {
    const struct loom_trace_thread *t;
    struct frame stack[MAX_DEPTH];
    int depth;    /* may exceed MAX_DEPTH (frames beyond are not kept) */
};

static int current_label(struct labels *L, const struct replay *r, int nranks)
{
    if (r->depth == 0)
        return r->t->kind == LOOM_TRACE_PROGRESS_THREAD ? L_IDLE : L_COMPUTE;
    const struct frame *f = &r->stack[(r->depth > MAX_DEPTH ? MAX_DEPTH : r->depth) - 1];
    switch (f->type) {
    case LOOM_TRACE_EV_API:
        return label_api(L, f->name);
    case LOOM_TRACE_EV_WAIT:
        return r->t->kind == LOOM_TRACE_PROGRESS_THREAD ? L_IDLE : L_WAIT;
    default:
        return f->arg >= 0 && f->arg < nranks ? L_RANK0 + f->arg : L_TASK;
    }
}

/* The innermost MPI call the thread is in, or NULL. */
static const char *enclosing_call(const struct replay *r)
{
    for (int i = (r->depth > MAX_DEPTH ? MAX_DEPTH : r->depth) - 1; i >= 0; i--)
        if (r->stack[i].type == LOOM_TRACE_EV_API)
            return r->stack[i].name;
    return NULL;
}

static void apply(struct replay *r, const struct loom_trace_event *e)
{
    if (e->type == LOOM_TRACE_EV_POP) {
        if (r->depth > 0) /* a close with no open: the open came before registration */
            r->depth--;
        return;
    }
    if (r->depth < MAX_DEPTH)
        r->stack[r->depth] = (struct frame){e->type, e->name, e->arg};
    r->depth++;
}

/* Pajé records, merged over threads by time (seq breaks ties: each thread's own order). */
enum { P_CREATE, P_SET, P_DESTROY };
struct prec {
    uint64_t t;
    uint64_t seq;
    int what;
    int thread;
    int label;
};
struct precs {
    struct prec *v;
    size_t n, cap;
};

static int prec_add(struct precs *P, uint64_t t, int what, int thread, int label)
{
    if (P->n == P->cap) {
        size_t cap = P->cap ? 2 * P->cap : 4096;
        struct prec *nv = realloc(P->v, sizeof *nv * cap);
        if (!nv)
            return -1;
        P->v = nv;
        P->cap = cap;
    }
    P->v[P->n] = (struct prec){t, P->n, what, thread, label};
    P->n++;
    return 0;
}

static int by_time(const void *a, const void *b)
{
    const struct prec *x = a, *y = b;
    if (x->t != y->t)
        return x->t < y->t ? -1 : 1;
    return x->seq < y->seq ? -1 : x->seq > y->seq;
}

static double sec(uint64_t ns)
{
    return (double)ns / 1e9;
}

#define NAME_LEN 96
/* "rank 2 (cpu 2)", "rank 2 progress thread 0 (cpu 3)", "rank 2 thread 1 (cpu 2)". */
static void thread_name(char *buf, size_t len, const struct loom_trace_thread *t, int nth)
{
    const char *what = t->kind == LOOM_TRACE_RANK_THREAD       ? ""
                       : t->kind == LOOM_TRACE_PROGRESS_THREAD ? " progress thread"
                                                               : " thread";
    if (t->kind == LOOM_TRACE_RANK_THREAD)
        snprintf(buf, len, "rank %d (cpu %d)", t->rank, t->cpu);
    else
        snprintf(buf, len, "rank %d%s %d (cpu %d)", t->rank, what, nth, t->cpu);
}

/* A JSON string: the text between quotes, escaped. */
static void json_str(FILE *f, const char *s)
{
    fputc('"', f);
    for (; *s; s++) {
        unsigned char c = (unsigned char)*s;
        if (c == '"' || c == '\\')
            fprintf(f, "\\%c", c);
        else if (c < 0x20)
            fprintf(f, "\\u%04x", c);
        else
            fputc(c, f);
    }
    fputc('"', f);
}

/* A Pajé string: quoted; a quote inside becomes an apostrophe. */
static void paje_str(FILE *f, const char *s)
{
    fputc('"', f);
    for (; *s; s++)
        fputc(*s == '"' || *s == '\n' ? '\'' : *s, f);
    fputc('"', f);
}

static void paje_color(FILE *f, struct labels *L, int id)
{
    float r = 0.5f, g = 0.5f, b = 0.5f;
    switch (L->cat[id]) {
    case C_COMPUTE: r = 0.30f, g = 0.69f, b = 0.29f; break;
    case C_MPI: r = 0.95f, g = 0.55f, b = 0.10f; break;
    case C_WAIT: r = 0.84f, g = 0.15f, b = 0.16f; break;
    case C_IDLE: r = 0.88f, g = 0.88f, b = 0.88f; break;
    case C_TRUNCATED: r = 0.0f, g = 0.0f, b = 0.0f; break;
    case C_TASK: {
        float x = id >= L_RANK0 ? (float)((id - L_RANK0) % 8) / 7.0f : 0.5f;
        r = 0.10f + 0.45f * x, g = 0.30f + 0.35f * x, b = 0.95f - 0.25f * x;
        break;
    }
    }
    fprintf(f, " \"%.2f %.2f %.2f\"", (double)r, (double)g, (double)b);
}

static const char paje_header[] =
    "%EventDef PajeDefineContainerType 0\n% Alias string\n% Type string\n% Name string\n"
    "%EndEventDef\n"
    "%EventDef PajeDefineStateType 1\n% Alias string\n% Type string\n% Name string\n"
    "%EndEventDef\n"
    "%EventDef PajeDefineEntityValue 2\n% Alias string\n% Type string\n% Name string\n"
    "% Color color\n%EndEventDef\n"
    "%EventDef PajeCreateContainer 3\n% Time date\n% Alias string\n% Type string\n"
    "% Container string\n% Name string\n%EndEventDef\n"
    "%EventDef PajeDestroyContainer 4\n% Time date\n% Type string\n% Name string\n"
    "%EndEventDef\n"
    "%EventDef PajeSetState 5\n% Time date\n% Type string\n% Container string\n"
    "% Value string\n%EndEventDef\n";

/* Replay every thread: JSON events go straight to jf; Pajé records into P. */
static int replay_all(FILE *jf, struct precs *P, struct labels *L,
                      struct loom_trace_thread *const *th, char (*names)[NAME_LEN], int n,
                      int nranks, uint64_t t_end)
{
    int first = 1;
    for (int i = 0; i < n; i++) {
        const struct loom_trace_thread *t = th[i];
        const char *name = names[i];
        int tid = i + 1;
        fprintf(jf, "%s{\"name\":\"thread_name\",\"ph\":\"M\",\"pid\":%d,\"tid\":%d,"
                    "\"args\":{\"name\":",
                first ? "" : ",\n", t->rank, tid);
        json_str(jf, name);
        fprintf(jf, "}},\n{\"name\":\"thread_sort_index\",\"ph\":\"M\",\"pid\":%d,\"tid\":%d,"
                    "\"args\":{\"sort_index\":%d}}",
                t->rank, tid, tid);
        first = 0;

        struct replay r = {.t = t, .depth = 0};
        uint64_t seg_t = t->nev ? t->ev[0].t : t->t_start;
        if (seg_t > t->t_start)
            seg_t = t->t_start;
        int seg_label = current_label(L, &r, nranks);
        int seg_cpu = t->cpu;
        const char *seg_in = NULL;
        if (prec_add(P, seg_t, P_CREATE, i, -1) != 0)
            return -1;
        for (uint32_t k = 0; k <= t->nev; k++) {
            const struct loom_trace_event *e = k < t->nev ? &t->ev[k] : NULL;
            int next_label = seg_label;
            const char *next_in = seg_in;
            if (e) {
                apply(&r, e);
                next_label = current_label(L, &r, nranks);
                next_in = enclosing_call(&r);
                if (next_label == seg_label && next_in == seg_in)
                    continue; /* the same state goes on (a progress thread's idle, ...) */
            }
            uint64_t now;
            if (e)
                now = e->t;
            else if (t->truncated)
                now = t->t_truncated;
            else if (t->kind == LOOM_TRACE_PROGRESS_THREAD && r.depth == 0 && t->nev)
                now = t->ev[t->nev - 1].t; /* it stopped: its life ends with its last event */
            else
                now = t_end;
            if (now < seg_t)
                now = seg_t;
            /* close the running segment */
            if (prec_add(P, seg_t, P_SET, i, seg_label) != 0)
                return -1;
            fprintf(jf, ",\n{\"name\":");
            json_str(jf, L->name[seg_label]);
            fprintf(jf, ",\"cat\":\"%s\",\"ph\":\"X\",\"ts\":%.3f,\"dur\":%.3f,\"pid\":%d,"
                        "\"tid\":%d,\"args\":{\"cpu\":%d",
                    cat_name[L->cat[seg_label]], (double)seg_t / 1e3,
                    (double)(now - seg_t) / 1e3, t->rank, tid, seg_cpu);
            if (L->cat[seg_label] == C_TASK)
                fprintf(jf, ",\"for_rank\":%d",
                        seg_label >= L_RANK0 ? seg_label - L_RANK0 : -1);
            if (seg_in && L->cat[seg_label] != C_MPI) {
                fprintf(jf, ",\"in\":");
                json_str(jf, seg_in);
            }
            fprintf(jf, "}}");
            seg_t = now;
            if (!e)
                break;
            seg_label = next_label;
            seg_cpu = e->cpu;
            seg_in = next_in;
        }
        uint64_t end = seg_t;
        if (t->truncated) {
            if (prec_add(P, seg_t, P_SET, i, L_TRUNCATED) != 0)
                return -1;
            fprintf(jf, ",\n{\"name\":\"truncated\",\"cat\":\"truncated\",\"ph\":\"X\","
                        "\"ts\":%.3f,\"dur\":%.3f,\"pid\":%d,\"tid\":%d,\"args\":{}}",
                    (double)seg_t / 1e3, (double)(t_end > seg_t ? t_end - seg_t : 0) / 1e3,
                    t->rank, tid);
            end = t_end > seg_t ? t_end : seg_t;
        }
        if (prec_add(P, end, P_DESTROY, i, -1) != 0)
            return -1;
    }
    for (int rk = 0; rk < nranks; rk++) {
        fprintf(jf, "%s{\"name\":\"process_name\",\"ph\":\"M\",\"pid\":%d,\"args\":{\"name\":"
                    "\"rank %d\"}},\n{\"name\":\"process_sort_index\",\"ph\":\"M\",\"pid\":%d,"
                    "\"args\":{\"sort_index\":%d}}",
                first ? "" : ",\n", rk, rk, rk, rk);
        first = 0;
    }
    return 0;
}

static int write_paje(FILE *f, struct precs *P, struct labels *L,
                      struct loom_trace_thread *const *th, char (*names)[NAME_LEN], int nranks,
                      uint64_t t_end)
{
    fputs(paje_header, f);
    fputs("0 JOB 0 \"Job\"\n0 RANK JOB \"Rank\"\n0 THREAD RANK \"Thread\"\n"
          "1 STATE THREAD \"State\"\n",
          f);
    for (int i = 0; i < L->n; i++) {
        fprintf(f, "2 V%d STATE ", i);
        paje_str(f, L->name[i]);
        paje_color(f, L, i);
        fputc('\n', f);
    }
    fprintf(f, "3 %.9f job JOB 0 \"loom job\"\n", 0.0);
    for (int rk = 0; rk < nranks; rk++)
        fprintf(f, "3 %.9f r%d RANK job \"rank %d\"\n", 0.0, rk, rk);
    qsort(P->v, P->n, sizeof *P->v, by_time);
    for (size_t k = 0; k < P->n; k++) {
        const struct prec *p = &P->v[k];
        const struct loom_trace_thread *t = th[p->thread];
        switch (p->what) {
        case P_CREATE:
            fprintf(f, "3 %.9f t%d THREAD r%d ", sec(p->t), p->thread, t->rank);
            paje_str(f, names[p->thread]);
            fputc('\n', f);
            break;
        case P_SET:
            fprintf(f, "5 %.9f STATE t%d V%d\n", sec(p->t), p->thread, p->label);
            break;
        default:
            fprintf(f, "4 %.9f THREAD t%d\n", sec(p->t), p->thread);
            break;
        }
    }
    uint64_t last = P->n ? P->v[P->n - 1].t : 0;
    if (t_end < last)
        t_end = last;
    for (int rk = 0; rk < nranks; rk++)
        fprintf(f, "4 %.9f RANK r%d\n", sec(t_end), rk);
    fprintf(f, "4 %.9f JOB job\n", sec(t_end));
    return 0;
}

static FILE *open_out(const char *prefix, const char *ext, char *path, size_t len)
{
    snprintf(path, len, "%s%s", prefix, ext);
    FILE *f = fopen(path, "w");
    if (!f)
        loom__log("warning: LOOM_TRACE: cannot write %s: %s", path, strerror(errno));
    return f;
}

int loom__trace_write(const char *prefix, struct loom_trace_thread *const *th, int n,
                      int nranks, uint64_t t_end)
{
    char jpath[4200], ppath[4200];
    struct labels L = {0};
    struct precs P = {0};
    char (*names)[NAME_LEN] = NULL;
    int rc = -1;
    FILE *jf = open_out(prefix, ".json", jpath, sizeof jpath);
    FILE *pf = open_out(prefix, ".trace", ppath, sizeof ppath);
    if (!jf || !pf)
        goto out_with_files;
    static const char *const fixed[] = {"compute", "wait", "idle", "task", "truncated"};
    static const enum cat fixed_cat[] = {C_COMPUTE, C_WAIT, C_IDLE, C_TASK, C_TRUNCATED};
    for (int i = 0; i < L_RANK0; i++)
        if (label_add(&L, fixed[i], fixed_cat[i]) < 0)
            goto out_of_memory;
    for (int rk = 0; rk < nranks; rk++) {
        char name[64];
        snprintf(name, sizeof name, "task for rank %d", rk);
        if (label_add(&L, name, C_TASK) < 0)
            goto out_of_memory;
    }
    names = calloc((size_t)n + 1, sizeof *names);
    if (!names)
        goto out_of_memory;
    int truncated = 0;
    for (int i = 0, nth = 0; i < n; i++) {
        truncated += th[i]->truncated;
        if (i > 0 && th[i - 1]->rank != th[i]->rank)
            nth = 0; /* non-rank threads are numbered per rank */
        thread_name(names[i], NAME_LEN, th[i], th[i]->kind == LOOM_TRACE_RANK_THREAD ? 0 : nth++);
    }
    fputs("{\"traceEvents\":[\n", jf);
    if (replay_all(jf, &P, &L, th, names, n, nranks, t_end) != 0)
        goto out_of_memory;
    fprintf(jf, "\n],\"displayTimeUnit\":\"ns\",\"otherData\":{\"generator\":\"loom\","
                "\"ranks\":%d,\"threads\":%d,\"truncated_threads\":%d}}\n",
            nranks, n, truncated);
    write_paje(pf, &P, &L, th, names, nranks, t_end);
    rc = 0;
    goto out_with_files;
out_of_memory:
    loom__log("warning: LOOM_TRACE: out of memory writing the trace");
out_with_files:
    if (jf && fclose(jf) != 0 && rc == 0) {
        loom__log("warning: LOOM_TRACE: cannot write %s: %s", jpath, strerror(errno));
        rc = -1;
    }
    if (pf && fclose(pf) != 0 && rc == 0) {
        loom__log("warning: LOOM_TRACE: cannot write %s: %s", ppath, strerror(errno));
        rc = -1;
    }
    free(names);
    free(P.v);
    labels_free(&L);
    return rc;
}
