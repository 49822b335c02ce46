/* src/nn/train_stack.c: the layered attention-only model's backward pass against
 * central finite differences in float64, the induction task as specified,
 * and the outcomes the papers (and a float64 prototype) predict: with two
 * layers an induction head forms early in every seed; one layer cannot form
 * one; without positions no previous-token head forms. */
#include "nn/train_stack.h"
#include "test_util.h"

#include <math.h>
#include <string.h>

static Stack s;

static Stack_Desc defaults(uint64_t seed) {
    return (Stack_Desc){.layers = 2,
                        .heads = 1,
                        .width = 16,
                        .vocab = 16,
                        .context = 24,
                        .repeat_min = 3,
                        .repeat_max = 12,
                        .pos = TRAIN_POS_LEARNED,
                        .seed = seed,
                        .lr = 0.01,
                        .batch = 16};
}

/* Every parameter's gradient against (L(θ+h) − L(θ−h)) / 2h, h = 1e-5: a
 * relative error of 1e-4 on gradients above 1e-6 (smaller ones to 1e-10
 * absolute), as for the one-head lab. */
static void check_gradient(const Stack_Desc *d) {
    cr_assert(stack_init(&s, d));
    for (int k = 0; k < 3; k++) stack_step(&s); /* not only at the starting point */
    int tokens[3 * STACK_MAX_CONTEXT], blocks[3];
    Rng r;
    rng_seed(&r, d->seed + 99);
    for (int q = 0; q < 3; q++) stack_sequence(d, &r, tokens + q * d->context, &blocks[q]);
    stack_loss_grad(&s, tokens, blocks, 3, true);
    static double g[20000];
    cr_assert_leq(s.count, 20000);
    memcpy(g, s.grad, sizeof(double) * (size_t)s.count);
    const double h = 1e-5;
    for (long k = 0; k < s.count; k++) {
        double keep = s.param[k];
        s.param[k] = keep + h;
        double up = stack_loss_grad(&s, tokens, blocks, 3, false);
        s.param[k] = keep - h;
        double down = stack_loss_grad(&s, tokens, blocks, 3, false);
        s.param[k] = keep;
        double fd = (up - down) / (2 * h), scale = fmax(fabs(fd), fabs(g[k]));
        if (scale < 1e-6) {
            cr_assert_leq(fabs(fd - g[k]), 1e-10, "parameter %ld: %g vs %g", k, g[k], fd);
            continue;
        }
        cr_assert_leq(fabs(fd - g[k]) / scale, 1e-4,
                      "layers %d heads %d pos %d: parameter %ld of %ld: analytic %.10g, finite "
                      "difference %.10g",
                      d->layers, d->heads, (int)d->pos, k, s.count, g[k], fd);
    }
    stack_free(&s);
}

Test(stack, the_backward_pass_through_every_layer_matches_finite_differences) {
    static const Train_Pos pos[4] = {TRAIN_POS_NONE, TRAIN_POS_SIN, TRAIN_POS_LEARNED,
                                     TRAIN_POS_ROPE};
    for (int c = 0; c < 8; c++) {
        Stack_Desc d = {.layers = 1 + c % 3,
                        .heads = 1 + c % 2,
                        .width = 4 + 2 * (c % 2),
                        .vocab = 5,
                        .context = 7,
                        .repeat_min = 2,
                        .repeat_max = 4,
                        .pos = pos[c % 4],
                        .seed = (uint64_t)c + 1,
                        .lr = 0.01,
                        .batch = 4};
        check_gradient(&d);
    }
}

Test(stack, the_task_repeats_a_block_of_varying_length) {
    Stack_Desc d = defaults(3);
    Rng r;
    rng_seed(&r, 5);
    int seen[32] = {0}, tok[STACK_MAX_CONTEXT], block;
    for (int q = 0; q < 400; q++) {
        stack_sequence(&d, &r, tok, &block);
        cr_assert(block >= 3 && block <= 12);
        seen[block]++;
        for (int i = block; i < d.context; i++) cr_assert_eq(tok[i], tok[i - block]);
        for (int i = 0; i < d.context; i++) cr_assert(tok[i] >= 0 && tok[i] < d.vocab);
    }
    for (int L = 3; L <= 12; L++) cr_assert_gt(seen[L], 10, "length %d drawn %d times", L, seen[L]);
}

/* Train, evaluating every 25 steps; the first step some head's prefix match
 * passes 0.5, or -1. */
static long train_until(Stack_Desc d, long steps, Stack_Metrics *m) {
    cr_assert(stack_init(&s, &d));
    long phase = -1;
    for (long k = 1; k <= steps; k++) {
        stack_step(&s);
        if (k % 25) continue;
        stack_eval(&s, m);
        for (int l = 0; l < d.layers; l++)
            for (int h = 0; h < d.heads; h++)
                if (phase < 0 && m->prefix_match[l][h] > 0.5) phase = k;
    }
    stack_eval(&s, m);
    stack_free(&s);
    return phase;
}

/* The sanitizer build runs each outcome on one seed: the same code. */
static int seeds(void) {
    return getenv("ATTNLAB_SANITIZED") ? 1 : 5;
}

Test(stack, two_layers_form_an_induction_head_early_in_every_seed) {
    if (getenv("ATTNLAB_SANITIZED")) cr_skip("a learning outcome: judged in the normal pass");
    for (int seed = 1; seed <= seeds(); seed++) {
        Stack_Metrics m;
        long phase = train_until(defaults((uint64_t)seed), 600, &m);
        cr_assert(phase > 0 && phase <= 600, "seed %d: phase step %ld", seed, phase);
        cr_assert_lt(m.in_context_loss, 0.5 * log(16.0), "seed %d: in-context loss %g", seed,
                     m.in_context_loss);
        /* and layer 0 looks one back, well above what it does without positions (< 0.3) */
        cr_assert_gt(m.prev_token[0][0], 0.4, "seed %d: layer 0 looks one back (%g)", seed,
                     m.prev_token[0][0]);
    }
}

Test(stack, one_layer_cannot_form_one) {
    /* what training reaches is judged in the normal pass; its memory is the
     * sanitizer's in the shorter runs above */
    if (getenv("ATTNLAB_SANITIZED")) cr_skip("a learning outcome: judged in the normal pass");
    for (int seed = 1; seed <= seeds(); seed++) {
        Stack_Desc d = defaults((uint64_t)seed);
        d.layers = 1;
        Stack_Metrics m;
        long phase = train_until(d, getenv("ATTNLAB_SANITIZED") ? 1000 : 3000, &m);
        cr_assert_eq(phase, -1, "seed %d: a one-layer prefix match passed 0.5 at %ld", seed, phase);
    }
}

Test(stack, without_positions_no_previous_token_head_forms) {
    /* what training reaches is judged in the normal pass; its memory is the
     * sanitizer's in the shorter runs above */
    if (getenv("ATTNLAB_SANITIZED")) cr_skip("a learning outcome: judged in the normal pass");
    for (int seed = 1; seed <= seeds(); seed++) {
        Stack_Desc d = defaults((uint64_t)seed);
        d.pos = TRAIN_POS_NONE;
        Stack_Metrics m;
        long phase = train_until(d, 1000, &m);
        cr_assert_eq(phase, -1, "seed %d: induction without positions at %ld", seed, phase);
        for (int l = 0; l < 2; l++)
            cr_assert_lt(m.prev_token[l][0], 0.3, "seed %d layer %d: previous-token %g", seed, l,
                         m.prev_token[l][0]);
    }
}
