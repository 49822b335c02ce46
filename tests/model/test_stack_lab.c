/* src/model/stack_lab.c and model_explore_head: the layers lab measures at
 * the command line's steps whatever the slicing, zeroing a head is a view
 * of the model and never changes training, the K-composition score is the
 * float64 formula, and a trained head opened in the explorer is that head. */
#include "model/model.h"
#include "test_util.h"

#include <math.h>
#include <string.h>

static Stack_Lab lab, other;
static Stack ref;

static void teardown(void) {
    stack_lab_free(&lab);
    stack_lab_free(&other);
    stack_free(&ref);
}

TestSuite(stack_lab, .fini = teardown);

/* The command line's loop (main.c): a step, and every STACK_LAB_EVERY steps
 * the held-out metrics, with the phase step the first with a prefix match
 * over 0.5. The lab, run in odd slices, ends on the same bits. */
Test(stack_lab, it_measures_where_the_command_line_does_whatever_the_slices) {
    if (getenv("ATTNLAB_SANITIZED")) cr_skip("numbers: judged in the normal pass");
    Stack_Desc d = stack_lab_desc(2, 1, TRAIN_POS_LEARNED, 1);
    cr_assert(stack_lab_reset(&lab, &d));
    static const long slices[] = {7, 93, 1, 299, 200};
    for (size_t k = 0; k < sizeof slices / sizeof *slices; k++)
        cr_assert(stack_lab_run(&lab, slices[k]));
    cr_assert_eq(lab.stack.steps, 600);
    cr_assert(stack_init(&ref, &d));
    Stack_Metrics m;
    long phase = -1;
    for (long k = 0; k <= 600; k++) {
        if (k) stack_step(&ref);
        if (k % STACK_LAB_EVERY) continue;
        stack_eval(&ref, &m);
        if (phase < 0 && (m.prefix_match[0][0] > 0.5 || m.prefix_match[1][0] > 0.5)) phase = k;
    }
    cr_assert_eq(memcmp(ref.param, lab.stack.param, sizeof(double) * (size_t)ref.count), 0,
                 "the same parameters, bit for bit");
    cr_assert_eq(lab.phase_step, phase);
    cr_assert_geq(phase, 0, "the default model forms an induction head by step 600");
    cr_assert_eq(lab.last.in_context_loss, m.in_context_loss);
    cr_assert_eq(lab.points, 600 / STACK_LAB_EVERY + 1, "one point a measurement, step 0 too");
    cr_assert_eq(lab.at[lab.points - 1], 600);
    cr_assert_eq(lab.in_context[lab.points - 1], (float)m.in_context_loss);
}

/* Full, the curve keeps every other point and measures half as often: its
 * span stays the whole run. On a small model, so thousands of steps are
 * quick. */
Test(stack_lab, a_full_curve_thins_by_halves) {
    Stack_Desc d = {.layers = 1,
                    .heads = 1,
                    .width = 4,
                    .vocab = 4,
                    .context = 8,
                    .repeat_min = 2,
                    .repeat_max = 4,
                    .pos = TRAIN_POS_LEARNED,
                    .seed = 3,
                    .lr = 0.01,
                    .batch = 2};
    cr_assert(stack_lab_reset(&lab, &d));
    long steps = (long)STACK_LAB_POINTS * STACK_LAB_EVERY + 6 * STACK_LAB_EVERY;
    cr_assert(stack_lab_run(&lab, steps));
    cr_assert_eq(lab.stride, 2);
    cr_assert_leq(lab.points, STACK_LAB_POINTS);
    cr_assert_eq(lab.at[0], 0);
    cr_assert_eq(lab.at[lab.points - 1], steps, "the curve reaches the last measurement");
    for (int p = 1; p < lab.points; p++)
        cr_assert_eq(lab.at[p] - lab.at[p - 1], 2 * STACK_LAB_EVERY, "evenly spaced");
}

/* Zeroing the previous-token head breaks the induction head in the layer
 * above: the in-context loss climbs towards chance. Bringing it back gives
 * the whole model's numbers exactly, and training goes on for every head
 * while one is zeroed: the same parameters as a lab that never zeroed one. */
Test(stack_lab, zeroing_a_head_is_a_view_and_training_trains_every_head) {
    /* a learning outcome and an identity of numbers; the zeroing's memory is the buttons'
     * test's (ui) under the sanitizers */
    if (getenv("ATTNLAB_SANITIZED")) cr_skip("a learning outcome: judged in the normal pass");
    Stack_Desc d = stack_lab_desc(2, 1, TRAIN_POS_LEARNED, 1);
    cr_assert(stack_lab_reset(&lab, &d));
    cr_assert(stack_lab_reset(&other, &d));
    cr_assert(stack_lab_run(&lab, 600));
    cr_assert(stack_lab_run(&other, 600));
    stack_lab_derive(&lab);
    double whole = lab.shown.in_context_loss;
    cr_assert_eq(whole, lab.last.in_context_loss);
    cr_assert_lt(whole, 0.5 * log(16.0), "trained: below half of chance");
    stack_lab_ablate(&lab, 0, 0);
    cr_assert_eq(stack_lab_ablated(&lab), 1);
    stack_lab_derive(&lab);
    cr_assert_gt(lab.shown.in_context_loss, whole + 1, "%g against %g", lab.shown.in_context_loss,
                 whole);
    static double zeroed[24 * 24];
    memcpy(zeroed, stack_attention(&lab.stack, 1, 0), sizeof zeroed);
    stack_lab_ablate(&lab, 0, 0);
    stack_lab_derive(&lab);
    cr_assert_eq(lab.shown.in_context_loss, whole, "back: the whole model's numbers");
    double moved = 0; /* with layer 0's head zeroed, layer 1 read another stream */
    for (int k = 0; k < 24 * 24; k++)
        moved = fmax(moved, fabs(zeroed[k] - stack_attention(&lab.stack, 1, 0)[k]));
    cr_assert_gt(moved, 0.1, "layer 1's A moved by %g", moved);
    stack_lab_ablate(&lab, 0, 0); /* zeroed again, and on with training */
    cr_assert(stack_lab_run(&lab, 100));
    cr_assert(stack_lab_run(&other, 100));
    stack_lab_derive(&lab);
    cr_assert_eq(
        memcmp(lab.stack.param, other.stack.param, sizeof(double) * (size_t)lab.stack.count), 0,
        "a zeroed head still trains");
    cr_assert_eq(lab.phase_step, other.phase_step);
}

/* K-composition against the formula written out in float64, and two of its
 * identities: it ignores the scale of either matrix, and a head that writes
 * nothing (W_O = 0) composes with nothing. */
Test(stack_lab, k_composition_is_the_normalised_frobenius_norm) {
    Stack_Desc d = stack_lab_desc(2, 2, TRAIN_POS_LEARNED, 5);
    cr_assert(stack_init(&ref, &d));
    for (int k = 0; k < 40; k++) stack_step(&ref);
    int w = d.width, dh = ref.d_h;
    double *const *to = ref.W[1][1], *const *from = ref.W[0][0];
    static double qk[16 * 16], ov[16 * 16];
    for (int a = 0; a < w; a++)
        for (int b = 0; b < w; b++) {
            double s = 0, t = 0;
            for (int c = 0; c < dh; c++) {
                s += to[0][a * dh + c] * to[1][b * dh + c];    /* W_Q W_Kᵀ */
                t += from[2][a * dh + c] * from[3][c * w + b]; /* W_V W_O */
            }
            qk[a * w + b] = s;
            ov[a * w + b] = t;
        }
    double nb = 0, nq = 0, no = 0;
    for (int a = 0; a < w; a++)
        for (int b = 0; b < w; b++) {
            double s = 0;
            for (int c = 0; c < w; c++) s += qk[a * w + c] * ov[b * w + c]; /* W_QK W_OVᵀ */
            nb += s * s;
            nq += qk[a * w + b] * qk[a * w + b];
            no += ov[a * w + b] * ov[a * w + b];
        }
    double want = sqrt(nb) / (sqrt(nq) * sqrt(no)), got = stack_k_composition(&ref, 0, 0, 1, 1);
    cr_assert(fabs(got - want) <= 1e-12 * want, "%.17g against %.17g", got, want);
    cr_assert(got > 0 && got <= 1, "a cosine-like ratio: %g", got);
    for (long k = 0; k < (long)w * dh; k++) from[2][k] *= 3; /* W_V three times larger */
    double scaled = stack_k_composition(&ref, 0, 0, 1, 1);
    cr_assert(fabs(scaled - want) <= 1e-12 * want, "%.17g against %.17g", scaled, want);
    memset(from[3], 0, sizeof(double) * (size_t)(dh * w));
    cr_assert_eq(stack_k_composition(&ref, 0, 0, 1, 1), 0);
}

/* "explore ↗": the explorer's scene is the head's input stream with its
 * trained weights, so the explorer's A is the head's A (to float32), undo
 * goes back, and a new seed returns to the seed's random weights. */
Test(stack_lab, a_head_opened_in_the_explorer_is_that_head) {
    static Vocab vocab;
    static Model m;
    test_load_vocab(&vocab);
    Scene s;
    scene_default(&s);
    char err[300];
    cr_assert(scene_set_sentence(&s, "the cat sat on the mat", &vocab, err, sizeof err));
    cr_assert(model_init(&m, &s, &vocab));
    cr_assert_not(model_explore_head(&m, 1, 0, err, sizeof err), "no lab yet");
    Stack_Desc d = stack_lab_desc(2, 1, TRAIN_POS_LEARNED, 1);
    cr_assert(stack_lab_reset(&m.stack, &d));
    cr_assert(stack_lab_run(&m.stack, 400));
    cr_assert_not(model_explore_head(&m, 2, 0, err, sizeof err), "no layer 2");
    cr_assert(strstr(err, "no head 0 of layer 2"), "%s", err);
    cr_assert(model_explore_head(&m, 1, 0, err, sizeof err), "%s", err);
    cr_assert(model_update(&m));
    const Scene *e = &m.scene;
    cr_assert(e->learned && e->n == 24 && e->d == 16 && e->d_k == 16 && e->heads == 1);
    cr_assert_eq(e->mask, MASK_CAUSAL);
    cr_assert_eq(e->pos, POS_NONE, "the learned positions are in x already");
    cr_assert(scene_uses_learned(e, m.derived.learned));
    stack_example(&m.stack.stack);
    const double *want = stack_attention(&m.stack.stack, 1, 0);
    const Attn *a = &m.derived.pass.head[0];
    double worst = 0;
    for (int k = 0; k < 24 * 24; k++) worst = fmax(worst, fabs(a->A[k] - want[k]));
    cr_assert_leq(worst, 1e-5, "the explorer's A is the head's: max |ΔA| %g", worst);
    for (int k = 0; k < 16 * 16; k++)
        cr_assert_eq(m.derived.W_Q[k], (float)m.stack.stack.W[1][0][0][k]);
    cr_assert(strstr(m.learned.what, "layer 1 head 0") && strstr(m.learned.what, "step 400"), "%s",
              m.learned.what);
    /* a new seed: the seed's weights again */
    cr_assert(model_apply(&m, &(Action){.kind = ACTION_SET, .setting = SET_SEED, .value = 9}, err,
                          sizeof err),
              "%s", err);
    cr_assert(model_update(&m));
    cr_assert_not(m.scene.learned);
    cr_assert_neq(m.derived.W_Q[0], (float)m.stack.stack.W[1][0][0][0]);
    /* undo twice: the learned head, then the sentence before it */
    cr_assert(model_apply(&m, &(Action){.kind = ACTION_UNDO}, err, sizeof err), "%s", err);
    cr_assert(model_update(&m));
    cr_assert(m.scene.learned);
    cr_assert_eq(m.derived.W_Q[0], (float)m.stack.stack.W[1][0][0][0]);
    cr_assert(model_apply(&m, &(Action){.kind = ACTION_UNDO}, err, sizeof err), "%s", err);
    cr_assert(model_update(&m));
    cr_assert(scene_equal(&m.scene, &s));
    model_free(&m);
    vocab_free(&vocab);
}
