/* The positional schemes (src/core/posenc.c) through the scene
 * (src/model/scene.c) and the shift lab (src/model/shift.c): RoPE's and
 * ALiBi's scores depend on i − j only, so moving the whole sentence later
 * leaves S alone to float rounding, at every offset the settings allow; the
 * added schemes change it. Also: RoPE's identities, ALiBi's slopes, the
 * learned table's draw, and the permutation verdict of every scheme. */
#include "core/posenc.h"
#include "model/labs.h"
#include "model/settings.h"
#include "test_util.h"

#include <math.h>
#include <string.h>

static Vocab vocab;
static Scene scene;
static Derived at0, shifted;

static void setup(void) {
    test_load_vocab(&vocab);
}

static void teardown(void) {
    derived_free(&at0);
    derived_free(&shifted);
    vocab_free(&vocab);
}

TestSuite(positions, .init = setup, .fini = teardown);

static void make(Rng *r, int n, int d, int dk, int heads, Pos_Mode pos, Mask_Mode mask) {
    scene_default(&scene);
    char err[256];
    cr_assert(scene_set_sentence(&scene, "the cat sat on the mat and the dog ran off", &vocab, err,
                                 sizeof err));
    scene.n = n; /* the first n words */
    scene_set_d(&scene, d, &vocab);
    for (int k = 0; k < n * d; k++) scene.X[k] = (float)(rng_uniform(r) * 3 - 1.5);
    scene.d_k = dk;
    scene.heads = heads;
    scene.pos = pos;
    scene.mask = mask;
    scene.seed = (uint32_t)rng_next_u64(r);
    cr_assert(scene_validate(&scene, err, sizeof err), "%s", err);
}

/* max |S(offset) − S(0)| over the cells the mask leaves, over max |S(0)|, every head. */
static double shift_change(int offset) {
    scene.pos_offset = 0;
    cr_assert(derived_update(&at0, &scene));
    scene.pos_offset = offset;
    cr_assert(derived_update(&shifted, &scene));
    double diff = 0, big = 0;
    for (int h = 0; h < scene.heads; h++) {
        const Attn *a = derived_head(&at0, h), *b = derived_head(&shifted, h);
        for (long k = 0; k < (long)scene.n * scene.n; k++) {
            if (!isfinite(a->S[k])) {
                cr_assert(isinf(b->S[k]), "the mask does not move with the offset");
                continue;
            }
            diff = fmax(diff, fabs((double)a->S[k] - b->S[k]));
            big = fmax(big, fabs((double)a->S[k]));
        }
    }
    return diff / big;
}

Test(positions, rope_and_alibi_scores_ignore_where_the_sentence_starts) {
    Rng r;
    rng_seed(&r, 77);
    static const int offsets[] = {1, 7, 100, 513, 999, ATTN_MAX_POS_OFFSET};
    for (int t = 0; t < 24; t++) {
        Pos_Mode pos = t % 2 ? POS_ROPE : POS_ALIBI;
        make(&r, 2 + t % 10, 1 + t % 7, 1 + (t * 5) % 33, 1 + t % 4, pos,
             t % 3 ? MASK_NONE : MASK_CAUSAL);
        for (size_t o = 0; o < sizeof offsets / sizeof *offsets; o++) {
            double rel = shift_change(offsets[o]);
            /* float32: the turned q and k are rounded once each (2^-24), the
             * sum of a row a few ulp more; 1e-6 of the scores' size holds it */
            cr_assert(rel <= 1e-6, "%s, offset %d: S changed by %.3g of its size",
                      pos == POS_ROPE ? "rope" : "alibi", offsets[o], rel);
        }
    }
}

Test(positions, sinusoid_and_learned_scores_change_when_the_sentence_moves) {
    Rng r;
    rng_seed(&r, 78);
    for (int t = 0; t < 12; t++) {
        Pos_Mode pos = t % 2 ? POS_SIN : POS_LEARNED;
        make(&r, 3 + t % 6, 2 + t % 5, 4 + t % 9, 1, pos, MASK_NONE);
        double rel = shift_change(100);
        cr_assert(rel > 1e-2, "%s: a shift of 100 changed S by only %.3g of its size",
                  pos == POS_SIN ? "sin" : "learned", rel);
    }
}

Test(positions, rope_keeps_lengths_and_sees_only_the_difference_of_positions) {
    Rng r;
    rng_seed(&r, 5);
    for (int t = 0; t < 200; t++) {
        int dk = 1 + (int)(rng_next_u64(&r) % 40);
        double base = t % 2 ? 10000.0 : 2 + rng_uniform(&r) * 1e6;
        float q[40], k[40], rq[40], rk[40], k0[40];
        for (int c = 0; c < dk; c++) {
            q[c] = (float)(rng_uniform(&r) * 2 - 1);
            k[c] = (float)(rng_uniform(&r) * 2 - 1);
        }
        int a = (int)(rng_next_u64(&r) % 1500), b = (int)(rng_next_u64(&r) % 1500);
        posenc_rope_row(q, dk, a, base, rq);
        posenc_rope_row(k, dk, b, base, rk);
        posenc_rope_row(k, dk, b - a, base, k0); /* ⟨R_a q, R_b k⟩ = ⟨q, R_(b−a) k⟩ */
        double lhs = 0, rhs = 0, nq = 0, nrq = 0, size = 0;
        for (int c = 0; c < dk; c++) {
            lhs += (double)rq[c] * rk[c];
            rhs += (double)q[c] * k0[c];
            nq += (double)q[c] * q[c];
            nrq += (double)rq[c] * rq[c];
            size += fabs((double)q[c]) * fabs((double)k[c]) + fabs((double)q[c] * k0[c]);
        }
        cr_assert(fabs(lhs - rhs) <= 1e-6 * (size + 1e-30), "d_k %d: %.9g vs %.9g", dk, lhs, rhs);
        cr_assert(fabs(nq - nrq) <= 1e-6 * nq + 1e-30, "turning keeps the length");
        if (dk % 2) cr_assert_eq(rq[dk - 1], q[dk - 1], "an odd d_k's last coordinate stays");
    }
    cr_assert(fabs(posenc_rope_theta(0, 16, 10000) - 1) < 1e-15, "pair 0 turns 1 radian a step");
    cr_assert(fabs(posenc_rope_theta(7, 16, 10000) - pow(10000, -14.0 / 16)) < 1e-15);
}

Test(positions, alibi_slopes_are_powers_of_two) {
    for (int h = 1; h <= 8; h++)
        cr_assert_eq(posenc_alibi_slope(h, 8), ldexp(1.0, -h), "H = 8: m_%d = 2^-%d", h, h);
    cr_assert_eq(posenc_alibi_slope(1, 1), 1.0 / 256, "one head: 2^-8");
    cr_assert_eq(posenc_alibi_slope(2, 16), 0.5, "H = 16: m_2 = 2^-1");
}

Test(positions, the_float64_turn_is_the_float_turn) {
    /* posenc_rope_row_f64 (the training labs') and posenc_rope_row (the explorer's) share
     * one turn in double: on the same float inputs they agree to the float's rounding of
     * the double result, half an ulp */
    float src[7] = {0.3f, -1.25f, 2.0f, 0.5f, -0.75f, 1.5f, 0.125f}, out[7];
    double srcd[7], outd[7];
    for (int c = 0; c < 7; c++) srcd[c] = src[c];
    for (int p = -40; p <= 40; p += 7) {
        posenc_rope_row(src, 7, p, 10000.0, out);
        posenc_rope_row_f64(srcd, 7, p, 10000.0, outd);
        for (int c = 0; c < 7; c++)
            cr_assert_eq(out[c], (float)outd[c], "p %d, coordinate %d", p, c);
        cr_assert_eq(outd[6], srcd[6], "an odd d_k leaves its last coordinate");
        posenc_rope_row_f64(outd, 7, -p, 10000.0, outd); /* turning back is the inverse */
        for (int c = 0; c < 7; c++) cr_assert(fabs(outd[c] - srcd[c]) < 1e-14);
    }
}

Test(positions, the_learned_table_is_drawn_per_row_from_the_seed) {
    static float a[40 * 8], b[8 * 8], c[40 * 8];
    posenc_learned(9, 0, 40, 8, 1.0f, a);
    posenc_learned(9, 32, 8, 8, 1.0f, b); /* rows 32 … 39 asked for on their own */
    cr_assert_eq(memcmp(a + 32 * 8, b, sizeof b), 0, "a row is the same whatever asks for it");
    posenc_learned(10, 0, 40, 8, 1.0f, c);
    cr_assert_neq(memcmp(a, c, sizeof a), 0, "another seed, another table");
    /* entries N(0, ½): mean square ½ within 10 % over 1536 · 16 draws */
    static float all[POSENC_LEARNED_ROWS * 16];
    posenc_learned(3, 0, POSENC_LEARNED_ROWS, 16, 2.0f, all);
    double ms = 0;
    for (int k = 0; k < POSENC_LEARNED_ROWS * 16; k++) ms += (double)all[k] * all[k];
    ms /= POSENC_LEARNED_ROWS * 16 * 4.0; /* strength 2 */
    cr_assert(fabs(ms - 0.5) < 0.05, "mean square %g", ms);
}

Test(positions, the_shift_lab_gives_each_scheme_its_verdict) {
    Rng r;
    rng_seed(&r, 12);
    static Labs labs;
    for (int t = 0; t < 6; t++) {
        make(&r, 5 + t, 3, 8 + t, 1 + t % 3, (Pos_Mode)(t % POS_MODE_COUNT),
             t % 2 ? MASK_CAUSAL : MASK_NONE);
        scene.pos_offset = 250 + 100 * t;
        cr_assert(derived_update(&at0, &scene));
        cr_assert(shift_update(&labs.shift, &scene, &at0, 1, 3));
        const Lab_Shift *sh = &labs.shift;
        for (int m = 0; m < POS_MODE_COUNT; m++) {
            const Shift_Scheme *sc = &sh->scheme[m];
            bool relative = m == POS_NONE || m == POS_ROPE || m == POS_ALIBI;
            if (relative) {
                cr_assert(sc->shift_rel <= 1e-6, "scheme %d: shift %.3g", m, sc->shift_rel);
                /* the pair's score is flat along i at a fixed i − j */
                for (int k = 1; k < SHIFT_SPAN; k++)
                    cr_assert(
                        fabs(sc->by_pos[k] - sc->by_pos[0]) <= 1e-5 * (1 + fabs(sc->by_pos[0])),
                        "scheme %d: by_pos[%d] %.9g vs %.9g", m, k, sc->by_pos[k], sc->by_pos[0]);
            } else {
                cr_assert(sc->shift_rel > 1e-2, "scheme %d: shift %.3g", m, sc->shift_rel);
            }
            /* the probe is the rotation by one: only content-only attention
             * without the mask (itself a matter of slots) follows it */
            cr_assert(sh->rotated);
            if (m == POS_NONE && scene.mask == MASK_NONE)
                cr_assert(sc->perm_rel <= 1e-6, "no positions: O moves with its tokens");
            else
                cr_assert(sc->perm_rel > 1e-4, "scheme %d sees the order (%.3g)", m, sc->perm_rel);
        }
        /* the scene's own scheme: S at the offset is the explorer's S */
        for (long k = 0; k < (long)scene.n * scene.n; k++)
            cr_assert(sh->S1[k] == at0.pass.head[0].S[k] ||
                          (isinf(sh->S1[k]) && isinf(at0.pass.head[0].S[k])),
                      "S at the offset is the scene's own");
        /* ALiBi's pair curve: −m·|i − j| around the content score */
        const Shift_Scheme *al = &sh->scheme[POS_ALIBI], *no = &sh->scheme[POS_NONE];
        double m1 = posenc_alibi_slope(1, scene.heads);
        for (int k = 0; k < SHIFT_DELTAS; k++)
            cr_assert(fabs(al->by_delta[k] - (no->by_delta[k] - m1 * abs(k - SHIFT_REACH))) <= 1e-5,
                      "alibi's bias at i − j = %d", k - SHIFT_REACH);
    }
    labs_free(&labs);
}
