/* The explorer's heads on the layer stack (src/nn/attend.c, through net.c's
 * pass) against a float64 reference, plus the identities the app teaches:
 * rows of A are distributions, nothing overflows, and attention without
 * positions is permutation-equivariant. */
#include "nn/attend.h"
#include "nn/net_kernels.h"
#include "nn/dmat_rows.h"
#include "core/matrix.h"
#include "core/perm.h"
#include "core/posenc.h"
#include "core/projection.h"
#include "test_util.h"

#include <math.h>
#include <string.h>

typedef struct Case {
    int n, d, dk, dv;
    bool scaled, causal;
    float *X, *P, *WQ, *WK, *WV;
    bool rope; /* RoPE from position offset */
    int offset;
    double alibi; /* ALiBi's slope, or 0 */
} Case;

static void case_make(Case *c, Rng *r, int n, int d, int dk, int dv, bool scaled, double xscale,
                      uint64_t seed) {
    *c = (Case){.n = n, .d = d, .dk = dk, .dv = dv, .scaled = scaled};
    c->X = malloc(sizeof(float) * n * d);
    c->WQ = malloc(sizeof(float) * d * dk);
    c->WK = malloc(sizeof(float) * d * dk);
    c->WV = malloc(sizeof(float) * d * dv);
    rand_fill(r, c->X, (long)n * d, xscale);
    proj_fill(seed, PROJ_Q, 0, d, dk, c->WQ);
    proj_fill(seed, PROJ_K, 0, d, dk, c->WK);
    proj_fill(seed, PROJ_V, 0, d, dv, c->WV);
}

static void case_free(Case *c) {
    free(c->X);
    free(c->P);
    free(c->WQ);
    free(c->WK);
    free(c->WV);
}

static Attend_Desc case_desc(const Case *c, const float *const *w) {
    return (Attend_Desc){.n = c->n,
                         .d = c->d,
                         .d_k = c->dk,
                         .d_v = c->dv,
                         .heads = 1,
                         .scaled = c->scaled,
                         .causal = c->causal,
                         .X = c->X,
                         .P = c->P,
                         .W_Q = &w[0],
                         .W_K = &w[1],
                         .W_V = &w[2],
                         .rope = c->rope,
                         .rope_base = 10000,
                         .pos_offset = c->offset,
                         .alibi = c->alibi != 0 ? &c->alibi : NULL};
}

/* dest = the matrices of the pass's one head: a copy, so a test can keep several. */
static void copy_head(const Attn *h, Attn *dest) {
    int n = h->n;
    cr_assert(attn_reserve(dest, n, h->d, h->d_k, h->d_v));
    Attn keep = *dest;
    *dest = *h;
    dest->Xp = keep.Xp, dest->Q = keep.Q, dest->K = keep.K, dest->V = keep.V;
    dest->S = keep.S, dest->A = keep.A, dest->O = keep.O, dest->Qr = keep.Qr, dest->Kr = keep.Kr;
    dest->cap_nd = keep.cap_nd, dest->cap_nk = keep.cap_nk, dest->cap_nv = keep.cap_nv;
    dest->cap_nn = keep.cap_nn;
    size_t f = sizeof(float);
    memcpy(dest->Xp, h->Xp, f * (size_t)n * h->d);
    memcpy(dest->Q, h->Q, f * (size_t)n * h->d_k);
    memcpy(dest->K, h->K, f * (size_t)n * h->d_k);
    memcpy(dest->Qr, h->Qr, f * (size_t)n * h->d_k);
    memcpy(dest->Kr, h->Kr, f * (size_t)n * h->d_k);
    memcpy(dest->V, h->V, f * (size_t)n * h->d_v);
    memcpy(dest->O, h->O, f * (size_t)n * h->d_v);
    memcpy(dest->S, h->S, f * (size_t)n * n);
    memcpy(dest->A, h->A, f * (size_t)n * n);
}

/* The case through the pass: its one head into a. */
static void run(const Case *c, Attn *a) {
    const float *w[3] = {c->WQ, c->WK, c->WV};
    Attend_Desc desc = case_desc(c, w);
    Attend p = {0};
    cr_assert(attend_compute(&p, &desc));
    copy_head(&p.head[0], a);
    attend_free(&p);
}

/* Check one computed attention against float64, stage by stage. Each stage's
 * tolerance is relative to the size of the terms it sums (the honest
 * "relative error" of a dot product, which can cancel to near zero). */
static void check_against_f64(const Case *c, const Attn *a) {
    int n = c->n, d = c->d, dk = c->dk, dv = c->dv;
    double *Q = malloc(sizeof(double) * n * dk), *K = malloc(sizeof(double) * n * dk);
    /* Σ_r |x_r w_r| per entry: how far float rounding of X + P can move it */
    double *QS = malloc(sizeof(double) * n * dk), *KS = malloc(sizeof(double) * n * dk);
    for (int i = 0; i < n; i++) {
        for (int col = 0; col < dk; col++) {
            double q = 0, k = 0, qs = 0, ks = 0;
            for (int r = 0; r < d; r++) {
                double x = (double)c->X[i * d + r] + (c->P ? (double)c->P[i * d + r] : 0.0);
                q += x * c->WQ[r * dk + col];
                k += x * c->WK[r * dk + col];
                qs += fabs(x * c->WQ[r * dk + col]);
                ks += fabs(x * c->WK[r * dk + col]);
            }
            Q[i * dk + col] = q;
            K[i * dk + col] = k;
            QS[i * dk + col] = qs;
            KS[i * dk + col] = ks;
            /* float32 rounding of X + P, then of the result: a few 2^-24 of the term sum */
            cr_assert(fabs(a->Q[i * dk + col] - q) <= 1e-6 * qs + 1e-30, "Q[%d][%d]", i, col);
            cr_assert(fabs(a->K[i * dk + col] - k) <= 1e-6 * ks + 1e-30, "K[%d][%d]", i, col);
        }
    }
    double scale = c->scaled ? 1.0 / sqrt((double)dk) : 1.0;
    for (int i = 0; i < n; i++) {
        double s_err = 0; /* max over the row of |S − S_ref| */
        for (int j = 0; j < n; j++) {
            /* mag bounds how much the score moves when each q_r and k_r moves
             * by its own rounding (QS, KS) — the score's condition number. */
            double s = 0, mag = 0;
            for (int r = 0; r < dk; r++) {
                double q = Q[i * dk + r], k = K[j * dk + r];
                s += q * k;
                mag += fabs(q * k) + QS[i * dk + r] * fabs(k) + fabs(q) * KS[j * dk + r];
            }
            s *= scale;
            mag *= scale;
            double e = fabs(a->S[i * n + j] - s);
            cr_assert(e <= 1e-5 * mag + 1e-30, "S[%d][%d] = %.9g, reference %.9g (term sum %g)", i,
                      j, a->S[i * n + j], s, mag);
            if (e > s_err) s_err = e;
        }
        /* Softmax of the implementation's own S in double: isolates the softmax. */
        double mx = a->S[i * n];
        for (int j = 1; j < n; j++) mx = fmax(mx, a->S[i * n + j]);
        double sum = 0;
        for (int j = 0; j < n; j++) sum += exp(a->S[i * n + j] - mx);
        for (int j = 0; j < n; j++) {
            double ref = exp(a->S[i * n + j] - mx) / sum;
            /* float32 has 2^-24 ≈ 6e-8 relative precision; 1e-6 absolute on [0, 1] */
            cr_assert(fabs(a->A[i * n + j] - ref) <= 1e-6, "A[%d][%d]", i, j);
        }
        /* And against the float64 reference S: moving every score of a row by at
         * most e scales each weight by a factor within [e^-2e, e^2e]. */
        double refmx = -INFINITY;
        double *sref = malloc(sizeof(double) * n);
        for (int j = 0; j < n; j++) {
            double s = 0;
            for (int r = 0; r < dk; r++) s += Q[i * dk + r] * K[j * dk + r];
            sref[j] = s * scale;
            refmx = fmax(refmx, sref[j]);
        }
        double refsum = 0;
        for (int j = 0; j < n; j++) refsum += exp(sref[j] - refmx);
        for (int j = 0; j < n; j++) {
            double ref = exp(sref[j] - refmx) / refsum;
            double tol = ref * (exp(2 * s_err) - 1) + 1e-6;
            cr_assert(fabs(a->A[i * n + j] - ref) <= tol, "A[%d][%d] = %.9g vs %.9g", i, j,
                      a->A[i * n + j], ref);
        }
        free(sref);
        /* O = A V from the implementation's own A and V, in double. */
        for (int col = 0; col < dv; col++) {
            double o = 0, mag = 0;
            for (int j = 0; j < n; j++) {
                o += (double)a->A[i * n + j] * a->V[j * dv + col];
                mag += fabs((double)a->A[i * n + j] * a->V[j * dv + col]);
            }
            cr_assert(fabs(a->O[i * dv + col] - o) <= 1e-5 * mag + 1e-30, "O[%d][%d]", i, col);
        }
    }
    free(Q);
    free(K);
    free(QS);
    free(KS);
}

Test(attention, matches_float64_reference_random_cases) {
    Rng r;
    rng_seed(&r, 2024);
    Attn a = {0};
    for (int t = 0; t < 120; t++) {
        Case c;
        int n = rand_int(&r, 1, 64), d = rand_int(&r, 1, 16);
        /* d_k and d_v log-uniform over 1..512 so small and wide heads both appear */
        int dk = (int)round(exp(rng_uniform(&r) * log(512.0)));
        int dv = (int)round(exp(rng_uniform(&r) * log(512.0)));
        bool scaled = t % 2 == 0;
        case_make(&c, &r, n, d, dk, dv, scaled, 2.0, (uint64_t)t);
        if (t % 3 == 0) {
            c.P = malloc(sizeof(float) * n * d);
            posenc_sinusoidal(0, n, d, 1.0f, c.P);
        }
        run(&c, &a);
        check_against_f64(&c, &a);
        case_free(&c);
    }
    attn_free(&a);
}

static void check_rows_are_distributions(const Attn *a) {
    int n = a->n;
    for (int i = 0; i < n; i++) {
        double sum = 0;
        for (int j = 0; j < n; j++) {
            float w = a->A[i * n + j];
            cr_assert(isfinite(w) && w >= 0.0f, "A[%d][%d] = %g", i, j, w);
            sum += w;
        }
        /* n terms each rounded to float: |Σ − 1| ≤ n·2^-24 + rounding of 1/sum */
        cr_assert(fabs(sum - 1.0) <= 1e-6 + n * 6e-8, "row %d sums to %.9g", i, sum);
    }
}

Test(attention, rows_sum_to_one_and_are_nonnegative) {
    Rng r;
    rng_seed(&r, 7);
    Attn a = {0};
    for (int t = 0; t < 100; t++) {
        Case c;
        case_make(&c, &r, rand_int(&r, 1, 64), rand_int(&r, 1, 16), rand_int(&r, 1, 512),
                  rand_int(&r, 1, 64), t % 2, 3.0, (uint64_t)t);
        run(&c, &a);
        check_rows_are_distributions(&a);
        case_free(&c);
    }
    attn_free(&a);
}

Test(attention, extreme_inputs_stay_finite) {
    /* The widest head, unscaled, with embeddings at the ±1e3 limit: raw scores
     * reach ~1e9, so a softmax without the max subtraction would overflow. */
    Rng r;
    rng_seed(&r, 11);
    Attn a = {0};
    const int dks[] = {1, 1024};
    for (int k = 0; k < 2; k++) {
        for (int scaled = 0; scaled < 2; scaled++) {
            Case c;
            case_make(&c, &r, 32, 16, dks[k], 8, scaled, 1e3, 3);
            for (int i = 0; i < 32 * 16; i++) c.X[i] = c.X[i] < 0 ? -1e3f : 1e3f;
            run(&c, &a);
            cr_assert(mat_all_finite(a.S, 32 * 32));
            cr_assert(mat_all_finite(a.A, 32 * 32));
            cr_assert(mat_all_finite(a.O, 32 * 8));
            check_rows_are_distributions(&a);
            double mx = 0;
            for (int i = 0; i < 32 * 32; i++) mx = fmax(mx, fabs(a.S[i]));
            if (dks[k] == 1024 && !scaled) cr_assert(mx > 1e7, "scores should be huge, max %g", mx);
            case_free(&c);
        }
    }
    attn_free(&a);
}

Test(attention, softmax_subtracts_row_max) {
    /* Scores of 1e30 would give e^(1e30) = Inf without the shift; shifted,
     * the equal pair splits the weight exactly in half. */
    const float s[4] = {1e30f, 1e30f, -1e30f, 0};
    float out[4];
    softmax_row(s, 4, out);
    cr_assert_float_eq(out[0], 0.5f, 1e-7);
    cr_assert_float_eq(out[1], 0.5f, 1e-7);
    /* the exponent is clamped at −87 (net_kernels.h): e^−87 ≈ 1.6e−38 stands for 0 */
    cr_assert_lt(out[2], 1e-37f);
    cr_assert_lt(out[3], 1e-37f);
}

static float cell_raw(int c) {
    return (float)sin(1.7 * c) * 3;
}

Test(attention, one_rule_for_float_and_double) {
    /* head_rows.h compiled twice: the pass's float rule and the training labs' double
     * rule agree. ALiBi's bias is the distance, the mask is −∞ and an exact 0 weight, the
     * one-cell form is the row form, and the two softmaxes differ by float rounding (the
     * float one's e^x is a polynomial within 2⁻²³: 4e-7 relative is a few ulps) */
    enum { N = 5 };
    for (int unmasked = 0; unmasked < 2; unmasked++) {
        float S[N * N], A[N * N], cell[N * N];
        double Sd[N * N], Ad[N * N];
        for (int c = 0; c < N * N; c++) {
            S[c] = cell[c] = cell_raw(c);
            Sd[c] = S[c];
        }
        score_rule(S, N, N, unmasked, 0.5f);
        score_rule_f64(Sd, N, N, unmasked, 0.5);
        for (int i = 0; i < N; i++)
            for (int j = 0; j < N; j++) {
                int c = i * N + j;
                cell[c] = score_at(cell[c], i, j, unmasked, 0.5f);
                cr_assert_eq(memcmp(&cell[c], &S[c], sizeof *S), 0, "score_at is score_rule");
                double at = score_at_f64((double)cell_raw(c), i, j, unmasked, 0.5);
                cr_assert_eq(memcmp(&at, &Sd[c], sizeof at), 0, "in double too");
                if (!unmasked && j > i) {
                    cr_assert(isinf(S[c]) && S[c] < 0 && isinf(Sd[c]) && Sd[c] < 0);
                    continue;
                }
                float raw = cell_raw(c);
                cr_assert_eq(S[c], raw - 0.5f * (float)abs(i - j), "the bias is the distance");
                cr_assert_eq(Sd[c], (double)raw - 0.5 * abs(i - j));
            }
        weights_rows(S, N, unmasked, A);
        weights_rows_f64(Sd, N, unmasked, Ad);
        for (int c = 0; c < N * N; c++) {
            if (!unmasked && c % N > c / N) {
                cr_assert(A[c] == 0 && Ad[c] == 0, "a masked weight is an exact 0");
                continue;
            }
            cr_assert(fabs(A[c] - Ad[c]) <= 4e-7 * Ad[c] + 1e-12, "cell %d: %g against %g", c, A[c],
                      Ad[c]);
        }
    }
}

/* max |Attention(PX) − P·Attention(X)| relative to the size of the terms. */
static double equivariance_gap(const Case *c, const int *p, bool with_pos, Attn *a, Attn *b,
                               double *tolerance) {
    int n = c->n, d = c->d, dv = c->dv;
    Case cp = *c;
    float *PX = malloc(sizeof(float) * n * d);
    perm_apply_rows(p, n, c->X, d, PX);
    float *pos = NULL;
    if (with_pos) {
        /* Positions belong to slots, not tokens: slot i gets P[i] in both runs. */
        pos = malloc(sizeof(float) * n * d);
        posenc_sinusoidal(0, n, d, 1.0f, pos);
    }
    Case c0 = *c;
    c0.P = pos;
    run(&c0, a);
    cp.X = PX;
    cp.P = pos;
    run(&cp, b);
    double gap = 0, tol = 0;
    for (int i = 0; i < n; i++) {
        for (int col = 0; col < dv; col++) {
            double want = a->O[p[i] * dv + col];
            gap = fmax(gap, fabs(b->O[i * dv + col] - want));
            /* reordering changes only summation order: a few ulps of Σ|a v| */
            double mag = 0;
            for (int j = 0; j < n; j++) mag += fabs(a->A[p[i] * n + j] * a->V[j * dv + col]);
            tol = fmax(tol, 1e-5 * mag);
        }
    }
    *tolerance = tol;
    free(PX);
    free(pos);
    return gap;
}

Test(attention, permutation_equivariance_without_positions) {
    Rng r;
    rng_seed(&r, 31337);
    Attn a = {0}, b = {0};
    int p[64];
    double worst_ratio_with_pos = INFINITY;
    for (int t = 0; t < 200; t++) {
        Case c;
        int n = rand_int(&r, 2, 48);
        case_make(&c, &r, n, rand_int(&r, 2, 12), rand_int(&r, 1, 128), rand_int(&r, 1, 32), t % 2,
                  1.0, (uint64_t)t);
        /* a random permutation that is not the identity (Fisher–Yates, then
         * rotate by one if it happened to fix every position) */
        perm_identity(n, p);
        for (int i = n - 1; i > 0; i--) {
            int j = rand_int(&r, 0, i), tmp = p[i];
            p[i] = p[j];
            p[j] = tmp;
        }
        bool identity = true;
        for (int i = 0; i < n; i++) identity &= p[i] == i;
        if (identity) perm_rotate(n, 1, p);

        double tol;
        double gap = equivariance_gap(&c, p, false, &a, &b, &tol);
        cr_assert(gap <= tol, "case %d: gap %g > tolerance %g", t, gap, tol);
        double gap_pos = equivariance_gap(&c, p, true, &a, &b, &tol);
        worst_ratio_with_pos = fmin(worst_ratio_with_pos, gap_pos / (tol + 1e-30));
        case_free(&c);
    }
    /* With positions added, order matters: in every case the gap is at least
     * 100× what rounding could explain. */
    cr_assert(worst_ratio_with_pos > 100, "smallest gap/tolerance with positions: %g",
              worst_ratio_with_pos);
    attn_free(&a);
    attn_free(&b);
}

Test(attention, updating_one_row_matches_a_full_recompute_exactly) {
    /* A drag changes one token; the incremental update must give the very
     * same floats as computing everything again. */
    Rng r;
    rng_seed(&r, 99);
    for (int t = 0; t < 40; t++) {
        Case c;
        int n = rand_int(&r, 1, 40);
        case_make(&c, &r, n, rand_int(&r, 1, 8), rand_int(&r, 1, 96), rand_int(&r, 1, 24), t % 2,
                  2.0, (uint64_t)t);
        if (t % 3 == 0) {
            c.P = malloc(sizeof(float) * n * c.d);
            posenc_sinusoidal(0, n, c.d, 0.7f, c.P);
        }
        c.causal = t % 4 >= 2; /* the mask too: both ways, with and without positions */
        c.rope = t % 5 == 1;   /* and positions in the rule: RoPE from an offset, ALiBi */
        c.offset = t % 5 == 1 ? t * 7 : 0;
        c.alibi = t % 5 == 2 ? 0.25 : 0;
        const float *w[3] = {c.WQ, c.WK, c.WV};
        Attend_Desc desc = case_desc(&c, w);
        Attend p = {0};
        Attn inc = {0}, full = {0};
        cr_assert(attend_compute(&p, &desc));
        int i = rand_int(&r, 0, n - 1);
        for (int k = 0; k < c.d; k++) c.X[i * c.d + k] += (float)(rng_uniform(&r) - 0.5);
        cr_assert(attend_update_row(&p, &desc, i));
        copy_head(&p.head[0], &inc);
        attend_free(&p);
        run(&c, &full);
        cr_assert_eq(memcmp(inc.Q, full.Q, sizeof(float) * n * c.dk), 0, "case %d: Q", t);
        cr_assert_eq(memcmp(inc.S, full.S, sizeof(float) * n * n), 0, "case %d: S", t);
        cr_assert_eq(memcmp(inc.A, full.A, sizeof(float) * n * n), 0, "case %d: A", t);
        cr_assert_eq(memcmp(inc.O, full.O, sizeof(float) * n * c.dv), 0, "case %d: O", t);
        attn_free(&inc);
        attn_free(&full);
        case_free(&c);
    }
}

Test(attention, the_causal_mask_gives_exact_zeros_and_matches_float64) {
    /* Query i sees keys j ≤ i: the masked weights are exactly 0 (not small,
     * not NaN), each row is a softmax over the keys it sees, and the first
     * token attends only to itself. Reference: float64. A weight moves by its
     * own size times the error of the scores, and a float score is off by a
     * few 2^-24 of the sum of its terms' sizes (1e-6 of it allows 16 ulp);
     * plus 2e-6 for the rounding of the weight itself. */
    Rng r;
    rng_seed(&r, 2024);
    for (int t = 0; t < 60; t++) {
        Case c;
        int n = rand_int(&r, 1, 48);
        case_make(&c, &r, n, rand_int(&r, 1, 8), rand_int(&r, 1, 64), rand_int(&r, 1, 16), t % 2,
                  t % 5 == 0 ? 300.0 : 1.5, (uint64_t)t + 7);
        c.causal = true;
        Attn a = {0};
        run(&c, &a);
        for (int i = 0; i < n; i++) {
            /* float64 scores of the keys this query sees, and their softmax */
            double s[64], mx = -INFINITY, sum = 0, terms = 0;
            for (int j = 0; j <= i; j++) {
                double dot = 0, size = 0;
                for (int col = 0; col < c.dk; col++) {
                    double q = 0, k = 0;
                    for (int rr = 0; rr < c.d; rr++) {
                        q += (double)c.X[i * c.d + rr] * c.WQ[rr * c.dk + col];
                        k += (double)c.X[j * c.d + rr] * c.WK[rr * c.dk + col];
                    }
                    dot += q * k;
                    size += fabs(q * k);
                }
                double scale = c.scaled ? 1 / sqrt((double)c.dk) : 1;
                s[j] = dot * scale;
                terms = fmax(terms, size * scale);
                mx = fmax(mx, s[j]);
            }
            for (int j = 0; j <= i; j++) sum += exp(s[j] - mx);
            double total = 0;
            for (int j = 0; j < n; j++) {
                float w = a.A[i * n + j];
                cr_assert(isfinite(w), "case %d: A[%d][%d] is not finite", t, i, j);
                total += w;
                if (j > i) {
                    cr_assert_eq(w, 0.0f, "case %d: A[%d][%d] = %g, masked", t, i, j, w);
                    cr_assert(isinf(a.S[i * n + j]) && a.S[i * n + j] < 0, "S is −∞ there");
                } else {
                    double want = exp(s[j] - mx) / sum;
                    cr_assert(fabs(w - want) <= 2e-6 + want * 2e-6 * terms,
                              "case %d: A[%d][%d] %g vs %g", t, i, j, w, want);
                }
            }
            cr_assert(fabs(total - 1) <= 1e-5, "case %d: row %d sums to %g", t, i, total);
        }
        cr_assert_eq(a.A[0], 1.0f, "the first token attends only to itself");
        attn_free(&a);
        case_free(&c);
    }
}
