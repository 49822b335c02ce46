/* Helpers shared by the test files: seeded random cases, float64 references
 * and paths handed over by the Makefile through the environment. */
#ifndef ATTN_TEST_UTIL_H
#define ATTN_TEST_UTIL_H

#include "core/rng.h"
#include "model/vocab.h"

#include <criterion/criterion.h>
#include <stdio.h>
#include <stdlib.h>

static inline const char *test_env(const char *name) {
    const char *v = getenv(name);
    cr_assert(v && *v, "%s is not set; run the tests through `make test`", name);
    return v;
}

/* The shipped vocabulary, as every model-level test uses it. */
static inline void test_load_vocab(Vocab *v) {
    char path[1024], err[512];
    snprintf(path, sizeof path, "%s/assets/vocab.tsv", test_env("ATTNLAB_DATA"));
    cr_assert(vocab_load(v, path, err, sizeof err), "%s", err);
}

static inline int rand_int(Rng *r, int lo, int hi) {
    return lo + (int)(rng_next_u64(r) % (uint64_t)(hi - lo + 1));
}

static inline void rand_fill(Rng *r, float *x, long count, double scale) {
    for (long i = 0; i < count; i++) x[i] = (float)(scale * (2.0 * rng_uniform(r) - 1.0));
}

#endif
