/* Growing a float buffer to a size: one way for every pass and lab that keeps
 * its buffers between frames (no allocation once they are big enough).
 *
 *   bool grow_floats(float **p, int64_t count)
 *       *p reallocated to room for count floats (1 at least); what it held is kept as far as
 *       it reaches; false, *p unchanged and still valid, when the memory cannot be had or
 *       count floats pass SIZE_MAX bytes (the browser is 32-bit)
 *   bool grow_floats_to(float **p, long *cap, int64_t need)
 *       as grow_floats, but only when need passes *cap (or *p is NULL); *cap is need after
 */
#ifndef ATTN_GROW_H
#define ATTN_GROW_H

#include <stdbool.h>
#include <stdint.h>
#include <stdlib.h>

static inline bool grow_floats(float **p, int64_t count) {
    if (count <= 0) count = 1;
    if ((uint64_t)count > SIZE_MAX / sizeof(float)) return false;
    float *q = realloc(*p, (size_t)count * sizeof(float));
    if (!q) return false;
    *p = q;
    return true;
}

static inline bool grow_floats_to(float **p, long *cap, int64_t need) {
    if (need <= *cap && *p) return true;
    if (!grow_floats(p, need)) return false;
    *cap = (long)need;
    return true;
}

#endif
