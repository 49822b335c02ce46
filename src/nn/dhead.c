/* One float64 attention head, forward and backward; see dhead.h. */
#include "dhead.h"

#include "dmat.h"
#include "dmat_rows.h"
#include "../core/posenc.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

/* Each row i of M (n×d_k) turned by position i, base 10000; sign −1 turns
 * back (the transpose, for a gradient). */
static void rope_rows(double *M, int n, int dk, int sign) {
    for (int i = 0; i < n; i++)
        posenc_rope_row_f64(M + (long)i * dk, dk, sign * i, 10000.0, M + (long)i * dk);
}

void dhead_forward(const DHead *h, const double *x, DHead_Bufs *b) {
    int n = h->n, d = h->d, dk = h->d_k, dv = h->d_v;
    dmat_mul(x, h->W_Q, n, d, dk, b->q);
    dmat_mul(x, h->W_K, n, d, dk, b->k);
    dmat_mul(x, h->W_V, n, d, dv, b->v);
    if (h->rope) { /* q and k hold the turned rows from here on */
        rope_rows(b->q, n, dk, 1);
        rope_rows(b->k, n, dk, 1);
    }
    double *A = b->A;
    dmat_mul_tb(b->q, b->k, n, dk, n, A);
    for (long c = 0; c < (long)n * n; c++) A[c] *= h->scale;
    /* the pass's mask and ALiBi (a constant: nothing to learn, no gradient), then its
     * softmax, in double */
    score_rule_f64(A, n, n, !h->causal, h->alibi);
    weights_rows_f64(A, n, !h->causal, A);
    dmat_mul(A, b->v, n, n, dv, b->o);
}

void dhead_backward(const DHead *h, const double *x, DHead_Bufs *b, const double *d_o, double *g_Q,
                    double *g_K, double *g_V) {
    int n = h->n, d = h->d, dk = h->d_k, dv = h->d_v;
    const double *A = b->A;
    dmat_mul_tb(d_o, b->v, n, dv, n, b->dA); /* dA = do vᵀ */
    memset(b->dv, 0, sizeof(double) * (size_t)n * dv);
    dmat_mul_ta(A, d_o, n, n, dv, b->dv); /* dv = Aᵀ do */
    for (int i = 0; i < n; i++) {         /* through the softmax, then the scale */
        int last = h->causal ? i : n - 1; /* the masked weights are exact zeros */
        double dot = 0;
        for (int j = 0; j <= last; j++) dot += A[i * n + j] * b->dA[i * n + j];
        for (int j = 0; j < n; j++)
            b->dS[i * n + j] = j > last ? 0 : A[i * n + j] * (b->dA[i * n + j] - dot) * h->scale;
    }
    dmat_mul(b->dS, b->k, n, n, dk, b->dq); /* dq = dS k */
    memset(b->dk, 0, sizeof(double) * (size_t)n * dk);
    dmat_mul_ta(b->dS, b->q, n, n, dk, b->dk); /* dk = dSᵀ q */
    if (h->rope) {                             /* back through the turn: its transpose */
        rope_rows(b->dq, n, dk, -1);
        rope_rows(b->dk, n, dk, -1);
    }
    dmat_mul_ta(x, b->dq, n, d, dk, g_Q);
    dmat_mul_ta(x, b->dk, n, d, dk, g_K);
    dmat_mul_ta(x, b->dv, n, d, dv, g_V);
}
