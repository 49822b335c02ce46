/* src/nn/dhead.c, the float64 head of both training labs: its forward pass
 * against the formula written out in plain loops, and its backward pass
 * against central finite differences with every option on at once (a causal
 * mask, ALiBi, RoPE, d_k ≠ d_v, an odd d_k), which neither lab uses together;
 * and the readout loss both labs share (nn/dmat.c). */
#include "nn/dhead.h"
#include "nn/dmat.h"
#include "test_util.h"

#include <math.h>

enum { N = 6, D = 5, DK = 3, DV = 4 };

typedef struct Case {
    double x[N * D], W_Q[D * DK], W_K[D * DK], W_V[D * DV], R[N * DV];
    double q[N * DK], k[N * DK], v[N * DV], A[N * N], o[N * DV];
    double dq[N * DK], dk[N * DK], dv[N * DV], dA[N * N], dS[N * N];
} Case;

static DHead_Bufs bufs(Case *c) {
    return (DHead_Bufs){c->q, c->k, c->v, c->o, c->A, c->dq, c->dk, c->dv, c->dA, c->dS};
}

static DHead head(const Case *c, bool causal, bool rope, double alibi) {
    return (DHead){.n = N,
                   .d = D,
                   .d_k = DK,
                   .d_v = DV,
                   .W_Q = c->W_Q,
                   .W_K = c->W_K,
                   .W_V = c->W_V,
                   .scale = 1 / sqrt((double)DK),
                   .causal = causal,
                   .rope = rope,
                   .alibi = alibi};
}

static void draw(Case *c, uint64_t seed) {
    Rng r;
    rng_seed(&r, seed);
    double *all[] = {c->x, c->W_Q, c->W_K, c->W_V, c->R};
    int size[] = {N * D, D * DK, D * DK, D * DV, N * DV};
    for (int m = 0; m < 5; m++)
        for (int e = 0; e < size[m]; e++) all[m][e] = rng_gaussian(&r);
}

/* L = Σ o ⊙ R: its gradient at o is R. */
static double loss(Case *c, const DHead *h) {
    DHead_Bufs b = bufs(c);
    dhead_forward(h, c->x, &b);
    double sum = 0;
    for (int e = 0; e < N * DV; e++) sum += c->o[e] * c->R[e];
    return sum;
}

/* Without RoPE: S_ij = q_i·k_j/√d_k − m|i − j| (−∞ above the diagonal), a
 * softmax, then A v, each written out. Both are float64 over the same sums
 * in other orders: 1e-12 is rounding's room. */
Test(dhead, the_forward_pass_is_the_formula) {
    for (int causal = 0; causal < 2; causal++) {
        Case c;
        draw(&c, 11 + (uint64_t)causal);
        const double m = 0.25;
        DHead h = head(&c, causal, false, m);
        loss(&c, &h);
        double q[N * DK] = {0}, k[N * DK] = {0}, v[N * DV] = {0};
        for (int i = 0; i < N; i++)
            for (int p = 0; p < D; p++) {
                for (int e = 0; e < DK; e++) q[i * DK + e] += c.x[i * D + p] * c.W_Q[p * DK + e];
                for (int e = 0; e < DK; e++) k[i * DK + e] += c.x[i * D + p] * c.W_K[p * DK + e];
                for (int e = 0; e < DV; e++) v[i * DV + e] += c.x[i * D + p] * c.W_V[p * DV + e];
            }
        for (int i = 0; i < N; i++) {
            double s[N], top = -INFINITY, sum = 0;
            for (int j = 0; j < N; j++) {
                double dot = 0;
                for (int e = 0; e < DK; e++) dot += q[i * DK + e] * k[j * DK + e];
                s[j] = causal && j > i ? -INFINITY : dot / sqrt((double)DK) - m * abs(i - j);
                top = fmax(top, s[j]);
            }
            for (int j = 0; j < N; j++) sum += exp(s[j] - top);
            for (int j = 0; j < N; j++) {
                double a = exp(s[j] - top) / sum;
                cr_assert_float_eq(c.A[i * N + j], a, 1e-12, "A[%d][%d]", i, j);
                if (causal && j > i) cr_assert_eq(c.A[i * N + j], 0.0, "a masked weight is 0");
            }
            for (int e = 0; e < DV; e++) {
                double o = 0;
                for (int j = 0; j < N; j++) o += exp(s[j] - top) / sum * v[j * DV + e];
                cr_assert_float_eq(c.o[i * DV + e], o, 1e-12, "o[%d][%d]", i, e);
            }
        }
    }
}

/* Every weight's gradient, and the input's (dq W_Qᵀ + dk W_Kᵀ + dv W_Vᵀ, the
 * callers' part), against (L(θ + h) − L(θ − h))/2h with h = 1e-5: good to
 * h² plus 1e-16/h, so 1e-6 relative (1e-9 absolute for small ones) is
 * strict. Each option on and off: 8 cases. */
Test(dhead, the_backward_pass_matches_finite_differences_with_every_option) {
    for (int opt = 0; opt < 8; opt++) {
        Case c;
        draw(&c, 100 + (uint64_t)opt);
        DHead h = head(&c, opt & 1, opt & 2, opt & 4 ? 0.5 : 0);
        double g[3][D * DV] = {{0}};
        loss(&c, &h);
        DHead_Bufs b = bufs(&c);
        dhead_backward(&h, c.x, &b, c.R, g[0], g[1], g[2]);
        double gx[N * D] = {0};
        for (int i = 0; i < N; i++)
            for (int p = 0; p < D; p++) {
                for (int e = 0; e < DK; e++)
                    gx[i * D + p] +=
                        c.dq[i * DK + e] * c.W_Q[p * DK + e] + c.dk[i * DK + e] * c.W_K[p * DK + e];
                for (int e = 0; e < DV; e++) gx[i * D + p] += c.dv[i * DV + e] * c.W_V[p * DV + e];
            }
        double *param[4] = {c.W_Q, c.W_K, c.W_V, c.x};
        const double *grad[4] = {g[0], g[1], g[2], gx};
        int size[4] = {D * DK, D * DK, D * DV, N * D};
        const double step = 1e-5;
        for (int m = 0; m < 4; m++)
            for (int e = 0; e < size[m]; e++) {
                double keep = param[m][e];
                param[m][e] = keep + step;
                double up = loss(&c, &h);
                param[m][e] = keep - step;
                double down = loss(&c, &h);
                param[m][e] = keep;
                double fd = (up - down) / (2 * step), an = grad[m][e];
                double scale = fmax(fabs(fd), fabs(an));
                if (scale < 1e-3)
                    cr_assert_leq(fabs(fd - an), 1e-9, "options %d, part %d [%d]", opt, m, e);
                else
                    cr_assert_leq(fabs(fd - an) / scale, 1e-6,
                                  "options %d, part %d [%d]: analytic %.10g, difference %.10g", opt,
                                  m, e, an, fd);
            }
    }
}

/* The readout loss both labs share (dmat.h): each scored row's −log p of its
 * target, written out; an unscored row adds nothing and owes nothing; the
 * gradient is (p − one-hot)·weight. Float64 on both sides: 1e-12. */
Test(dhead, the_readout_loss_is_cross_entropy_row_by_row) {
    enum { R = 4, M = 5 };
    double z[R * M], dz[R * M], each[R];
    const int target[R] = {2, -1, 0, 4};
    Rng r;
    rng_seed(&r, 5);
    for (int e = 0; e < R * M; e++) z[e] = 3 * rng_gaussian(&r);
    double total = dmat_cross_entropy(z, R, M, target, 0.25, dz, each), sum = 0;
    for (int i = 0; i < R; i++) {
        double norm = 0;
        for (int v = 0; v < M; v++) norm += exp(z[i * M + v]);
        for (int v = 0; v < M; v++) {
            double p = exp(z[i * M + v]) / norm;
            double want = target[i] < 0 ? 0 : (p - (v == target[i])) * 0.25;
            cr_assert_float_eq(dz[i * M + v], want, 1e-12, "dz[%d][%d]", i, v);
        }
        double li = target[i] < 0 ? 0 : log(norm) - z[i * M + target[i]];
        cr_assert_float_eq(each[i], li, 1e-12, "row %d", i);
        sum += li;
    }
    cr_assert_float_eq(total, sum, 1e-12);
}
