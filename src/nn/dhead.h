/* One attention head in float64, forward and backward: the head both
 * training labs run (train_head.h's one head, train_stack.h's every head), so there is
 * one softmax backward, one mask and one RoPE turn for the gradient check.
 *
 * For x (n×d) and W_Q, W_K (d×d_k), W_V (d×d_v):
 *     q = x W_Q, k = x W_K, v = x W_V   (with rope, q and k turned by position, base 10000,
 *                                        and kept turned)
 *     S_ij = scale · q_i·k_j − alibi·|i − j|, or −∞ for j > i with causal
 *     A = softmax of each row of S,  o = A v
 * The backward pass takes do = ∂L/∂o and gives dq, dk (turned back) and dv,
 * ∂L/∂ at the projections; it adds xᵀdq, xᵀdk, xᵀdv into the weights'
 * gradients. What the head's input owes (dq W_Qᵀ + dk W_Kᵀ + dv W_Vᵀ) is the
 * caller's: the one-head lab adds it into an embedding, the stack into its
 * residual stream, each in its own order of sums.
 *
 *   void dhead_forward(const DHead *h, const double *x, DHead_Bufs *b)
 *       fills b->q, b->k, b->v, b->A and b->o
 *   void dhead_backward(const DHead *h, const double *x, DHead_Bufs *b, const double *d_o,
 *                       double *g_Q, double *g_K, double *g_V)
 *       after dhead_forward on the same x: fills b->dq, b->dk, b->dv (b->dA and b->dS
 *       are its scratch) and adds into g_Q, g_K (d×d_k) and g_V (d×d_v)
 */
#ifndef ATTN_DHEAD_H
#define ATTN_DHEAD_H

#include <stdbool.h>

typedef struct DHead {
    int n, d, d_k, d_v;
    const double *W_Q, *W_K, *W_V;
    double scale; /* 1/√d_k, or 1 for unscaled scores */
    bool causal;  /* query i sees keys j ≤ i only */
    bool rope;    /* q and k turned by position */
    double alibi; /* ALiBi's slope, or 0 */
} DHead;

typedef struct DHead_Bufs {
    double *q, *k;   /* n×d_k each */
    double *v, *o;   /* n×d_v each */
    double *A;       /* n×n: the scores, then the weights */
    double *dq, *dk; /* n×d_k each */
    double *dv;      /* n×d_v */
    double *dA, *dS; /* n×n each */
} DHead_Bufs;

void dhead_forward(const DHead *h, const double *x, DHead_Bufs *b);
void dhead_backward(const DHead *h, const double *x, DHead_Bufs *b, const double *d_o, double *g_Q,
                    double *g_K, double *g_V);

#endif
