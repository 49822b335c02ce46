/* One head's scores into its weights, written once and compiled for two
 * scalar types: float for the forward pass (net_kernels.h: the whole pass,
 * the cached step, the explorer) and double for the training labs' head
 * (dhead.c, where the gradient check needs float64). So both labs and every
 * model apply the same mask, the same ALiBi and the same softmax.
 *
 * The includer defines, before each inclusion:
 *     HEAD_REAL          the scalar type
 *     HEAD_NAME(name)    the name of each function for that type
 *     HEAD_EXP(x)        e^x: exp_approx in float (it vectorises), libm's exp in double
 *     HEAD_NORMALISE(a, sum, count)
 *                        a[0 … count − 1] divided by their sum: float multiplies by 1/sum
 *                        (one division a row), double divides each (the last bit of a
 *                        float64 gradient check)
 * and this file undefines them again. For each type it defines:
 *
 *   void HEAD_NAME(softmax_row)(const HEAD_REAL *s, int count, HEAD_REAL *a)
 *       a[j] = e^(s[j] − max) / Σ e^(s[k] − max) over the count keys a query sees
 *   void HEAD_NAME(score_rule)(HEAD_REAL *S, int n, int ld, bool unmasked, HEAD_REAL slope)
 *       the rule after the dot products, for the n×n scores S (rows ld apart): ALiBi's
 *       −slope·|i − j| on each score a query sees (slope 0: none), −∞ for the keys in its
 *       future unless unmasked
 *   HEAD_REAL HEAD_NAME(score_at)(HEAD_REAL s, int i, int j, bool unmasked, HEAD_REAL slope)
 *       the same rule for one score s of query i and key j (a drag redoes one row and one
 *       column)
 *   void HEAD_NAME(weights_rows)(const HEAD_REAL *S, int n, bool unmasked, HEAD_REAL *A)
 *       each row of S (n×n) into A: its softmax over the keys the row sees; the masked
 *       weights are exact zeros
 *
 * Internal to src/nn: no guard, because it is meant to be included once per type.
 */
#if !defined(HEAD_REAL) || !defined(HEAD_NAME) || !defined(HEAD_EXP) || !defined(HEAD_NORMALISE)
#error "head_rows.h: define HEAD_REAL, HEAD_NAME, HEAD_EXP and HEAD_NORMALISE first"
#endif

#include <math.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdlib.h>

static inline void HEAD_NAME(softmax_row)(const HEAD_REAL *s, int count, HEAD_REAL *a) {
    HEAD_REAL max = s[0];
    for (int j = 1; j < count; j++)
        if (s[j] > max) max = s[j];
    for (int j = 0; j < count; j++) a[j] = HEAD_EXP(s[j] - max);
    HEAD_REAL sum = 0;
    for (int j = 0; j < count; j++) sum += a[j];
    HEAD_NORMALISE(a, sum, count);
}

static inline void HEAD_NAME(score_rule)(HEAD_REAL *S, int n, int ld, bool unmasked,
                                         HEAD_REAL slope) {
    for (int i = 0; i < n; i++) {
        HEAD_REAL *si = S + (ptrdiff_t)i * ld;
        int seen = unmasked ? n : i + 1;
        if (slope != 0)
            for (int j = 0; j < seen; j++) si[j] -= slope * (HEAD_REAL)abs(i - j);
        for (int j = seen; j < n; j++) si[j] = -INFINITY;
    }
}

static inline HEAD_REAL HEAD_NAME(score_at)(HEAD_REAL s, int i, int j, bool unmasked,
                                            HEAD_REAL slope) {
    if (!unmasked && j > i) return -INFINITY;
    return slope != 0 ? s - slope * (HEAD_REAL)abs(i - j) : s;
}

static inline void HEAD_NAME(weights_rows)(const HEAD_REAL *S, int n, bool unmasked, HEAD_REAL *A) {
    for (int i = 0; i < n; i++) {
        int seen = unmasked ? n : i + 1;
        HEAD_NAME(softmax_row)(S + (ptrdiff_t)i * n, seen, A + (ptrdiff_t)i * n);
        for (int j = seen; j < n; j++) A[(ptrdiff_t)i * n + j] = 0;
    }
}

#undef HEAD_REAL
#undef HEAD_NAME
#undef HEAD_EXP
#undef HEAD_NORMALISE
