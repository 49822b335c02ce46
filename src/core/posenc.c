/* Positional schemes; see posenc.h. */
#include "posenc.h"

#include "rng.h"

#include <assert.h>
#include <math.h>
#include <stdlib.h>

void posenc_sinusoidal(int offset, int n, int d, float strength, float *dest) {
    for (int i = 0; i < n; i++) {
        double p = (double)offset + i;
        for (int c = 0; c < d; c++) {
            int i2 = c - (c % 2); /* the even index 2m shared by the sin/cos pair */
            double angle = p / pow(10000.0, (double)i2 / (double)d);
            double v = (c % 2 == 0) ? sin(angle) : cos(angle);
            dest[(long)i * d + c] = (float)(strength * v);
        }
    }
}

void posenc_learned(uint64_t seed, int offset, int n, int d, float strength, float *dest) {
    /* one stream per row, keyed apart from the projections' streams (which use
     * small kinds): the same row whatever n, d's prefix or offset asks for it */
    const uint64_t table = 0x706f736974696f6eull; /* "position" */
    for (int i = 0; i < n; i++) {
        int p = offset + i;
        assert(p >= 0 && p < POSENC_LEARNED_ROWS);
        Rng r;
        rng_seed_stream(&r, seed, table, (uint64_t)p);
        for (int c = 0; c < d; c++)
            dest[(long)i * d + c] = (float)(strength * rng_gaussian(&r) * sqrt(0.5));
    }
}

double posenc_rope_theta(int m, int d_k, double base) {
    return pow(base, -2.0 * m / (double)d_k);
}

/* Pair m of a row at position p, turned in double: the one turn of both row
 * functions below. */
static void turn_pair(int m, int d_k, int p, double base, double *x, double *y) {
    double a = p * posenc_rope_theta(m, d_k, base);
    double c = cos(a), s = sin(a), x0 = *x, y0 = *y;
    *x = x0 * c - y0 * s;
    *y = x0 * s + y0 * c;
}

void posenc_rope_row(const float *src, int d_k, int p, double base, float *dest) {
    for (int m = 0; 2 * m + 1 < d_k; m++) {
        double x = src[2 * m], y = src[2 * m + 1];
        turn_pair(m, d_k, p, base, &x, &y);
        dest[2 * m] = (float)x;
        dest[2 * m + 1] = (float)y;
    }
    if (d_k % 2) dest[d_k - 1] = src[d_k - 1]; /* the unpaired last coordinate */
}

void posenc_rope_row_f64(const double *src, int d_k, int p, double base, double *dest) {
    for (int m = 0; 2 * m + 1 < d_k; m++) {
        double x = src[2 * m], y = src[2 * m + 1];
        turn_pair(m, d_k, p, base, &x, &y);
        dest[2 * m] = x;
        dest[2 * m + 1] = y;
    }
    if (d_k % 2) dest[d_k - 1] = src[d_k - 1];
}

void posenc_rope(const float *src, int n, int d_k, int offset, double base, float *dest) {
    for (int i = 0; i < n; i++)
        posenc_rope_row(src + (long)i * d_k, d_k, offset + i, base, dest + (long)i * d_k);
}

double posenc_alibi_slope(int h, int heads) {
    return exp2(-8.0 * h / heads);
}
