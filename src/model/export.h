/* Export of the whole computation, as one JSON object or labelled CSV.
 *
 * JSON keys, in order: tokens, n, d, d_k, d_v, seed, scaled, pos,
 * pos_strength, heads, mask, X, P (null without positions), W_Q, W_K, W_V, Q,
 * K, V, S, A, O (head 1's), per_head (those nine for every head), W_O, Y.
 * Matrices are arrays of rows. CSV writes the same matrices as blocks: a
 * "# NAME rows×cols" line, a header row, one labelled line per row, and a
 * blank line between blocks.
 *
 * Masked scores (causal mask, key after query) are null in JSON and -inf in
 * CSV; any other value that is not finite would be indistinguishable from
 * them (or turn into "nan"), so an export checks first and refuses.
 *
 *   bool export_check(const Scene *s, const Derived *dv, char *err, size_t errsz)
 *       true if every exported value is finite, S's masked cells aside; else false with the
 *       first bad cell named ("export: A[2][3] of head 1 is NaN …")
 *   void export_json(const Scene *s, const Derived *dv, FILE *f)
 *   void export_csv(const Scene *s, const Derived *dv, FILE *f)
 */
#ifndef ATTN_EXPORT_H
#define ATTN_EXPORT_H

#include <stdio.h>

#include "scene.h"

bool export_check(const Scene *s, const Derived *dv, char *err, size_t errsz);
void export_json(const Scene *s, const Derived *dv, FILE *f);
void export_csv(const Scene *s, const Derived *dv, FILE *f);

#endif
