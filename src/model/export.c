/* Export of the whole computation; see export.h. */
#include "export.h"

#include "jsonw.h"

#include <string.h>

static void json_matrix_field(FILE *f, const char *name, const float *m, int rows, int cols,
                              bool last) {
    fprintf(f, "  \"%s\": ", name);
    jw_matrix(f, m, rows, cols, "  ");
    fputs(last ? "\n" : ",\n", f);
}

void export_json(const Scene *s, const Derived *dv, FILE *f) {
    const Attn *a = &dv->attn;
    char buf[FMT_FLOAT_BYTES];
    fputs("{\n  \"tokens\": [", f);
    for (int i = 0; i < s->n; i++) {
        if (i) fputs(", ", f);
        jw_string(f, s->tokens[i]);
    }
    fprintf(f, "],\n  \"n\": %d,\n  \"d\": %d,\n  \"d_k\": %d,\n  \"d_v\": %d,\n", s->n, s->d,
            s->d_k, s->d_v);
    fmt_float(s->pos_strength, buf);
    fprintf(f, "  \"seed\": %u,\n  \"scaled\": %s,\n  \"pos\": \"%s\",\n  \"pos_strength\": %s,\n",
            (unsigned)s->seed, s->scaled ? "true" : "false", pos_mode_name(s->pos), buf);
    json_matrix_field(f, "X", s->X, s->n, s->d, false);
    if (dv->has_p)
        json_matrix_field(f, "P", dv->P, s->n, s->d, false);
    else
        fputs("  \"P\": null,\n", f);
    json_matrix_field(f, "W_Q", dv->W_Q, s->d, s->d_k, false);
    json_matrix_field(f, "W_K", dv->W_K, s->d, s->d_k, false);
    json_matrix_field(f, "W_V", dv->W_V, s->d, s->d_v, false);
    json_matrix_field(f, "Q", a->Q, s->n, s->d_k, false);
    json_matrix_field(f, "K", a->K, s->n, s->d_k, false);
    json_matrix_field(f, "V", a->V, s->n, s->d_v, false);
    json_matrix_field(f, "S", a->S, s->n, s->n, false);
    json_matrix_field(f, "A", a->A, s->n, s->n, false);
    json_matrix_field(f, "O", a->O, s->n, s->d_v, true);
    fputs("}\n", f);
}

/* A CSV field: quoted only when it must be (tokens may hold commas or quotes). */
static void csv_field(FILE *f, const char *text) {
    if (strpbrk(text, ",\"\n\r") == NULL) {
        fputs(text, f);
        return;
    }
    fputc('"', f);
    for (const char *p = text; *p; p++) {
        if (*p == '"') fputc('"', f);
        fputc(*p, f);
    }
    fputc('"', f);
}

typedef enum Labels { LABEL_TOKENS, LABEL_DIMS } Labels;

static void csv_block(FILE *f, const Scene *s, const char *name, const float *m, int rows, int cols,
                      Labels row_labels, Labels col_labels, const char *col_prefix) {
    char buf[FMT_FLOAT_BYTES];
    fprintf(f, "# %s %dx%d\n", name, rows, cols);
    fputs(row_labels == LABEL_TOKENS ? "token" : "dim", f);
    for (int c = 0; c < cols; c++) {
        fputc(',', f);
        if (col_labels == LABEL_TOKENS)
            csv_field(f, s->tokens[c]);
        else
            fprintf(f, "%s%d", col_prefix, c);
    }
    fputc('\n', f);
    for (int r = 0; r < rows; r++) {
        if (row_labels == LABEL_TOKENS)
            csv_field(f, s->tokens[r]);
        else
            fprintf(f, "x%d", r);
        for (int c = 0; c < cols; c++) {
            fmt_float(m[(long)r * cols + c], buf);
            fprintf(f, ",%s", buf);
        }
        fputc('\n', f);
    }
    fputc('\n', f);
}

void export_csv(const Scene *s, const Derived *dv, FILE *f) {
    const Attn *a = &dv->attn;
    int n = s->n, d = s->d, dk = s->d_k, dvw = s->d_v;
    fprintf(f, "# attnlab export: n=%d d=%d d_k=%d d_v=%d seed=%u scaled=%s pos=%s\n\n", n, d, dk,
            dvw, (unsigned)s->seed, s->scaled ? "true" : "false", pos_mode_name(s->pos));
    csv_block(f, s, "X", s->X, n, d, LABEL_TOKENS, LABEL_DIMS, "x");
    if (dv->has_p) csv_block(f, s, "P", dv->P, n, d, LABEL_TOKENS, LABEL_DIMS, "x");
    csv_block(f, s, "W_Q", dv->W_Q, d, dk, LABEL_DIMS, LABEL_DIMS, "q");
    csv_block(f, s, "W_K", dv->W_K, d, dk, LABEL_DIMS, LABEL_DIMS, "k");
    csv_block(f, s, "W_V", dv->W_V, d, dvw, LABEL_DIMS, LABEL_DIMS, "v");
    csv_block(f, s, "Q", a->Q, n, dk, LABEL_TOKENS, LABEL_DIMS, "q");
    csv_block(f, s, "K", a->K, n, dk, LABEL_TOKENS, LABEL_DIMS, "k");
    csv_block(f, s, "V", a->V, n, dvw, LABEL_TOKENS, LABEL_DIMS, "v");
    csv_block(f, s, "S", a->S, n, n, LABEL_TOKENS, LABEL_TOKENS, "");
    csv_block(f, s, "A", a->A, n, n, LABEL_TOKENS, LABEL_TOKENS, "");
    csv_block(f, s, "O", a->O, n, dvw, LABEL_TOKENS, LABEL_DIMS, "o");
}
