/* Matrix products in float32 for the real model: C = α·op(A)·op(B) + β·C in
 * row-major storage, as CBLAS's sgemm takes them. This is the one place
 * such products are computed. Today it is a portable C kernel (written so
 * compilers vectorise its inner loop, WebAssembly SIMD included); the
 * desktop's CBLAS (OpenBLAS) will sit behind the same call.
 *
 *   void gemm_f32(bool trans_a, bool trans_b, int m, int n, int k, float alpha,
 *                 const float *a, int lda, const float *b, int ldb, float beta, float *c,
 *                 int ldc)
 *       op(A) is m×k (A, or Aᵀ stored k×m), op(B) k×n, C m×n; lda, ldb, ldc are the row
 *       strides as stored. β = 0 ignores what C held (NaN included), as BLAS does
 */
#ifndef ATTN_GEMM_H
#define ATTN_GEMM_H

#include <stdbool.h>

void gemm_f32(bool trans_a, bool trans_b, int m, int n, int k, float alpha, const float *a, int lda,
              const float *b, int ldb, float beta, float *c, int ldc);

#endif
