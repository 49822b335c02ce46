/* Permutations of token positions; see perm.h. */
#include "perm.h"

#include <stdio.h>
#include <string.h>

bool perm_validate(const int *p, int n, char *err, size_t errsz) {
    /* A bitmap on the stack would limit n; scanning for the first earlier
     * equal entry is O(n²) but n is at most a few hundred tokens. */
    for (int i = 0; i < n; i++) {
        if (p[i] < 0 || p[i] >= n) {
            snprintf(err, errsz, "entry %d is %d, outside 0..%d", i, p[i], n - 1);
            return false;
        }
        for (int j = 0; j < i; j++) {
            if (p[j] == p[i]) {
                snprintf(err, errsz, "%d appears twice (entries %d and %d)", p[i], j, i);
                return false;
            }
        }
    }
    return true;
}

void perm_identity(int n, int *dest) {
    for (int i = 0; i < n; i++) dest[i] = i;
}

void perm_apply_rows(const int *p, int n, const float *src, int cols, float *dest) {
    for (int i = 0; i < n; i++)
        memcpy(dest + (long)i * cols, src + (long)p[i] * cols, (size_t)cols * sizeof(float));
}

void perm_inverse(const int *p, int n, int *dest) {
    for (int i = 0; i < n; i++) dest[p[i]] = i;
}

void perm_compose(const int *p, const int *q, int n, int *dest) {
    for (int i = 0; i < n; i++) dest[i] = q[p[i]];
}

void perm_reverse(int n, int *dest) {
    for (int i = 0; i < n; i++) dest[i] = n - 1 - i;
}

void perm_rotate(int n, int k, int *dest) {
    for (int i = 0; i < n; i++) dest[i] = ((i + k) % n + n) % n;
}
