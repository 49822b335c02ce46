/* Seeded projection matrices W_Q, W_K (d×d_k) and W_V (d×d_v).
 *
 * Entries are N(0, 1). Each column has its own random stream keyed by
 * (seed, which matrix, which head, column), and rows are drawn down the
 * column in order, so the matrices are column-stable (growing d_k from 16 to
 * 17 appends one column and leaves the first 16 untouched) and also
 * row-stable in d. Head 0's streams are the single head's of before, and a
 * new head never changes an earlier one.
 *
 * The output projection W_O ((H·d_v)×d) is drawn the same way, one stream
 * per column, and scaled by 1/√(H·d_v).
 *
 *   void proj_fill(uint64_t seed, Proj_Kind kind, int head, int rows, int cols, float *dest)
 *       fill a rows×cols matrix of N(0, 1) entries
 *   void proj_fill_output(uint64_t seed, int heads, int d_v, int d, float *dest)
 *       W_O: (heads·d_v)×d, entries N(0, 1)/√(heads·d_v)
 */
#ifndef ATTN_PROJECTION_H
#define ATTN_PROJECTION_H

#include <stdint.h>

typedef enum Proj_Kind { PROJ_Q = 0, PROJ_K = 1, PROJ_V = 2, PROJ_O = 3 } Proj_Kind;

void proj_fill(uint64_t seed, Proj_Kind kind, int head, int rows, int cols, float *dest);
void proj_fill_output(uint64_t seed, int heads, int d_v, int d, float *dest);

#endif
