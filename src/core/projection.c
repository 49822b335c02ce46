/* Column-stable seeded projections; see projection.h. */
#include "projection.h"

#include "rng.h"

#include <math.h>

void proj_fill(uint64_t seed, Proj_Kind kind, int head, int rows, int cols, float *dest) {
    for (int c = 0; c < cols; c++) {
        Rng r;
        rng_seed_stream(&r, seed, 0x51ull + (uint64_t)kind + ((uint64_t)head << 8), (uint64_t)c);
        for (int row = 0; row < rows; row++) dest[(long)row * cols + c] = (float)rng_gaussian(&r);
    }
}

void proj_fill_output(uint64_t seed, int heads, int d_v, int d, float *dest) {
    int rows = heads * d_v;
    proj_fill(seed, PROJ_O, 0, rows, d, dest);
    float scale = (float)(1.0 / sqrt((double)rows));
    for (long k = 0; k < (long)rows * d; k++) dest[k] *= scale;
}
