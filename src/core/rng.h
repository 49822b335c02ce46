/* Seeded random numbers that are the same on every machine.
 *
 * xoshiro256** seeded through splitmix64: integer arithmetic only, so a seed
 * gives the same stream everywhere (no rand(), no platform state). Gaussian
 * samples use the Marsaglia polar method, which needs only log and sqrt.
 *
 *   void rng_seed(Rng *r, uint64_t seed)
 *       start a stream
 *   void rng_seed_stream(Rng *r, uint64_t seed, uint64_t a, uint64_t b)
 *   uint64_t rng_next_u64(Rng *r)
 *       64 random bits
 *   double rng_uniform(Rng *r)
 *       double in [0, 1)
 *   double rng_gaussian(Rng *r)
 *       double from N(0, 1)
 *   uint64_t rng_hash_string(const char *s)
 *       64-bit FNV-1a hash of a string
 *   void rng_zig_init(Rng_Zig *z)
 *       tables for the ziggurat method
 *   void rng_lanes_seed(Rng_Lanes *r, uint64_t seed, uint64_t a, uint64_t b)
 *       a bulk stream keyed like rng_seed_stream
 *   void rng_normal_fill(Rng_Lanes *r, const Rng_Zig *z, float *dest, int n)
 *       n float samples from N(0, 1), fast: for bulk experiments (billions of draws); rng_gaussian
 *       stays the generator of projections, so seeded scenes keep their numbers
 *
 * Bulk normals: RNG_LANES independent xoshiro128** generators side by side
 * (plain 32-bit operations that the compiler turns into SIMD) give the
 * random bits, and the ziggurat (Marsaglia & Tsang, 2000) turns them into
 * normals: 256 layers of equal area, of which about 99 % of draws land inside
 * a layer's rectangle and cost one compare and one multiply. Each draw takes
 * 32 bits: 8 choose the layer and the other 24 the signed position, so the two
 * never share bits. The rare draws outside (wedges, the tail) take their
 * extra uniforms from a scalar xoshiro256** stream.
 */
#ifndef ATTN_RNG_H
#define ATTN_RNG_H

#include <stdint.h>

typedef struct Rng {
    uint64_t s[4];
    double spare; /* polar method makes two samples; the second waits here */
    int has_spare;
} Rng;

void rng_seed(Rng *r, uint64_t seed);
void rng_seed_stream(Rng *r, uint64_t seed, uint64_t a, uint64_t b);
uint64_t rng_next_u64(Rng *r);
double rng_uniform(Rng *r);
double rng_gaussian(Rng *r);
uint64_t rng_hash_string(const char *s);

#define RNG_ZIG_LAYERS 256

typedef struct Rng_Zig {
    uint32_t k[RNG_ZIG_LAYERS]; /* |position| below k[i]: inside layer i's rectangle */
    float w[RNG_ZIG_LAYERS];    /* position → x in layer i */
    float f[RNG_ZIG_LAYERS];    /* the density at each layer's edge */
} Rng_Zig;

#define RNG_LANES 16

typedef struct Rng_Lanes {
    uint32_t s[4][RNG_LANES]; /* xoshiro128** state word w of lane l: s[w][l] */
    Rng tail;                 /* for the slow path */
} Rng_Lanes;

void rng_zig_init(Rng_Zig *z);
void rng_lanes_seed(Rng_Lanes *r, uint64_t seed, uint64_t a, uint64_t b);
void rng_normal_fill(Rng_Lanes *r, const Rng_Zig *z, float *dest, int n);

#endif
