/* The next token's choice (net_cache.h): greedy takes the likeliest, ties to
 * the lower id; a draw follows softmax(logits / T) cut by top-k and top-p,
 * renormalized, checked by counting 20,000 seeded draws against the
 * probabilities (3 standard errors); a seed gives the same draws again. */
#include "nn/net_cache.h"
#include "test_util.h"

#include <math.h>
#include <stdlib.h>

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

/* The order a draw walks (likeliest first, ties to the lower id) on a
 * vocabulary as large as GPT-2's, with many ties and tiny probabilities: the
 * ten candidates and 300 seeded draws under each cut are those of the same
 * walk over a qsort of the same probabilities. */
typedef struct Ref {
    double p;
    int32_t id;
} Ref;

static int ref_likelier(const void *a, const void *b) {
    const Ref *x = a, *y = b;
    if (x->p != y->p) return x->p > y->p ? -1 : 1;
    return x->id < y->id ? -1 : x->id > y->id;
}

Test(net_choose, the_order_is_likeliest_first_ties_to_the_lower_id_on_a_large_vocabulary) {
    enum { V = 50257 };
    static float big[V];
    static Ref ref[V];
    Rng fill;
    rng_seed(&fill, 3);
    for (int i = 0; i < V; i++) /* 40 distinct values: ties everywhere; some far below */
        big[i] = (float)((int)(rng_uniform(&fill) * 40) - 20) * (i % 7 == 0 ? 3.0f : 0.25f);
    static const Net_Choice hows[4] = {{0, 0, 1}, {1.5, 0, 1}, {1, 40, 1}, {0.8, 0, 0.6}};
    for (int h = 0; h < 4; h++) {
        const Net_Choice *how = &hows[h];
        double T = how->temperature > 0 ? how->temperature : 1, max = -INFINITY, sum = 0;
        for (int i = 0; i < V; i++) max = fmax(max, big[i]);
        for (int i = 0; i < V; i++) sum += (ref[i].p = exp((big[i] - max) / T));
        for (int i = 0; i < V; i++) {
            ref[i].p /= sum;
            ref[i].id = i;
        }
        qsort(ref, V, sizeof *ref, ref_likelier);
        Rng a, b;
        rng_seed(&a, 11);
        rng_seed(&b, 11);
        for (int draw = 0; draw < (how->temperature > 0 ? 300 : 1); draw++) {
            Net_Candidate top[10];
            int count;
            int got = net_choose(big, V, how, &a, top, 10, &count);
            cr_assert_eq(count, 10);
            for (int k = 0; k < 10; k++)
                cr_assert(top[k].id == ref[k].id && top[k].p == ref[k].p, "how %d, candidate %d", h,
                          k);
            int want = ref[0].id;
            if (how->temperature > 0) {
                int keep = how->top_k > 0 ? how->top_k : V, cut = 0;
                double cum = 0, walk = 0;
                while (cut < keep && (cut == 0 || cum < how->top_p)) cum += ref[cut++].p;
                double u = rng_uniform(&b) * cum;
                want = ref[cut - 1].id;
                for (int k = 0; k < cut; k++)
                    if ((walk += ref[k].p) > u) {
                        want = ref[k].id;
                        break;
                    }
            }
            cr_assert_eq(got, want, "how %d, draw %d", h, draw);
        }
    }
}
