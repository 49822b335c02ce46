/* Row-major float matrix helpers; see matrix.h. */
#include "matrix.h"

#include <math.h>

double vec_dot(const float *a, const float *b, int k) {
    /* Four independent accumulators: shorter dependency chains, and the
     * partial sums stay smaller, which also helps accuracy. */
    double s0 = 0, s1 = 0, s2 = 0, s3 = 0;
    int r = 0;
    for (; r + 4 <= k; r += 4) {
        s0 += (double)a[r] * b[r];
        s1 += (double)a[r + 1] * b[r + 1];
        s2 += (double)a[r + 2] * b[r + 2];
        s3 += (double)a[r + 3] * b[r + 3];
    }
    for (; r < k; r++) s0 += (double)a[r] * b[r];
    return (s0 + s1) + (s2 + s3);
}

void mat_mul(const float *a, const float *b, int n, int k, int m, float *dest) {
    /* Row by row, walking b along its rows: the inner loop runs over
     * contiguous memory with no reduction, so the compiler vectorizes it,
     * and each dest entry still accumulates in double. */
    enum { CHUNK = 256 };
    double acc[CHUNK];
    for (int i = 0; i < n; i++) {
        for (int j0 = 0; j0 < m; j0 += CHUNK) {
            int w = m - j0 < CHUNK ? m - j0 : CHUNK;
            for (int j = 0; j < w; j++) acc[j] = 0;
            for (int r = 0; r < k; r++) {
                double x = a[(long)i * k + r];
                if (x == 0) continue; /* weights of zero (softmax underflow) add nothing */
                const float *brow = b + (long)r * m + j0;
                for (int j = 0; j < w; j++) acc[j] += x * brow[j];
            }
            for (int j = 0; j < w; j++) dest[(long)i * m + j0 + j] = (float)acc[j];
        }
    }
}

void mat_mul_bt(const float *a, const float *b, int n, int k, int m, float *dest) {
    for (int i = 0; i < n; i++)
        for (int j = 0; j < m; j++) dest[i * m + j] = (float)vec_dot(a + i * k, b + j * k, k);
}

void mat_add(const float *a, const float *b, size_t count, float *dest) {
    for (size_t i = 0; i < count; i++) dest[i] = a[i] + b[i];
}

void mat_scale(const float *a, float s, size_t count, float *dest) {
    for (size_t i = 0; i < count; i++) dest[i] = s * a[i];
}

bool mat_all_finite(const float *a, size_t count) {
    for (size_t i = 0; i < count; i++)
        if (!isfinite(a[i])) return false;
    return true;
}

double mat_max_abs_diff(const float *a, const float *b, size_t count) {
    double m = 0;
    for (size_t i = 0; i < count; i++) {
        double d = fabs((double)a[i] - (double)b[i]);
        if (d > m) m = d;
    }
    return m;
}
