/* Positional schemes: the two added to X, and the two in the attention rule.
 *
 * Positions are numbered from an offset: token i of a sentence that starts
 * at position `offset` of a document sits at p = offset + i.
 *
 * Added to X (absolute: the code depends on p itself):
 *   sinusoidal (the original Transformer's):
 *       P[p][2m] = strength · sin(p / 10000^(2m/d)), P[p][2m+1] = strength · cos(same);
 *       an odd d's last coordinate is a sine
 *   learned (GPT-2's kind): a table of POSENC_LEARNED_ROWS rows drawn from the seed, each
 *       entry N(0, ½)·strength (the sinusoid's mean square), with no structure; row p is drawn
 *       from its own stream, so the table never has to be stored
 *
 * In the attention rule (relative: the score depends on i − j only):
 *   rope (RoFormer, interleaved pairs): after projection, coordinates (2m, 2m+1) of q_i and
 *       k_i turn by the angle p·θ_m, θ_m = base^(−2m/d_k); V is not turned; an odd d_k
 *       leaves the last coordinate as it is. Then ⟨R_p q, R_p' k⟩ = ⟨q, R_(p'−p) k⟩.
 *   alibi (Press et al.): the scores get −m_h·|i − j|, with head h's slope
 *       m_h = 2^(−8h/H) for h = 1 … H; under the causal mask only j ≤ i is left, where
 *       |i − j| = i − j
 *
 *   void posenc_sinusoidal(int offset, int n, int d, float strength, float *dest)
 *       n×d rows for positions offset … offset + n − 1
 *   void posenc_learned(uint64_t seed, int offset, int n, int d, float strength, float *dest)
 *       rows offset … offset + n − 1 of the seed's table; every row < POSENC_LEARNED_ROWS
 *   void posenc_rope(const float *src, int n, int d_k, int offset, double base, float *dest)
 *       each row of src (n×d_k) turned by its position; src may be dest
 *   void posenc_rope_row(const float *src, int d_k, int p, double base, float *dest)
 *       one row at position p
 *   void posenc_rope_row_f64(const double *src, int d_k, int p, double base, double *dest)
 *       the same turn in double (the training labs'): each pair turned by the same angle,
 *       in the same operations
 *   double posenc_rope_theta(int m, int d_k, double base)
 *       θ_m, the turning speed of pair m
 *   double posenc_alibi_slope(int h, int heads)
 *       m_h for head h (1-based) of heads
 */
#ifndef ATTN_POSENC_H
#define ATTN_POSENC_H

#include <stdint.h>

#define POSENC_LEARNED_ROWS 1536 /* the learned table's n_max: offset ≤ 1000 plus 512 tokens */

void posenc_sinusoidal(int offset, int n, int d, float strength, float *dest);
void posenc_learned(uint64_t seed, int offset, int n, int d, float strength, float *dest);
void posenc_rope(const float *src, int n, int d_k, int offset, double base, float *dest);
void posenc_rope_row(const float *src, int d_k, int p, double base, float *dest);
void posenc_rope_row_f64(const double *src, int d_k, int p, double base, double *dest);
double posenc_rope_theta(int m, int d_k, double base);
double posenc_alibi_slope(int h, int heads);

#endif
