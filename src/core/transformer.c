/* The forward pass of an attention stack in float32; see transformer.h. */
#include "transformer.h"
#include "clock.h"

#include "gemm.h"
#include "i18n.h"

#include <math.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

/* Timing of the parts when profiling: mark() closes the part running since
 * the last mark. */
static void mark(Tf_Run *r, Tf_Part part, double *since) {
    if (!r->profile) return;
    double t = clock_ms();
    r->ms[part] += t - *since;
    *since = t;
}

/* Grow *p to count floats; the old contents need not be kept. */
static bool grow(float **p, int64_t count) {
    if (count <= 0) count = 1;
    if ((uint64_t)count > SIZE_MAX / sizeof(float)) return false;
    float *q = realloc(*p, (size_t)count * sizeof(float));
    if (!q) return false;
    *p = q;
    return true;
}

int64_t tf_store_bytes(const Tf_Model *m, int n) {
    return (int64_t)2 * (int64_t)sizeof(float) * m->layers * m->heads * (int64_t)n * n;
}

bool tf_store_fits(const Tf_Model *m, int n, char *err, size_t errsz) {
    int64_t need = tf_store_bytes(m, n);
    if (need <= TF_STORE_BUDGET) return true;
    snprintf(err, errsz,
             _("%d tokens are too many for this model: every head's scores and weights (%d layers "
               "× %d heads × %d² cells, twice) would take %lld MB, more than the %lld MB kept; "
               "give a shorter text"),
             n, m->layers, m->heads, n, (long long)(need >> 20),
             (long long)(TF_STORE_BUDGET >> 20));
    return false;
}

bool tf_reserve(Tf_Run *r, const Tf_Model *m, int n) {
    if (tf_store_bytes(m, n) > TF_STORE_BUDGET) return false;
    if (n <= r->cap_n && m->layers <= r->cap_layers && m->heads <= r->cap_heads &&
        m->width <= r->cap_width && m->inner <= r->cap_inner && m->vocab <= r->cap_vocab)
        return true;
    int64_t N = n, L = m->layers, H = m->heads, W = m->width;
    int64_t I = m->inner > 0 ? m->inner : 1;
    if (!grow(&r->stream, (L + 1) * N * W) || !grow(&r->mid, L * N * W) ||
        !grow(&r->scores, L * H * N * N) || !grow(&r->attn, L * H * N * N) ||
        !grow(&r->logits, m->vocab) || !grow(&r->normed, N * W) || !grow(&r->qkv, N * 3 * W) ||
        !grow(&r->mixed, N * W) || !grow(&r->hidden, N * I))
        return false;
    r->cap_n = n;
    r->cap_layers = m->layers;
    r->cap_heads = m->heads;
    r->cap_width = m->width;
    r->cap_inner = m->inner;
    r->cap_vocab = m->vocab;
    return true;
}

void tf_free(Tf_Run *r) {
    free(r->stream);
    free(r->mid);
    free(r->scores);
    free(r->attn);
    free(r->logits);
    free(r->normed);
    free(r->qkv);
    free(r->mixed);
    free(r->hidden);
    memset(r, 0, sizeof *r);
}

float *tf_scores(const Tf_Run *r, int layer, int head) {
    return r->scores + ((ptrdiff_t)layer * r->heads + head) * r->n * r->n;
}

float *tf_attn(const Tf_Run *r, int layer, int head) {
    return r->attn + ((ptrdiff_t)layer * r->heads + head) * r->n * r->n;
}

/* dest = LayerNorm(x) row by row (w wide, count rows), or a copy without weights. */
static void layernorm(const float *x, int count, int w, const float *g, const float *b, float eps,
                      float *dest) {
    for (int i = 0; i < count; i++) {
        const float *xi = x + (ptrdiff_t)i * w;
        float *di = dest + (ptrdiff_t)i * w;
        if (!g) {
            memcpy(di, xi, (size_t)w * sizeof *di);
            continue;
        }
        double sum = 0;
        for (int j = 0; j < w; j++) sum += xi[j];
        float mean = (float)(sum / w);
        double var = 0;
        for (int j = 0; j < w; j++) var += (double)(xi[j] - mean) * (xi[j] - mean);
        float inv = (float)(1 / sqrt(var / w + eps));
        for (int j = 0; j < w; j++) di[j] = (xi[j] - mean) * inv * g[j] + (b ? b[j] : 0);
    }
}

/* Each of count rows of dest (w wide, ld apart) set to bias, or to 0 without one. */
static void fill_rows(float *dest, int count, int w, int ld, const float *bias) {
    for (int i = 0; i < count; i++) {
        float *di = dest + (ptrdiff_t)i * ld;
        if (bias)
            memcpy(di, bias, (size_t)w * sizeof *di);
        else
            memset(di, 0, (size_t)w * sizeof *di);
    }
}

/* Each row's bias added, count rows of w. */
static void add_rows(float *dest, int count, int w, const float *bias) {
    if (!bias) return;
    for (int i = 0; i < count; i++) {
        float *di = dest + (ptrdiff_t)i * w;
        for (int j = 0; j < w; j++) di[j] += bias[j];
    }
}

/* e^x in float32 for the softmax and GELU, written so compilers vectorise
 * the loops that call it (libm's expf and tanhf are calls, one element at a
 * time; they were 40 % of a 32-token pass). x = k·ln 2 + r with |r| ≤ ½ln 2,
 * e^r by its Taylor polynomial to r⁶ (error below 2⁻²³ relative), 2^k put
 * into the exponent bits. x is clamped to [−87, 88], where float32 holds e^x
 * as a normal number: below, e^−87 ≈ 1.6·10⁻³⁸ stands for what is 0 next to
 * the softmax's largest term, 1. */
static inline float exp_approx(float x) {
    /* NaN fails both tests and is clamped to −87: never a NaN converted to an
     * integer (the pass reports the NaN where it arose, see tf_fault) */
    float low = x > -87.0f ? x : -87.0f, clamped = low < 88.0f ? low : 88.0f;
    float t = clamped * 1.44269504f;
    float kf = (t + 12582912.0f) - 12582912.0f; /* t rounded: 1.5·2²³ pushes out the fraction */
    float r = clamped - kf * 0.693145752f - kf * 1.42860677e-6f; /* ln 2, hi + lo */
    float p =
        1.0f +
        r * (1.0f + r * (0.5f + r * (1.0f / 6 + r * (1.0f / 24 + r * (1.0f / 120 + r / 720)))));
    int32_t bits = ((int32_t)kf + 127) * (1 << 23);
    float scale;
    memcpy(&scale, &bits, sizeof scale);
    return p * scale;
}

/* GELU's tanh form, GPT-2's gelu_new: 0.5·z·(1 + tanh u) = z·(1 − 1/(e^{2u} + 1)). */
static void gelu(float *x, int64_t count) {
    const float c = 0.7978845608028654f; /* √(2/π) */
    for (int64_t i = 0; i < count; i++) {
        float z = x[i];
        float e = exp_approx(2 * c * (z + 0.044715f * z * z * z));
        x[i] = z - z / (e + 1);
    }
}

/* One head: S = Q Kᵀ/√d_h with the causal mask, A its row softmax, and
 * A V into its d_h columns of mixed. */
static void head(Tf_Run *r, int n, int w, int d_h, int h, float *S, float *A, double *since) {
    const float *q = r->qkv + (ptrdiff_t)h * d_h, *k = q + w, *v = q + 2 * w;
    gemm_f32(false, true, n, n, d_h, 1 / sqrtf((float)d_h), q, 3 * w, k, 3 * w, 0, S, n);
    mark(r, TF_PART_PRODUCTS, since);
    for (int i = 0; i < n; i++) {
        float *si = S + (ptrdiff_t)i * n, *ai = A + (ptrdiff_t)i * n;
        float max = si[0];
        for (int j = 1; j <= i; j++)
            if (si[j] > max) max = si[j];
        for (int j = 0; j <= i; j++) ai[j] = exp_approx(si[j] - max);
        float sum = 0;
        for (int j = 0; j <= i; j++) sum += ai[j];
        float inv = 1 / sum;
        for (int j = 0; j <= i; j++) ai[j] *= inv;
        for (int j = i + 1; j < n; j++) {
            si[j] = -INFINITY;
            ai[j] = 0;
        }
    }
    mark(r, TF_PART_SOFTMAX, since);
    gemm_f32(false, false, n, d_h, n, 1, A, n, v, 3 * w, 0, r->mixed + (ptrdiff_t)h * d_h, w);
    mark(r, TF_PART_PRODUCTS, since);
}

/* The first value of count that is not finite, or -1. */
static int64_t first_nonfinite(const float *v, int64_t count) {
    for (int64_t i = 0; i < count; i++)
        if (!isfinite(v[i])) return i;
    return -1;
}

static bool fault_at(Tf_Run *r, Tf_Fault_Kind kind, int layer, int head, const float *v,
                     int64_t count, int cols) {
    int64_t at = first_nonfinite(v, count);
    if (at < 0) return false;
    r->fault = (Tf_Fault){kind, layer, head, (int)(at / cols), (int)(at % cols), v[at]};
    return true;
}

/* After layer l: its scores where the mask keeps them, then its output. */
static bool layer_faulted(const Tf_Model *m, int l, Tf_Run *r) {
    int n = r->n, w = m->width;
    for (int h = 0; h < m->heads; h++) {
        const float *S = tf_scores(r, l, h);
        for (int i = 0; i < n; i++)
            if (fault_at(r, TF_FAULT_SCORE, l, h, S + (ptrdiff_t)i * n, i + 1, n)) {
                r->fault.row = i;
                return true;
            }
    }
    return fault_at(r, TF_FAULT_STREAM, l, -1, r->stream + (ptrdiff_t)(l + 1) * n * w,
                    (int64_t)n * w, w);
}

void tf_fault_text(const Tf_Run *r, char *buf, size_t size) {
    const Tf_Fault *f = &r->fault;
    double v = f->value;
    switch (f->kind) {
    case TF_FAULT_NONE:
        snprintf(buf, size, "%s", "");
        return;
    case TF_FAULT_EMBED:
        snprintf(buf, size, _("the embedding of token %d, channel %d, is %g"), f->row, f->col, v);
        return;
    case TF_FAULT_SCORE:
        snprintf(buf, size, _("layer %d, head %d: the score of row %d, column %d is %g"), f->layer,
                 f->head, f->row, f->col, v);
        return;
    case TF_FAULT_STREAM:
        snprintf(buf, size, _("layer %d: its output for token %d, channel %d, is %g"), f->layer,
                 f->row, f->col, v);
        return;
    case TF_FAULT_LOGIT:
        snprintf(buf, size, _("the logit of token id %d is %g"), f->col, v);
        return;
    }
}

void tf_begin(const Tf_Model *m, const int32_t *ids, int n, Tf_Run *r) {
    int w = m->width;
    double since = r->profile ? clock_ms() : 0;
    r->n = n;
    r->heads = m->heads;
    r->stage = 0;
    float *x = r->stream;
    for (int i = 0; i < n; i++)
        for (int j = 0; j < w; j++)
            x[(ptrdiff_t)i * w + j] =
                m->wte[(ptrdiff_t)ids[i] * w + j] + (m->wpe ? m->wpe[(ptrdiff_t)i * w + j] : 0);
    r->fault = (Tf_Fault){0};
    if (fault_at(r, TF_FAULT_EMBED, 0, -1, x, (int64_t)n * w, w)) r->stage = m->layers + 1;
    mark(r, TF_PART_EMBED, &since);
}

/* Layer l: x_{l+1} from x_l. */
static void layer(const Tf_Model *m, int l, Tf_Run *r, double *since) {
    int n = r->n, w = m->width, H = m->heads, d_h = w / H, inner = m->inner;
    const Tf_Block *b = &m->blocks[l];
    float *x = r->stream + (ptrdiff_t)l * n * w, *next = x + (ptrdiff_t)n * w;
    /* attention */
    layernorm(x, n, w, b->ln1_w, b->ln1_b, m->eps, r->normed);
    mark(r, TF_PART_NORM, since);
    fill_rows(r->qkv, n, 3 * w, 3 * w, b->qkv_b);
    memcpy(next, x, (size_t)n * w * sizeof *x);
    add_rows(next, n, w, b->proj_b);
    mark(r, TF_PART_OTHER, since);
    gemm_f32(false, false, n, 3 * w, w, 1, r->normed, w, b->qkv_w, 3 * w, 1, r->qkv, 3 * w);
    mark(r, TF_PART_PRODUCTS, since);
    for (int h = 0; h < H; h++) head(r, n, w, d_h, h, tf_scores(r, l, h), tf_attn(r, l, h), since);
    gemm_f32(false, false, n, w, w, 1, r->mixed, w, b->proj_w, w, 1, next, w);
    mark(r, TF_PART_PRODUCTS, since);
    memcpy(r->mid + (ptrdiff_t)l * n * w, next, (size_t)n * w * sizeof *next);
    mark(r, TF_PART_OTHER, since);
    /* MLP */
    if (b->fc_w) {
        layernorm(next, n, w, b->ln2_w, b->ln2_b, m->eps, r->normed);
        mark(r, TF_PART_NORM, since);
        fill_rows(r->hidden, n, inner, inner, b->fc_b);
        add_rows(next, n, w, b->fc_proj_b);
        mark(r, TF_PART_OTHER, since);
        gemm_f32(false, false, n, inner, w, 1, r->normed, w, b->fc_w, inner, 1, r->hidden, inner);
        mark(r, TF_PART_PRODUCTS, since);
        gelu(r->hidden, (int64_t)n * inner);
        mark(r, TF_PART_GELU, since);
        gemm_f32(false, false, n, w, inner, 1, r->hidden, inner, b->fc_proj_w, w, 1, next, w);
        mark(r, TF_PART_PRODUCTS, since);
    }
}

bool tf_step(const Tf_Model *m, Tf_Run *r) {
    if (r->stage > m->layers) return true;
    double since = r->profile ? clock_ms() : 0;
    if (r->stage < m->layers) {
        layer(m, r->stage, r, &since);
        if (layer_faulted(m, r->stage, r)) {
            r->stage = m->layers + 1; /* the pass ends here: r->fault says why */
            return true;
        }
    } else {
        /* the last position's logits */
        int n = r->n, w = m->width;
        const float *x = r->stream + ((ptrdiff_t)m->layers * n + n - 1) * w;
        layernorm(x, 1, w, m->lnf_w, m->lnf_b, m->eps, r->normed);
        mark(r, TF_PART_NORM, &since);
        gemm_f32(false, true, 1, m->vocab, w, 1, r->normed, w, m->unembed, w, 0, r->logits,
                 m->vocab);
        mark(r, TF_PART_PRODUCTS, &since);
        fault_at(r, TF_FAULT_LOGIT, m->layers, -1, r->logits, m->vocab, m->vocab);
    }
    r->stage++;
    return r->stage > m->layers;
}

void tf_forward(const Tf_Model *m, const int32_t *ids, int n, Tf_Run *r) {
    tf_begin(m, ids, n, r);
    while (!tf_step(m, r)) {
    }
}

void tf_head_vectors(const Tf_Model *m, Tf_Run *r, int layer, int head, float *Q, float *K,
                     float *V, float *out_norm) {
    int n = r->n, w = m->width, d_h = w / m->heads;
    const Tf_Block *b = &m->blocks[layer];
    const float *x = r->stream + (ptrdiff_t)layer * n * w;
    layernorm(x, n, w, b->ln1_w, b->ln1_b, m->eps, r->normed);
    float *dest[3] = {Q, K, V};
    for (int part = 0; part < 3; part++) {
        int col = part * w + head * d_h;
        fill_rows(dest[part], n, d_h, d_h, b->qkv_b ? b->qkv_b + col : NULL);
        gemm_f32(false, false, n, d_h, w, 1, r->normed, w, b->qkv_w + col, 3 * w, 1, dest[part],
                 d_h);
    }
    /* v_j W_O^h, row by row, then each row's length */
    gemm_f32(false, false, n, w, d_h, 1, V, d_h, b->proj_w + (ptrdiff_t)head * d_h * w, w, 0,
             r->mixed, w);
    for (int j = 0; j < n; j++) {
        double sum = 0;
        for (int c = 0; c < w; c++) {
            double v = r->mixed[(ptrdiff_t)j * w + c];
            sum += v * v;
        }
        out_norm[j] = (float)sqrt(sum);
    }
}

void tf_products(const Tf_Model *m, int n, Tf_Run *r) {
    int w = m->width, H = m->heads, d_h = w / H, inner = m->inner;
    r->n = n;
    r->heads = H;
    for (int l = 0; l < m->layers; l++) {
        const Tf_Block *b = &m->blocks[l];
        float *next = r->stream + (ptrdiff_t)(l + 1) * n * w;
        gemm_f32(false, false, n, 3 * w, w, 1, r->normed, w, b->qkv_w, 3 * w, 1, r->qkv, 3 * w);
        for (int h = 0; h < H; h++) {
            const float *q = r->qkv + (ptrdiff_t)h * d_h;
            gemm_f32(false, true, n, n, d_h, 1 / sqrtf((float)d_h), q, 3 * w, q + w, 3 * w, 0,
                     tf_scores(r, l, h), n);
            gemm_f32(false, false, n, d_h, n, 1, tf_attn(r, l, h), n, q + 2 * w, 3 * w, 0,
                     r->mixed + (ptrdiff_t)h * d_h, w);
        }
        gemm_f32(false, false, n, w, w, 1, r->mixed, w, b->proj_w, w, 1, next, w);
        if (b->fc_w) {
            gemm_f32(false, false, n, inner, w, 1, r->normed, w, b->fc_w, inner, 1, r->hidden,
                     inner);
            gemm_f32(false, false, n, w, inner, 1, r->hidden, inner, b->fc_proj_w, w, 1, next, w);
        }
    }
    gemm_f32(false, true, 1, m->vocab, w, 1, r->normed, w, m->unembed, w, 0, r->logits, m->vocab);
}
