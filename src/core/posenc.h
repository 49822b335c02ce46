/* Sinusoidal positional encodings (the original Transformer's formula).
 *
 * For position p (0-based) and coordinate c of a width-d embedding:
 *   P[p][2i]   = strength · sin(p / 10000^(2i/d))
 *   P[p][2i+1] = strength · cos(p / 10000^(2i/d))
 *
 *   posenc_sinusoidal(n, d, strength, dest)   fill an n×d matrix
 */
#ifndef ATTN_POSENC_H
#define ATTN_POSENC_H

void posenc_sinusoidal(int n, int d, float strength, float *dest);

#endif
