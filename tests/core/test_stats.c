/* src/core/stats.c: the variance experiment and the row statistics. */
#include "core/stats.h"
#include "test_util.h"

#include <math.h>

/* For Z = Σ_r q_r k_r with independent N(0,1) coordinates: Var Z = d_k and
 * E[Z⁴] = 3d_k² + 6d_k, so the sample variance over N draws has standard
 * deviation ≈ √((2d_k² + 6d_k)/N). A 5 SD bound fails by chance with
 * probability below 1e-6 per check. */
static double var_sd(int dk, int n) {
    return sqrt((2.0 * dk * dk + 6.0 * dk) / n);
}

Test(stats, variance_experiment_matches_theory) {
    const int dks[] = {1, 4, 16, 64, 256, 1024};
    for (int k = 0; k < 6; k++) {
        int dk = dks[k], N = dk >= 1024 ? 4000 : 20000;
        Variance_Result r;
        stats_variance_experiment(123, dk, N, &r);
        cr_assert_eq(r.d_k, dk);
        cr_assert_eq(r.samples, N);
        cr_assert(fabs(r.raw_mean) <= 5 * sqrt((double)dk / N), "d_k %d mean %g", dk, r.raw_mean);
        cr_assert(fabs(r.raw_var - dk) <= 5 * var_sd(dk, N), "d_k %d raw var %g", dk, r.raw_var);
        cr_assert(fabs(r.scaled_var - 1) <= 5 * var_sd(dk, N) / dk, "d_k %d scaled var %g", dk,
                  r.scaled_var);
        cr_assert(fabs(r.scaled_mean) <= 5 * sqrt(1.0 / N));
    }
}

Test(stats, experiment_is_seeded) {
    Variance_Result a, b, c;
    stats_variance_experiment(5, 32, 1000, &a);
    stats_variance_experiment(5, 32, 1000, &b);
    stats_variance_experiment(6, 32, 1000, &c);
    cr_assert_eq(a.raw_var, b.raw_var);
    cr_assert_neq(a.raw_var, c.raw_var);
}

Test(stats, samples_agree_with_experiment) {
    /* The histogram view draws stats_dot_samples; its moments must be the
     * experiment's numbers (float rounding of each sample: 1e-6 relative). */
    static float x[5000];
    stats_dot_samples(8, 64, 5000, x);
    Variance_Result r;
    stats_variance_experiment(8, 64, 5000, &r);
    double mean, var;
    stats_mean_var(x, 5000, &mean, &var);
    cr_assert(fabs(mean - r.raw_mean) < 1e-5, "%g vs %g", mean, r.raw_mean);
    cr_assert(fabs(var - r.raw_var) < 1e-5 * r.raw_var, "%g vs %g", var, r.raw_var);
}

/* The experiment splits its samples into seeded chunks shared by two
 * threads; the merged moments must be those of the very same samples taken
 * one by one, in float64 (tolerance: a few ulps of the merge's rounding). */
Test(stats, threaded_experiment_equals_the_samples_it_drew) {
    enum { N = 30000, DK = 64 }; /* N·d_k ≥ 2^20: large enough for threads */
    static float x[N];
    stats_dot_samples(11, DK, N, x);
    Variance_Result r;
    stats_variance_experiment(11, DK, N, &r);
    double mean = 0, m2 = 0;
    for (int i = 0; i < N; i++) mean += x[i];
    mean /= N;
    for (int i = 0; i < N; i++) m2 += (x[i] - mean) * (x[i] - mean);
    /* the samples were rounded to float for x: 6e-8 relative per sample */
    cr_assert(fabs(r.raw_mean - mean) < 1e-6 * sqrt((double)DK), "%g vs %g", r.raw_mean, mean);
    cr_assert(fabs(r.raw_var - m2 / N) < 1e-6 * r.raw_var, "%g vs %g", r.raw_var, m2 / N);
    /* and the same call twice gives the same bits */
    Variance_Result again;
    stats_variance_experiment(11, DK, N, &again);
    cr_assert_eq(memcmp(&r, &again, sizeof r), 0);
}

Test(stats, entropy_identities) {
    float onehot[4] = {0, 1, 0, 0}, uniform[4] = {0.25f, 0.25f, 0.25f, 0.25f};
    cr_assert_float_eq(stats_row_entropy(onehot, 4), 0.0, 1e-12);
    cr_assert_float_eq(stats_row_entropy(uniform, 4), log(4.0), 1e-7);
    cr_assert_float_eq(stats_row_max(uniform, 4), 0.25, 1e-12);
    cr_assert_float_eq(stats_row_max(onehot, 4), 1.0, 1e-12);
}

Test(stats, histogram_counts_every_sample) {
    static float x[10000];
    stats_dot_samples(1, 16, 10000, x);
    int counts[30];
    stats_histogram(x, 10000, -8, 8, 30, counts);
    long total = 0;
    for (int b = 0; b < 30; b++) total += counts[b];
    cr_assert_eq(total, 10000);
    /* symmetric distribution: the middle two bins hold more than the outer two */
    cr_assert(counts[14] + counts[15] > counts[0] + counts[29]);
}

/* Width curves: inputs where every added coordinate adds the same positive
 * amount to each score pattern, so raising d_k only sharpens the softmax. */
Test(stats, width_curves_sharpen_monotonically_when_theory_says_so) {
    enum { N = 5, W = 64 };
    static float Q[N * W], K[N * W];
    for (int i = 0; i < N; i++)
        for (int r = 0; r < W; r++) {
            Q[i * W + r] = 0.3f * (float)(i + 1);
            K[i * W + r] = 0.2f * (float)(i + 1);
        }
    int rows[N] = {0, 1, 2, 3, 4}, dks[7] = {1, 2, 4, 8, 16, 32, 64};
    double scratch[7 * N], es[7], ms[7], er[7], mr[7];
    stats_width_curves(&(Width_Curves_Desc){.Q = Q,
                                            .K = K,
                                            .n = N,
                                            .w = W,
                                            .rows = rows,
                                            .row_count = N,
                                            .dks = dks,
                                            .dk_count = 7,
                                            .scratch = scratch},
                       &(Width_Curves){es, ms, er, mr});
    /* raw scores grow like d_k, scaled like √d_k: both sharpen as d_k grows */
    for (int c = 1; c < 7; c++) {
        cr_assert_lt(er[c], er[c - 1], "unscaled entropy must fall at d_k = %d", dks[c]);
        cr_assert_gt(mr[c], mr[c - 1]);
        cr_assert_lt(es[c], es[c - 1]);
        cr_assert_gt(ms[c], ms[c - 1]);
    }
    cr_assert_gt(mr[6], 0.99, "unscaled at d_k = 64 is one-hot: %g", mr[6]);
}

Test(stats, width_curves_unscaled_is_never_softer_than_scaled) {
    /* At every d_k the unscaled scores are the scaled ones times √d_k ≥ 1, and
     * softmax(c·s) has entropy non-increasing in c: a theorem, checked on
     * random inputs, with equality at d_k = 1. Extreme magnitudes stay finite. */
    enum { N = 40, W = 1024 };
    static float Q[N * W], K[N * W];
    Rng r;
    rng_seed(&r, 12);
    for (int k = 0; k < N * W; k++) {
        Q[k] = (float)(rng_gaussian(&r) * (k % 3 == 0 ? 300 : 1));
        K[k] = (float)rng_gaussian(&r);
    }
    int rows[N], dks[11];
    for (int i = 0; i < N; i++) rows[i] = i;
    for (int c = 0; c < 11; c++) dks[c] = 1 << c;
    static double scratch[11 * N];
    double es[11], ms[11], er[11], mr[11];
    stats_width_curves(&(Width_Curves_Desc){.Q = Q,
                                            .K = K,
                                            .n = N,
                                            .w = W,
                                            .rows = rows,
                                            .row_count = N,
                                            .dks = dks,
                                            .dk_count = 11,
                                            .scratch = scratch},
                       &(Width_Curves){es, ms, er, mr});
    for (int c = 0; c < 11; c++) {
        cr_assert(isfinite(es[c]) && isfinite(ms[c]) && isfinite(er[c]) && isfinite(mr[c]));
        cr_assert(es[c] >= 0 && es[c] <= log(N) + 1e-9 && ms[c] > 0 && ms[c] <= 1 + 1e-12);
        /* 1e-9: both sides are computed in double from the same scores */
        cr_assert_leq(er[c], es[c] + 1e-9, "d_k = %d", dks[c]);
        cr_assert_geq(mr[c], ms[c] - 1e-9, "d_k = %d", dks[c]);
    }
    cr_assert_float_eq(er[0], es[0], 1e-12, "at d_k = 1, scaling by 1/√1 changes nothing");
}

/* Points spread along (1, 1, 0, 0)/√2 by ±3 and along (1, −1, 0, 0)/√2 by
 * ±1, with a little noise in the last two coordinates: the two axes are
 * those directions (to 1e-3, the noise's doing), in that order, and hold
 * nearly all the variance. */
Test(stats, pca2_finds_the_two_directions_of_largest_spread) {
    static float rows[400 * 4];
    Rng r;
    rng_seed_stream(&r, 5, 0x9CA2ull, 0);
    for (int i = 0; i < 400; i++) {
        /* a 20 × 20 grid of (a, b): no covariance between them, exactly */
        double a = -3 + 6.0 * (i % 20) / 19, b = -1 + 2.0 * (i / 20) / 19;
        rows[i * 4 + 0] = (float)((a + b) / sqrt(2) + 5);
        rows[i * 4 + 1] = (float)((a - b) / sqrt(2) - 2);
        rows[i * 4 + 2] = (float)(0.01 * (2 * rng_uniform(&r) - 1));
        rows[i * 4 + 3] = (float)(0.01 * (2 * rng_uniform(&r) - 1));
    }
    double mean[4], axes[8], cov[16];
    double share = stats_pca2(rows, 400, 4, mean, axes, cov);
    double s2 = 1 / sqrt(2);
    cr_assert(fabs(axes[0] - s2) < 1e-3 && fabs(axes[1] - s2) < 1e-3, "first: %g %g", axes[0],
              axes[1]);
    cr_assert(fabs(fabs(axes[4]) - s2) < 1e-3 && fabs(axes[4] + axes[5]) < 1e-3, "second: %g %g",
              axes[4], axes[5]);
    double dot = 0, n0 = 0, n1 = 0;
    for (int k = 0; k < 4; k++)
        dot += axes[k] * axes[4 + k], n0 += axes[k] * axes[k], n1 += axes[4 + k] * axes[4 + k];
    cr_assert(fabs(dot) < 1e-9 && fabs(n0 - 1) < 1e-9 && fabs(n1 - 1) < 1e-9, "orthonormal");
    cr_assert(share > 0.9999 && share <= 1 + 1e-12, "share %g", share);
    cr_assert(fabs(mean[0] - 5) < 0.3 && fabs(mean[1] + 2) < 0.3);
    /* points that coincide have no directions */
    static float same[3 * 4] = {1, 2, 3, 4, 1, 2, 3, 4, 1, 2, 3, 4};
    cr_assert_eq(stats_pca2(same, 3, 4, mean, axes, cov), 0);
}

/* Jacobi on a symmetric matrix with eigenvalues known by construction (a
 * rotation of diag(5, 3, 3, 1e-9, 0, −2): a repeated one, a near-zero one,
 * a negative one): each a·v = λ·v to 1e-12, the vectors orthonormal, the
 * values largest first and equal to the ones built in. */
Test(stats, sym_eigen_returns_every_eigenpair_largest_first) {
    enum { N = 6 };
    static const double lambda[N] = {3, -2, 5, 0, 1e-9, 3};
    double q[N * N], a[N * N], keep[N * N], vals[N], vecs[N * N];
    /* an orthonormal q: Gram–Schmidt on fixed vectors */
    for (int i = 0; i < N * N; i++) q[i] = sin(1.7 * i + 0.3) + (i % (N + 1) == 0 ? 2 : 0);
    for (int c = 0; c < N; c++) {
        for (int p = 0; p < c; p++) {
            double d = 0;
            for (int r = 0; r < N; r++) d += q[r * N + c] * q[r * N + p];
            for (int r = 0; r < N; r++) q[r * N + c] -= d * q[r * N + p];
        }
        double len = 0;
        for (int r = 0; r < N; r++) len += q[r * N + c] * q[r * N + c];
        for (int r = 0; r < N; r++) q[r * N + c] /= sqrt(len);
    }
    for (int i = 0; i < N; i++)
        for (int j = 0; j < N; j++) {
            double s = 0;
            for (int k = 0; k < N; k++) s += q[i * N + k] * lambda[k] * q[j * N + k];
            a[i * N + j] = keep[i * N + j] = s;
        }
    stats_sym_eigen(a, N, vals, vecs);
    static const double sorted[N] = {5, 3, 3, 1e-9, 0, -2};
    for (int k = 0; k < N; k++) {
        cr_assert_float_eq(vals[k], sorted[k], 1e-12, "value %d: %g", k, vals[k]);
        for (int i = 0; i < N; i++) {
            double av = 0;
            for (int j = 0; j < N; j++) av += keep[i * N + j] * vecs[j * N + k];
            cr_assert_float_eq(av, vals[k] * vecs[i * N + k], 1e-12);
        }
        for (int p = 0; p <= k; p++) {
            double d = 0;
            for (int r = 0; r < N; r++) d += vecs[r * N + k] * vecs[r * N + p];
            cr_assert_float_eq(d, p == k ? 1.0 : 0.0, 1e-12);
        }
    }
}
