/* Column-stable seeded projections; see projection.h. */
#include "projection.h"

#include "rng.h"

void proj_fill(uint64_t seed, Proj_Kind kind, int d, int cols, float *dest) {
    for (int c = 0; c < cols; c++) {
        Rng r;
        rng_seed_stream(&r, seed, 0x51ull + (uint64_t)kind, (uint64_t)c);
        for (int row = 0; row < d; row++) dest[row * cols + c] = (float)rng_gaussian(&r);
    }
}
