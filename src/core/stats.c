/* Statistics: the variance experiment, entropy, histograms; see stats.h. */
#include "stats.h"

#include "rng.h"

#include <math.h>

static double sample_dot(Rng *r, int d_k) {
    double s = 0;
    for (int c = 0; c < d_k; c++) {
        double q = rng_gaussian(r);
        double k = rng_gaussian(r);
        s += q * k;
    }
    return s;
}

void stats_variance_experiment(uint64_t seed, int d_k, int samples, Variance_Result *dest) {
    Rng r;
    rng_seed_stream(&r, seed, 0xE7ull, (uint64_t)d_k);
    /* Welford's update: one pass, no buffer, numerically stable. */
    double mean = 0, m2 = 0;
    for (int i = 0; i < samples; i++) {
        double x = sample_dot(&r, d_k);
        double delta = x - mean;
        mean += delta / (i + 1);
        m2 += delta * (x - mean);
    }
    double var = samples > 0 ? m2 / samples : 0;
    dest->d_k = d_k;
    dest->samples = samples;
    dest->seed = seed;
    dest->raw_mean = mean;
    dest->raw_var = var;
    /* Dividing every sample by √d_k divides the mean by √d_k and the variance by d_k. */
    dest->scaled_mean = mean / sqrt((double)d_k);
    dest->scaled_var = var / (double)d_k;
}

void stats_dot_samples(uint64_t seed, int d_k, int samples, float *raw_dest) {
    Rng r;
    rng_seed_stream(&r, seed, 0xE7ull, (uint64_t)d_k);
    for (int i = 0; i < samples; i++) raw_dest[i] = (float)sample_dot(&r, d_k);
}

double stats_row_entropy(const float *a, int m) {
    double h = 0;
    for (int j = 0; j < m; j++)
        if (a[j] > 0) h -= (double)a[j] * log((double)a[j]);
    return h;
}

double stats_row_max(const float *a, int m) {
    double mx = a[0];
    for (int j = 1; j < m; j++)
        if (a[j] > mx) mx = a[j];
    return mx;
}

void stats_mean_var(const float *x, long count, double *mean, double *var) {
    double s = 0;
    for (long i = 0; i < count; i++) s += x[i];
    double mu = count > 0 ? s / count : 0;
    double v = 0;
    for (long i = 0; i < count; i++) v += (x[i] - mu) * (x[i] - mu);
    *mean = mu;
    *var = count > 0 ? v / count : 0;
}

void stats_histogram(const float *x, long count, double lo, double hi, int bins, int *counts) {
    /* Values outside [lo, hi] go to the end bins, so the counts always add
     * up to the sample count and nothing drawn is silently dropped. */
    for (int b = 0; b < bins; b++) counts[b] = 0;
    double w = (hi - lo) / bins;
    for (long i = 0; i < count; i++) {
        int b = (int)floor((x[i] - lo) / w);
        if (b < 0) b = 0;
        if (b >= bins) b = bins - 1;
        counts[b]++;
    }
}

double stats_normal_pdf(double x, double var) {
    return exp(-0.5 * x * x / var) / sqrt(2.0 * 3.14159265358979323846 * var);
}

/* Softmax of one row of scores (times c) in double: entropy and max weight. */
static void softmax_stats(const double *s, int n, double c, double *entropy, double *max_w) {
    double mx = s[0] * c;
    for (int j = 1; j < n; j++) mx = fmax(mx, s[j] * c);
    double z = 0;
    for (int j = 0; j < n; j++) z += exp(s[j] * c - mx);
    double h = 0, best = 0;
    for (int j = 0; j < n; j++) {
        double a = exp(s[j] * c - mx) / z;
        if (a > 0) h -= a * log(a);
        best = fmax(best, a);
    }
    *entropy = h;
    *max_w = best;
}

void stats_width_curves(const Width_Curves_Desc *d, Width_Curves *dest) {
    int n = d->n, w = d->w, m = d->dk_count;
    for (int c = 0; c < m; c++)
        dest->ent_scaled[c] = dest->max_scaled[c] = dest->ent_raw[c] = dest->max_raw[c] = 0;
    for (int k = 0; k < d->row_count; k++) {
        int i = d->rows[k];
        /* raw scores of query i at every width in the grid */
        for (int j = 0; j < n; j++) {
            double acc = 0;
            int r = 0;
            for (int c = 0; c < m; c++) {
                for (; r < d->dks[c] && r < w; r++)
                    acc += (double)d->Q[(long)i * w + r] * d->K[(long)j * w + r];
                d->scratch[(long)c * n + j] = acc;
            }
        }
        for (int c = 0; c < m; c++) {
            double h, mx;
            const double *row = d->scratch + (long)c * n;
            softmax_stats(row, n, 1.0 / sqrt((double)d->dks[c]), &h, &mx);
            dest->ent_scaled[c] += h;
            dest->max_scaled[c] += mx;
            softmax_stats(row, n, 1.0, &h, &mx);
            dest->ent_raw[c] += h;
            dest->max_raw[c] += mx;
        }
    }
    for (int c = 0; c < m && d->row_count > 0; c++) {
        dest->ent_scaled[c] /= d->row_count;
        dest->max_scaled[c] /= d->row_count;
        dest->ent_raw[c] /= d->row_count;
        dest->max_raw[c] /= d->row_count;
    }
}
