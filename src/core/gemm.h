/* Matrix products in float32 for the real model: C = α·op(A)·op(B) + β·C in
 * row-major storage, as CBLAS's sgemm takes them. This is the one place
 * such products are computed, and the one file that calls CBLAS: the
 * desktop build (ATTNLAB_CBLAS, set by the Makefile when pkg-config finds
 * openblas) hands them to OpenBLAS's cblas_sgemm; the browser and the 32-bit
 * check use the portable kernel, written so compilers vectorise its inner
 * loop (WebAssembly SIMD with -msimd128).
 *
 *   void gemm_f32(bool trans_a, bool trans_b, int m, int n, int k, float alpha,
 *                 const float *a, int lda, const float *b, int ldb, float beta, float *c,
 *                 int ldc)
 *       op(A) is m×k (A, or Aᵀ stored k×m), op(B) k×n, C m×n; lda, ldb, ldc are the row
 *       strides as stored. β = 0 ignores what C held (NaN included), as BLAS does
 *   void gemm_f32_portable(bool trans_a, bool trans_b, int m, int n, int k, float alpha,
 *                          const float *a, int lda, const float *b, int ldb, float beta, float *c,
 *                          int ldc)
 *       the same product by the portable kernel, on every build (tests compare the two)
 *   int gemm_threads(void)
 *       the threads a product may use (OpenBLAS's count; 1 for the portable kernel)
 *   const char *gemm_backend(void)
 *       what gemm_f32 runs on: OpenBLAS's config ("OpenBLAS 0.3.21 …") or "portable C kernel"
 */
#ifndef ATTN_GEMM_H
#define ATTN_GEMM_H

#include <stdbool.h>

void gemm_f32(bool trans_a, bool trans_b, int m, int n, int k, float alpha, const float *a, int lda,
              const float *b, int ldb, float beta, float *c, int ldc);
void gemm_f32_portable(bool trans_a, bool trans_b, int m, int n, int k, float alpha, const float *a,
                       int lda, const float *b, int ldb, float beta, float *c, int ldc);
int gemm_threads(void);
const char *gemm_backend(void);

#endif
