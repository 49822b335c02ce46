/* src/core/gemm.c: both kernels (OpenBLAS's cblas_sgemm on the desktop build
 * and the portable one the browser runs), every combination of transposes,
 * strides wider than the rows, α and β, and sizes across the portable
 * kernel's 64-wide blocks, against the product written out in float64; the
 * error stays within float32 rounding of a k-term sum
 * (|error| ≤ 4·k·2⁻²⁴·Σ|terms|). Then the two kernels against each other on
 * the real model's shapes. */
#include "core/gemm.h"
#include "test_util.h"

#include <math.h>
#include <string.h>

static float A[200 * 200], B[200 * 200], C[200 * 200], C0[200 * 200];

static float draw(Rng *r) {
    return (float)(rng_uniform(r) * 2 - 1);
}

typedef void Gemm(bool, bool, int, int, int, float, const float *, int, const float *, int, float,
                  float *, int);

static void matches_float64(Gemm *gemm) {
    static const int shapes[][3] = {{1, 1, 1},    {3, 5, 7},    {64, 64, 64}, {65, 63, 130},
                                    {17, 129, 3}, {100, 1, 70}, {2, 90, 150}};
    Rng r;
    rng_seed_stream(&r, 42, 0x6E33ull, 0);
    for (size_t s = 0; s < sizeof shapes / sizeof *shapes; s++)
        for (int t = 0; t < 4; t++) {
            bool ta = t & 1, tb = t & 2;
            int m = shapes[s][0], n = shapes[s][1], k = shapes[s][2];
            int lda = (ta ? m : k) + 3, ldb = (tb ? k : n) + 1, ldc = n + 2;
            for (int q = 0; q < 200 * 200; q++) A[q] = draw(&r), B[q] = draw(&r), C0[q] = draw(&r);
            float alpha = t == 3 ? -0.5f : 1.25f, beta = s % 3 == 0 ? 0 : s % 3 == 1 ? 1 : 0.75f;
            for (int q = 0; q < 200 * 200; q++) C[q] = beta == 0 ? NAN : C0[q];
            gemm(ta, tb, m, n, k, alpha, A, lda, B, ldb, beta, C, ldc);
            for (int i = 0; i < m; i++)
                for (int j = 0; j < n; j++) {
                    double sum = 0, size = 0;
                    for (int p = 0; p < k; p++) {
                        double x = ta ? A[p * lda + i] : A[i * lda + p];
                        double y = tb ? B[j * ldb + p] : B[p * ldb + j];
                        sum += x * y;
                        size += fabs(x * y);
                    }
                    double want = alpha * sum + (beta == 0 ? 0 : beta * C0[i * ldc + j]);
                    double tol = 4.0 * (k + 2) * ldexp(1, -24) *
                                 (fabs(alpha) * size + fabs(C0[i * ldc + j]));
                    cr_assert(fabs(C[i * ldc + j] - want) <= tol,
                              "%dx%dx%d ta %d tb %d: C[%d][%d] = %.9g, float64 %.9g", m, n, k, ta,
                              tb, i, j, (double)C[i * ldc + j], want);
                }
            /* the padding between rows is untouched */
            for (int i = 0; i < m; i++)
                for (int j = n; j < ldc; j++)
                    cr_assert((beta == 0 && isnan(C[i * ldc + j])) ||
                              C[i * ldc + j] == C0[i * ldc + j]);
        }
}

Test(gemm, matches_float64_for_every_transpose_and_stride) {
    matches_float64(gemm_f32);
}

Test(gemm, the_portable_kernel_matches_float64_too) {
    matches_float64(gemm_f32_portable);
}

/* The desktop build runs OpenBLAS; the portable kernel (the browser's) gives
 * the same products within float32 rounding, on the shapes a GPT-2 layer
 * multiplies (n tokens × 64 … 256 wide, k up to 512). */
Test(gemm, openblas_and_the_portable_kernel_agree) {
    cr_assert(strstr(gemm_backend(), "OpenBLAS"), "the desktop build uses %s", gemm_backend());
    static float X[96 * 512], W[512 * 384], C1[96 * 384], C2[96 * 384];
    Rng r;
    rng_seed_stream(&r, 7, 0x6E34ull, 0);
    for (int q = 0; q < 96 * 512; q++) X[q] = draw(&r);
    for (int q = 0; q < 512 * 384; q++) W[q] = draw(&r);
    static const int shapes[][3] = {{96, 384, 128}, {33, 256, 512}, {1, 384, 96}, {96, 96, 64}};
    for (size_t s = 0; s < sizeof shapes / sizeof *shapes; s++)
        for (int tb = 0; tb < 2; tb++) {
            int m = shapes[s][0], n = shapes[s][1], k = shapes[s][2];
            int ldb = tb ? k : n;
            gemm_f32(false, tb, m, n, k, 0.5f, X, k, W, ldb, 0, C1, n);
            gemm_f32_portable(false, tb, m, n, k, 0.5f, X, k, W, ldb, 0, C2, n);
            for (int q = 0; q < m * n; q++)
                cr_assert(fabs(C1[q] - C2[q]) <= 4.0 * k * ldexp(1, -24) * 0.5 * k,
                          "%dx%dx%d: %.9g against %.9g", m, n, k, (double)C1[q], (double)C2[q]);
        }
}
