/* The explorer's heads on the layer stack: H heads of scaled dot-product
 * self-attention over a scene's X, computed by net.c's one pass (one layer,
 * no norm, no MLP), each head's matrices then laid out for the panels.
 *
 * Given X (n×d), an optional positional term P (n×d) and each head's
 * projections, the pass computes X' = X + P, Q = X'W_Q, K = X'W_K, V = X'W_V,
 * the scores S = Q_rot·K_rotᵀ/√d_k (or without the division when unscaled),
 * A = softmax of each row of S and O = AV, then Y = [O¹ … Oᴴ]·W_O. The
 * softmax subtracts the row maximum first, so for finite input every entry of
 * A is finite, non-negative, and each row sums to one.
 *
 * Position in the rule (posenc.h): with rope, row i of Q and K is turned by
 * position offset + i (pairs 2m, 2m + 1) into Q_rot, K_rot (Q and K keep the
 * plain projections; without rope Q_rot, K_rot equal them). With ALiBi
 * slopes, S gets −m_h·|i − j| after the scaling.
 *
 * With the causal mask, query i sees only keys j ≤ i: S holds −∞ above the
 * diagonal, so those weights are exact zeros (never NaN: the diagonal keeps
 * every row's maximum finite), and the first token attends only to itself.
 *
 *   bool attn_reserve(Attn *attn, int n, int d, int d_k, int d_v)
 *       room for one head's matrices (heap; only when shapes grow)
 *   void attn_free(Attn *attn)
 *   bool attend_compute(Attend *p, const Attend_Desc *desc)
 *       the pass, then every head's Xp, Q, K, V, Qr, Kr, S, A, O in p->head[h], the heads'
 *       outputs side by side in p->concat and Y in p->Y; false when out of memory
 *   bool attend_update_row(Attend *p, const Attend_Desc *desc, int i)
 *       after only row i of X (or P) changed since the last compute with the same shape: the
 *       pass's one-row update (net_update_row), the same numbers as attend_compute bit for bit
 *   void attend_free(Attend *p)
 */
#ifndef ATTN_ATTEND_H
#define ATTN_ATTEND_H

#include "net.h"

#include <stdbool.h>
#include <stdint.h>

/* One head's matrices, as the pass made them. */
typedef struct Attn {
    int n, d, d_k, d_v; /* shape of the last compute */
    bool scaled, causal;
    float *Xp; /* n×d    X + P */
    float *Q;  /* n×d_k */
    float *K;  /* n×d_k */
    float *V;  /* n×d_v */
    float *S;  /* n×n    the matrix the softmax is applied to */
    float *A;  /* n×n */
    float *O;  /* n×d_v */
    float *Qr; /* n×d_k   Q turned by position (rope), else a copy of Q */
    float *Kr; /* n×d_k   the same for K */
    /* capacities, in elements */
    long cap_nd, cap_nk, cap_nv, cap_nn;
} Attn;

typedef struct Attend_Desc {
    int n, d, d_k, d_v, heads;
    bool scaled;
    bool causal;             /* query i sees keys j ≤ i only */
    const float *X;          /* n×d */
    const float *P;          /* n×d positional term, or NULL for none */
    const float *const *W_Q; /* heads of d×d_k */
    const float *const *W_K; /* heads of d×d_k */
    const float *const *W_V; /* heads of d×d_v */
    const float *W_O;        /* (heads·d_v)×d, or NULL: no Y */
    bool rope;               /* turn q and k by position */
    double rope_base;        /* θ_m = base^(−2m/d_k) */
    int pos_offset;          /* the first token's position */
    const double *alibi;     /* heads ALiBi slopes, or NULL for none */
} Attend_Desc;

typedef struct Attend {
    Net_Model model;
    Net_Block block;
    Net_Run run;
    float *q_w, *k_w,
        *v_w;      /* the heads' projections side by side: d×(heads·d_k), …, d×(heads·d_v) */
    float *alibi;  /* heads slopes, as the pass reads them */
    int32_t *ids;  /* 0 … n − 1: row i of X is token i */
    Attn *head;    /* heads of them */
    float *concat; /* n×(heads·d_v): [O¹ … Oᴴ] */
    float *Y;      /* n×d: concat·W_O */
    long cap_q, cap_k, cap_v, cap_concat, cap_y;
    int cap_heads, cap_ids;
} Attend;

bool attn_reserve(Attn *attn, int n, int d, int d_k, int d_v);
void attn_free(Attn *attn);
bool attend_compute(Attend *p, const Attend_Desc *desc);
bool attend_update_row(Attend *p, const Attend_Desc *desc, int i);
void attend_free(Attend *p);

#endif
