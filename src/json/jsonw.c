/* Streaming JSON writer; see jsonw.h. */
#include "jsonw.h"

#include <float.h>
#include <math.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

void fmt_float(float x, char *buf) {
    if (x == 0.0f) x = 0.0f; /* write -0 as 0 */
    for (int prec = 1; prec <= 9; prec++) {
        snprintf(buf, FMT_FLOAT_BYTES, "%.*g", prec, (double)x);
        if (strtof(buf, NULL) == x) return;
    }
}

/* "%.9g" by hand: d = x·10^p rounded to nine digits in double arithmetic. x is an exact double
 * and 10^p a correctly rounded one, so the product is within 2^-52 of x·10^p, under 3e-7 for
 * d < 1e9: when its fraction is further than 1e-6 from one half, d is the correctly rounded
 * digit string printf writes. Nearer, printf itself answers (about one number in 10^6). */
int fmt_g9(float x, char *buf) {
    static const double ten[] = {1e0,  1e1,  1e2,  1e3,  1e4,  1e5,  1e6,  1e7,  1e8,  1e9,  1e10,
                                 1e11, 1e12, 1e13, 1e14, 1e15, 1e16, 1e17, 1e18, 1e19, 1e20, 1e21,
                                 1e22, 1e23, 1e24, 1e25, 1e26, 1e27, 1e28, 1e29, 1e30, 1e31, 1e32,
                                 1e33, 1e34, 1e35, 1e36, 1e37, 1e38, 1e39, 1e40, 1e41, 1e42, 1e43,
                                 1e44, 1e45, 1e46, 1e47, 1e48, 1e49, 1e50, 1e51, 1e52, 1e53, 1e54};
    double a = fabs((double)x);
    if (!(a > 0 && a <= FLT_MAX)) return snprintf(buf, FMT_FLOAT_BYTES, "%.9g", (double)x);
    int e2;
    frexp(a, &e2); /* a in [2^(e2-1), 2^e2): log10(a) is within 0.302 above (e2-1)·log10(2) */
    int k = (int)floor((e2 - 1) * 0.30102999566398120); /* the decimal exponent or one less */
    uint64_t d = 0;
    for (int tries = 0;; tries++) {
        int p = 8 - k; /* -31…54 */
        double y = p >= 0 ? a * ten[p] : a / ten[-p];
        double whole = floor(y), frac = y - whole;
        if (tries == 3 || fabs(frac - 0.5) < 1e-6)
            return snprintf(buf, FMT_FLOAT_BYTES, "%.9g", (double)x);
        d = (uint64_t)whole + (frac > 0.5);
        if (d >= 1000000000u)
            k++;
        else if (d < 100000000u)
            k--;
        else
            break;
    }
    char digits[9];
    for (int i = 8; i >= 0; i--, d /= 10) digits[i] = (char)('0' + d % 10);
    int last = 8; /* the last digit kept: trailing zeros go */
    while (last > 0 && digits[last] == '0') last--;
    char *o = buf;
    if (x < 0) *o++ = '-';
    if (k >= -4 && k < 9) {
        if (k < 0) {
            *o++ = '0';
            *o++ = '.';
            for (int i = -1; i > k; i--) *o++ = '0';
            memcpy(o, digits, (size_t)last + 1);
            o += last + 1;
        } else {
            memcpy(o, digits, (size_t)k + 1);
            o += k + 1;
            if (last > k) {
                *o++ = '.';
                memcpy(o, digits + k + 1, (size_t)(last - k));
                o += last - k;
            }
        }
    } else {
        *o++ = digits[0];
        if (last > 0) {
            *o++ = '.';
            memcpy(o, digits + 1, (size_t)last);
            o += last;
        }
        *o++ = 'e';
        *o++ = k < 0 ? '-' : '+';
        int e = k < 0 ? -k : k;
        *o++ = (char)('0' + e / 10); /* at least two digits, as printf */
        *o++ = (char)('0' + e % 10);
    }
    *o = 0;
    return (int)(o - buf);
}

void jw_string(FILE *f, const char *s) {
    fputc('"', f);
    for (const unsigned char *p = (const unsigned char *)s; *p; p++) {
        switch (*p) {
        case '"':
            fputs("\\\"", f);
            break;
        case '\\':
            fputs("\\\\", f);
            break;
        case '\n':
            fputs("\\n", f);
            break;
        case '\t':
            fputs("\\t", f);
            break;
        case '\r':
            fputs("\\r", f);
            break;
        default:
            if (*p < 0x20)
                fprintf(f, "\\u%04x", *p);
            else
                fputc(*p, f);
        }
    }
    fputc('"', f);
}

void jw_row(FILE *f, const float *row, int count) {
    char buf[FMT_FLOAT_BYTES];
    fputc('[', f);
    for (int c = 0; c < count; c++) {
        /* JSON has no infinity: a masked score (−∞) is null */
        if (isfinite(row[c]))
            fmt_float(row[c], buf);
        else
            snprintf(buf, sizeof buf, "null");
        fprintf(f, c ? ", %s" : "%s", buf);
    }
    fputc(']', f);
}

void jw_matrix(FILE *f, const float *m, int rows, int cols, const char *indent) {
    fputs("[\n", f);
    for (int r = 0; r < rows; r++) {
        fprintf(f, "%s  ", indent);
        jw_row(f, m + (long)r * cols, cols);
        fputs(r + 1 < rows ? ",\n" : "\n", f);
    }
    fprintf(f, "%s]", indent);
}
