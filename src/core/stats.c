/* Statistics: the variance experiment, entropy, histograms; see stats.h. */
#include "stats.h"

#include "rng.h"

#include <assert.h>
#include <math.h>
#include <stddef.h>
#include <stdbool.h>

/* C11 threads where the C library has them (glibc, musl); one after the
 * other elsewhere (a browser build without threads). */
#if !defined(__STDC_NO_THREADS__) && !defined(__EMSCRIPTEN__)
#define STATS_THREADS
#include <threads.h>
#endif

/* The experiment draws ⟨q, k⟩ for q, k with independent N(0, 1) coordinates,
 * in chunks of STATS_CHUNK samples; chunk c has its own seeded stream, so a
 * sample's value depends only on (seed, d_k, its index), never on threads.
 * The chunks are split into STATS_PARTS fixed halves, each summed in order
 * (Welford) and merged in order (Chan et al.), run on a thread each where
 * threads exist and one after the other where not: the same bits both ways. */
enum { STATS_CHUNK = 4096, STATS_PARTS = 2 };

static void chunk_stream(Rng_Lanes *r, uint64_t seed, int d_k, int chunk) {
    rng_lanes_seed(r, seed, 0xE7ull | (uint64_t)d_k << 8, (uint64_t)chunk);
}

/* One dot product: 2·d_k normals, then a loop the compiler vectorizes: 8
 * float partial sums (each over at most 128 products of N(0, 1) numbers, so
 * float rounding stays near 1e-6 of the result), added in double. */
static double draw_dot(Rng_Lanes *r, const Rng_Zig *z, int d_k, float *buf) {
    rng_normal_fill(r, z, buf, 2 * d_k);
    const float *q = buf, *k = buf + d_k;
    float part[8] = {0};
    int c = 0;
    for (; c + 8 <= d_k; c += 8)
        for (int l = 0; l < 8; l++) part[l] += q[c + l] * k[c + l];
    double s = 0;
    for (int l = 0; l < 8; l++) s += part[l];
    for (; c < d_k; c++) s += (double)(q[c] * k[c]);
    return s;
}

typedef struct Part {
    uint64_t seed;
    int d_k, first, last; /* samples [first, last) */
    const Rng_Zig *zig;
    float *raw; /* optional: every sample, for the histogram */
    double count, mean, m2;
} Part;

static int run_part(void *arg) {
    Part *p = arg;
    float buf[2 * STATS_MAX_DK];
    Rng_Lanes r;
    double mean = 0, m2 = 0, count = 0;
    for (int i = p->first; i < p->last; i++) {
        if ((i - p->first) % STATS_CHUNK == 0 || i % STATS_CHUNK == 0)
            chunk_stream(&r, p->seed, p->d_k, i / STATS_CHUNK);
        double x = draw_dot(&r, p->zig, p->d_k, buf);
        if (p->raw) p->raw[i] = (float)x;
        count += 1;
        double delta = x - mean;
        mean += delta / count;
        m2 += delta * (x - mean);
    }
    p->count = count;
    p->mean = mean;
    p->m2 = m2;
    return 0;
}

static void run_parts(uint64_t seed, int d_k, int samples, float *raw, Part *parts) {
    assert(d_k >= 1 && d_k <= STATS_MAX_DK);
    Rng_Zig zig;
    rng_zig_init(&zig);
    int chunks = (samples + STATS_CHUNK - 1) / STATS_CHUNK;
    for (int t = 0; t < STATS_PARTS; t++) {
        int c0 = chunks * t / STATS_PARTS, c1 = chunks * (t + 1) / STATS_PARTS;
        int first = c0 * STATS_CHUNK, last = c1 * STATS_CHUNK;
        parts[t] = (Part){.seed = seed,
                          .d_k = d_k,
                          .first = first < samples ? first : samples,
                          .last = last < samples ? last : samples,
                          .zig = &zig,
                          .raw = raw};
    }
#ifdef STATS_THREADS
    /* Small runs (the lab's live histogram) are not worth a thread. */
    thrd_t th[STATS_PARTS];
    bool started[STATS_PARTS] = {false};
    bool threads = (double)samples * d_k >= 1 << 20;
    for (int t = 1; t < STATS_PARTS && threads; t++)
        started[t] = thrd_create(&th[t], run_part, &parts[t]) == thrd_success;
    run_part(&parts[0]);
    for (int t = 1; t < STATS_PARTS; t++) {
        if (started[t])
            thrd_join(th[t], NULL);
        else
            run_part(&parts[t]);
    }
#else
    for (int t = 0; t < STATS_PARTS; t++) run_part(&parts[t]);
#endif
}

void stats_variance_experiment(uint64_t seed, int d_k, int samples, Variance_Result *dest) {
    Part parts[STATS_PARTS];
    run_parts(seed, d_k, samples, NULL, parts);
    double count = 0, mean = 0, m2 = 0;
    for (int t = 0; t < STATS_PARTS; t++) {
        const Part *p = &parts[t];
        if (p->count == 0) continue;
        double n = count + p->count, delta = p->mean - mean;
        mean += delta * p->count / n;
        m2 += p->m2 + delta * delta * count * p->count / n;
        count = n;
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
    Part parts[STATS_PARTS];
    run_parts(seed, d_k, samples, raw_dest, parts);
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

/* The leading eigenvector of the symmetric dim×dim c into v (unit), its
 * eigenvalue returned: power iteration from a fixed start. */
static double leading(const double *c, int dim, double *v) {
    double w[512];
    for (int k = 0; k < dim; k++) v[k] = 1.0 + 0.01 * k; /* not orthogonal to anything likely */
    double lambda = 0;
    for (int it = 0; it < 500; it++) {
        double norm = 0;
        for (int r = 0; r < dim; r++) {
            double sum = 0;
            for (int k = 0; k < dim; k++) sum += c[r * dim + k] * v[k];
            w[r] = sum;
            norm += sum * sum;
        }
        norm = sqrt(norm);
        if (norm == 0) return 0;
        double change = 0;
        for (int k = 0; k < dim; k++) {
            double next = w[k] / norm;
            change += fabs(next - v[k]);
            v[k] = next;
        }
        lambda = norm;
        if (change < 1e-13 * dim) break;
    }
    return lambda;
}

double stats_pca2(const float *rows, int count, int dim, double *mean, double *axes, double *cov) {
    if (dim > 512 || count < 1) return 0;
    for (int k = 0; k < dim; k++) mean[k] = 0;
    for (int i = 0; i < count; i++)
        for (int k = 0; k < dim; k++) mean[k] += rows[(long)i * dim + k];
    for (int k = 0; k < dim; k++) mean[k] /= count;
    for (int q = 0; q < dim * dim; q++) cov[q] = 0;
    for (int i = 0; i < count; i++)
        for (int a = 0; a < dim; a++) {
            double xa = rows[(long)i * dim + a] - mean[a];
            for (int b = 0; b < dim; b++)
                cov[a * dim + b] += xa * (rows[(long)i * dim + b] - mean[b]);
        }
    double total = 0;
    for (int k = 0; k < dim; k++) total += cov[k * dim + k];
    double held = 0;
    for (int axis = 0; axis < 2; axis++) {
        double *v = axes + axis * dim;
        double lambda = leading(cov, dim, v);
        held += lambda;
        /* deflate: what is left has no spread along v */
        for (int a = 0; a < dim; a++)
            for (int b = 0; b < dim; b++) cov[a * dim + b] -= lambda * v[a] * v[b];
        int big = 0;
        for (int k = 1; k < dim; k++)
            if (fabs(v[k]) > fabs(v[big])) big = k;
        if (v[big] < 0)
            for (int k = 0; k < dim; k++) v[k] = -v[k];
    }
    return total > 0 ? held / total : 0;
}

void stats_sym_eigen(double *a, int n, double *values, double *vectors) {
    for (int i = 0; i < n; i++)
        for (int j = 0; j < n; j++) vectors[i * n + j] = i == j;
    for (int sweep = 0; sweep < 64; sweep++) {
        double off = 0, all = 0;
        for (int i = 0; i < n; i++)
            for (int j = 0; j < n; j++) {
                all += a[i * n + j] * a[i * n + j];
                if (i != j) off += a[i * n + j] * a[i * n + j];
            }
        if (off <= 1e-30 * all || off == 0) break;
        for (int p = 0; p < n; p++)
            for (int q = p + 1; q < n; q++) {
                double apq = a[p * n + q];
                if (apq == 0) continue;
                /* the rotation that zeroes a[p][q] (Golub and Van Loan, 8.5) */
                double theta = (a[q * n + q] - a[p * n + p]) / (2 * apq);
                double t = (theta >= 0 ? 1 : -1) / (fabs(theta) + sqrt(theta * theta + 1));
                double c = 1 / sqrt(t * t + 1), s = t * c;
                for (int k = 0; k < n; k++) { /* columns p and q */
                    double akp = a[k * n + p], akq = a[k * n + q];
                    a[k * n + p] = c * akp - s * akq;
                    a[k * n + q] = s * akp + c * akq;
                }
                for (int k = 0; k < n; k++) { /* rows p and q */
                    double apk = a[p * n + k], aqk = a[q * n + k];
                    a[p * n + k] = c * apk - s * aqk;
                    a[q * n + k] = s * apk + c * aqk;
                }
                for (int k = 0; k < n; k++) {
                    double vkp = vectors[k * n + p], vkq = vectors[k * n + q];
                    vectors[k * n + p] = c * vkp - s * vkq;
                    vectors[k * n + q] = s * vkp + c * vkq;
                }
            }
    }
    for (int i = 0; i < n; i++) values[i] = a[i * n + i];
    for (int i = 0; i < n; i++) { /* largest first: a selection sort of columns */
        int best = i;
        for (int j = i + 1; j < n; j++)
            if (values[j] > values[best]) best = j;
        if (best == i) continue;
        double v = values[i];
        values[i] = values[best];
        values[best] = v;
        for (int k = 0; k < n; k++) {
            double x = vectors[k * n + i];
            vectors[k * n + i] = vectors[k * n + best];
            vectors[k * n + best] = x;
        }
    }
}
