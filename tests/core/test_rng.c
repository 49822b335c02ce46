/* src/core/rng.c: determinism across machines and the shape of the samples. */
#include "core/rng.h"
#include "test_util.h"

#include <math.h>

Test(rng, same_seed_same_stream_pinned) {
    /* Pinned outputs: xoshiro256** seeded with splitmix64(1). If these change,
     * every saved scene would project differently — that must be deliberate. */
    Rng r;
    rng_seed(&r, 1);
    uint64_t a = rng_next_u64(&r), b = rng_next_u64(&r);
    cr_assert_eq(a, UINT64_C(0xb3f2af6d0fc710c5), "got %#llx", (unsigned long long)a);
    cr_assert_eq(b, UINT64_C(0x853b559647364cea), "got %#llx", (unsigned long long)b);
}

Test(rng, different_seeds_and_streams_differ) {
    Rng a, b, c;
    rng_seed(&a, 1);
    rng_seed(&b, 2);
    rng_seed_stream(&c, 1, 0, 1);
    uint64_t x = rng_next_u64(&a);
    cr_assert_neq(x, rng_next_u64(&b));
    cr_assert_neq(x, rng_next_u64(&c));
}

Test(rng, uniform_in_unit_interval) {
    Rng r;
    rng_seed(&r, 99);
    double lo = 1, hi = 0;
    for (int i = 0; i < 100000; i++) {
        double u = rng_uniform(&r);
        cr_assert(u >= 0.0 && u < 1.0);
        if (u < lo) lo = u;
        if (u > hi) hi = u;
    }
    /* 1e5 draws: the extremes are within 1e-3 of the ends with probability ≈ 1 − 2e-43. */
    cr_assert(lo < 1e-3 && hi > 1 - 1e-3);
}

Test(rng, gaussian_moments) {
    /* For N = 200000 standard normal draws the sample mean has SD 1/√N ≈ 0.0022
     * and the sample variance SD √(2/N) ≈ 0.0032; 5 SD bounds. */
    Rng r;
    rng_seed(&r, 5);
    const int N = 200000;
    double s = 0, s2 = 0, s4 = 0;
    for (int i = 0; i < N; i++) {
        double g = rng_gaussian(&r);
        s += g;
        s2 += g * g;
        s4 += g * g * g * g;
    }
    double mean = s / N, var = s2 / N - mean * mean;
    cr_assert(fabs(mean) < 5 * 0.0023, "mean %g", mean);
    cr_assert(fabs(var - 1) < 5 * 0.0032, "var %g", var);
    /* Fourth moment 3 distinguishes a Gaussian from, say, a uniform (1.8);
     * its SD is √(96/N) ≈ 0.022. */
    cr_assert(fabs(s4 / N - 3) < 5 * 0.022, "fourth moment %g", s4 / N);
}

Test(rng, string_hash_is_fnv1a) {
    /* FNV-1a 64-bit test vectors from the algorithm's specification. */
    cr_assert_eq(rng_hash_string(""), UINT64_C(0xcbf29ce484222325));
    cr_assert_eq(rng_hash_string("a"), UINT64_C(0xaf63dc4c8601ec8c));
    cr_assert_eq(rng_hash_string("foobar"), UINT64_C(0x85944171f73967e8));
}

/* ---- bulk normals (ziggurat over SIMD lanes) --------------------------------------- */

static double phi(double x) {
    return 0.5 * erfc(-x / sqrt(2.0));
}

static int by_float(const void *a, const void *b) {
    float x = *(const float *)a, y = *(const float *)b;
    return (x > y) - (x < y);
}

/* Kolmogorov–Smirnov against the N(0, 1) CDF over 2^20 draws. The 0.1 %
 * critical value of D is 1.95/√N; a correct generator passes with
 * probability 0.999, and a wrong layer table or bit overlap fails by far. */
Test(rng, bulk_normals_follow_the_normal_law) {
    enum { N = 1 << 20 };
    static float x[N];
    Rng_Zig z;
    rng_zig_init(&z);
    Rng_Lanes r;
    rng_lanes_seed(&r, 2024, 1, 2);
    rng_normal_fill(&r, &z, x, N);
    double mean = 0, var = 0, m4 = 0;
    long tail = 0;
    for (int i = 0; i < N; i++) mean += x[i];
    mean /= N;
    for (int i = 0; i < N; i++) {
        double d = x[i] - mean;
        var += d * d;
        m4 += d * d * d * d;
        tail += fabs(x[i]) > 3.6541528853610088; /* the base layer's tail */
    }
    var /= N;
    m4 /= N;
    /* SD of the mean 1/√N, of the variance √(2/N), of the 4th moment √(96/N) */
    cr_assert(fabs(mean) < 5 / sqrt((double)N), "mean %g", mean);
    cr_assert(fabs(var - 1) < 5 * sqrt(2.0 / N), "variance %g", var);
    cr_assert(fabs(m4 - 3) < 5 * sqrt(96.0 / N), "fourth moment %g", m4);
    /* the tail beyond r is 2(1 − Φ(r)) = 2.58e-4; binomial SD √(Np(1−p)) */
    double p = 2 * (1 - phi(3.6541528853610088));
    cr_assert(fabs(tail - N * p) < 5 * sqrt(N * p), "tail count %ld, expected %g", tail, N * p);
    qsort(x, N, sizeof *x, by_float);
    double d = 0;
    for (int i = 0; i < N; i++) {
        double f = phi(x[i]);
        d = fmax(d, fmax(fabs(f - (double)i / N), fabs(f - (double)(i + 1) / N)));
    }
    cr_assert(d < 1.95 / sqrt((double)N), "KS distance %g", d);
}

Test(rng, bulk_normals_are_seeded_and_any_length) {
    Rng_Zig z;
    rng_zig_init(&z);
    float a[1000], b[1000], c[1000];
    Rng_Lanes r;
    rng_lanes_seed(&r, 7, 3, 4);
    rng_normal_fill(&r, &z, a, 1000);
    rng_lanes_seed(&r, 7, 3, 4);
    rng_normal_fill(&r, &z, b, 1000);
    rng_lanes_seed(&r, 7, 3, 5);
    rng_normal_fill(&r, &z, c, 1000);
    cr_assert_eq(memcmp(a, b, sizeof a), 0);
    cr_assert_neq(memcmp(a, c, sizeof a), 0);
    for (int i = 0; i < 1000; i++) cr_assert(isfinite(a[i]));
}
