/* trace_check.h — strict readers for the two LOOM_TRACE files, for the tests (no Python on
 * the CI machines, so in C): a Pajé reader that checks the header and every event line, and a
 * JSON parser (RFC 8259, strict) with the checks of a Chrome trace-event file.
 *
 * Both return 0 and fill a summary, or -1 after printing the first problem (file:line: what).
 * Everything they allocate is freed before they return. */
#ifndef LOOM_TEST_TRACE_CHECK_H
#define LOOM_TEST_TRACE_CHECK_H
#include <ctype.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define TC_MAX_NAMES 512

/* A set of strings (state names, container names). */
struct tc_names {
    char *v[TC_MAX_NAMES];
    int n;
};

static int tc_names_has(const struct tc_names *s, const char *x)
{
    for (int i = 0; i < s->n; i++)
        if (strcmp(s->v[i], x) == 0)
            return 1;
    return 0;
}

static void tc_names_add(struct tc_names *s, const char *x)
{
    if (!tc_names_has(s, x) && s->n < TC_MAX_NAMES)
        s->v[s->n++] = strdup(x);
}

static void tc_names_free(struct tc_names *s)
{
    for (int i = 0; i < s->n; i++)
        free(s->v[i]);
    s->n = 0;
}

/* 1 if some name in s starts with prefix. */
static int tc_names_has_prefix(const struct tc_names *s, const char *prefix)
{
    for (int i = 0; i < s->n; i++)
        if (strncmp(s->v[i], prefix, strlen(prefix)) == 0)
            return 1;
    return 0;
}

/* ---------------------------------------------------------------- Pajé */

struct paje_summary {
    int events;               /* event lines */
    int set_states;           /* PajeSetState lines */
    struct tc_names containers; /* names of containers created (the quoted Name field) */
    struct tc_names states;     /* names of the entity values that SetState used */
};

#define PJ_MAX_DEFS 64
#define PJ_MAX_FIELDS 16
#define PJ_MAX_OBJ 4096

struct pj_def {
    char name[64];
    int id;
    int nfields;
    char field[PJ_MAX_FIELDS][32];
    char type[PJ_MAX_FIELDS][16];
};

/* Objects the events define: types, values, containers (alias -> name, parent/type, alive). */
struct pj_obj {
    char alias[64];
    char name[128];
    char type[64]; /* container: its type; value: its state type; type: its parent type */
    int kind;      /* 0 container type, 1 state type, 2 value, 3 container */
    int alive;
};

struct pj_state {
    struct pj_def defs[PJ_MAX_DEFS];
    int ndefs;
    struct pj_obj *obj; /* [PJ_MAX_OBJ] */
    int nobj;
    double last_time;
};

static struct pj_obj *pj_find(struct pj_state *s, int kind, const char *alias)
{
    for (int i = 0; i < s->nobj; i++)
        if (s->obj[i].kind == kind && strcmp(s->obj[i].alias, alias) == 0)
            return &s->obj[i];
    return NULL;
}

static int pj_fail(const char *path, long line, const char *what, const char *detail)
{
    fprintf(stderr, "%s:%ld: %s%s%s\n", path, line, what, detail ? ": " : "",
            detail ? detail : "");
    return -1;
}

/* Split line into fields (a "..." field may hold blanks). Returns the count, -1 if a quote is
 * not closed. Quotes are removed. */
static int pj_split(char *line, char **tok, int max)
{
    int n = 0;
    char *p = line;
    for (;;) {
        while (*p == ' ' || *p == '\t')
            p++;
        if (*p == '\0' || *p == '\n')
            return n;
        if (n == max)
            return max + 1;
        if (*p == '"') {
            char *end = strchr(p + 1, '"');
            if (!end)
                return -1;
            *end = '\0';
            tok[n++] = p + 1;
            p = end + 1;
            if (*p != '\0' && *p != ' ' && *p != '\t' && *p != '\n')
                return -1;
        } else {
            tok[n++] = p;
            while (*p && *p != ' ' && *p != '\t' && *p != '\n')
                p++;
            if (*p) {
                int last = *p == '\n';
                *p++ = '\0';
                if (last)
                    return n;
            }
        }
    }
}

static int pj_number(const char *s, double *out)
{
    char *end;
    if (*s == '\0')
        return -1;
    double v = strtod(s, &end);
    if (*end != '\0' || !isfinite(v))
        return -1;
    *out = v;
    return 0;
}

static int pj_field(const struct pj_def *d, const char *name)
{
    for (int i = 0; i < d->nfields; i++)
        if (strcmp(d->field[i], name) == 0)
            return i;
    return -1;
}

/* The events whose meaning the checker follows, with the fields each needs. */
static int pj_check_def(const struct pj_def *d)
{
    static const char *const need[][6] = {
        {"PajeDefineContainerType", "Alias", "Type", "Name", NULL},
        {"PajeDefineStateType", "Alias", "Type", "Name", NULL},
        {"PajeDefineEntityValue", "Alias", "Type", "Name", NULL},
        {"PajeCreateContainer", "Time", "Alias", "Type", "Container", "Name"},
        {"PajeDestroyContainer", "Time", "Type", "Name", NULL},
        {"PajeSetState", "Time", "Type", "Container", "Value", NULL},
    };
    for (size_t i = 0; i < sizeof need / sizeof need[0]; i++) {
        if (strcmp(d->name, need[i][0]) != 0)
            continue;
        for (int k = 1; k < 6 && need[i][k]; k++)
            if (pj_field(d, need[i][k]) < 0)
                return -1;
        return 0;
    }
    return strncmp(d->name, "Paje", 4) == 0 ? 0 : -1;
}

static int pj_event(struct pj_state *s, struct paje_summary *sum, const struct pj_def *d,
                    char **tok, const char *path, long ln)
{
    char **f = tok + 1;
    /* typed fields */
    for (int i = 0; i < d->nfields; i++) {
        double v = 0;
        const char *t = d->type[i];
        if ((strcmp(t, "date") == 0 || strcmp(t, "double") == 0) && pj_number(f[i], &v) != 0)
            return pj_fail(path, ln, "not a number", f[i]);
        if (strcmp(t, "int") == 0) {
            char *end;
            strtol(f[i], &end, 10);
            if (*f[i] == '\0' || *end != '\0')
                return pj_fail(path, ln, "not an integer", f[i]);
        }
        if (strcmp(t, "color") == 0) {
            double c[3];
            char extra;
            if (sscanf(f[i], "%lf %lf %lf %c", &c[0], &c[1], &c[2], &extra) != 3)
                return pj_fail(path, ln, "not a color \"r g b\"", f[i]);
            for (int k = 0; k < 3; k++)
                if (!(c[k] >= 0 && c[k] <= 1))
                    return pj_fail(path, ln, "color component out of [0,1]", f[i]);
        }
        if (strcmp(t, "date") == 0) {
            if (v < 0 || v < s->last_time)
                return pj_fail(path, ln, "time goes backwards or is negative", f[i]);
            s->last_time = v;
        }
    }
#define F(name) f[pj_field(d, name)]
    if (s->nobj == PJ_MAX_OBJ)
        return pj_fail(path, ln, "too many objects for the checker", NULL);
    struct pj_obj *o = &s->obj[s->nobj];
    memset(o, 0, sizeof *o);
    if (strcmp(d->name, "PajeDefineContainerType") == 0 ||
        strcmp(d->name, "PajeDefineStateType") == 0) {
        int state = d->name[10] == 'S';
        const char *parent = F("Type");
        if (strcmp(parent, "0") != 0 && !pj_find(s, 0, parent))
            return pj_fail(path, ln, "unknown parent container type", parent);
        if (pj_find(s, state ? 1 : 0, F("Alias")))
            return pj_fail(path, ln, "type defined twice", F("Alias"));
        o->kind = state;
        snprintf(o->alias, sizeof o->alias, "%s", F("Alias"));
        snprintf(o->name, sizeof o->name, "%s", F("Name"));
        snprintf(o->type, sizeof o->type, "%s", parent);
        s->nobj++;
    } else if (strcmp(d->name, "PajeDefineEntityValue") == 0) {
        if (!pj_find(s, 1, F("Type")))
            return pj_fail(path, ln, "value of an unknown state type", F("Type"));
        if (pj_find(s, 2, F("Alias")))
            return pj_fail(path, ln, "value defined twice", F("Alias"));
        o->kind = 2;
        snprintf(o->alias, sizeof o->alias, "%s", F("Alias"));
        snprintf(o->name, sizeof o->name, "%s", F("Name"));
        snprintf(o->type, sizeof o->type, "%s", F("Type"));
        s->nobj++;
    } else if (strcmp(d->name, "PajeCreateContainer") == 0) {
        struct pj_obj *type = pj_find(s, 0, F("Type"));
        if (!type)
            return pj_fail(path, ln, "container of an unknown type", F("Type"));
        const char *parent = F("Container");
        if (strcmp(parent, "0") == 0) {
            if (strcmp(type->type, "0") != 0)
                return pj_fail(path, ln, "container type is not a root type", F("Type"));
        } else {
            struct pj_obj *p = pj_find(s, 3, parent);
            if (!p || !p->alive)
                return pj_fail(path, ln, "parent container does not exist (now)", parent);
            if (strcmp(p->type, type->type) != 0)
                return pj_fail(path, ln, "parent container has the wrong type", parent);
        }
        if (pj_find(s, 3, F("Alias")))
            return pj_fail(path, ln, "container created twice", F("Alias"));
        o->kind = 3;
        o->alive = 1;
        snprintf(o->alias, sizeof o->alias, "%s", F("Alias"));
        snprintf(o->name, sizeof o->name, "%s", F("Name"));
        snprintf(o->type, sizeof o->type, "%s", F("Type"));
        s->nobj++;
        tc_names_add(&sum->containers, F("Name"));
    } else if (strcmp(d->name, "PajeDestroyContainer") == 0) {
        struct pj_obj *c = pj_find(s, 3, F("Name"));
        if (!c || !c->alive)
            return pj_fail(path, ln, "destroying a container that is not alive", F("Name"));
        if (strcmp(c->type, F("Type")) != 0)
            return pj_fail(path, ln, "destroyed container has another type", F("Type"));
        c->alive = 0;
    } else if (strcmp(d->name, "PajeSetState") == 0) {
        struct pj_obj *st = pj_find(s, 1, F("Type"));
        if (!st)
            return pj_fail(path, ln, "unknown state type", F("Type"));
        struct pj_obj *c = pj_find(s, 3, F("Container"));
        if (!c || !c->alive)
            return pj_fail(path, ln, "state of a container that is not alive", F("Container"));
        if (strcmp(st->type, c->type) != 0)
            return pj_fail(path, ln, "state type does not belong to the container's type",
                           F("Container"));
        struct pj_obj *v = pj_find(s, 2, F("Value"));
        if (!v || strcmp(v->type, F("Type")) != 0)
            return pj_fail(path, ln, "state value not defined for this state type", F("Value"));
        tc_names_add(&sum->states, v->name);
        sum->set_states++;
    }
#undef F
    return 0;
}

static int paje_check(const char *path, struct paje_summary *sum)
{
    memset(sum, 0, sizeof *sum);
    FILE *f = fopen(path, "r");
    if (!f) {
        perror(path);
        return -1;
    }
    struct pj_state *s = calloc(1, sizeof *s);
    if (s)
        s->obj = calloc(PJ_MAX_OBJ, sizeof *s->obj);
    char *line = NULL;
    size_t cap = 0;
    long ln = 0;
    int rc = 0, in_def = 0, header_done = 0;
    if (!s || !s->obj) {
        rc = -1;
        goto out;
    }
    while (rc == 0 && getline(&line, &cap, f) >= 0) {
        ln++;
        size_t len = strlen(line);
        if (len && line[len - 1] == '\n')
            line[--len] = '\0';
        if (len == 0 || line[0] == '#')
            continue;
        if (line[0] == '%') {
            char a[64], b[64], extra;
            int id;
            if (header_done) {
                rc = pj_fail(path, ln, "header line after the first event", line);
            } else if (sscanf(line, "%%EventDef %63s %d %c", a, &id, &extra) == 2) {
                if (in_def)
                    rc = pj_fail(path, ln, "%EventDef inside another", NULL);
                else if (s->ndefs == PJ_MAX_DEFS)
                    rc = pj_fail(path, ln, "too many definitions", NULL);
                for (int i = 0; rc == 0 && i < s->ndefs; i++)
                    if (s->defs[i].id == id || strcmp(s->defs[i].name, a) == 0)
                        rc = pj_fail(path, ln, "event defined twice", a);
                if (rc == 0) {
                    struct pj_def *d = &s->defs[s->ndefs++];
                    snprintf(d->name, sizeof d->name, "%s", a);
                    d->id = id;
                    in_def = 1;
                }
            } else if (strcmp(line, "%EndEventDef") == 0) {
                if (!in_def)
                    rc = pj_fail(path, ln, "%EndEventDef without %EventDef", NULL);
                else if (pj_check_def(&s->defs[s->ndefs - 1]) != 0)
                    rc = pj_fail(path, ln, "definition lacks a field its event needs",
                                 s->defs[s->ndefs - 1].name);
                in_def = 0;
            } else if (sscanf(line, "%% %63s %63s %c", a, b, &extra) == 2) {
                static const char *const types[] = {"date", "int", "double", "hex", "string",
                                                    "color"};
                int ok = 0;
                for (size_t i = 0; i < sizeof types / sizeof types[0]; i++)
                    ok |= strcmp(b, types[i]) == 0;
                struct pj_def *d = in_def ? &s->defs[s->ndefs - 1] : NULL;
                if (!d)
                    rc = pj_fail(path, ln, "field outside %EventDef", line);
                else if (!ok)
                    rc = pj_fail(path, ln, "unknown field type", b);
                else if (d->nfields == PJ_MAX_FIELDS)
                    rc = pj_fail(path, ln, "too many fields", NULL);
                else {
                    snprintf(d->field[d->nfields], sizeof d->field[0], "%.31s", a);
                    snprintf(d->type[d->nfields], sizeof d->type[0], "%.15s", b);
                    d->nfields++;
                }
            } else {
                rc = pj_fail(path, ln, "malformed header line", line);
            }
            continue;
        }
        if (in_def) {
            rc = pj_fail(path, ln, "event line inside %EventDef", NULL);
            break;
        }
        header_done = 1;
        char *tok[PJ_MAX_FIELDS + 2];
        int n = pj_split(line, tok, PJ_MAX_FIELDS + 1);
        if (n < 0) {
            rc = pj_fail(path, ln, "unbalanced quotes", NULL);
            break;
        }
        char *end;
        long id = n > 0 ? strtol(tok[0], &end, 10) : -1;
        const struct pj_def *d = NULL;
        for (int i = 0; n > 0 && *end == '\0' && i < s->ndefs; i++)
            if (s->defs[i].id == id)
                d = &s->defs[i];
        if (!d) {
            rc = pj_fail(path, ln, "first field is not a defined event id", n ? tok[0] : "");
            break;
        }
        if (n - 1 != d->nfields) {
            char what[160];
            snprintf(what, sizeof what, "%s has %d fields, line has %d", d->name, d->nfields,
                     n - 1);
            rc = pj_fail(path, ln, what, NULL);
            break;
        }
        sum->events++;
        rc = pj_event(s, sum, d, tok, path, ln);
    }
    if (rc == 0 && in_def)
        rc = pj_fail(path, ln, "%EventDef not closed at end of file", NULL);
    if (rc == 0 && sum->events == 0)
        rc = pj_fail(path, ln, "no events", NULL);
    for (int i = 0; rc == 0 && s->obj && i < s->nobj; i++)
        if (s->obj[i].kind == 3 && s->obj[i].alive)
            rc = pj_fail(path, ln, "container never destroyed", s->obj[i].alias);
out:
    free(line);
    if (s)
        free(s->obj);
    free(s);
    fclose(f);
    if (rc != 0) {
        tc_names_free(&sum->containers);
        tc_names_free(&sum->states);
    }
    return rc;
}

static void paje_summary_free(struct paje_summary *sum)
{
    tc_names_free(&sum->containers);
    tc_names_free(&sum->states);
}

/* ---------------------------------------------------------------- JSON */

enum jtype { J_NULL, J_BOOL, J_NUM, J_STR, J_ARR, J_OBJ };
struct jval {
    enum jtype t;
    double num;
    char *str;           /* J_STR */
    int n;               /* J_ARR, J_OBJ: items */
    struct jval *items;  /* [n] */
    char **keys;         /* J_OBJ: [n] */
};

struct jparser {
    const char *p, *start;
    const char *err;
    int depth;
};

static void jfree(struct jval *v)
{
    if (v->t == J_STR)
        free(v->str);
    if (v->t == J_ARR || v->t == J_OBJ) {
        for (int i = 0; i < v->n; i++) {
            jfree(&v->items[i]);
            if (v->keys)
                free(v->keys[i]);
        }
        free(v->items);
        free(v->keys);
    }
    memset(v, 0, sizeof *v);
}

static void jws(struct jparser *P)
{
    while (*P->p == ' ' || *P->p == '\t' || *P->p == '\n' || *P->p == '\r')
        P->p++;
}

static int jerr(struct jparser *P, const char *what)
{
    if (!P->err)
        P->err = what;
    return -1;
}

static int jparse(struct jparser *P, struct jval *v);

static int jstring(struct jparser *P, char **out)
{
    if (*P->p != '"')
        return jerr(P, "expected a string");
    P->p++;
    size_t cap = 16, n = 0;
    char *s = malloc(cap);
    if (!s)
        return jerr(P, "out of memory");
    for (;;) {
        unsigned char c = (unsigned char)*P->p;
        if (c == '\0' || c < 0x20) {
            free(s);
            return jerr(P, "unterminated string or control character in it");
        }
        P->p++;
        if (c == '"')
            break;
        if (c == '\\') {
            char e = *P->p++;
            switch (e) {
            case '"': case '\\': case '/': c = (unsigned char)e; break;
            case 'b': c = '\b'; break;
            case 'f': c = '\f'; break;
            case 'n': c = '\n'; break;
            case 'r': c = '\r'; break;
            case 't': c = '\t'; break;
            case 'u':
                for (int i = 0; i < 4; i++)
                    if (!isxdigit((unsigned char)P->p[i])) {
                        free(s);
                        return jerr(P, "bad \\u escape");
                    }
                P->p += 4;
                c = '?'; /* the checks never need the code point */
                break;
            default:
                free(s);
                return jerr(P, "bad escape");
            }
        }
        if (n + 2 > cap) {
            char *ns = realloc(s, cap *= 2);
            if (!ns) {
                free(s);
                return jerr(P, "out of memory");
            }
            s = ns;
        }
        s[n++] = (char)c;
    }
    s[n] = '\0';
    *out = s;
    return 0;
}

static int jnumber(struct jparser *P, double *out)
{
    const char *q = P->p;
    if (*q == '-')
        q++;
    if (*q == '0')
        q++;
    else if (*q >= '1' && *q <= '9')
        while (isdigit((unsigned char)*q))
            q++;
    else
        return jerr(P, "bad number");
    if (*q == '.') {
        q++;
        if (!isdigit((unsigned char)*q))
            return jerr(P, "bad number (fraction)");
        while (isdigit((unsigned char)*q))
            q++;
    }
    if (*q == 'e' || *q == 'E') {
        q++;
        if (*q == '+' || *q == '-')
            q++;
        if (!isdigit((unsigned char)*q))
            return jerr(P, "bad number (exponent)");
        while (isdigit((unsigned char)*q))
            q++;
    }
    *out = strtod(P->p, NULL);
    P->p = q;
    return 0;
}

static int jpush(struct jval *v, struct jval *item, char *key)
{
    if ((v->n & (v->n - 1)) == 0) { /* grow at powers of two */
        int cap = v->n ? 2 * v->n : 1;
        struct jval *ni = realloc(v->items, sizeof *ni * (size_t)cap);
        if (!ni)
            return -1;
        v->items = ni;
        if (v->t == J_OBJ) {
            char **nk = realloc(v->keys, sizeof *nk * (size_t)cap);
            if (!nk)
                return -1;
            v->keys = nk;
        }
    }
    v->items[v->n] = *item;
    if (v->t == J_OBJ)
        v->keys[v->n] = key;
    v->n++;
    return 0;
}

static int jparse(struct jparser *P, struct jval *v)
{
    memset(v, 0, sizeof *v);
    jws(P);
    if (++P->depth > 64)
        return jerr(P, "nested too deeply");
    int rc = 0;
    char c = *P->p;
    if (c == '{' || c == '[') {
        int obj = c == '{';
        v->t = obj ? J_OBJ : J_ARR;
        P->p++;
        jws(P);
        if (*P->p == (obj ? '}' : ']')) {
            P->p++;
        } else {
            for (;;) {
                char *key = NULL;
                struct jval item;
                jws(P);
                if (obj) {
                    if (jstring(P, &key) != 0) {
                        rc = -1;
                        break;
                    }
                    jws(P);
                    if (*P->p != ':') {
                        free(key);
                        rc = jerr(P, "expected ':'");
                        break;
                    }
                    P->p++;
                }
                if (jparse(P, &item) != 0) {
                    free(key);
                    rc = -1;
                    break;
                }
                if (jpush(v, &item, key) != 0) {
                    jfree(&item);
                    free(key);
                    rc = jerr(P, "out of memory");
                    break;
                }
                jws(P);
                if (*P->p == ',') {
                    P->p++;
                    continue;
                }
                if (*P->p == (obj ? '}' : ']')) {
                    P->p++;
                    break;
                }
                rc = jerr(P, obj ? "expected ',' or '}'" : "expected ',' or ']'");
                break;
            }
        }
    } else if (c == '"') {
        v->t = J_STR;
        rc = jstring(P, &v->str);
        if (rc != 0)
            v->t = J_NULL;
    } else if (strncmp(P->p, "true", 4) == 0 || strncmp(P->p, "null", 4) == 0) {
        v->t = c == 't' ? J_BOOL : J_NULL;
        v->num = c == 't';
        P->p += 4;
    } else if (strncmp(P->p, "false", 5) == 0) {
        v->t = J_BOOL;
        P->p += 5;
    } else {
        v->t = J_NUM;
        rc = jnumber(P, &v->num);
    }
    P->depth--;
    if (rc != 0)
        jfree(v);
    return rc;
}

static const struct jval *jget(const struct jval *o, const char *key)
{
    if (o->t != J_OBJ)
        return NULL;
    for (int i = 0; i < o->n; i++)
        if (strcmp(o->keys[i], key) == 0)
            return &o->items[i];
    return NULL;
}

/* Read a whole file into memory (NUL-terminated); NULL on failure. */
static char *tc_slurp(const char *path)
{
    FILE *f = fopen(path, "rb");
    if (!f) {
        perror(path);
        return NULL;
    }
    size_t cap = 1 << 16, n = 0;
    char *buf = malloc(cap);
    while (buf) {
        size_t got = fread(buf + n, 1, cap - n - 1, f);
        n += got;
        if (n < cap - 1)
            break;
        char *nb = realloc(buf, cap *= 2);
        if (!nb) {
            free(buf);
            buf = NULL;
        }
        buf = nb;
    }
    fclose(f);
    if (buf)
        buf[n] = '\0';
    return buf;
}

struct json_summary {
    int complete;             /* "X" events */
    int meta;                 /* "M" events */
    int truncated_threads;    /* otherData.truncated_threads */
    struct tc_names names;    /* names of the X events */
    struct tc_names threads;  /* thread_name metadata */
    int for_rank_args;        /* X events of category task that name the rank served */
};

static int json_fail(const char *path, int i, const char *what)
{
    fprintf(stderr, "%s: traceEvents[%d]: %s\n", path, i, what);
    return -1;
}

/* Parse path strictly, then check it is a trace-event file: an object with a "traceEvents"
 * array of objects, each with a "ph" string; "X" events with a name, numeric ts >= 0 and
 * dur >= 0, integer pid and tid; "M" events with args; on each (pid, tid) the X events in
 * order and not overlapping (loom writes one flat timeline per thread). */
static int json_check(const char *path, struct json_summary *sum)
{
    memset(sum, 0, sizeof *sum);
    char *text = tc_slurp(path);
    if (!text)
        return -1;
    struct jparser P = {text, text, NULL, 0};
    struct jval root;
    int rc = jparse(&P, &root);
    if (rc == 0) {
        jws(&P);
        if (*P.p != '\0') {
            jfree(&root);
            rc = jerr(&P, "text after the JSON value");
        }
    }
    if (rc != 0) {
        long line = 1;
        for (const char *q = text; q < P.p; q++)
            line += *q == '\n';
        fprintf(stderr, "%s:%ld: not JSON: %s\n", path, line, P.err);
        free(text);
        return -1;
    }
    free(text);
    const struct jval *ev = jget(&root, "traceEvents");
    if (!ev || ev->t != J_ARR) {
        fprintf(stderr, "%s: no \"traceEvents\" array\n", path);
        jfree(&root);
        return -1;
    }
    const struct jval *other = jget(&root, "otherData");
    const struct jval *tt = other ? jget(other, "truncated_threads") : NULL;
    sum->truncated_threads = tt && tt->t == J_NUM ? (int)tt->num : -1;
    /* per (pid, tid): the end of the last X event */
    enum { MAXT = 1024 };
    static double last_end[MAXT];
    static long key[MAXT];
    int nkeys = 0;
    for (int i = 0; rc == 0 && i < ev->n; i++) {
        const struct jval *e = &ev->items[i];
        if (e->t != J_OBJ) {
            rc = json_fail(path, i, "not an object");
            break;
        }
        const struct jval *ph = jget(e, "ph"), *name = jget(e, "name");
        const struct jval *pid = jget(e, "pid"), *tid = jget(e, "tid");
        if (!ph || ph->t != J_STR) {
            rc = json_fail(path, i, "no \"ph\" string");
        } else if (strcmp(ph->str, "M") == 0) {
            const struct jval *args = jget(e, "args");
            if (!name || name->t != J_STR || !pid || pid->t != J_NUM || !args ||
                args->t != J_OBJ)
                rc = json_fail(path, i, "metadata event without name, pid or args");
            else {
                sum->meta++;
                const struct jval *an = jget(args, "name");
                if (strcmp(name->str, "thread_name") == 0 && an && an->t == J_STR)
                    tc_names_add(&sum->threads, an->str);
            }
        } else if (strcmp(ph->str, "X") == 0) {
            const struct jval *ts = jget(e, "ts"), *dur = jget(e, "dur");
            const struct jval *cat = jget(e, "cat"), *args = jget(e, "args");
            if (!name || name->t != J_STR || !ts || ts->t != J_NUM || !dur ||
                dur->t != J_NUM || !pid || pid->t != J_NUM || !tid || tid->t != J_NUM)
                rc = json_fail(path, i, "X event lacks name, ts, dur, pid or tid");
            else if (ts->num < 0 || dur->num < 0)
                rc = json_fail(path, i, "negative ts or dur");
            else if (pid->num != floor(pid->num) || tid->num != floor(tid->num))
                rc = json_fail(path, i, "pid or tid not an integer");
            else {
                long k = (long)pid->num * 100000 + (long)tid->num;
                int j = 0;
                while (j < nkeys && key[j] != k)
                    j++;
                if (j == nkeys) {
                    if (nkeys == MAXT) {
                        rc = json_fail(path, i, "too many threads for the checker");
                        break;
                    }
                    key[nkeys] = k;
                    last_end[nkeys++] = 0;
                }
                /* 1 ns of slack: ts and dur are printed in microseconds with 3 decimals */
                if (ts->num + 0.0015 < last_end[j])
                    rc = json_fail(path, i, "overlaps the previous event of its thread");
                last_end[j] = ts->num + dur->num;
                sum->complete++;
                tc_names_add(&sum->names, name->str);
                if (cat && cat->t == J_STR && strcmp(cat->str, "task") == 0 && args &&
                    jget(args, "for_rank"))
                    sum->for_rank_args++;
            }
        } else {
            rc = json_fail(path, i, "unexpected \"ph\" (loom writes X and M)");
        }
    }
    jfree(&root);
    if (rc != 0) {
        tc_names_free(&sum->names);
        tc_names_free(&sum->threads);
    }
    return rc;
}

static void json_summary_free(struct json_summary *sum)
{
    tc_names_free(&sum->names);
    tc_names_free(&sum->threads);
}
#endif
