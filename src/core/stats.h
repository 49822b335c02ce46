/* Statistics the app teaches with.
 *
 * The variance experiment is the reference's score-scaling claim made
 * concrete: draw q, k ∈ R^d_k with independent N(0, 1) coordinates, and
 * measure the mean and variance of ⟨q, k⟩ (theory: 0 and d_k) and of
 * ⟨q, k⟩/√d_k (theory: 0 and 1). Normals come from the ziggurat (rng.h) and
 * the work is shared by two threads; the result depends only on the seed,
 * d_k and the sample count.
 *
 *   void stats_variance_experiment(uint64_t seed, int d_k, int samples, Variance_Result *dest)
 *   void stats_dot_samples(uint64_t seed, int d_k, int samples, float *raw_dest)
 *       the raw dot products
 *   double stats_row_entropy(const float *a, int m)
 *       −Σ a log a in nats (0 log 0 = 0)
 *   double stats_row_max(const float *a, int m)
 *   void stats_mean_var(const float *x, long count, double *mean, double *var)
 *       two-pass, population variance
 *   void stats_histogram(const float *x, long count, double lo, double hi, int bins, int *counts)
 *   double stats_normal_pdf(double x, double var)
 *   void stats_width_curves(const Width_Curves_Desc *d, Width_Curves *dest)
 *       mean entropy / max weight of A against d_k
 *   double stats_pca2(const float *rows, int count, int dim, double *mean, double *axes,
 *                     double *cov)
 *       the two directions along which count points (rows of dim floats) spread most about
 *       their mean: the covariance's two leading eigenvectors, by power iteration with
 *       deflation in double. Fills mean (dim), axes (2·dim: unit vectors, the larger first;
 *       each turned so its largest entry is positive) and uses cov (dim·dim) as scratch.
 *       Returns the share of the total variance the two hold (0 when the points coincide)
 *   void stats_sym_eigen(double *a, int n, double *values, double *vectors)
 *       every eigenvalue and eigenvector of the symmetric n×n matrix a (destroyed), by
 *       cyclic Jacobi rotations in double: values largest first, vectors' column k the unit
 *       eigenvector of values[k] (n×n, row-major)
 */
#ifndef ATTN_STATS_H
#define ATTN_STATS_H

#include <stdint.h>

#define STATS_MAX_DK 4096 /* the experiment's widest q and k */

typedef struct Variance_Result {
    int d_k, samples;
    uint64_t seed;
    double raw_mean, raw_var, scaled_mean, scaled_var;
} Variance_Result;

double stats_pca2(const float *rows, int count, int dim, double *mean, double *axes, double *cov);
void stats_sym_eigen(double *a, int n, double *values, double *vectors);
void stats_variance_experiment(uint64_t seed, int d_k, int samples, Variance_Result *dest);
void stats_dot_samples(uint64_t seed, int d_k, int samples, float *raw_dest);
double stats_row_entropy(const float *a, int m);
double stats_row_max(const float *a, int m);
void stats_mean_var(const float *x, long count, double *mean, double *var);
void stats_histogram(const float *x, long count, double lo, double hi, int bins, int *counts);
double stats_normal_pdf(double x, double var);

/* How softmax sharpens as the head widens. Because projections are
 * column-stable, Q and K at width d_k are the first d_k columns of Q and K
 * at the full width w, so a score at every d_k is a prefix sum of one dot
 * product: one pass over w coordinates gives the whole curve. */
typedef struct Width_Curves_Desc {
    const float *Q, *K; /* n×w, full width */
    int n, w;
    const int *rows; /* the query rows averaged over */
    int row_count;
    const int *dks; /* widths to evaluate, ascending, each ≤ w */
    int dk_count;
    double *scratch; /* dk_count × n doubles */
} Width_Curves_Desc;

typedef struct Width_Curves {
    double *ent_scaled, *max_scaled, *ent_raw, *max_raw; /* dk_count each */
} Width_Curves;

void stats_width_curves(const Width_Curves_Desc *d, Width_Curves *dest);

#endif
