/* Row-major float matrices: the few operations attention needs.
 *
 * A matrix is a plain float array with its shape passed alongside; element
 * (r, c) of an R×C matrix is m[r * C + c]. Products accumulate in double so
 * long sums (d_k up to 1024) keep float32 results within a few ulps.
 *
 *   void mat_mul(const float *a, const float *b, int n, int k, int m, float *dest)
 *       dest (n×m) = a (n×k) · b (k×m)
 *   void mat_mul_bt(const float *a, const float *b, int n, int k, int m, float *dest)
 *       dest (n×m) = a (n×k) · bᵀ, b is m×k
 *   void mat_add(const float *a, const float *b, size_t count, float *dest)
 *       dest = a + b, elementwise
 *   void mat_scale(const float *a, float s, size_t count, float *dest)
 *       dest = s · a
 *   bool mat_all_finite(const float *a, size_t count)
 *       true if no NaN or Inf
 *   double mat_max_abs_diff(const float *a, const float *b, size_t count)
 *       max |a - b|
 *   double vec_dot(const float *a, const float *b, int k)
 *       ⟨a, b⟩ accumulated in double
 */
#ifndef ATTN_MATRIX_H
#define ATTN_MATRIX_H

#include <stdbool.h>
#include <stddef.h>

void mat_mul(const float *a, const float *b, int n, int k, int m, float *dest);
void mat_mul_bt(const float *a, const float *b, int n, int k, int m, float *dest);
void mat_add(const float *a, const float *b, size_t count, float *dest);
void mat_scale(const float *a, float s, size_t count, float *dest);
bool mat_all_finite(const float *a, size_t count);
double mat_max_abs_diff(const float *a, const float *b, size_t count);
double vec_dot(const float *a, const float *b, int k);

#endif
