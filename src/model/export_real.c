/* The real model's JSON export; see export_real.h. */
#include "export_real.h"
#include "../nn/net_cache.h"

#include "../core/text.h"
#include "../json/jsonw.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

/* [a, b, …]: each number with nine significant digits (float32 reads back exactly), or null.
 * Written through a buffer of whole numbers: a long export is hundreds of millions of them. */
static void row(FILE *f, const float *v, int count) {
    char buf[8192];
    size_t used = 0;
    buf[used++] = '[';
    for (int k = 0; k < count; k++) {
        if (used > sizeof buf - 2 * FMT_FLOAT_BYTES) {
            fwrite(buf, 1, used, f);
            used = 0;
        }
        if (k) {
            buf[used++] = ',';
            buf[used++] = ' ';
        }
        if (v[k] == 0)
            buf[used++] = '0';
        else if (isfinite(v[k]))
            used += (size_t)fmt_g9(v[k], buf + used);
        else {
            memcpy(buf + used, "null", 4);
            used += 4;
        }
    }
    buf[used++] = ']';
    fwrite(buf, 1, used, f);
}

/* [layer][head][query][key] of every head's n×n matrix. */
static void per_head(FILE *f, const Net_Run *r, int layers,
                     float *(*get)(const Net_Run *, int, int)) {
    int n = r->n;
    fputs("[\n", f);
    for (int l = 0; l < layers; l++) {
        fputs("    [\n", f);
        for (int h = 0; h < r->heads; h++) {
            const float *m = get(r, l, h);
            fputs("      [", f);
            for (int i = 0; i < n; i++) {
                fputs(i ? ",\n       " : "", f);
                row(f, m + (ptrdiff_t)i * n, n);
            }
            fputs(h + 1 < r->heads ? "],\n" : "]\n", f);
        }
        fputs(l + 1 < layers ? "    ],\n" : "    ]\n", f);
    }
    fputs("  ]", f);
}

void export_real_top(const float *logits, int vocab, int k, double temperature, int32_t *ids,
                     double *p) {
    double max, sum = net_softmax_sum(logits, vocab, temperature, &max);
    int count = 0;
    for (int v = 0; v < vocab; v++) {
        /* insertion into the sorted top list */
        if (count == k && logits[v] <= logits[ids[k - 1]]) continue;
        int at = count < k ? count++ : k - 1;
        while (at > 0 && logits[ids[at - 1]] < logits[v]) {
            ids[at] = ids[at - 1];
            at--;
        }
        ids[at] = v;
    }
    for (int j = 0; j < count; j++) p[j] = net_softmax_p(logits[ids[j]], max, temperature, sum);
}

void export_real_json(const Real_Model *m, const char *name, const int32_t *ids, int n,
                      const Net_Run *r, FILE *f) {
    char text[1024];
    const Net_Model *c = &m->weights.model;
    fputs("{\n  \"model\": ", f);
    jw_string(f, name);
    fputs(",\n  \"ids\": [", f);
    for (int i = 0; i < n; i++) fprintf(f, i ? ", %d" : "%d", (int)ids[i]);
    fputs("],\n  \"tokens\": [", f);
    for (int i = 0; i < n; i++) {
        if (i) fputs(", ", f);
        real_model_token_text(m, ids[i], text, sizeof text);
        jw_string(f, text);
    }
    fprintf(f, "],\n  \"n\": %d,\n  \"n_layer\": %d,\n  \"n_head\": %d,\n  \"d_model\": %d,\n", n,
            c->layers, c->heads, c->width);
    if (m->config.family->export_shape)
        fprintf(f, "  \"family\": \"%s\",\n  \"n_kv_head\": %d,\n  \"head_dim\": %d,\n",
                m->config.family->model_type, c->kv_heads, c->head_dim);
    fputs("  \"attn\": ", f);
    per_head(f, r, c->layers, net_attn);
    fputs(",\n  \"scores\": ", f);
    per_head(f, r, c->layers, net_scores);
    if (r->want_turn && c->rope_theta > 0) { /* RoPE: the share of each head's weight it moves */
        fputs(",\n  \"turn_moved\": [", f);
        for (int a = 0; a < c->layers; a++) {
            fputs(a ? ", " : "", f);
            row(f, r->turn_moved + (ptrdiff_t)a * c->heads, c->heads);
        }
        fputs("]", f);
    }
    fputs(",\n  \"logits\": ", f);
    row(f, r->logits, c->vocab);
    int32_t top[EXPORT_REAL_TOP];
    double p[EXPORT_REAL_TOP];
    int k = c->vocab < EXPORT_REAL_TOP ? c->vocab : EXPORT_REAL_TOP;
    export_real_top(r->logits, c->vocab, k, 1, top, p);
    fputs(",\n  \"next\": [", f);
    for (int j = 0; j < k; j++) {
        fprintf(f, "%s\n    {\"id\": %d, \"token\": ", j ? "," : "", (int)top[j]);
        if (top[j] < m->bpe.count)
            real_model_token_text(m, top[j], text, sizeof text);
        else
            snprintf(text, sizeof text, "%s", ""); /* an id the tokenizer has no text for */
        jw_string(f, text);
        fprintf(f, ", \"p\": %.9g}", p[j]);
    }
    fputs("\n  ]\n}\n", f);
}

/* A token's text for the export: the tokenizer's, or "" for an id it has none for. */
static void token_json(const Real_Model *m, int32_t id, FILE *f) {
    char text[1024] = "";
    if (id < m->bpe.count) real_model_token_text(m, id, text, sizeof text);
    jw_string(f, text);
}

void export_real_step(const Real_Model *m, const Net_Cache *c, int step, int32_t chosen,
                      const Net_Candidate *top, int count, FILE *f) {
    const Net_Model *tm = &m->weights.model;
    int t = c->n - 1;
    fprintf(f, "    {\"step\": %d, \"position\": %d, \"id\": %d, \"token\": ", step, t,
            (int)chosen);
    token_json(m, chosen, f);
    fputs(",\n     \"candidates\": [", f);
    for (int k = 0; k < count; k++) {
        fprintf(f, "%s{\"id\": %d, \"token\": ", k ? ", " : "", (int)top[k].id);
        token_json(m, top[k].id, f);
        fprintf(f, ", \"p\": %.9g}", top[k].p);
    }
    fputs("],\n     \"attn\": [", f);
    for (int a = 0; a < tm->layers; a++) {
        fputs(a ? ", [" : "[", f);
        for (int h = 0; h < tm->heads; h++) {
            if (h) fputs(", ", f);
            row(f, net_cache_attn(c, a, h) + (ptrdiff_t)t * c->cap, t + 1);
        }
        fputs("]", f);
    }
    fputs("]}", f);
}

/* The bytes of the written tokens as UTF-8 text: a cut or broken character
 * becomes U+FFFD. */
static void written_text(const Real_Model *rm, const int32_t *ids, int n, FILE *f) {
    size_t size = 1, used = 0;
    for (int k = 0; k < n; k++) {
        const char *b;
        size += bpe_token_bytes(&rm->bpe, ids[k], &b);
    }
    char *raw = malloc(size), *out = malloc(3 * size + 1);
    if (!raw || !out) {
        free(raw);
        free(out);
        jw_string(f, "");
        return;
    }
    for (int k = 0; k < n; k++) {
        const char *b;
        size_t len = bpe_token_bytes(&rm->bpe, ids[k], &b);
        memcpy(raw + used, b, len);
        used += len;
    }
    size_t o = 0;
    for (size_t at = 0; at < used;) {
        uint32_t cp;
        size_t step = text_utf8_next(raw + at, used - at, &cp);
        if (step && cp != 0) {
            memcpy(out + o, raw + at, step);
            o += step;
            at += step;
        } else {
            memcpy(out + o, "\xEF\xBF\xBD", 3);
            o += 3;
            at++;
        }
    }
    out[o] = '\0';
    jw_string(f, out);
    free(raw);
    free(out);
}

int export_real_generate(const Real_Model *m, const char *name, int32_t *ids, int n, int steps,
                         const Net_Choice *how, uint64_t seed, Net_Cache *c, FILE *f,
                         const char **stop) {
    const Net_Model *tm = &m->weights.model;
    Rng rng;
    rng_seed(&rng, seed);
    int32_t eos[MODEL_MAX_EOS];
    int eos_n = real_model_eos(m, eos);
    fputs("{\n  \"model\": ", f);
    jw_string(f, name);
    fputs(",\n  \"prompt\": [", f);
    for (int k = 0; k < n; k++) fprintf(f, k ? ", %d" : "%d", (int)ids[k]);
    fprintf(f,
            "],\n  \"n_layer\": %d,\n  \"n_head\": %d,\n  \"temperature\": %.9g,\n"
            "  \"top_k\": %d,\n  \"top_p\": %.9g,\n  \"seed\": %llu,\n  \"eos\": [",
            tm->layers, tm->heads, how->temperature, how->top_k, how->top_p,
            (unsigned long long)seed);
    for (int k = 0; k < eos_n; k++) fprintf(f, k ? ", %d" : "%d", (int)eos[k]);
    fputs("],\n  \"steps\": [\n", f);
    Net_Candidate top[EXPORT_REAL_TOP];
    int written = 0;
    bool failed = false;
    *stop = "steps";
    for (int k = 0; k < steps; k++) {
        int count;
        int32_t id = net_choose(c->logits, tm->vocab, how, &rng, top, EXPORT_REAL_TOP, &count);
        if (id < 0) {
            *stop = "out of memory";
            failed = true;
            break;
        }
        if (k) fputs(",\n", f);
        export_real_step(m, c, k, id, top, count, f);
        ids[n + written++] = id;
        if (real_model_is_eos(m, id)) {
            *stop = "eos";
            break;
        }
        if (k + 1 == steps) break;
        if (c->n == c->cap) {
            *stop = "context";
            break;
        }
        if (!net_cache_step(tm, c, id)) {
            *stop = "not finite";
            failed = true;
            break;
        }
    }
    fputs("\n  ],\n  \"ids\": [", f);
    for (int k = 0; k < written; k++) fprintf(f, k ? ", %d" : "%d", (int)ids[n + k]);
    fputs("],\n  \"text\": ", f);
    written_text(m, ids + n, written, f);
    fprintf(f, ",\n  \"stop\": \"%s\"\n}\n", *stop);
    return failed ? -1 : written;
}
