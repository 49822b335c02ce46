/* Strict UTF-8, terminal-safe escaping and whole-string number parsing; see text.h. */
#include "text.h"

#include "i18n.h"

#include <errno.h>
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* Length of the well-formed UTF-8 sequence at p (1 to 4), or 0 if it is not
 * one. The second-byte ranges are those of Unicode's table 3-7: they exclude
 * overlong forms, surrogates (ED A0..BF) and code points above U+10FFFF. */
static size_t utf8_seq(const unsigned char *p, size_t avail, uint32_t *cp) {
    unsigned char c = p[0];
    size_t n;
    unsigned char lo = 0x80, hi = 0xBF;
    if (c < 0x80) {
        *cp = c;
        return 1;
    } else if (c >= 0xC2 && c <= 0xDF) {
        n = 2;
        *cp = c & 0x1F;
    } else if (c >= 0xE0 && c <= 0xEF) {
        n = 3;
        *cp = c & 0x0F;
        if (c == 0xE0) lo = 0xA0;
        if (c == 0xED) hi = 0x9F;
    } else if (c >= 0xF0 && c <= 0xF4) {
        n = 4;
        *cp = c & 0x07;
        if (c == 0xF0) lo = 0x90;
        if (c == 0xF4) hi = 0x8F;
    } else {
        return 0;
    }
    if (avail < n) return 0;
    if (p[1] < lo || p[1] > hi) return 0;
    for (size_t k = 1; k < n; k++) {
        if ((p[k] & 0xC0) != 0x80) return 0;
        *cp = (*cp << 6) | (p[k] & 0x3F);
    }
    return n;
}

size_t text_utf8_next(const char *s, size_t avail, uint32_t *cp) {
    return avail ? utf8_seq((const unsigned char *)s, avail, cp) : 0;
}

bool text_utf8_check(const char *s, size_t len, size_t *bad) {
    const unsigned char *p = (const unsigned char *)s;
    size_t k = 0;
    while (k < len) {
        uint32_t cp;
        size_t n = utf8_seq(p + k, len - k, &cp);
        if (n == 0 || cp == 0) {
            if (bad) *bad = k;
            return false;
        }
        k += n;
    }
    return true;
}

/* The escaped form of the character at p: its bytes in piece, their count
 * in *plen; returns how many input bytes it used. */
static size_t escape_one(const unsigned char *p, size_t avail, char piece[8], size_t *plen) {
    uint32_t cp;
    size_t n = utf8_seq(p, avail, &cp);
    if (n == 0) {
        *plen = (size_t)snprintf(piece, 8, "\\x%02X", p[0]);
        return 1;
    }
    if (cp == '\n')
        *plen = (size_t)snprintf(piece, 8, "\\n");
    else if (cp == '\t')
        *plen = (size_t)snprintf(piece, 8, "\\t");
    else if (cp == '\r')
        *plen = (size_t)snprintf(piece, 8, "\\r");
    else if (cp < 0x20 || cp == 0x7F)
        *plen = (size_t)snprintf(piece, 8, "\\x%02X", (unsigned)cp);
    else if (cp >= 0x80 && cp <= 0x9F) /* C1 controls: CSI is U+009B */
        *plen = (size_t)snprintf(piece, 8, "\\u%04X", (unsigned)cp);
    else {
        memcpy(piece, p, n);
        *plen = n;
    }
    return n;
}

size_t text_escape(const char *s, size_t len, char *dest, size_t destsz) {
    if (destsz == 0) return 0;
    static const char ellipsis[] = "…";
    const unsigned char *p = (const unsigned char *)s;
    char piece[8];
    size_t plen, total = 0;
    for (size_t k = 0; k < len;) {
        k += escape_one(p + k, len - k, piece, &plen);
        total += plen;
    }
    bool cut = total > destsz - 1;
    size_t limit = !cut ? destsz - 1 : destsz > sizeof ellipsis ? destsz - sizeof ellipsis : 0;
    size_t used = 0;
    for (size_t k = 0; k < len;) {
        size_t n = escape_one(p + k, len - k, piece, &plen);
        if (used + plen > limit) break;
        memcpy(dest + used, piece, plen);
        used += plen;
        k += n;
    }
    if (cut && used + sizeof ellipsis - 1 <= destsz - 1) {
        memcpy(dest + used, ellipsis, sizeof ellipsis - 1);
        used += sizeof ellipsis - 1;
    }
    dest[used] = '\0';
    return used;
}

/* -?[0-9]+ */
static bool whole_syntax(const char *s) {
    if (*s == '-') s++;
    if (!*s) return false;
    for (; *s; s++)
        if (*s < '0' || *s > '9') return false;
    return true;
}

/* -?(digits[.digits]|.digits)([eE][+-]?digits)? — decimal only, no hex, no
 * space: exactly what a person writes for a number. */
static bool decimal_syntax(const char *s) {
    if (*s == '-') s++;
    size_t lead = strspn(s, "0123456789");
    s += lead;
    size_t frac = 0;
    if (*s == '.') {
        s++;
        frac = strspn(s, "0123456789");
        s += frac;
    }
    if (lead + frac == 0) return false;
    if (*s == 'e' || *s == 'E') {
        s++;
        if (*s == '+' || *s == '-') s++;
        size_t ex = strspn(s, "0123456789");
        if (ex == 0) return false;
        s += ex;
    }
    return *s == '\0';
}

static bool names_non_finite(const char *s) {
    if (*s == '-' || *s == '+') s++;
    static const char *const words[] = {"nan", "inf", "infinity"};
    for (size_t k = 0; k < sizeof words / sizeof *words; k++) {
        size_t n = strlen(words[k]), i = 0;
        while (i < n && s[i] && (s[i] | 0x20) == words[k][i]) i++;
        if (i == n && s[i] == '\0') return true;
    }
    return false;
}

Text_Num text_parse_i64(const char *s, int64_t lo, int64_t hi, int64_t *dest) {
    if (!whole_syntax(s)) return TEXT_NUM_SYNTAX;
    errno = 0;
    long long v = strtoll(s, NULL, 10);
    if (errno == ERANGE) return TEXT_NUM_OVERFLOW;
    if (v < lo || v > hi) return TEXT_NUM_RANGE;
    *dest = (int64_t)v;
    return TEXT_NUM_OK;
}

Text_Num text_parse_f64(const char *s, double lo, double hi, double *dest) {
    if (names_non_finite(s)) return TEXT_NUM_NOT_FINITE;
    if (!decimal_syntax(s)) return TEXT_NUM_SYNTAX;
    errno = 0;
    double v = strtod(s, NULL);
    if (errno == ERANGE) return fabs(v) > 1.0 ? TEXT_NUM_OVERFLOW : TEXT_NUM_UNDERFLOW;
    if (!isfinite(v)) return TEXT_NUM_NOT_FINITE;
    if (v < lo || v > hi) return TEXT_NUM_RANGE;
    *dest = v;
    return TEXT_NUM_OK;
}

void text_num_message(Text_Num r, const char *written, bool whole, double lo, double hi, char *dest,
                      size_t destsz) {
    char w[160];
    text_escape(written, strlen(written), w, sizeof w);
    char range[80];
    if (whole)
        snprintf(range, sizeof range, _("%.0f to %.0f"), lo, hi);
    else
        snprintf(range, sizeof range, _("%g to %g"), lo, hi);
    switch (r) {
    case TEXT_NUM_OK:
        snprintf(dest, destsz, _("%s is fine"), w);
        break;
    case TEXT_NUM_SYNTAX:
        snprintf(dest, destsz, whole ? _("'%s' is not a whole number") : _("'%s' is not a number"),
                 w);
        break;
    case TEXT_NUM_RANGE:
        snprintf(dest, destsz, _("%s is out of range (%s)"), w, range);
        break;
    case TEXT_NUM_OVERFLOW:
        if (whole)
            snprintf(dest, destsz, _("%s is out of range (%s)"), w, range);
        else
            snprintf(dest, destsz, _("'%s' is too large to represent (overflow)"), w);
        break;
    case TEXT_NUM_UNDERFLOW:
        snprintf(dest, destsz, _("'%s' is too small to represent (underflow); write 0 for zero"),
                 w);
        break;
    case TEXT_NUM_NOT_FINITE:
        snprintf(dest, destsz, _("'%s' is not a finite number"), w);
        break;
    }
}

bool text_underflows_float(const char *written, double v) {
    if ((float)v != 0) return false;
    /* a non-zero digit before any exponent: the literal is not a zero */
    for (const char *p = written; *p && *p != 'e' && *p != 'E'; p++)
        if (*p >= '1' && *p <= '9') return true;
    return false;
}

bool text_fail(char *err, size_t errsz, const char *fmt, ...) {
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(err, errsz, fmt, ap);
    va_end(ap);
    return false;
}
