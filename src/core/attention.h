/* Scaled dot-product self-attention, all rows at once.
 *
 * Given X (n×d), an optional positional term P (n×d) and projections, it
 * computes X' = X + P, Q = X'W_Q, K = X'W_K, V = X'W_V, the scores
 * S = QKᵀ/√d_k (or QKᵀ when unscaled), A = softmax of each row of S and
 * O = AV. The softmax subtracts the row maximum first, so for finite input
 * every entry of A is finite, non-negative, and each row sums to one.
 *
 * Position in the rule (posenc.h): with rope, row i of Q and K is turned by
 * position offset + i into Q_rot, K_rot, and S = Q_rot·K_rotᵀ/√d_k (Q and K
 * keep the plain projections; without rope Q_rot, K_rot are copies of them).
 * With an ALiBi slope m, S gets −m·|i − j| after the scaling.
 *
 * With the causal mask, query i sees only keys j ≤ i: S holds −∞ above the
 * diagonal, so those weights are exact zeros (never NaN: the diagonal keeps
 * every row's maximum finite), and the first token attends only to itself.
 *
 *   bool attn_reserve(Attn *attn, int n, int d, int d_k, int d_v)
 *       make room (heap; only when shapes grow)
 *   void attn_compute(Attn *attn, const Attn_Desc *desc)
 *       fill Xp, Q, K, V, S, A, O
 *   void attn_update_row(Attn *attn, const Attn_Desc *desc, int i)
 *       after only row i of X (or P) changed since the last compute with the same shape: redo row i
 *       of Q, K, V, row and column i of S, then A and O
 *   void attn_softmax_rows(const float *s, int n, int m, float *dest)
 *       row softmax with the max subtracted
 *   void attn_free(Attn *attn)
 */
#ifndef ATTN_ATTENTION_H
#define ATTN_ATTENTION_H

#include <stdbool.h>

typedef struct Attn_Desc {
    int n, d, d_k, d_v;
    bool scaled;
    bool causal;      /* query i sees keys j ≤ i only */
    const float *X;   /* n×d */
    const float *P;   /* n×d positional term, or NULL for none */
    const float *W_Q; /* d×d_k */
    const float *W_K; /* d×d_k */
    const float *W_V; /* d×d_v */
    bool rope;        /* turn q and k by position */
    double rope_base; /* θ_m = base^(−2m/d_k) */
    int pos_offset;   /* the first token's position */
    double alibi;     /* ALiBi slope m, or 0 for none */
} Attn_Desc;

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
    float *Kt; /* d_k×n   K_rotᵀ, so S = Q_rot·K_rotᵀ runs along contiguous rows */
    /* capacities, in elements */
    long cap_nd, cap_nk, cap_nv, cap_nn;
} Attn;

bool attn_reserve(Attn *attn, int n, int d, int d_k, int d_v);
void attn_compute(Attn *attn, const Attn_Desc *desc);
void attn_update_row(Attn *attn, const Attn_Desc *desc, int i);
void attn_softmax_rows(const float *s, int n, int m, float *dest);
void attn_free(Attn *attn);

#endif
