/* head_rows.h compiled for double: softmax_row_f64, score_rule_f64,
 * score_at_f64 and weights_rows_f64, the training labs' mask, ALiBi and
 * softmax, from the same source as the forward pass's float ones. Internal
 * to src/nn. */
#ifndef ATTN_DMAT_ROWS_H
#define ATTN_DMAT_ROWS_H

#include <math.h>

static inline void normalise_f64(double *a, double sum, int count) {
    for (int j = 0; j < count; j++) a[j] /= sum;
}
#define HEAD_REAL                     double
#define HEAD_NAME(name)               name##_f64
#define HEAD_EXP(x)                   exp(x)
#define HEAD_NORMALISE(a, sum, count) normalise_f64(a, sum, count)
#include "head_rows.h"

#endif
