/* Scaled dot-product self-attention; see attention.h. */
#include "attention.h"

#include "matrix.h"

#include <assert.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

static bool grow(float **buf, long need) {
    float *p = realloc(*buf, (size_t)need * sizeof **buf);
    if (!p) return false;
    *buf = p;
    return true;
}

bool attn_reserve(Attn *attn, int n, int d, int d_k, int d_v) {
    long nd = (long)n * d, nk = (long)n * d_k, nv = (long)n * d_v, nn = (long)n * n;
    /* A capacity is raised only after every buffer of that shape has grown;
     * a failed realloc leaves the old buffers valid and the old capacity. */
    if (nd > attn->cap_nd) {
        if (!grow(&attn->Xp, nd)) return false;
        attn->cap_nd = nd;
    }
    if (nk > attn->cap_nk) {
        if (!grow(&attn->Q, nk) || !grow(&attn->K, nk)) return false;
        attn->cap_nk = nk;
    }
    if (nv > attn->cap_nv) {
        if (!grow(&attn->V, nv) || !grow(&attn->O, nv)) return false;
        attn->cap_nv = nv;
    }
    if (nn > attn->cap_nn) {
        if (!grow(&attn->S, nn) || !grow(&attn->A, nn)) return false;
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
        double sum = 0;
        for (int j = 0; j < m; j++) {
            double e = exp((double)row[j] - (double)mx);
            out[j] = (float)e;
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

    size_t nd = (size_t)n * d;
    if (desc->P)
        mat_add(desc->X, desc->P, nd, attn->Xp);
    else
        memcpy(attn->Xp, desc->X, nd * sizeof(float));

    mat_mul(attn->Xp, desc->W_Q, n, d, d_k, attn->Q);
    mat_mul(attn->Xp, desc->W_K, n, d, d_k, attn->K);
    mat_mul(attn->Xp, desc->W_V, n, d, d_v, attn->V);

    double scale = desc->scaled ? 1.0 / sqrt((double)d_k) : 1.0;
    for (int i = 0; i < n; i++)
        for (int j = 0; j < n; j++)
            attn->S[(long)i * n + j] =
                (float)(vec_dot(attn->Q + (long)i * d_k, attn->K + (long)j * d_k, d_k) * scale);

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
    memset(attn, 0, sizeof *attn);
}
