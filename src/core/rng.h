/* Seeded random numbers that are the same on every machine.
 *
 * xoshiro256** seeded through splitmix64: integer arithmetic only, so a seed
 * gives the same stream everywhere (no rand(), no platform state). Gaussian
 * samples use the Marsaglia polar method, which needs only log and sqrt.
 *
 *   rng_seed(&r, seed)            start a stream
 *   rng_seed_stream(&r, seed, a, b) independent stream keyed by (seed, a, b)
 *   rng_next_u64(&r)              64 random bits
 *   rng_uniform(&r)               double in [0, 1)
 *   rng_gaussian(&r)              double from N(0, 1)
 *   rng_hash_string(s)            64-bit FNV-1a hash of a string
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

#endif
