/* The element-wise kernels of the forward pass, shared by the whole pass
 * (net.c) and the one-token step on a KV cache (net_cache.c), so both compute
 * each number the same way. Internal to src/nn. */
#ifndef ATTN_NET_KERNELS_H
#define ATTN_NET_KERNELS_H

#include "net.h"
#include "../core/gemm.h"

#include "../core/grow.h"

#include <math.h>
#include <stddef.h>
#include <stdint.h>
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>

/* The sizes a model leaves at 0 take their defaults here, in one place. */
static inline int kv_heads(const Net_Model *m) {
    return m->kv_heads > 0 ? m->kv_heads : m->heads;
}
static inline int head_dim(const Net_Model *m) {
    return m->head_dim > 0 ? m->head_dim : m->width / (m->heads > 0 ? m->heads : 1);
}
static inline int value_dim(const Net_Model *m) {
    return m->value_dim > 0 ? m->value_dim : head_dim(m);
}
/* Columns of r->qkv: H·d of Q, then G·d of K, then G·d_v of V. */
static inline int qkv_width(const Net_Model *m) {
    return (m->heads + kv_heads(m)) * head_dim(m) + kv_heads(m) * value_dim(m);
}
static inline int mixed_width(const Net_Model *m) {
    int hd = m->heads * value_dim(m);
    return hd > m->width ? hd : m->width;
}

/* Every product of the pass: OpenBLAS (gemm_f32), or for an exact model the
 * portable kernel, whose every cell is one sum in one order whatever the
 * product's shape. */
static inline void product(const Net_Model *m, bool trans_a, bool trans_b, int rows, int cols,
                           int inner, float alpha, const float *a, int lda, const float *b, int ldb,
                           float beta, float *c, int ldc) {
    if (m->exact)
        gemm_f32_portable(trans_a, trans_b, rows, cols, inner, alpha, a, lda, b, ldb, beta, c, ldc);
    else
        gemm_f32(trans_a, trans_b, rows, cols, inner, alpha, a, lda, b, ldb, beta, c, ldc);
}

/* dest (rows×out, ldd apart) += x (rows×in) · W, W stored as the layout says. */
static inline void linear(const Net_Model *m, const float *x, int rows, int in, int out,
                          const float *W, float *dest, int ldd) {
    if (m->layout == NET_LAYOUT_OUT_IN)
        product(m, false, true, rows, out, in, 1, x, in, W, in, 1, dest, ldd);
    else
        product(m, false, false, rows, out, in, 1, x, in, W, out, 1, dest, ldd);
}

/* dest = norm(x) row by row (w wide, rows ld apart in both, count rows):
 * LayerNorm or RMSNorm by kind, or a copy without weights. */
static inline void norm_rows(Net_Norm kind, const float *x, int count, int w, int ld,
                             const float *g, const float *b, float eps, float *dest) {
    for (int i = 0; i < count; i++) {
        const float *xi = x + (ptrdiff_t)i * ld;
        float *di = dest + (ptrdiff_t)i * ld;
        if (!g || kind == NET_NORM_NONE) {
            if (di != xi) memcpy(di, xi, (size_t)w * sizeof *di);
            continue;
        }
        if (kind == NET_NORM_RMS) {
            double sq = 0;
            for (int j = 0; j < w; j++) sq += (double)xi[j] * xi[j];
            float inv = (float)(1 / sqrt(sq / w + eps));
            for (int j = 0; j < w; j++) di[j] = xi[j] * inv * g[j];
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
static inline void fill_rows(float *dest, int count, int w, int ld, const float *bias) {
    for (int i = 0; i < count; i++) {
        float *di = dest + (ptrdiff_t)i * ld;
        if (bias)
            memcpy(di, bias, (size_t)w * sizeof *di);
        else
            memset(di, 0, (size_t)w * sizeof *di);
    }
}

/* Each row's bias added, count rows of w. */
static inline void add_rows(float *dest, int count, int w, const float *bias) {
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
     * integer (the pass reports the NaN where it arose, see net_fault_text) */
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

/* The cos and sin of each rotate-half pair's angle (coordinates c and c + d/2)
 * at positions first … first + rows − 1, as Hugging Face computes them: the
 * frequency and the angle in float32, then their cos and sin. Row p of table
 * holds d/2 cosines, then d/2 sines. The whole pass and the cached step both
 * read such a table, so both turn alike. */
static inline void rope_angles(const Net_Model *m, int first, int rows, float *table) {
    int d = head_dim(m), half = d / 2;
    for (int c = 0; c < half; c++) {
        float f =
            m->rope_freq ? m->rope_freq[c] : (float)(1 / pow(m->rope_theta, (double)(2 * c) / d));
        for (int p = 0; p < rows; p++) {
            float angle = (float)(p + first) * f;
            table[(ptrdiff_t)p * d + c] = (float)cos(angle);
            table[(ptrdiff_t)p * d + half + c] = (float)sin(angle);
        }
    }
}

/* v (d wide) turned by one row of such a table into out (which may be v);
 * sign −1 turns back. */
static inline void turn_halves(const float *v, const float *cs, int d, float sign, float *out) {
    int half = d / 2;
    const float *sn = cs + half;
    for (int c = 0; c < half; c++) {
        float a = v[c], b = v[c + half];
        out[c] = a * cs[c] - b * (sign * sn[c]);
        out[c + half] = b * cs[c] + a * (sign * sn[c]);
    }
}

/* The softmax, the mask and ALiBi in float32: head_rows.h, the same source
 * the training labs' float64 head compiles (softmax_row, score_rule,
 * weights_rows). */
static inline void normalise_f32(float *a, float sum, int count) {
    float inv = 1 / sum;
    for (int j = 0; j < count; j++) a[j] *= inv;
}
#define HEAD_REAL                     float
#define HEAD_NAME(name)               name
#define HEAD_EXP(x)                   exp_approx(x)
#define HEAD_NORMALISE(a, sum, count) normalise_f32(a, sum, count)
#include "head_rows.h"

/* GELU's tanh form, GPT-2's gelu_new: 0.5·z·(1 + tanh u) = z·(1 − 1/(e^{2u} + 1)). */
static inline void gelu(float *x, int64_t count) {
    const float c = 0.7978845608028654f; /* √(2/π) */
    for (int64_t i = 0; i < count; i++) {
        float z = x[i];
        float e = exp_approx(2 * c * (z + 0.044715f * z * z * z));
        x[i] = z - z / (e + 1);
    }
}

/* SwiGLU's gate: hidden = silu(gate) ⊙ hidden, silu(u) = u/(1 + e^−u). */
static inline void swiglu(float *hidden, const float *gate, int64_t count) {
    for (int64_t i = 0; i < count; i++) {
        float u = gate[i];
        hidden[i] *= u / (1 + exp_approx(-u));
    }
}

#endif
