/* src/nn/train_head.c: the backward pass against central finite differences in
 * float64, the tasks as specified, and the three training outcomes the
 * reference predicts: a content task is learned without positions, "name
 * the previous token" is not (equivariance forbids it), and is learned with
 * sinusoidal positions. */
#include "nn/train_head.h"
#include "test_util.h"

#include <math.h>
#include <string.h>

static Trainer t;

/* Every parameter's analytic gradient against (L(θ+h) − L(θ−h)) / 2h. The
 * loss is smooth and computed in float64; with h = 1e-5 the difference
 * quotient is good to about h² ≈ 1e-10 plus rounding of 1e-16/h ≈ 1e-11 in
 * absolute terms, so a relative error of 1e-4 on gradients above 1e-6 is a
 * strict check (smaller gradients are held to 1e-10 absolute). */
static void check_gradient(const Train_Desc *desc, uint64_t data_seed) {
    cr_assert(train_init(&t, desc));
    int tokens[3 * TRAIN_N], targets[3 * TRAIN_N];
    Rng r;
    rng_seed(&r, data_seed);
    for (int s = 0; s < 3; s++)
        train_sentence(desc->task, TRAIN_N, TRAIN_VOCAB, &r, tokens + s * TRAIN_N,
                       targets + s * TRAIN_N);
    /* a few steps first, so the check is not only at the initial point */
    for (int k = 0; k < 3; k++) train_step(&t);
    train_loss_grad(&t, tokens, targets, 3, true);
    static double g[8192];
    cr_assert_leq(t.count, 8192);
    memcpy(g, t.grad, sizeof(double) * (size_t)t.count);
    double worst = 0;
    const double h = 1e-5;
    for (long k = 0; k < t.count; k++) {
        double keep = t.param[k];
        t.param[k] = keep + h;
        double up = train_loss_grad(&t, tokens, targets, 3, false);
        t.param[k] = keep - h;
        double down = train_loss_grad(&t, tokens, targets, 3, false);
        t.param[k] = keep;
        double fd = (up - down) / (2 * h);
        double scale = fmax(fabs(fd), fabs(g[k]));
        if (scale < 1e-6) {
            cr_assert_leq(fabs(fd - g[k]), 1e-10, "parameter %ld: %g vs %g", k, g[k], fd);
            continue;
        }
        worst = fmax(worst, fabs(fd - g[k]) / scale);
        cr_assert_leq(fabs(fd - g[k]) / scale, 1e-4,
                      "parameter %ld of %ld: analytic %.10g, "
                      "finite difference %.10g",
                      k, t.count, g[k], fd);
    }
    train_free(&t);
}

Test(train, the_backward_pass_matches_finite_differences) {
    for (int c = 0; c < 8; c++) {
        Train_Desc desc = {.task = c % 2 ? TRAIN_PREVIOUS : TRAIN_MATCH,
                           .seed = (uint64_t)c + 3,
                           .d = 5,
                           .d_k = 4,
                           .d_v = 3,
                           .positions = c & 2,
                           .unscaled = c & 4,
                           .optimizer = c % 3 ? TRAIN_ADAM : TRAIN_SGD};
        check_gradient(&desc, (uint64_t)c * 11 + 1);
    }
}

/* The learned table (a parameter), RoPE's turn (its transpose carries the
 * gradient back) and ALiBi's constant bias, with an odd d_k for RoPE's
 * unpaired coordinate too. */
Test(train, the_backward_pass_matches_finite_differences_for_every_scheme) {
    for (int c = 0; c < 12; c++) {
        Train_Desc desc = {.task = c % 2 ? TRAIN_PREVIOUS : TRAIN_MATCH,
                           .seed = (uint64_t)c + 40,
                           .d = 5,
                           .d_k = c % 3 ? 4 : 5,
                           .d_v = 3,
                           .pos = (Train_Pos)(2 + c % 3), /* learned, rope, alibi */
                           .unscaled = c & 4,
                           .optimizer = c % 3 ? TRAIN_ADAM : TRAIN_SGD};
        check_gradient(&desc, (uint64_t)c * 7 + 5);
    }
}

/* Train at n = 8, test at n = 16 ("previous"): relative RoPE carries over,
 * a learned table cannot reach the positions it never saw. */
Test(train, rope_carries_over_to_longer_sentences_and_a_learned_table_does_not) {
    if (getenv("ATTNLAB_SANITIZED")) cr_skip("a learning outcome: judged in the normal pass");
    double acc[2];
    for (int k = 0; k < 2; k++) {
        Train_Desc desc = {.task = TRAIN_PREVIOUS,
                           .seed = 1,
                           .pos = k ? TRAIN_POS_LEARNED : TRAIN_POS_ROPE,
                           .test_n = 16};
        cr_assert(train_init(&t, &desc));
        static double L0[TRAIN_MAX_N * 16];
        if (t.L) memcpy(L0, t.L, sizeof(double) * TRAIN_MAX_N * 16);
        for (int s = 0; s < 1000; s++) train_step(&t);
        double short_acc;
        train_eval(&t, &short_acc);
        cr_assert_geq(short_acc, 0.99, "scheme %d learns at n = 8: %g", k, short_acc);
        train_eval_long(&t, &acc[k]);
        if (t.L) /* rows 8 … 15 were never in a training sentence: untouched */
            cr_assert_eq(memcmp(L0 + TRAIN_N * 16, t.L + TRAIN_N * 16,
                                sizeof(double) * (TRAIN_MAX_N - TRAIN_N) * 16),
                         0, "an unseen row moved");
        train_free(&t);
    }
    cr_assert_geq(acc[0], 0.99, "rope at n = 16: %g", acc[0]);
    /* positions 1 … 7 stay right and 8 … 15 are guesses: about 7/15 */
    cr_assert_leq(acc[1], 0.6, "learned at n = 16: %g", acc[1]);
}

Test(train, the_tasks_are_what_they_say) {
    Rng r;
    rng_seed(&r, 9);
    int tok[TRAIN_N], tgt[TRAIN_N];
    for (int s = 0; s < 200; s++) {
        train_sentence(TRAIN_MATCH, TRAIN_N, TRAIN_VOCAB, &r, tok, tgt);
        for (int i = 0; i < TRAIN_N; i++) {
            /* the target is another token of the sentence: same colour, other kind */
            int partner = -1;
            for (int j = 0; j < TRAIN_N; j++)
                if (j != i && tok[j] == tgt[i]) partner = j;
            cr_assert_geq(partner, 0, "the answer is in the sentence");
            cr_assert_eq(tgt[i] / 4, tok[i] / 4, "the same colour");
            cr_assert_neq((tgt[i] / 2) % 2, (tok[i] / 2) % 2, "the other kind: never oneself");
            int same = 0;
            for (int j = 0; j < TRAIN_N; j++) same += tok[j] / 4 == tok[i] / 4;
            cr_assert_eq(same, 2, "each colour on exactly two tokens");
        }
        train_sentence(TRAIN_PREVIOUS, TRAIN_N, TRAIN_VOCAB, &r, tok, tgt);
        cr_assert_eq(tgt[0], -1, "the first token is not scored");
        for (int i = 1; i < TRAIN_N; i++) cr_assert_eq(tgt[i], tok[i - 1]);
        for (int i = 0; i < TRAIN_N; i++)
            for (int j = 0; j < i; j++) cr_assert_neq(tok[i], tok[j], "distinct words");
    }
    cr_assert_float_eq(train_chance(8), log(7.0), 1e-15);
}

static double final_ratio(Train_Task task, bool positions, double *first) {
    Train_Desc desc = {.task = task, .seed = 1, .positions = positions};
    cr_assert(train_init(&t, &desc));
    double loss = 0;
    for (int k = 0; k < 3000; k++) {
        loss = train_step(&t);
        if (k == 0 && first) *first = loss;
    }
    (void)loss;
    double acc, final = train_eval(&t, &acc);
    train_free(&t);
    return final / train_chance(TRAIN_N);
}

Test(train, content_is_learned_previous_needs_positions) {
    /* what training reaches is judged in the normal pass; its memory is the
     * sanitizer's in the other training tests */
    if (getenv("ATTNLAB_SANITIZED")) cr_skip("a learning outcome: judged in the normal pass");
    /* the outcomes at 3,000 Adam steps with the defaults */
    double first;
    double match = final_ratio(TRAIN_MATCH, false, &first);
    cr_assert_gt(first, train_chance(TRAIN_N), "training starts above chance: %g", first);
    cr_assert_leq(match, 0.2, "match without positions: final/chance %g", match);
    double prev = final_ratio(TRAIN_PREVIOUS, false, NULL);
    cr_assert_geq(prev, 0.85, "previous without positions stays at chance: %g", prev);
    double with_pos = final_ratio(TRAIN_PREVIOUS, true, NULL);
    cr_assert_leq(with_pos, 0.25, "previous with sinusoidal positions: %g", with_pos);
}

Test(train, the_same_seed_trains_the_same_way) {
    Train_Desc desc = {.task = TRAIN_MATCH, .seed = 42};
    static double a[50];
    cr_assert(train_init(&t, &desc));
    for (int k = 0; k < 50; k++) a[k] = train_step(&t);
    train_free(&t);
    cr_assert(train_init(&t, &desc));
    for (int k = 0; k < 50; k++) cr_assert_eq(train_step(&t), a[k], "step %d", k);
    train_free(&t);
    desc.seed = 43;
    cr_assert(train_init(&t, &desc));
    bool differ = false;
    for (int k = 0; k < 50; k++) differ |= train_step(&t) != a[k];
    cr_assert(differ, "another seed, another run");
    train_free(&t);
}
