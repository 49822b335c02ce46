/* Scaled dot-product self-attention; see attention.h. */
#include "attention.h"
#include "grow.h"

#include "matrix.h"
#include "posenc.h"

#include <assert.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

bool attn_reserve(Attn *attn, int n, int d, int d_k, int d_v) {
    long nd = (long)n * d, nk = (long)n * d_k, nv = (long)n * d_v, nn = (long)n * n;
    /* A capacity is raised only after every buffer of that shape has grown;
     * a failed realloc leaves the old buffers valid and the old capacity. */
    if (nd > attn->cap_nd) {
        if (!grow_floats(&attn->Xp, nd)) return false;
        attn->cap_nd = nd;
    }
    if (nk > attn->cap_nk) {
        if (!grow_floats(&attn->Q, nk) || !grow_floats(&attn->K, nk) ||
            !grow_floats(&attn->Kt, nk) || !grow_floats(&attn->Qr, nk) ||
            !grow_floats(&attn->Kr, nk))
            return false;
        attn->cap_nk = nk;
    }
    if (nv > attn->cap_nv) {
        if (!grow_floats(&attn->V, nv) || !grow_floats(&attn->O, nv)) return false;
        attn->cap_nv = nv;
    }
    if (nn > attn->cap_nn) {
        if (!grow_floats(&attn->S, nn) || !grow_floats(&attn->A, nn)) return false;
        attn->cap_nn = nn;
    }
    return true;
}

void attn_softmax_rows(const float *s, int n, int m, float *dest) {
    for (int i = 0; i < n; i++) {
        const float *row = s + (long)i * m;
        float *out = dest + (long)i * m;
        float mx = row[0];
        for (int j = 1; j < m; j++)
            if (row[j] > mx) mx = row[j];
        /* Every exponent is ≤ 0, so each term is in (0, 1] and the sum is at
         * least 1 (the maximum contributes e^0): no overflow, no 0/0. */
        /* expf on the float difference: the weights are stored as float
         * anyway, and this loop is the recompute's largest cost after A·V */
        double sum = 0;
        for (int j = 0; j < m; j++) {
            float e = expf(row[j] - mx);
            out[j] = e;
            sum += e;
        }
        double inv = 1.0 / sum;
        for (int j = 0; j < m; j++) out[j] = (float)(out[j] * inv);
    }
}

void attn_compute(Attn *attn, const Attn_Desc *desc) {
    int n = desc->n, d = desc->d, d_k = desc->d_k, d_v = desc->d_v;
    assert(n >= 1 && d >= 1 && d_k >= 1 && d_v >= 1);
    assert((long)n * d <= attn->cap_nd && (long)n * d_k <= attn->cap_nk);
    assert((long)n * d_v <= attn->cap_nv && (long)n * n <= attn->cap_nn);
    attn->n = n;
    attn->d = d;
    attn->d_k = d_k;
    attn->d_v = d_v;
    attn->scaled = desc->scaled;
    attn->causal = desc->causal;

    size_t nd = (size_t)n * d;
    if (desc->P)
        mat_add(desc->X, desc->P, nd, attn->Xp);
    else
        memcpy(attn->Xp, desc->X, nd * sizeof(float));

    mat_mul(attn->Xp, desc->W_Q, n, d, d_k, attn->Q);
    mat_mul(attn->Xp, desc->W_K, n, d, d_k, attn->K);
    mat_mul(attn->Xp, desc->W_V, n, d, d_v, attn->V);
    size_t nk = (size_t)n * d_k;
    if (desc->rope) {
        posenc_rope(attn->Q, n, d_k, desc->pos_offset, desc->rope_base, attn->Qr);
        posenc_rope(attn->K, n, d_k, desc->pos_offset, desc->rope_base, attn->Kr);
    } else {
        memcpy(attn->Qr, attn->Q, nk * sizeof(float));
        memcpy(attn->Kr, attn->K, nk * sizeof(float));
    }

    /* S = Q·Kᵀ through Kᵀ, so the product walks contiguous rows and
     * vectorizes; entries still accumulate in double */
    for (int j = 0; j < n; j++)
        for (int r = 0; r < d_k; r++) attn->Kt[(long)r * n + j] = attn->Kr[(long)j * d_k + r];
    mat_mul(attn->Qr, attn->Kt, n, d_k, n, attn->S);
    if (desc->scaled) {
        float scale = (float)(1.0 / sqrt((double)d_k));
        mat_scale(attn->S, scale, (size_t)n * n, attn->S);
    }
    if (desc->alibi != 0) posenc_alibi(attn->S, n, desc->alibi);
    if (desc->causal) /* the future is not there: −∞ before the softmax */
        for (int i = 0; i < n; i++)
            for (int j = i + 1; j < n; j++) attn->S[(long)i * n + j] = -INFINITY;

    attn_softmax_rows(attn->S, n, n, attn->A);
    mat_mul(attn->A, attn->V, n, n, d_v, attn->O);
}

void attn_update_row(Attn *attn, const Attn_Desc *desc, int i) {
    int n = desc->n, d = desc->d, d_k = desc->d_k, d_v = desc->d_v;
    assert(attn->n == n && attn->d == d && attn->d_k == d_k && attn->d_v == d_v);
    assert(attn->scaled == desc->scaled && attn->causal == desc->causal && i >= 0 && i < n);
    float *xp = attn->Xp + (long)i * d;
    for (int c = 0; c < d; c++)
        xp[c] = desc->X[(long)i * d + c] + (desc->P ? desc->P[(long)i * d + c] : 0.0f);
    float *q = attn->Qr + (long)i * d_k, *k = attn->Kr + (long)i * d_k;
    mat_mul(xp, desc->W_Q, 1, d, d_k, attn->Q + (long)i * d_k);
    mat_mul(xp, desc->W_K, 1, d, d_k, attn->K + (long)i * d_k);
    mat_mul(xp, desc->W_V, 1, d, d_v, attn->V + (long)i * d_v);
    if (desc->rope) {
        posenc_rope_row(attn->Q + (long)i * d_k, d_k, desc->pos_offset + i, desc->rope_base, q);
        posenc_rope_row(attn->K + (long)i * d_k, d_k, desc->pos_offset + i, desc->rope_base, k);
    } else {
        memcpy(q, attn->Q + (long)i * d_k, sizeof(float) * (size_t)d_k);
        memcpy(k, attn->K + (long)i * d_k, sizeof(float) * (size_t)d_k);
    }
    for (int r = 0; r < d_k; r++) attn->Kt[(long)r * n + i] = k[r];
    /* row i against every key, and every query against key i; the same
     * double sums as attn_compute, so the result matches it bit for bit */
    float scale = (float)(1.0 / sqrt((double)d_k));
    mat_mul(q, attn->Kt, 1, d_k, n, attn->S + (long)i * n);
    if (desc->scaled) mat_scale(attn->S + (long)i * n, scale, (size_t)n, attn->S + (long)i * n);
    if (desc->alibi != 0)
        for (int j = 0; j < n; j++)
            attn->S[(long)i * n + j] = (float)(attn->S[(long)i * n + j] - desc->alibi * abs(i - j));
    if (desc->causal)
        for (int j = i + 1; j < n; j++) attn->S[(long)i * n + j] = -INFINITY;
    for (int j = 0; j < n; j++) {
        if (j == i) continue;
        if (desc->causal && i > j) { /* key i is in query j's future */
            attn->S[(long)j * n + i] = -INFINITY;
            continue;
        }
        double s = 0;
        const float *qj = attn->Qr + (long)j * d_k;
        for (int r = 0; r < d_k; r++) s += (double)qj[r] * k[r];
        float v = (float)s;
        v = desc->scaled ? v * scale : v;
        if (desc->alibi != 0) v = (float)(v - desc->alibi * abs(j - i));
        attn->S[(long)j * n + i] = v;
    }
    attn_softmax_rows(attn->S, n, n, attn->A);
    mat_mul(attn->A, attn->V, n, n, d_v, attn->O);
}

void attn_free(Attn *attn) {
    free(attn->Xp);
    free(attn->Q);
    free(attn->K);
    free(attn->V);
    free(attn->S);
    free(attn->A);
    free(attn->O);
    free(attn->Kt);
    free(attn->Qr);
    free(attn->Kr);
    memset(attn, 0, sizeof *attn);
}
