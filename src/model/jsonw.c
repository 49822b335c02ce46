/* Streaming JSON writer; see jsonw.h. */
#include "jsonw.h"

#include <math.h>
#include <stdlib.h>

void fmt_float(float x, char *buf) {
    if (x == 0.0f) x = 0.0f; /* write -0 as 0 */
    for (int prec = 1; prec <= 9; prec++) {
        snprintf(buf, FMT_FLOAT_BYTES, "%.*g", prec, (double)x);
        if (strtof(buf, NULL) == x) return;
    }
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
