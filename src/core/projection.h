/* Seeded projection matrices W_Q, W_K (d×d_k) and W_V (d×d_v).
 *
 * Entries are N(0, 1). Each column has its own random stream keyed by
 * (seed, which matrix, column), and rows are drawn down the column in order,
 * so the matrices are column-stable (growing d_k from 16 to 17 appends one
 * column and leaves the first 16 untouched) and also row-stable in d.
 *
 *   void proj_fill(uint64_t seed, Proj_Kind kind, int d, int cols, float *dest)
 *       fill a d×cols matrix
 */
#ifndef ATTN_PROJECTION_H
#define ATTN_PROJECTION_H

#include <stdint.h>

typedef enum Proj_Kind { PROJ_Q = 0, PROJ_K = 1, PROJ_V = 2 } Proj_Kind;

void proj_fill(uint64_t seed, Proj_Kind kind, int d, int cols, float *dest);

#endif
