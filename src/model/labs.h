/* Data behind the two labs, derived from the scene and cached.
 *
 * Scaling lab: the reference's experiment (q, k with independent N(0, 1)
 * coordinates; raw and scaled dot products, their histograms and moments)
 * and the width curves (mean entropy and max weight of A against d_k, with
 * and without ÷√d_k) for the current scene.
 *
 * Permutation lab: the scene in its original order X, and the comparison of
 * Attention(PX) (the scene as it is now) with P·Attention(X).
 *
 * Buffers are allocated on first use and grow with n; nothing is recomputed
 * unless its inputs changed.
 *
 *   bool labs_experiment(Labs *labs, uint64_t seed, int d_k, int samples)
 *       false when out of memory or out of range
 *   bool labs_curves(Labs *labs, const Scene *s)
 *   bool labs_permutation(Labs *labs, const Scene *s, const Derived *now)
 *       derived must be up to date with scene
 *   void labs_free(Labs *labs)
 */
#ifndef ATTN_LABS_H
#define ATTN_LABS_H

#include <stdbool.h>
#include <stdint.h>

#include "../core/stats.h"
#include "scene.h"
#include "shift.h"

#define LAB_MAX_SAMPLES  20000
#define LAB_HIST_BINS    41
#define LAB_CURVE_POINTS 21 /* d_k = 2^(k/2), k = 0 … 20: 1 … 1024 */
#define LAB_CURVE_ROWS   64 /* queries averaged over (evenly spread when n is larger) */
#define LAB_CURVE_SEEDS  8  /* projection seeds averaged over: the curves are an expectation */
#define LAB_FULL_WIDTH   ATTN_MAX_DK

typedef struct Lab_Experiment {
    bool valid;
    uint64_t seed;
    int d_k, samples;
    float *raw;    /* the raw dot products */
    float *scaled; /* the same divided by √d_k */
    Variance_Result stats;
    double raw_lo, raw_hi, scaled_lo, scaled_hi; /* histogram ranges: ±4 SD of theory */
    int hist_raw[LAB_HIST_BINS], hist_scaled[LAB_HIST_BINS];
} Lab_Experiment;

typedef struct Lab_Curves {
    bool valid;
    uint64_t key; /* hash of what the curves depend on: X, positions, seed */
    int count;
    int dks[LAB_CURVE_POINTS];
    /* means over LAB_CURVE_SEEDS projection seeds (the scene's seed and the
     * ones after it), and the least and greatest of them: the spread */
    double ent_scaled[LAB_CURVE_POINTS], max_scaled[LAB_CURVE_POINTS];
    double ent_raw[LAB_CURVE_POINTS], max_raw[LAB_CURVE_POINTS];
    double lo[4][LAB_CURVE_POINTS], hi[4][LAB_CURVE_POINTS]; /* same order as above */
} Lab_Curves;

typedef struct Lab_Permutation {
    bool valid;
    uint64_t key;
    Scene *base;     /* the scene in its original order */
    Derived derived; /* Attention(X) */
    float *pA, *pO;  /* P·A(X)·Pᵀ and P·O(X): rows (and columns) moved like the tokens */
    float *dA, *dO;  /* Attention(PX) − P·Attention(X) */
    double max_diff_A, max_diff_O;
    long cap_nn, cap_nv;
} Lab_Permutation;

typedef struct Labs {
    Lab_Experiment exp;
    Lab_Curves curves;
    Lab_Permutation perm;
    Lab_Shift shift;
    float *wq, *wk, *qf, *kf; /* full-width projections and projected rows */
    float *xp, *pos;          /* X + P and P, n × d, staging for the curves */
    double *scratch;
    long cap_full;
} Labs;

bool labs_experiment(Labs *labs, uint64_t seed, int d_k, int samples);
bool labs_curves(Labs *labs, const Scene *s);
bool labs_permutation(Labs *labs, const Scene *s, const Derived *now);
void labs_free(Labs *labs);

#endif
