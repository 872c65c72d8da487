/* net/pmi_hex.c — bytes as text for the PMI key-value space, whose values are printable words
 * (network addresses are binary; lowercase out, either case in), and the client's one-line
 * error texts. */
#include <stdarg.h>
#include <stdio.h>
#include "net/pmi_impl.h"

void loom__pmi_hex_encode(const void *data, size_t len, char *out)
{
    static const char digits[] = "0123456789abcdef";
    const unsigned char *b = data;
    for (size_t i = 0; i < len; i++) {
        out[2 * i] = digits[b[i] >> 4];
        out[2 * i + 1] = digits[b[i] & 15];
    }
    out[2 * len] = '\0';
}

static int nibble(char c)
{
    if (c >= '0' && c <= '9')
        return c - '0';
    if (c >= 'a' && c <= 'f')
        return c - 'a' + 10;
    if (c >= 'A' && c <= 'F')
        return c - 'A' + 10;
    return -1;
}

long loom__pmi_hex_decode(const char *text, void *out, size_t max)
{
    unsigned char *b = out;
    size_t n = 0;
    for (; text[0]; text += 2, n++) {
        int hi = nibble(text[0]);
        if (hi < 0 || !text[1])
            return -1;
        int lo = nibble(text[1]);
        if (lo < 0 || n >= max)
            return -1;
        b[n] = (unsigned char)(hi << 4 | lo);
    }
    return (long)n;
}

void loom__pmi_seterr(char *err, size_t errlen, const char *fmt, ...)
{
    if (!err || errlen == 0)
        return;
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(err, errlen, fmt, ap);
    va_end(ap);
}
