/* Permutations of token positions.
 *
 * A permutation p of length n says that new position i holds old item p[i]
 * (0-based), the convention of the --perm option. Applying it to the rows of
 * X is multiplying by the permutation matrix P with P[i][p[i]] = 1.
 *
 *   bool perm_validate(const int *p, int n, char *err, size_t errsz)
 *       length/range/duplicate check, message
 *   void perm_identity(int n, int *dest)
 *   void perm_apply_rows(const int *p, int n, const float *src, int cols, float *dest)
 *       dest row i = src row p[i]
 *   void perm_inverse(const int *p, int n, int *dest)
 *       dest[p[i]] = i
 *   void perm_compose(const int *p, const int *q, int n, int *dest)
 *       apply q then p: dest[i] = q[p[i]]
 *   void perm_reverse(int n, int *dest)
 *   void perm_rotate(int n, int k, int *dest)
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
