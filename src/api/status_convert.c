/* api/status_convert.c — MPI_Status between C, Fortran (MPI_Fint[MPI_F_STATUS_SIZE]) and
 * mpi_f08 (MPI_F08_status). The three hold the same five values: source, tag, error, the
 * cancelled flag and the byte count (two MPI_Fint words, low first, in Fortran forms). */
#include <stdint.h>
#include "api/api.h"

/* A status in its parts: every conversion reads one form into this and writes another. */
struct parts {
    MPI_Fint source, tag, error, cancelled;
    MPI_Count bytes;
};

static int check_c(const char *fn, const MPI_Status *s, const char *name)
{
    if (s == NULL)
        return loom__api_error(MPI_COMM_WORLD, fn, MPI_ERR_ARG, "%s is NULL", name);
    if (s == MPI_STATUS_IGNORE)
        return loom__api_error(MPI_COMM_WORLD, fn, MPI_ERR_ARG,
                               "%s is MPI_STATUS_IGNORE, which has no value to convert", name);
    return MPI_SUCCESS;
}

static int check_f(const char *fn, const void *s, const void *ignore, const char *name)
{
    if (s == NULL)
        return loom__api_error(MPI_COMM_WORLD, fn, MPI_ERR_ARG, "%s is NULL", name);
    if (s == ignore)
        return loom__api_error(MPI_COMM_WORLD, fn, MPI_ERR_ARG,
                               "%s is the ignore sentinel, which has no value to convert", name);
    return MPI_SUCCESS;
}

static struct parts from_c(const MPI_Status *s)
{
    return (struct parts){s->MPI_SOURCE, s->MPI_TAG, s->MPI_ERROR, s->loom_cancelled,
                          s->loom_bytes};
}

static void to_c(const struct parts *p, MPI_Status *s)
{
    s->MPI_SOURCE = p->source;
    s->MPI_TAG = p->tag;
    s->MPI_ERROR = p->error;
    s->loom_cancelled = p->cancelled;
    s->loom_bytes = p->bytes;
}

static struct parts from_words(const MPI_Fint *w)
{
    uint64_t bytes = (uint64_t)(uint32_t)w[4] | (uint64_t)(uint32_t)w[5] << 32;
    return (struct parts){w[0], w[1], w[2], w[3], (MPI_Count)bytes};
}

static void to_words(const struct parts *p, MPI_Fint *w)
{
    w[0] = p->source;
    w[1] = p->tag;
    w[2] = p->error;
    w[3] = p->cancelled;
    w[4] = (MPI_Fint)(uint32_t)((uint64_t)p->bytes & 0xffffffffu);
    w[5] = (MPI_Fint)(uint32_t)((uint64_t)p->bytes >> 32);
}

/* The f08 status is the Fortran one with names for its first three words. */
static const MPI_Fint *f08_words(const MPI_F08_status *s)
{
    _Static_assert(sizeof(MPI_F08_status) == MPI_F_STATUS_SIZE * sizeof(MPI_Fint),
                   "MPI_F08_status is MPI_F_STATUS_SIZE words");
    return &s->MPI_SOURCE;
}

int loom__mpi_status_c2f(const MPI_Status *c_status, MPI_Fint *f_status)
{
    static const char fn[] = "MPI_Status_c2f";
    int rc = check_c(fn, c_status, "c_status");
    if (rc == MPI_SUCCESS)
        rc = check_f(fn, f_status, MPI_F_STATUS_IGNORE, "f_status");
    if (rc != MPI_SUCCESS)
        return rc;
    struct parts p = from_c(c_status);
    to_words(&p, f_status);
    return MPI_SUCCESS;
}

int loom__mpi_status_f2c(const MPI_Fint *f_status, MPI_Status *c_status)
{
    static const char fn[] = "MPI_Status_f2c";
    int rc = check_f(fn, f_status, MPI_F_STATUS_IGNORE, "f_status");
    if (rc == MPI_SUCCESS)
        rc = check_c(fn, c_status, "c_status");
    if (rc != MPI_SUCCESS)
        return rc;
    struct parts p = from_words(f_status);
    to_c(&p, c_status);
    return MPI_SUCCESS;
}

int loom__mpi_status_c2f08(const MPI_Status *c_status, MPI_F08_status *f08_status)
{
    static const char fn[] = "MPI_Status_c2f08";
    int rc = check_c(fn, c_status, "c_status");
    if (rc == MPI_SUCCESS)
        rc = check_f(fn, f08_status, MPI_F08_STATUS_IGNORE, "f08_status");
    if (rc != MPI_SUCCESS)
        return rc;
    struct parts p = from_c(c_status);
    to_words(&p, (MPI_Fint *)f08_words(f08_status));
    return MPI_SUCCESS;
}

int loom__mpi_status_f082c(const MPI_F08_status *f08_status, MPI_Status *c_status)
{
    static const char fn[] = "MPI_Status_f082c";
    int rc = check_f(fn, f08_status, MPI_F08_STATUS_IGNORE, "f08_status");
    if (rc == MPI_SUCCESS)
        rc = check_c(fn, c_status, "c_status");
    if (rc != MPI_SUCCESS)
        return rc;
    struct parts p = from_words(f08_words(f08_status));
    to_c(&p, c_status);
    return MPI_SUCCESS;
}

int loom__mpi_status_f2f08(const MPI_Fint *f_status, MPI_F08_status *f08_status)
{
    static const char fn[] = "MPI_Status_f2f08";
    int rc = check_f(fn, f_status, MPI_F_STATUS_IGNORE, "f_status");
    if (rc == MPI_SUCCESS)
        rc = check_f(fn, f08_status, MPI_F08_STATUS_IGNORE, "f08_status");
    if (rc != MPI_SUCCESS)
        return rc;
    struct parts p = from_words(f_status);
    to_words(&p, (MPI_Fint *)f08_words(f08_status));
    return MPI_SUCCESS;
}

int loom__mpi_status_f082f(const MPI_F08_status *f08_status, MPI_Fint *f_status)
{
    static const char fn[] = "MPI_Status_f082f";
    int rc = check_f(fn, f08_status, MPI_F08_STATUS_IGNORE, "f08_status");
    if (rc == MPI_SUCCESS)
        rc = check_f(fn, f_status, MPI_F_STATUS_IGNORE, "f_status");
    if (rc != MPI_SUCCESS)
        return rc;
    struct parts p = from_words(f08_words(f08_status));
    to_words(&p, f_status);
    return MPI_SUCCESS;
}
