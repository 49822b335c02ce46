/* The next token's choice (net_cache.h): greedy takes the likeliest, ties to
 * the lower id; a draw follows softmax(logits / T) cut by top-k and top-p,
 * renormalized, checked by counting 20,000 seeded draws against the
 * probabilities (3 standard errors); a seed gives the same draws again. */
#include "nn/net_cache.h"
#include "test_util.h"

#include <math.h>

static const float logits[5] = {1.0f, 3.0f, 3.0f, 2.0f, -1.0f};

Test(net_choose, greedy_takes_the_likeliest_ties_to_the_lower_id) {
    Net_Candidate top[5];
    int count;
    Net_Choice greedy = {0, 0, 1};
    cr_assert_eq(net_choose(logits, 5, &greedy, NULL, top, 5, &count), 1);
    cr_assert_eq(count, 5);
    /* the candidates: softmax at T = 1, likeliest first, ties to the lower id */
    double z = exp(1) + 2 * exp(3) + exp(2) + exp(-1);
    static const int order[5] = {1, 2, 3, 0, 4};
    for (int k = 0; k < 5; k++) {
        cr_assert_eq(top[k].id, order[k]);
        cr_assert_float_eq(top[k].p, exp(logits[order[k]]) / z, 1e-12);
    }
}

/* How often each id comes out of `draws` draws. */
static void count_draws(const Net_Choice *how, uint64_t seed, int draws, int *seen) {
    Rng rng;
    rng_seed(&rng, seed);
    Net_Candidate top[2];
    for (int k = 0; k < 5; k++) seen[k] = 0;
    for (int k = 0; k < draws; k++) {
        int id = net_choose(logits, 5, how, &rng, top, 2, NULL);
        cr_assert(id >= 0 && id < 5);
        seen[id]++;
    }
}

static void near(int seen, int draws, double p, const char *what) {
    double sd = sqrt(p * (1 - p) / draws) + 1e-12;
    cr_assert(fabs((double)seen / draws - p) <= 3 * sd, "%s: %d of %d, want p = %.4f", what, seen,
              draws, p);
}

Test(net_choose, draws_follow_the_cut_and_renormalized_softmax) {
    enum { DRAWS = 20000 };
    int seen[5];
    double T = 2, w[5], z = 0;
    for (int k = 0; k < 5; k++) z += (w[k] = exp(logits[k] / T));
    /* no cut */
    Net_Choice all = {T, 0, 1};
    count_draws(&all, 7, DRAWS, seen);
    for (int k = 0; k < 5; k++) near(seen[k], DRAWS, w[k] / z, "no cut");
    /* top-k 3: ids 1, 2, 3 only */
    Net_Choice k3 = {T, 3, 1};
    count_draws(&k3, 8, DRAWS, seen);
    double z3 = w[1] + w[2] + w[3];
    cr_assert(seen[0] == 0 && seen[4] == 0);
    for (int k = 1; k <= 3; k++) near(seen[k], DRAWS, w[k] / z3, "top-k 3");
    /* top-p: the fewest likeliest whose sum reaches p; ids 1 and 2 hold
     * 2·w1/z, so p just below that keeps those two */
    Net_Choice p2 = {T, 0, 2 * w[1] / z - 1e-9};
    count_draws(&p2, 9, DRAWS, seen);
    cr_assert(seen[0] == 0 && seen[3] == 0 && seen[4] == 0);
    near(seen[1], DRAWS, 0.5, "top-p");
    /* the same seed, the same draws */
    int again[5];
    count_draws(&all, 7, DRAWS, again);
    count_draws(&all, 7, DRAWS, seen);
    for (int k = 0; k < 5; k++) cr_assert_eq(again[k], seen[k]);
}
