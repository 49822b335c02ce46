/* Float64 row-major matrices for the training labs, where the gradient check
 * needs double precision. Their softmax is dmat_rows.h's (the pass's, in
 * double), their RoPE turn posenc_rope_row_f64.
 *
 *   void dmat_mul(const double *a, const double *b, int r, int k, int m, double *c)
 *       c (r×m) = a (r×k) · b (k×m)
 *   void dmat_mul_ta(const double *a, const double *b, int r, int k, int m, double *c)
 *       c (k×m) += aᵀ · b, for a (r×k) and b (r×m)
 *   void dmat_mul_tb(const double *a, const double *b, int r, int k, int m, double *c)
 *       c (r×m) = a · bᵀ, for a (r×k) and b (m×k)
 *   void dmat_adam(double *param, const double *grad, double *m1, double *m2, long count,
 *                  double lr, long step)
 *       one Adam step (β₁ 0.9, β₂ 0.999, ε 1e-8, bias-corrected for step, counted from 1)
 *       on count parameters, m1 and m2 its moment estimates: the one optimizer of both
 *       training labs
 *   double dmat_cross_entropy(const double *z, int r, int m, const int *target, double weight,
 *                             double *dz, double *row_loss)
 *       the loss of each row of logits z (r×m) against its target (−log softmax(z)[target],
 *       its probability floored at 1e-300), in row_loss[i] when row_loss is given (0 for a row
 *       whose target is < 0: not scored); their sum, added in row order; and in dz its
 *       gradient times weight: (softmax − one-hot)·weight, 0 on a row not scored. The one
 *       readout loss of both training labs
 */
#ifndef ATTN_DMAT_H
#define ATTN_DMAT_H

void dmat_mul(const double *a, const double *b, int r, int k, int m, double *c);
void dmat_mul_ta(const double *a, const double *b, int r, int k, int m, double *c);
void dmat_mul_tb(const double *a, const double *b, int r, int k, int m, double *c);
double dmat_cross_entropy(const double *z, int r, int m, const int *target, double weight,
                          double *dz, double *row_loss);
void dmat_adam(double *param, const double *grad, double *m1, double *m2, long count, double lr,
               long step);

#endif
