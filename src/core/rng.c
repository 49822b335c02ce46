/* Seeded random numbers: xoshiro256** with splitmix64 seeding, polar Gaussians. */
#include "rng.h"

#include <math.h>

static uint64_t splitmix64(uint64_t *x) {
    uint64_t z = (*x += 0x9E3779B97F4A7C15ull);
    z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ull;
    z = (z ^ (z >> 27)) * 0x94D049BB133111EBull;
    return z ^ (z >> 31);
}

static uint64_t rotl(uint64_t x, int k) {
    return (x << k) | (x >> (64 - k));
}

void rng_seed(Rng *r, uint64_t seed) {
    uint64_t x = seed;
    for (int i = 0; i < 4; i++) r->s[i] = splitmix64(&x);
    r->has_spare = 0;
    r->spare = 0.0;
}

void rng_seed_stream(Rng *r, uint64_t seed, uint64_t a, uint64_t b) {
    /* Mix the keys through splitmix so nearby keys give unrelated streams. */
    uint64_t x = seed;
    uint64_t k = splitmix64(&x) ^ a;
    k = splitmix64(&k) ^ b;
    rng_seed(r, splitmix64(&k));
}

uint64_t rng_next_u64(Rng *r) {
    uint64_t *s = r->s;
    uint64_t result = rotl(s[1] * 5, 7) * 9;
    uint64_t t = s[1] << 17;
    s[2] ^= s[0];
    s[3] ^= s[1];
    s[1] ^= s[2];
    s[0] ^= s[3];
    s[2] ^= t;
    s[3] = rotl(s[3], 45);
    return result;
}

double rng_uniform(Rng *r) {
    return (double)(rng_next_u64(r) >> 11) * 0x1.0p-53;
}

double rng_gaussian(Rng *r) {
    if (r->has_spare) {
        r->has_spare = 0;
        return r->spare;
    }
    double u, v, s;
    do {
        u = 2.0 * rng_uniform(r) - 1.0;
        v = 2.0 * rng_uniform(r) - 1.0;
        s = u * u + v * v;
    } while (s >= 1.0 || s == 0.0);
    double f = sqrt(-2.0 * log(s) / s);
    r->spare = v * f;
    r->has_spare = 1;
    return u * f;
}

uint64_t rng_hash_string(const char *s) {
    uint64_t h = 0xcbf29ce484222325ull;
    for (; *s; s++) {
        h ^= (unsigned char)*s;
        h *= 0x100000001b3ull;
    }
    return h;
}

/* ---- ziggurat ------------------------------------------------------------------ */

#define ZIG_R 3.6541528853610088 /* where the base layer's tail starts */
#define ZIG_V 0.00492867323399   /* the area of each layer */
#define ZIG_M 8388608.0          /* 2^23: positions are 24-bit signed */
#define ZIG_N RNG_ZIG_LAYERS

void rng_zig_init(Rng_Zig *z) {
    double dn = ZIG_R, tn = dn;
    double q = ZIG_V / exp(-0.5 * dn * dn);
    z->k[0] = (uint32_t)((dn / q) * ZIG_M);
    z->k[1] = 0;
    z->w[0] = (float)(q / ZIG_M);
    z->w[ZIG_N - 1] = (float)(dn / ZIG_M);
    z->f[0] = 1.0f;
    z->f[ZIG_N - 1] = (float)exp(-0.5 * dn * dn);
    for (int i = ZIG_N - 2; i >= 1; i--) {
        dn = sqrt(-2.0 * log(ZIG_V / dn + exp(-0.5 * dn * dn)));
        z->k[i + 1] = (uint32_t)((dn / tn) * ZIG_M);
        tn = dn;
        z->f[i] = (float)exp(-0.5 * dn * dn);
        z->w[i] = (float)(dn / ZIG_M);
    }
}

void rng_lanes_seed(Rng_Lanes *r, uint64_t seed, uint64_t a, uint64_t b) {
    rng_seed_stream(&r->tail, seed, a, b);
    for (int l = 0; l < RNG_LANES; l++) {
        uint64_t x = rng_next_u64(&r->tail), y = rng_next_u64(&r->tail);
        r->s[0][l] = (uint32_t)x;
        r->s[1][l] = (uint32_t)(x >> 32);
        r->s[2][l] = (uint32_t)y;
        r->s[3][l] = (uint32_t)(y >> 32) | 1u; /* never the all-zero state */
    }
}

static inline uint32_t rotl32(uint32_t x, int k) {
    return (x << k) | (x >> (32 - k));
}

/* n (a multiple of RNG_LANES) 32-bit outputs, lane by lane: the inner loop
 * has no dependence between lanes, so it becomes SIMD. ×5 and ×9 are
 * written as shifts and adds, which SSE2 has for 32-bit lanes. */
static void lanes_fill(Rng_Lanes *restrict r, uint32_t *restrict out, int n) {
    uint32_t *s0 = r->s[0], *s1 = r->s[1], *s2 = r->s[2], *s3 = r->s[3];
    for (int t = 0; t < n; t += RNG_LANES) {
        for (int l = 0; l < RNG_LANES; l++) {
            uint32_t a = s1[l], x = rotl32(a + (a << 2), 7);
            out[t + l] = x + (x << 3);
            uint32_t b = s2[l] ^ s0[l], c = s3[l] ^ a;
            s1[l] = a ^ b;
            s0[l] ^= c;
            s2[l] = b ^ (a << 9);
            s3[l] = rotl32(c, 11);
        }
    }
}

/* A draw outside layer i's rectangle: the wedge or, for layer 0, the tail.
 * Kept out of line (GCC's noinline; other compilers may inline it, which is
 * only slower) so the fast loop stays small. */
#if defined(__GNUC__)
__attribute__((noinline))
#endif
static float
zig_slow(Rng *r, const Rng_Zig *z, int32_t hz, int i) {
    for (;;) {
        double x = hz * (double)z->w[i];
        if (i == 0) {
            double y;
            do {
                x = -log(1.0 - rng_uniform(r)) / ZIG_R;
                y = -log(1.0 - rng_uniform(r));
            } while (y + y < x * x);
            return (float)(hz > 0 ? ZIG_R + x : -ZIG_R - x);
        }
        /* float is plenty for the wedge test, and expf is several times
         * cheaper than exp; this path runs for about 1.5 % of draws */
        if (z->f[i] + rng_uniform(r) * (z->f[i - 1] - z->f[i]) < exp(-0.5 * x * x)) return (float)x;
        uint32_t u = (uint32_t)rng_next_u64(r);
        i = (int)(u & (ZIG_N - 1));
        hz = (int32_t)(u >> 8) - (1 << 23);
        if ((uint32_t)(hz < 0 ? -hz : hz) < z->k[i]) return (float)hz * z->w[i];
    }
}

enum { ZIG_BLOCK = 256 };

void rng_normal_fill(Rng_Lanes *r, const Rng_Zig *z, float *dest, int n) {
    uint32_t u[ZIG_BLOCK];
    int rejected[ZIG_BLOCK];
    for (int at = 0; at < n; at += ZIG_BLOCK) {
        int m = n - at < ZIG_BLOCK ? n - at : ZIG_BLOCK;
        lanes_fill(r, u, (m + RNG_LANES - 1) / RNG_LANES * RNG_LANES);
        /* the fast path for every draw, without branches; the rejected ones
         * are listed and redone below */
        int nrej = 0;
        for (int j = 0; j < m; j++) {
            int i = (int)(u[j] & (ZIG_N - 1));
            int32_t hz = (int32_t)(u[j] >> 8) - (1 << 23);
            uint32_t mag = (uint32_t)(hz < 0 ? -hz : hz);
            dest[at + j] = (float)hz * z->w[i];
            rejected[nrej] = j;
            nrej += mag >= z->k[i];
        }
        for (int q = 0; q < nrej; q++) {
            int j = rejected[q];
            int i = (int)(u[j] & (ZIG_N - 1));
            dest[at + j] = zig_slow(&r->tail, z, (int32_t)(u[j] >> 8) - (1 << 23), i);
        }
    }
}
