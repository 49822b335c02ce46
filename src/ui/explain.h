/* The arithmetic behind one cell of S and A, in words and the current
 * numbers, for the status line and the presenter's callout.
 *
 *   void explain_cell(const Model *m, const Attn *a, int i, int j, char *buf, size_t size)
 *       s_ij = ⟨q_i,k_j⟩/√d_k with its numbers, then (after wide space) a_ij = e^s / Σ_ℓ e^s_iℓ
 *       with the denominator's value; with several heads, which head a is; a masked cell says so
 */
#ifndef ATTN_EXPLAIN_H
#define ATTN_EXPLAIN_H

#include <stddef.h>

#include "../model/model.h"

void explain_cell(const Model *m, const Attn *a, int i, int j, char *buf, size_t size);

#endif
