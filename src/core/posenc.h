/* Sinusoidal positional encodings (the original Transformer's formula).
 *
 * For position p (0-based) and coordinate c of a width-d embedding:
 *   void posenc_sinusoidal(int n, int d, float strength, float *dest)
 *       fill an n×d matrix
 */
#ifndef ATTN_POSENC_H
#define ATTN_POSENC_H

void posenc_sinusoidal(int n, int d, float strength, float *dest);

#endif
