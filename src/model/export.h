/* Export of the whole computation, as one JSON object or labelled CSV.
 *
 * JSON keys, in order: tokens, n, d, d_k, d_v, seed, scaled, pos,
 * pos_strength, X, P (null without positions), W_Q, W_K, W_V, Q, K, V, S, A,
 * O. Matrices are arrays of rows. CSV writes the same matrices as blocks:
 * a "# NAME rows×cols" line, a header row, one labelled line per row, and a
 * blank line between blocks.
 *
 *   void export_json(const Scene *s, const Derived *dv, FILE *f)
 *   void export_csv(const Scene *s, const Derived *dv, FILE *f)
 */
#ifndef ATTN_EXPORT_H
#define ATTN_EXPORT_H

#include <stdio.h>

#include "scene.h"

void export_json(const Scene *s, const Derived *dv, FILE *f);
void export_csv(const Scene *s, const Derived *dv, FILE *f);

#endif
