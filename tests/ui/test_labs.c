/* src/ui/scaling_view.c, src/ui/permutation_view.c and src/model/labs.c: the numbers the labs show
 * come from the layer stack and agree with an independent recomputation. */
#include "nn/attend.h"
#include "core/perm.h"
#include "core/posenc.h"
#include "core/projection.h"
#include "harness.h"

#include <math.h>

static Harness h;

static void open_default(void) {
    harness_open(&h, "default.json", 1600, 900, (Text_Metrics){0});
}

static void close_default(void) {
    harness_close(&h);
}

TestSuite(labs, .init = open_default, .fini = close_default);

/* Attention of the scene's tokens in the given order (rows of X0 picked by
 * order), positions by slot when on; returns the outputs in a fresh buffer. */
static float *outputs(const Scene *s, const float *X0, const int *order) {
    int n = s->n, d = s->d;
    float *X = malloc(sizeof(float) * n * d), *P = NULL;
    float *WQ = malloc(sizeof(float) * d * s->d_k), *WK = malloc(sizeof(float) * d * s->d_k);
    float *WV = malloc(sizeof(float) * d * s->d_v);
    perm_apply_rows(order, n, X0, d, X);
    if (s->pos == POS_SIN) {
        P = malloc(sizeof(float) * n * d);
        posenc_sinusoidal(0, n, d, s->pos_strength, P);
    }
    proj_fill(s->seed, PROJ_Q, 0, d, s->d_k, WQ);
    proj_fill(s->seed, PROJ_K, 0, d, s->d_k, WK);
    proj_fill(s->seed, PROJ_V, 0, d, s->d_v, WV);
    const float *w[3] = {WQ, WK, WV};
    Attend a = {0};
    cr_assert(attend_compute(&a, &(Attend_Desc){.n = n,
                                                .d = d,
                                                .d_k = s->d_k,
                                                .d_v = s->d_v,
                                                .heads = 1,
                                                .scaled = s->scaled,
                                                .X = X,
                                                .P = P,
                                                .W_Q = &w[0],
                                                .W_K = &w[1],
                                                .W_V = &w[2]}));
    float *O = malloc(sizeof(float) * n * s->d_v);
    memcpy(O, a.head[0].O, sizeof(float) * n * s->d_v);
    attend_free(&a);
    free(X);
    free(P);
    free(WQ);
    free(WK);
    free(WV);
    return O;
}

static double independent_max_diff(const Scene *original, const int *p) {
    int n = original->n, dv = original->d_v, id[ATTN_MAX_TOKENS];
    perm_identity(n, id);
    float *OX = outputs(original, original->X, id); /* Attention(X) */
    float *OPX = outputs(original, original->X, p); /* Attention(PX) */
    double m = 0;
    for (int i = 0; i < n; i++)
        for (int c = 0; c < dv; c++) m = fmax(m, fabs((double)OPX[i * dv + c] - OX[p[i] * dv + c]));
    free(OX);
    free(OPX);
    return m;
}

Test(labs, printed_difference_matches_an_independent_recomputation) {
    static Scene original;
    original = h.m.scene;
    h.vs.view = VIEW_PERMUTATION;
    harness_key(&h, KEY_CHAR, 'r', false, false); /* reverse */
    harness_key(&h, KEY_CHAR, 't', false, false); /* and rotate by one */
    harness_frame(&h);
    int p[ATTN_MAX_TOKENS];
    memcpy(p, h.m.scene.origin, sizeof(int) * 6);
    double want = independent_max_diff(&original, p);
    const Lab_Permutation *lp = &h.m.labs.perm;
    cr_assert(lp->valid);
    cr_assert_float_eq(lp->max_diff_O, want, 1e-12, "lab %g vs independent %g", lp->max_diff_O,
                       want);
    cr_assert_leq(want, 1e-5, "without positions the two agree up to rounding: %g", want);
    char printed[64];
    snprintf(printed, sizeof printed, "Attention(X)|\u00a0=\u00a0%.1e", lp->max_diff_O);
    cr_assert(harness_drew_text(&h, printed), "the view prints '%s'", printed);

    /* positions on: order now matters, and by far more than rounding */
    const Ui_Record *tg = harness_find(&h, "button", "pos", POS_SIN);
    harness_click(&h, rect_cx(tg), rect_cy(tg));
    cr_assert_eq(h.m.scene.pos, POS_SIN);
    original.pos = POS_SIN;
    want = independent_max_diff(&original, p);
    cr_assert_float_eq(lp->max_diff_O, want, 1e-12);
    cr_assert_gt(want, 1e-3, "with positions the difference is large: %g", want);
    snprintf(printed, sizeof printed, "Attention(X)|\u00a0=\u00a0%.1e", want);
    cr_assert(harness_drew_text(&h, printed), "the view prints '%s'", printed);
}

Test(labs, restoring_the_order_makes_p_the_identity) {
    h.vs.view = VIEW_PERMUTATION;
    harness_key(&h, KEY_CHAR, 's', false, false);
    harness_key(&h, KEY_CHAR, 'i', false, false);
    harness_frame(&h);
    cr_assert_eq(h.m.labs.perm.max_diff_O, 0.0, "same order, same numbers, bit for bit");
}

static double var_sd(int dk, int n) {
    return sqrt((2.0 * dk * dk + 6.0 * dk) / n); /* see tests/core/test_stats.c */
}

Test(labs, experiment_histograms_count_every_sample_and_match_theory) {
    h.vs.view = VIEW_SCALING;
    const int dks[3] = {4, 64, 512};
    for (int k = 0; k < 3; k++) {
        harness_act(&h, action_set(SET_DK, dks[k]));
        harness_frame(&h);
        const Lab_Experiment *e = &h.m.labs.exp;
        cr_assert(e->valid);
        cr_assert_eq(e->d_k, dks[k]);
        long raw = 0, scaled = 0;
        for (int b = 0; b < LAB_HIST_BINS; b++) {
            raw += e->hist_raw[b];
            scaled += e->hist_scaled[b];
        }
        cr_assert_eq(raw, e->samples);
        cr_assert_eq(scaled, e->samples);
        cr_assert(fabs(e->stats.raw_var - dks[k]) <= 5 * var_sd(dks[k], e->samples), "d_k %d: %g",
                  dks[k], e->stats.raw_var);
        cr_assert(fabs(e->stats.scaled_var - 1) <= 5 * var_sd(dks[k], e->samples) / dks[k]);
    }
}

Test(labs, resample_draws_new_numbers) {
    h.vs.view = VIEW_SCALING;
    harness_frame(&h);
    double before = h.m.labs.exp.stats.raw_var;
    const Ui_Record *b = harness_find(&h, "button", "resample", -1);
    harness_click(&h, rect_cx(b), rect_cy(b));
    cr_assert_neq(h.m.labs.exp.stats.raw_var, before);
}

Test(labs, moving_dk_updates_the_lab_in_the_same_frame) {
    h.vs.view = VIEW_SCALING;
    harness_frame(&h);
    const Ui_Record *sl = harness_find(&h, "slider", "dk", -1);
    harness_press(&h, sl->r.x + sl->r.w - 2, sl->r.y + sl->r.h * 0.75f);
    /* the frame that moved the slider already shows the new experiment */
    cr_assert_eq(h.m.scene.d_k, 1024);
    cr_assert_eq(h.m.labs.exp.d_k, 1024);
    harness_release(&h);
}

Test(labs, curves_are_finite_and_unscaled_collapses) {
    h.vs.view = VIEW_SCALING;
    harness_frame(&h);
    const Lab_Curves *c = &h.m.labs.curves;
    cr_assert(c->valid);
    cr_assert_eq(c->dks[0], 1);
    cr_assert_eq(c->dks[c->count - 1], 1024);
    for (int k = 0; k < c->count; k++) {
        cr_assert(isfinite(c->ent_scaled[k]) && isfinite(c->ent_raw[k]));
        cr_assert_leq(c->ent_raw[k], c->ent_scaled[k] + 1e-9);
    }
    /* at d_k = 1024 unscaled, attention is far sharper than scaled */
    cr_assert_gt(c->max_raw[c->count - 1], c->max_scaled[c->count - 1] + 0.1);
}

static bool panel_shown(const char *name) {
    for (int k = 0; k < h.ui.record_count; k++)
        if (!strcmp(h.records[k].kind, "panel") && !strcmp(h.records[k].name, name)) return true;
    return false;
}

Test(labs, a_narrow_permutation_lab_keeps_every_matrix_a_tab_away) {
    h.vs.view = VIEW_PERMUTATION;
    h.w = 880; /* the room a lesson leaves beside the lab */
    h.h = 560;
    harness_frame(&h);
    cr_assert(panel_shown("A_PX") && panel_shown("A_P") && panel_shown("A_diff"));
    cr_assert_not(panel_shown("O_PX"));
    static const char *const rows[3][3] = {
        {"A_PX", "A_P", "A_diff"}, {"O_PX", "O_P", "O_diff"}, {"P", "P", "P"}};
    for (int k = 2; k >= 0; k--) {
        const Ui_Record *tab = harness_find(&h, "button", "perm_tab", k);
        harness_click(&h, rect_cx(tab), rect_cy(tab));
        for (int j = 0; j < 3; j++) cr_assert(panel_shown(rows[k][j]), "tab %d: %s", k, rows[k][j]);
    }
}

Test(labs, the_mask_breaks_equivariance_and_the_verdict_says_why) {
    h.vs.view = VIEW_PERMUTATION;
    harness_act(&h, action_set(SET_MASK, MASK_CAUSAL));
    harness_frame(&h);
    cr_assert_leq(h.m.labs.perm.max_diff_O, 1e-5, "the original order: nothing to compare");
    harness_key(&h, KEY_CHAR, 'r', false, false);
    cr_assert_gt(h.m.labs.perm.max_diff_O, 1e-2, "reversed under the mask: %g",
                 h.m.labs.perm.max_diff_O);
    cr_assert(harness_drew_text(&h, "the causal mask is defined by slot"));
    /* and without the mask the same reversal changes nothing */
    harness_act(&h, action_set(SET_MASK, MASK_NONE));
    harness_frame(&h);
    cr_assert_leq(h.m.labs.perm.max_diff_O, 1e-5);
}

Test(labs, the_fixed_axis_keeps_the_raw_histogram_still_while_d_k_grows) {
    h.vs.view = VIEW_SCALING;
    harness_frame(&h);
    const Ui_Record *tg = harness_find(&h, "toggle", "fixed_axis", -1);
    harness_click(&h, rect_cx(tg), rect_cy(tg));
    cr_assert(h.vs.scaling.fixed_axis);
    /* the axis ticks read ±128 (4 SD at d_k = 1024), whatever d_k is */
    for (int dk = 4; dk <= 1024; dk *= 16) {
        harness_act(&h, action_set(SET_DK, dk));
        harness_frame(&h);
        cr_assert(harness_drew_text(&h, "128") && harness_drew_text(&h, "-128"), "d_k %d", dk);
    }
    harness_act(&h, action_set(SET_DK, 16));
    harness_click(&h, rect_cx(tg), rect_cy(tg));
    harness_frame(&h);
    cr_assert_not(harness_drew_text(&h, "-128"), "its own axis again: ±4·√16");
}
