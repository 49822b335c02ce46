/* Float32 matrix products; see gemm.h. */
#include "gemm.h"

#include <stddef.h>
#include <stdio.h>

#ifdef ATTNLAB_CBLAS
#include <cblas.h>
#endif

/* Rows of op(B) are walked contiguously: B itself when not transposed, else
 * a block of Bᵀ copied so the inner loop still runs along j. */
#define GEMM_BLOCK 64

void gemm_f32_portable(bool trans_a, bool trans_b, int m, int n, int k, float alpha, const float *a,
                       int lda, const float *b, int ldb, float beta, float *c, int ldc) {
    for (int i = 0; i < m; i++) {
        float *ci = c + (ptrdiff_t)i * ldc;
        if (beta == 0)
            for (int j = 0; j < n; j++) ci[j] = 0;
        else if (beta != 1)
            for (int j = 0; j < n; j++) ci[j] *= beta;
    }
    if (alpha == 0 || k == 0) return;
    float bt[GEMM_BLOCK * GEMM_BLOCK];
    for (int j0 = 0; j0 < n; j0 += GEMM_BLOCK) {
        int jn = n - j0 < GEMM_BLOCK ? n - j0 : GEMM_BLOCK;
        for (int p0 = 0; p0 < k; p0 += GEMM_BLOCK) {
            int pn = k - p0 < GEMM_BLOCK ? k - p0 : GEMM_BLOCK;
            /* this block of op(B), pn×jn, row-major */
            const float *rows = b;
            ptrdiff_t stride = ldb;
            if (trans_b) {
                for (int p = 0; p < pn; p++)
                    for (int j = 0; j < jn; j++)
                        bt[p * GEMM_BLOCK + j] = b[(ptrdiff_t)(j0 + j) * ldb + p0 + p];
                rows = bt;
                stride = GEMM_BLOCK;
            } else {
                rows = b + (ptrdiff_t)p0 * ldb + j0;
            }
            for (int i = 0; i < m; i++) {
                float *ci = c + (ptrdiff_t)i * ldc + j0;
                for (int p = 0; p < pn; p++) {
                    float av = alpha * (trans_a ? a[(ptrdiff_t)(p0 + p) * lda + i]
                                                : a[(ptrdiff_t)i * lda + p0 + p]);
                    const float *bp = rows + (ptrdiff_t)p * stride;
                    for (int j = 0; j < jn; j++) ci[j] += av * bp[j];
                }
            }
        }
    }
}

#ifdef ATTNLAB_CBLAS
void gemm_f32(bool trans_a, bool trans_b, int m, int n, int k, float alpha, const float *a, int lda,
              const float *b, int ldb, float beta, float *c, int ldc) {
    if (m <= 0 || n <= 0) return;
    if (m == 1 && k > 0) {
        /* one row (the logits): OpenBLAS's sgemv reads op(B) once, at twice sgemm's speed
         * here. C is zeroed first for β = 0, so what it held (NaN) never reaches it */
        if (beta == 0) {
            for (int j = 0; j < n; j++) c[j] = 0;
            beta = 1;
        }
        int inc = trans_a ? lda : 1;
        if (trans_b)
            cblas_sgemv(CblasRowMajor, CblasNoTrans, n, k, alpha, b, ldb, a, inc, beta, c, 1);
        else
            cblas_sgemv(CblasRowMajor, CblasTrans, k, n, alpha, b, ldb, a, inc, beta, c, 1);
        return;
    }
    cblas_sgemm(CblasRowMajor, trans_a ? CblasTrans : CblasNoTrans,
                trans_b ? CblasTrans : CblasNoTrans, m, n, k, alpha, a, lda, b, ldb, beta, c, ldc);
}

int gemm_threads(void) {
    return openblas_get_num_threads();
}

const char *gemm_backend(void) {
    static char name[160];
    if (!name[0])
        snprintf(name, sizeof name, "%s", openblas_get_config()); /* "OpenBLAS 0.3.21 …" */
    return name;
}
#else
void gemm_f32(bool trans_a, bool trans_b, int m, int n, int k, float alpha, const float *a, int lda,
              const float *b, int ldb, float beta, float *c, int ldc) {
    gemm_f32_portable(trans_a, trans_b, m, n, k, alpha, a, lda, b, ldb, beta, c, ldc);
}

int gemm_threads(void) {
    return 1;
}

const char *gemm_backend(void) {
    return "portable C kernel";
}
#endif
