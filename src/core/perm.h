/* Permutations of token positions.
 *
 * A permutation p of length n says that new position i holds old item p[i]
 * (0-based), the convention of the --perm option. Applying it to the rows of
 * X is multiplying by the permutation matrix P with P[i][p[i]] = 1.
 *
 *   perm_validate(p, n, err, errsz)      length/range/duplicate check, message
 *   perm_identity(n, dest)
 *   perm_apply_rows(p, n, src, cols, dest)  dest row i = src row p[i]
 *   perm_inverse(p, n, dest)             dest[p[i]] = i
 *   perm_compose(p, q, n, dest)          apply q then p: dest[i] = q[p[i]]
 *   perm_reverse(n, dest), perm_rotate(n, k, dest)
 */
#ifndef ATTN_PERM_H
#define ATTN_PERM_H

#include <stdbool.h>
#include <stddef.h>

bool perm_validate(const int *p, int n, char *err, size_t errsz);
void perm_identity(int n, int *dest);
void perm_apply_rows(const int *p, int n, const float *src, int cols, float *dest);
void perm_inverse(const int *p, int n, int *dest);
void perm_compose(const int *p, const int *q, int n, int *dest);
void perm_reverse(int n, int *dest);
void perm_rotate(int n, int k, int *dest);

#endif
