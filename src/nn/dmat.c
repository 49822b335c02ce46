/* Float64 matrices for training; see dmat.h. */
#include "dmat.h"

#include "dmat_rows.h"

#include <math.h>

/* c = a·b for row-major a (r×k) and b (k×m). */
void dmat_mul(const double *a, const double *b, int r, int k, int m, double *c) {
    for (int i = 0; i < r; i++) {
        double *ci = c + (long)i * m;
        for (int j = 0; j < m; j++) ci[j] = 0;
        for (int p = 0; p < k; p++) {
            double av = a[(long)i * k + p];
            const double *bp = b + (long)p * m;
            for (int j = 0; j < m; j++) ci[j] += av * bp[j];
        }
    }
}

/* c += aᵀ·b for a (r×k), b (r×m): c is k×m. */
void dmat_mul_ta(const double *a, const double *b, int r, int k, int m, double *c) {
    for (int i = 0; i < r; i++)
        for (int p = 0; p < k; p++) {
            double av = a[(long)i * k + p];
            if (av == 0) continue;
            const double *bi = b + (long)i * m;
            double *cp = c + (long)p * m;
            for (int j = 0; j < m; j++) cp[j] += av * bi[j];
        }
}

/* c = a·bᵀ for a (r×k), b (m×k): c is r×m. A small b with rows of 16 or
 * more (the layers lab's) is transposed first, so the inner loop runs along
 * rows of bᵀ and vectorizes as dmat_mul's does (the induction step: 313 →
 * 450 steps/s); shorter rows keep the dot products (the one-head lab's 8
 * positions: 820 → 1530 steps/s). Each sum adds its terms in the order p = 0,
 * 1, …, either way, so the result is the same bits. */
void dmat_mul_tb(const double *a, const double *b, int r, int k, int m, double *c) {
    if (m >= 16 && (long)k * m <= 64 * 64) {
        double bt[64 * 64];
        for (int j = 0; j < m; j++)
            for (int p = 0; p < k; p++) bt[p * m + j] = b[(long)j * k + p];
        dmat_mul(a, bt, r, k, m, c);
        return;
    }
    for (int i = 0; i < r; i++)
        for (int j = 0; j < m; j++) {
            double s = 0;
            for (int p = 0; p < k; p++) s += a[(long)i * k + p] * b[(long)j * k + p];
            c[(long)i * m + j] = s;
        }
}

void dmat_adam(double *param, const double *grad, double *m1, double *m2, long count, double lr,
               long step) {
    const double b1 = 0.9, b2 = 0.999, eps = 1e-8;
    double c1 = 1 - pow(b1, (double)step), c2 = 1 - pow(b2, (double)step);
    for (long k = 0; k < count; k++) {
        double g = grad[k];
        m1[k] = b1 * m1[k] + (1 - b1) * g;
        m2[k] = b2 * m2[k] + (1 - b2) * g * g;
        param[k] -= lr * (m1[k] / c1) / (sqrt(m2[k] / c2) + eps);
    }
}

double dmat_cross_entropy(const double *z, int r, int m, const int *target, double weight,
                          double *dz, double *row_loss) {
    double loss = 0;
    for (int i = 0; i < r; i++) {
        double *di = dz + (long)i * m;
        softmax_row_f64(z + (long)i * m, m, di);
        if (row_loss) row_loss[i] = 0;
        if (target[i] < 0) {
            for (int v = 0; v < m; v++) di[v] = 0;
            continue;
        }
        double li = -log(fmax(di[target[i]], 1e-300));
        loss += li;
        if (row_loss) row_loss[i] = li;
        di[target[i]] -= 1;
        for (int v = 0; v < m; v++) di[v] *= weight;
    }
    return loss;
}
