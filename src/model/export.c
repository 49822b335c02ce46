/* Export of the whole computation; see export.h. */
#include "export.h"

#include "../json/jsonw.h"

#include "settings.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

/* ALiBi's bias −m·|i − j| as a JSON matrix, a row at a time. */
static void jw_alibi_bias(FILE *f, int n, double slope, const char *indent) {
    float row[ATTN_MAX_TOKENS];
    fputs("[\n", f);
    for (int i = 0; i < n; i++) {
        for (int j = 0; j < n; j++) row[j] = (float)(-slope * abs(i - j));
        fprintf(f, "%s  ", indent);
        jw_row(f, row, n);
        fputs(i + 1 < n ? ",\n" : "\n", f);
    }
    fprintf(f, "%s]", indent);
}

static void json_matrix_field(FILE *f, const char *name, const float *m, int rows, int cols,
                              bool last) {
    fprintf(f, "  \"%s\": ", name);
    jw_matrix(f, m, rows, cols, "  ");
    fputs(last ? "\n" : ",\n", f);
}

/* One matrix: finite everywhere, but for S's masked cells, which are −∞
 * (JSON null, CSV -inf) and nothing else. */
static bool finite_matrix(const char *name, int head, const float *m, int rows, int cols,
                          bool scores, const Scene *s, char *err, size_t errsz) {
    for (int r = 0; r < rows; r++)
        for (int c = 0; c < cols; c++) {
            float v = m[(long)r * cols + c];
            bool masked = scores && s->mask == MASK_CAUSAL && c > r;
            if (masked ? v == -INFINITY : isfinite(v)) continue;
            char where[40] = "";
            if (head >= 0) snprintf(where, sizeof where, " of head %d", head + 1);
            snprintf(err, errsz,
                     "export: %s[%d][%d]%s is %s, which no export can hold honestly; nothing "
                     "was exported",
                     name, r, c, where,
                     v != v        ? "NaN"
                     : isfinite(v) ? "finite where the mask hides the key"
                     : v > 0       ? "+inf"
                                   : "-inf");
            return false;
        }
    return true;
}

bool export_check(const Scene *s, const Derived *dv, char *err, size_t errsz) {
    int n = s->n, d = s->d, dk = s->d_k, dvw = s->d_v;
    bool ok = finite_matrix("X", -1, s->X, n, d, false, s, err, errsz) &&
              (!dv->has_p || finite_matrix("P", -1, dv->P, n, d, false, s, err, errsz)) &&
              finite_matrix("W_O", -1, dv->W_O, s->heads * dvw, d, false, s, err, errsz) &&
              finite_matrix("Y", -1, dv->Y, n, d, false, s, err, errsz);
    for (int h = 0; ok && h < s->heads; h++) {
        const Attn *a = derived_head(dv, h);
        ok = finite_matrix("W_Q", h, derived_w(dv, h, PROJ_Q), d, dk, false, s, err, errsz) &&
             finite_matrix("W_K", h, derived_w(dv, h, PROJ_K), d, dk, false, s, err, errsz) &&
             finite_matrix("W_V", h, derived_w(dv, h, PROJ_V), d, dvw, false, s, err, errsz) &&
             finite_matrix("Q", h, a->Q, n, dk, false, s, err, errsz) &&
             finite_matrix("K", h, a->K, n, dk, false, s, err, errsz) &&
             finite_matrix("V", h, a->V, n, dvw, false, s, err, errsz) &&
             finite_matrix("S", h, a->S, n, n, true, s, err, errsz) &&
             finite_matrix("A", h, a->A, n, n, false, s, err, errsz) &&
             finite_matrix("O", h, a->O, n, dvw, false, s, err, errsz);
    }
    return ok;
}

void export_json(const Scene *s, const Derived *dv, FILE *f) {
    const Attn *a = &dv->pass.head[0];
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
    fmt_float(s->rope_base, buf);
    fprintf(f, "  \"pos_offset\": %d,\n  \"rope_base\": %s,\n", s->pos_offset, buf);
    fprintf(f, "  \"heads\": %d,\n  \"mask\": \"%s\",\n", s->heads,
            setting_choice_name(SET_MASK, s->mask));
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
    /* what the scheme in the rule used: q and k turned, or the score bias */
    if (s->pos == POS_ROPE) {
        json_matrix_field(f, "Q_rot", a->Qr, s->n, s->d_k, false);
        json_matrix_field(f, "K_rot", a->Kr, s->n, s->d_k, false);
    }
    if (s->pos == POS_ALIBI) {
        fputs("  \"bias\": ", f);
        jw_alibi_bias(f, s->n, scene_alibi_slope(s, 0), "  ");
        fputs(",\n", f);
    }
    json_matrix_field(f, "S", a->S, s->n, s->n, false);
    json_matrix_field(f, "A", a->A, s->n, s->n, false);
    json_matrix_field(f, "O", a->O, s->n, s->d_v, false);
    /* every head, head 1 again first, so a reader can loop over them */
    fputs("  \"per_head\": [\n", f);
    for (int h = 0; h < s->heads; h++) {
        const Attn *ha = derived_head(dv, h);
        const struct {
            const char *name;
            const float *m;
            int rows, cols;
        } parts[11] = {{"W_Q", derived_w(dv, h, PROJ_Q), s->d, s->d_k},
                       {"W_K", derived_w(dv, h, PROJ_K), s->d, s->d_k},
                       {"W_V", derived_w(dv, h, PROJ_V), s->d, s->d_v},
                       {"Q", ha->Q, s->n, s->d_k},
                       {"K", ha->K, s->n, s->d_k},
                       {"V", ha->V, s->n, s->d_v},
                       {"S", ha->S, s->n, s->n},
                       {"A", ha->A, s->n, s->n},
                       {"O", ha->O, s->n, s->d_v},
                       {"Q_rot", ha->Qr, s->n, s->d_k},
                       {"K_rot", ha->Kr, s->n, s->d_k}};
        int count = s->pos == POS_ROPE ? 11 : 9; /* Q_rot, K_rot only for rope */
        bool alibi = s->pos == POS_ALIBI;
        fputs("    {\n", f);
        for (int k = 0; k < count; k++) {
            fprintf(f, "      \"%s\": ", parts[k].name);
            jw_matrix(f, parts[k].m, parts[k].rows, parts[k].cols, "      ");
            fputs(k + 1 < count || alibi ? ",\n" : "\n", f);
        }
        if (alibi) {
            fputs("      \"bias\": ", f);
            jw_alibi_bias(f, s->n, scene_alibi_slope(s, h), "      ");
            fputs("\n", f);
        }
        fputs(h + 1 < s->heads ? "    },\n" : "    }\n", f);
    }
    fputs("  ],\n", f);
    json_matrix_field(f, "W_O", dv->W_O, s->heads * s->d_v, s->d, false);
    json_matrix_field(f, "Y", dv->Y, s->n, s->d, true);
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
            float v = m[(long)r * cols + c];
            if (isfinite(v))
                fmt_float(v, buf);
            else /* a masked score: export_check lets no other non-finite value through */
                snprintf(buf, sizeof buf, "-inf");
            fprintf(f, ",%s", buf);
        }
        fputc('\n', f);
    }
    fputc('\n', f);
}

void export_csv(const Scene *s, const Derived *dv, FILE *f) {
    const Attn *a = &dv->pass.head[0];
    int n = s->n, d = s->d, dk = s->d_k, dvw = s->d_v;
    fprintf(f,
            "# attnlab export: n=%d d=%d d_k=%d d_v=%d seed=%u scaled=%s pos=%s pos_offset=%d "
            "rope_base=%g heads=%d mask=%s\n\n",
            n, d, dk, dvw, (unsigned)s->seed, s->scaled ? "true" : "false", pos_mode_name(s->pos),
            s->pos_offset, (double)s->rope_base, s->heads, setting_choice_name(SET_MASK, s->mask));
    csv_block(f, s, "X", s->X, n, d, LABEL_TOKENS, LABEL_DIMS, "x");
    if (dv->has_p) csv_block(f, s, "P", dv->P, n, d, LABEL_TOKENS, LABEL_DIMS, "x");
    csv_block(f, s, "W_Q", dv->W_Q, d, dk, LABEL_DIMS, LABEL_DIMS, "q");
    csv_block(f, s, "W_K", dv->W_K, d, dk, LABEL_DIMS, LABEL_DIMS, "k");
    csv_block(f, s, "W_V", dv->W_V, d, dvw, LABEL_DIMS, LABEL_DIMS, "v");
    csv_block(f, s, "Q", a->Q, n, dk, LABEL_TOKENS, LABEL_DIMS, "q");
    csv_block(f, s, "K", a->K, n, dk, LABEL_TOKENS, LABEL_DIMS, "k");
    csv_block(f, s, "V", a->V, n, dvw, LABEL_TOKENS, LABEL_DIMS, "v");
    if (s->pos == POS_ROPE) {
        csv_block(f, s, "Q_rot", a->Qr, n, dk, LABEL_TOKENS, LABEL_DIMS, "q");
        csv_block(f, s, "K_rot", a->Kr, n, dk, LABEL_TOKENS, LABEL_DIMS, "k");
    }
    csv_block(f, s, "S", a->S, n, n, LABEL_TOKENS, LABEL_TOKENS, "");
    csv_block(f, s, "A", a->A, n, n, LABEL_TOKENS, LABEL_TOKENS, "");
    csv_block(f, s, "O", a->O, n, dvw, LABEL_TOKENS, LABEL_DIMS, "o");
    /* heads 2 to H, then W_O and Y: the same blocks, named by head */
    for (int h = 1; h < s->heads; h++) {
        const Attn *ha = derived_head(dv, h);
        char name[24];
#define HEAD_BLOCK(part, m, rows, cols, rl, cl, prefix)                                            \
    snprintf(name, sizeof name, "%s head %d", part, h + 1);                                        \
    csv_block(f, s, name, m, rows, cols, rl, cl, prefix)
        HEAD_BLOCK("W_Q", derived_w(dv, h, PROJ_Q), d, dk, LABEL_DIMS, LABEL_DIMS, "q");
        HEAD_BLOCK("W_K", derived_w(dv, h, PROJ_K), d, dk, LABEL_DIMS, LABEL_DIMS, "k");
        HEAD_BLOCK("W_V", derived_w(dv, h, PROJ_V), d, dvw, LABEL_DIMS, LABEL_DIMS, "v");
        HEAD_BLOCK("Q", ha->Q, n, dk, LABEL_TOKENS, LABEL_DIMS, "q");
        HEAD_BLOCK("K", ha->K, n, dk, LABEL_TOKENS, LABEL_DIMS, "k");
        HEAD_BLOCK("V", ha->V, n, dvw, LABEL_TOKENS, LABEL_DIMS, "v");
        HEAD_BLOCK("S", ha->S, n, n, LABEL_TOKENS, LABEL_TOKENS, "");
        HEAD_BLOCK("A", ha->A, n, n, LABEL_TOKENS, LABEL_TOKENS, "");
        HEAD_BLOCK("O", ha->O, n, dvw, LABEL_TOKENS, LABEL_DIMS, "o");
#undef HEAD_BLOCK
    }
    csv_block(f, s, "W_O", dv->W_O, s->heads * dvw, d, LABEL_DIMS, LABEL_DIMS, "y");
    csv_block(f, s, "Y", dv->Y, n, d, LABEL_TOKENS, LABEL_DIMS, "y");
}
