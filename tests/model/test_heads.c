/* Multi-head attention and the causal mask, read back from --export json
 * (src/model/export.c over src/model/scene.c) and checked against a float64
 * reference computed here from the exported X, P and projections: every
 * head's Q, K, V, S, A and O, W_O's scale and Y. Also: head 1 never changes
 * when heads are added, Y is permutation-equivariant without mask and
 * positions, and the causal mask breaks that. */
#define _POSIX_C_SOURCE 200809L
#include "core/perm.h"
#include "model/export.h"
#include "model/settings.h"
#include "test_util.h"

#include <cjson/cJSON.h>
#include <math.h>
#include <string.h>

static Vocab vocab;

static void setup(void) {
    test_load_vocab(&vocab);
}

static void teardown(void) {
    vocab_free(&vocab);
}

TestSuite(heads, .init = setup, .fini = teardown);

static Scene scene;
static Derived derived;

/* A random scene: n tokens, random X, the settings given. */
static void make_scene_at(Rng *r, int n, int d, int d_k, int d_v, int heads, Mask_Mode mask,
                          Pos_Mode pos, int offset, bool scaled) {
    scene_default(&scene);
    char text[600] = "";
    static const char *const words[] = {"the", "cat", "sat", "on", "a", "mat", "dog", "ran"};
    for (int i = 0; i < n; i++) {
        strcat(text, words[rng_next_u64(r) % 8]);
        strcat(text, " ");
    }
    char err[256];
    cr_assert(scene_set_sentence(&scene, text, &vocab, err, sizeof err), "%s", err);
    scene_set_d(&scene, d, &vocab);
    for (int k = 0; k < n * d; k++) scene.X[k] = (float)(rng_uniform(r) * 3 - 1.5);
    scene.d_k = d_k;
    scene.d_v = d_v;
    scene.heads = heads;
    scene.mask = mask;
    scene.pos = pos;
    scene.pos_offset = offset;
    scene.rope_base =
        (float)(rng_next_u64(r) % 2 ? 10000.0 : 10.0 + (double)(rng_next_u64(r) % 990));
    scene.scaled = scaled;
    scene.seed = (uint32_t)rng_next_u64(r);
    cr_assert(scene_validate(&scene, err, sizeof err), "%s", err);
    cr_assert(derived_update(&derived, &scene));
}

static void make_scene(Rng *r, int n, int d, int d_k, int d_v, int heads, Mask_Mode mask, bool pos,
                       bool scaled) {
    make_scene_at(r, n, d, d_k, d_v, heads, mask, pos ? POS_SIN : POS_NONE, 0, scaled);
}

static cJSON *export_now(void) {
    char *buf = NULL;
    size_t len = 0;
    FILE *f = open_memstream(&buf, &len);
    cr_assert(f);
    export_json(&scene, &derived, f);
    fclose(f);
    cJSON *root = cJSON_Parse(buf);
    free(buf);
    cr_assert(root, "the export is JSON");
    return root;
}

/* A matrix from the export as doubles (null, a masked score, as −∞). */
static double *matrix(const cJSON *obj, const char *key, int rows, int cols) {
    const cJSON *m = cJSON_GetObjectItemCaseSensitive(obj, key);
    cr_assert(cJSON_IsArray(m) && cJSON_GetArraySize(m) == rows, "%s: %d rows", key, rows);
    double *out = malloc(sizeof(double) * (size_t)rows * (size_t)cols);
    int i = 0;
    for (const cJSON *row = m->child; row; row = row->next, i++) {
        cr_assert_eq(cJSON_GetArraySize(row), cols, "%s row %d", key, i);
        int j = 0;
        for (const cJSON *v = row->child; v; v = v->next, j++)
            out[i * cols + j] = cJSON_IsNull(v) ? -INFINITY : v->valuedouble;
    }
    return out;
}

/* a = x·w in float64, and the sum of the terms' sizes (what float rounding scales with). */
static void mul(const double *x, const double *w, int n, int k, int m, double *out, double *size) {
    for (int i = 0; i < n; i++)
        for (int j = 0; j < m; j++) {
            double s = 0, z = 0;
            for (int r = 0; r < k; r++) {
                s += x[i * k + r] * w[r * m + j];
                z += fabs(x[i * k + r] * w[r * m + j]);
            }
            out[i * m + j] = s;
            size[i * m + j] = z;
        }
}

/* Exported floats against the reference: within 1e-6 of the term sizes (a
 * float dot product is off by a few 2^-24 of them; 1e-6 allows 16 ulp). */
static void close_to(const double *got, const double *want, const double *size, long count,
                     const char *what, int head) {
    for (long k = 0; k < count; k++) {
        if (isinf(want[k])) {
            cr_assert(isinf(got[k]) && got[k] < 0, "head %d %s[%ld] should be masked", head, what,
                      k);
            continue;
        }
        cr_assert(fabs(got[k] - want[k]) <= 1e-6 * size[k] + 1e-7, "head %d %s[%ld]: %.9g vs %.9g",
                  head, what, k, got[k], want[k]);
    }
}

/* RoFormer's rotation in float64: pair (2m, 2m+1) of each row turned by
 * p·base^(−2m/d_k), p = offset + i; an odd d_k's last coordinate stays. */
static void rope_ref(double *M, int n, int dk, int offset, double base) {
    for (int i = 0; i < n; i++)
        for (int m = 0; 2 * m + 1 < dk; m++) {
            double a = (offset + i) * pow(base, -2.0 * m / dk);
            double x = M[i * dk + 2 * m], y = M[i * dk + 2 * m + 1];
            M[i * dk + 2 * m] = x * cos(a) - y * sin(a);
            M[i * dk + 2 * m + 1] = x * sin(a) + y * cos(a);
        }
}

Test(heads, every_head_and_Y_match_a_float64_reference_for_every_positional_scheme) {
    Rng r;
    rng_seed(&r, 314);
    for (int t = 0; t < 60; t++) {
        int n = 1 + (int)(rng_next_u64(&r) % 12), d = 1 + (int)(rng_next_u64(&r) % 6);
        int dk = 1 + (int)(rng_next_u64(&r) % 24), dv = 1 + (int)(rng_next_u64(&r) % 9);
        int H = 1 + (int)(rng_next_u64(&r) % 6);
        Pos_Mode pos = (Pos_Mode)(t % POS_MODE_COUNT);
        int offset = t % 3 == 0 ? 0 : (int)(rng_next_u64(&r) % (ATTN_MAX_POS_OFFSET + 1));
        make_scene_at(&r, n, d, dk, dv, H, t % 2 ? MASK_CAUSAL : MASK_NONE, pos, offset,
                      (t / 5) % 4 != 1);
        cJSON *root = export_now();
        cr_assert_eq(cJSON_GetObjectItem(root, "heads")->valueint, H);
        cr_assert_str_eq(cJSON_GetObjectItem(root, "mask")->valuestring, t % 2 ? "causal" : "none");
        cr_assert_str_eq(cJSON_GetObjectItem(root, "pos")->valuestring,
                         setting_choice_name(SET_POS, pos));
        cr_assert_eq(cJSON_GetObjectItem(root, "pos_offset")->valueint, offset);
        double *X = matrix(root, "X", n, d);
        if (pos == POS_SIN) { /* the formula, in float64, from the offset on */
            double *P = matrix(root, "P", n, d);
            for (int i = 0; i < n; i++)
                for (int c = 0; c < d; c++) {
                    double a = (offset + i) / pow(10000.0, (c - c % 2) / (double)d);
                    double want = scene.pos_strength * (c % 2 ? cos(a) : sin(a));
                    cr_assert(fabs(P[i * d + c] - want) <= 1e-6 * (1 + fabs(want)),
                              "P[%d][%d] = %.9g, want %.9g", i, c, P[i * d + c], want);
                }
            free(P);
        }
        if (pos_mode_added(pos)) {
            double *P = matrix(root, "P", n, d);
            for (int k = 0; k < n * d; k++) X[k] += P[k];
            free(P);
        } else {
            cr_assert(cJSON_IsNull(cJSON_GetObjectItem(root, "P")), "%s adds nothing to X",
                      setting_choice_name(SET_POS, pos));
        }
        const cJSON *heads = cJSON_GetObjectItem(root, "per_head");
        cr_assert_eq(cJSON_GetArraySize(heads), H);
        double *concat = calloc((size_t)n * H * dv, sizeof(double));
        double *size = malloc(sizeof(double) * (size_t)(n * (n + dk + dv + 1) + H * dv * d));
        int h = 0;
        for (const cJSON *hd = heads->child; hd; hd = hd->next, h++) {
            double *WQ = matrix(hd, "W_Q", d, dk), *WK = matrix(hd, "W_K", d, dk);
            double *WV = matrix(hd, "W_V", d, dv);
            double *Q = malloc(sizeof(double) * n * dk), *K = malloc(sizeof(double) * n * dk);
            double *V = malloc(sizeof(double) * n * dv), *S = malloc(sizeof(double) * n * n);
            double *A = malloc(sizeof(double) * n * n), *O = malloc(sizeof(double) * n * dv);
            double *got;
            double *qs = malloc(sizeof(double) * n * dk), *ks = malloc(sizeof(double) * n * dk);
            mul(X, WQ, n, d, dk, Q, qs);
            close_to(got = matrix(hd, "Q", n, dk), Q, qs, (long)n * dk, "Q", h);
            free(got);
            mul(X, WK, n, d, dk, K, ks);
            mul(X, WV, n, d, dv, V, size);
            close_to(got = matrix(hd, "V", n, dv), V, size, (long)n * dv, "V", h);
            free(got);
            if (pos == POS_ROPE) { /* q and k turned after projection */
                rope_ref(Q, n, dk, offset, scene.rope_base);
                rope_ref(K, n, dk, offset, scene.rope_base);
                /* a turned coordinate mixes its pair: their rounding, and the turn's */
                for (int i = 0; i < n; i++)
                    for (int c = 0; c + 1 < dk; c += 2) {
                        double zq = qs[i * dk + c] + qs[i * dk + c + 1] + 1;
                        double zk = ks[i * dk + c] + ks[i * dk + c + 1] + 1;
                        qs[i * dk + c] = qs[i * dk + c + 1] = zq;
                        ks[i * dk + c] = ks[i * dk + c + 1] = zk;
                    }
                close_to(got = matrix(hd, "Q_rot", n, dk), Q, qs, (long)n * dk, "Q_rot", h);
                free(got);
                close_to(got = matrix(hd, "K_rot", n, dk), K, ks, (long)n * dk, "K_rot", h);
                free(got);
            } else {
                cr_assert_null(cJSON_GetObjectItem(hd, "Q_rot"), "only rope turns q");
            }
            free(qs), free(ks);
            double slope = pos == POS_ALIBI ? pow(2.0, -8.0 * (h + 1) / H) : 0;
            close_to(got = matrix(hd, "V", n, dv), V, size, (long)n * dv, "V", h);
            free(got);
            /* S = QKᵀ/√d_k, −∞ above the diagonal under the mask */
            double scale = scene.scaled ? 1 / sqrt((double)dk) : 1;
            for (int i = 0; i < n; i++)
                for (int j = 0; j < n; j++) {
                    double s = 0, z = 0;
                    for (int c = 0; c < dk; c++) {
                        s += Q[i * dk + c] * K[j * dk + c];
                        z += fabs(Q[i * dk + c] * K[j * dk + c]);
                    }
                    bool masked = scene.mask == MASK_CAUSAL && j > i;
                    S[i * n + j] = masked ? -INFINITY : s * scale - slope * abs(i - j);
                    /* Q and K were themselves rounded */
                    size[i * n + j] = z * scale + 1 + slope * abs(i - j);
                }
            close_to(got = matrix(hd, "S", n, n), S, size, (long)n * n, "S", h);
            free(got);
            for (int i = 0; i < n; i++) {
                double mx = -INFINITY, sum = 0;
                for (int j = 0; j < n; j++) mx = fmax(mx, S[i * n + j]);
                for (int j = 0; j < n; j++) sum += exp(S[i * n + j] - mx);
                for (int j = 0; j < n; j++) {
                    A[i * n + j] = exp(S[i * n + j] - mx) / sum;
                    size[i * n + j] = 2 + fabs(S[i * n + j] - mx); /* a weight's rounding */
                }
            }
            got = matrix(hd, "A", n, n);
            close_to(got, A, size, (long)n * n, "A", h);
            for (int i = 0; i < n; i++)
                for (int j = i + 1; j < n && scene.mask == MASK_CAUSAL; j++)
                    cr_assert_eq(got[i * n + j], 0.0, "head %d: a masked weight is exactly 0", h);
            free(got);
            mul(A, V, n, n, dv, O, size);
            /* and each weight's own tolerance (above) times the value it weighs: the pass
             * sums in float32, so a score carries its products' rounding into A, then O */
            for (int i = 0; i < n; i++) {
                double mx = -INFINITY;
                for (int j = 0; j < n; j++) mx = fmax(mx, S[i * n + j]);
                for (int c = 0; c < dv; c++) {
                    double carried = 0;
                    for (int j = 0; j < n; j++)
                        if (isfinite(S[i * n + j]))
                            carried += (2 + fabs(S[i * n + j] - mx)) * fabs(V[j * dv + c]);
                    size[i * dv + c] += 1 + carried;
                }
            }
            close_to(got = matrix(hd, "O", n, dv), O, size, (long)n * dv, "O", h);
            free(got);
            for (int i = 0; i < n; i++)
                for (int c = 0; c < dv; c++) concat[(long)i * H * dv + h * dv + c] = O[i * dv + c];
            free(WQ), free(WK), free(WV), free(Q), free(K), free(V), free(S), free(A), free(O);
        }
        /* W_O: N(0, 1)/√(H·d_v); Y = Concat(O¹…Oᴴ)·W_O */
        double *WO = matrix(root, "W_O", H * dv, d), *Y = malloc(sizeof(double) * n * d);
        mul(concat, WO, n, H * dv, d, Y, size);
        for (long k = 0; k < (long)n * d; k++) size[k] += 1;
        double *got = matrix(root, "Y", n, d);
        close_to(got, Y, size, (long)n * d, "Y", -1);
        /* head 1 is also the top level, for readers of a single head */
        if (pos == POS_ALIBI) { /* the bias as exported: head 1's slope 2^(−8/H) */
            double *B = matrix(root, "bias", n, n);
            for (int i = 0; i < n; i++)
                for (int j = 0; j < n; j++)
                    cr_assert(fabs(B[i * n + j] + pow(2.0, -8.0 / H) * abs(i - j)) <= 1e-6 * n,
                              "bias[%d][%d] = %g", i, j, B[i * n + j]);
            free(B);
        }
        double *S1 = matrix(root, "S", n, n), *S1h = matrix(heads->child, "S", n, n);
        for (long k = 0; k < (long)n * n; k++)
            cr_assert(S1[k] == S1h[k] || (isinf(S1[k]) && isinf(S1h[k])));
        free(S1), free(S1h), free(got), free(WO), free(Y), free(concat), free(size), free(X);
        cJSON_Delete(root);
    }
    derived_free(&derived);
}

Test(heads, W_O_has_the_promised_scale) {
    /* entries N(0, 1)/√(H·d_v): their mean square is 1/(H·d_v), within 10 %
     * over 8·64·64 = 32768 draws (the standard error of a mean square of
     * normals is √(2/N) ≈ 0.8 %) */
    Rng r;
    rng_seed(&r, 5);
    make_scene(&r, 3, 64, 4, 64, 8, MASK_NONE, false, true);
    double ms = 0;
    long count = (long)8 * 64 * 64;
    for (long k = 0; k < count; k++) ms += (double)derived.W_O[k] * derived.W_O[k];
    ms /= (double)count;
    cr_assert(fabs(ms * 8 * 64 - 1) < 0.1, "mean square × H·d_v = %g", ms * 8 * 64);
    derived_free(&derived);
}

Test(heads, adding_heads_never_changes_the_first_ones) {
    Rng r;
    rng_seed(&r, 11);
    make_scene(&r, 7, 3, 5, 4, 1, MASK_NONE, false, true);
    static Derived one, more;
    cr_assert(derived_update(&one, &scene));
    for (int H = 2; H <= ATTN_MAX_HEADS; H += 7) {
        scene.heads = H;
        cr_assert(derived_update(&more, &scene));
        const Attn *a = derived_head(&one, 0), *b = derived_head(&more, 0);
        cr_assert_eq(memcmp(one.W_Q, more.W_Q, sizeof(float) * 3 * 5), 0, "W_Q of head 1");
        cr_assert_eq(memcmp(a->A, b->A, sizeof(float) * 49), 0, "A of head 1, H = %d", H);
        cr_assert_eq(memcmp(a->O, b->O, sizeof(float) * 28), 0, "O of head 1, H = %d", H);
        /* and head 2 is not head 1 again */
        cr_assert_neq(memcmp(derived_w(&more, 1, PROJ_Q), more.W_Q, sizeof(float) * 15), 0);
    }
    derived_free(&one);
    derived_free(&more);
    derived_free(&derived);
}

/* max |Y(PX) − P·Y(X)| for a reversal. */
static double equivariance_gap(Rng *r, Mask_Mode mask, bool pos) {
    make_scene(r, 6, 4, 8, 5, 3, mask, pos, true);
    static float before[ATTN_MAX_TOKENS * ATTN_MAX_D];
    int n = scene.n, d = scene.d;
    memcpy(before, derived.Y, sizeof(float) * (size_t)n * d);
    int p[ATTN_MAX_TOKENS];
    perm_reverse(n, p);
    scene_permute(&scene, p);
    cr_assert(derived_update(&derived, &scene));
    double gap = 0;
    for (int i = 0; i < n; i++)
        for (int c = 0; c < d; c++)
            gap = fmax(gap, fabs((double)derived.Y[i * d + c] - before[p[i] * d + c]));
    return gap;
}

Test(heads, Y_follows_a_reordering_unless_the_mask_or_positions_see_slots) {
    Rng r;
    rng_seed(&r, 77);
    for (int t = 0; t < 10; t++) {
        /* equal up to float rounding of sums of a few dozen terms of size ~10 */
        double plain = equivariance_gap(&r, MASK_NONE, false);
        cr_assert_leq(plain, 1e-4, "case %d: without mask or positions, gap %g", t, plain);
        double masked = equivariance_gap(&r, MASK_CAUSAL, false);
        cr_assert_gt(masked, 1e-2, "case %d: the causal mask is by slot: gap %g", t, masked);
    }
    derived_free(&derived);
}

Test(heads, the_incremental_drag_matches_a_full_recompute_for_every_head) {
    Rng r;
    rng_seed(&r, 8);
    make_scene(&r, 9, 3, 6, 4, 4, MASK_CAUSAL, true, true);
    static Derived full;
    for (int k = 0; k < 12; k++) {
        int i = (int)(rng_next_u64(&r) % 9);
        scene.X[i * 3] += 0.3f;
        cr_assert(derived_update_token(&derived, &scene, i));
        cr_assert(derived_update(&full, &scene));
        for (int h = 0; h < 4; h++) {
            const Attn *a = derived_head(&derived, h), *b = derived_head(&full, h);
            cr_assert_eq(memcmp(a->S, b->S, sizeof(float) * 81), 0, "S of head %d", h + 1);
            cr_assert_eq(memcmp(a->A, b->A, sizeof(float) * 81), 0, "A of head %d", h + 1);
            cr_assert_eq(memcmp(a->O, b->O, sizeof(float) * 36), 0, "O of head %d", h + 1);
        }
        cr_assert_eq(memcmp(derived.Y, full.Y, sizeof(float) * 27), 0, "Y");
    }
    derived_free(&full);
    derived_free(&derived);
}
