/* The forward pass of an attention stack in float32; see transformer.h. */
#include "transformer.h"

#include "gemm.h"

#include <math.h>
#include <stddef.h>
#include <stdlib.h>
#include <string.h>

/* Grow *p to count floats; the old contents need not be kept. */
static bool grow(float **p, int64_t count) {
    if (count <= 0) count = 1;
    if ((uint64_t)count > SIZE_MAX / sizeof(float)) return false;
    float *q = realloc(*p, (size_t)count * sizeof(float));
    if (!q) return false;
    *p = q;
    return true;
}

bool tf_reserve(Tf_Run *r, const Tf_Model *m, int n) {
    if (n <= r->cap_n && m->layers <= r->cap_layers && m->heads <= r->cap_heads &&
        m->width <= r->cap_width && m->inner <= r->cap_inner && m->vocab <= r->cap_vocab)
        return true;
    int64_t N = n, L = m->layers, H = m->heads, W = m->width;
    int64_t I = m->inner > 0 ? m->inner : 1;
    if (!grow(&r->stream, (L + 1) * N * W) || !grow(&r->scores, L * H * N * N) ||
        !grow(&r->attn, L * H * N * N) || !grow(&r->logits, m->vocab) || !grow(&r->normed, N * W) ||
        !grow(&r->qkv, N * 3 * W) || !grow(&r->mixed, N * W) || !grow(&r->hidden, N * I))
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

/* GELU's tanh form, GPT-2's gelu_new. */
static void gelu(float *x, int64_t count) {
    const float c = 0.7978845608028654f; /* √(2/π) */
    for (int64_t i = 0; i < count; i++) {
        float z = x[i];
        x[i] = 0.5f * z * (1 + tanhf(c * (z + 0.044715f * z * z * z)));
    }
}

/* One head: S = Q Kᵀ/√d_h with the causal mask, A its row softmax, and
 * A V into its d_h columns of mixed. */
static void head(const float *qkv, int n, int w, int d_h, int h, float *S, float *A, float *mixed) {
    const float *q = qkv + (ptrdiff_t)h * d_h, *k = q + w, *v = q + 2 * w;
    gemm_f32(false, true, n, n, d_h, 1 / sqrtf((float)d_h), q, 3 * w, k, 3 * w, 0, S, n);
    for (int i = 0; i < n; i++) {
        float *si = S + (ptrdiff_t)i * n, *ai = A + (ptrdiff_t)i * n;
        float max = si[0];
        for (int j = 1; j <= i; j++)
            if (si[j] > max) max = si[j];
        float sum = 0;
        for (int j = 0; j <= i; j++) sum += ai[j] = expf(si[j] - max);
        float inv = 1 / sum;
        for (int j = 0; j <= i; j++) ai[j] *= inv;
        for (int j = i + 1; j < n; j++) {
            si[j] = -INFINITY;
            ai[j] = 0;
        }
    }
    gemm_f32(false, false, n, d_h, n, 1, A, n, v, 3 * w, 0, mixed + (ptrdiff_t)h * d_h, w);
}

void tf_forward(const Tf_Model *m, const int32_t *ids, int n, Tf_Run *r) {
    int w = m->width, H = m->heads, d_h = w / H, inner = m->inner;
    r->n = n;
    r->heads = H;
    float *x = r->stream;
    for (int i = 0; i < n; i++)
        for (int j = 0; j < w; j++)
            x[(ptrdiff_t)i * w + j] =
                m->wte[(ptrdiff_t)ids[i] * w + j] + (m->wpe ? m->wpe[(ptrdiff_t)i * w + j] : 0);
    for (int l = 0; l < m->layers; l++) {
        const Tf_Block *b = &m->blocks[l];
        float *next = x + (ptrdiff_t)n * w;
        memcpy(next, x, (size_t)n * w * sizeof *x);
        /* attention */
        layernorm(x, n, w, b->ln1_w, b->ln1_b, m->eps, r->normed);
        fill_rows(r->qkv, n, 3 * w, 3 * w, b->qkv_b);
        gemm_f32(false, false, n, 3 * w, w, 1, r->normed, w, b->qkv_w, 3 * w, 1, r->qkv, 3 * w);
        for (int h = 0; h < H; h++)
            head(r->qkv, n, w, d_h, h, tf_scores(r, l, h), tf_attn(r, l, h), r->mixed);
        add_rows(next, n, w, b->proj_b);
        gemm_f32(false, false, n, w, w, 1, r->mixed, w, b->proj_w, w, 1, next, w);
        /* MLP */
        if (b->fc_w) {
            layernorm(next, n, w, b->ln2_w, b->ln2_b, m->eps, r->normed);
            fill_rows(r->hidden, n, inner, inner, b->fc_b);
            gemm_f32(false, false, n, inner, w, 1, r->normed, w, b->fc_w, inner, 1, r->hidden,
                     inner);
            gelu(r->hidden, (int64_t)n * inner);
            add_rows(next, n, w, b->fc_proj_b);
            gemm_f32(false, false, n, w, inner, 1, r->hidden, inner, b->fc_proj_w, w, 1, next, w);
        }
        x = next;
    }
    /* the last position's logits */
    layernorm(x + (ptrdiff_t)(n - 1) * w, 1, w, m->lnf_w, m->lnf_b, m->eps, r->normed);
    gemm_f32(false, true, 1, m->vocab, w, 1, r->normed, w, m->unembed, w, 0, r->logits, m->vocab);
}
