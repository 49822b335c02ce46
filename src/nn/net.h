/* The layer stack: one forward pass, in float32, for every model attnlab
 * runs: GPT-2, the Llama family (Llama, Qwen2, Qwen3: RMSNorm, RoPE,
 * grouped-query attention, SwiGLU) and the induction lab's attention-only
 * stack (no norm, no MLP). As llama2.c keeps them apart: Net_Model holds the
 * sizes and the kinds of each part with pointers to weights that are never
 * written; Net_Run holds every activation, allocated by net_reserve only when
 * the shapes grow. A NULL weight is a part the block does not have.
 *
 * With H query heads and G key/value heads (G divides H; query head h reads
 * key/value head h / (H/G)), d = head_dim and w = width:
 *     x₀ = wte[ids] (+ wpe[0…n−1] when wpe is given)
 *     a = norm₁(x_l)                           (a = x_l for NET_NORM_NONE)
 *     [Q K V] = a·W_qkv + b                    (Q n×H·d, K and V n×G·d)
 *     q, k of each head RMS-normed over d when q_norm, k_norm are given (Qwen3)
 *     with rope_theta > 0, q and k of token i turned by i (rotate-half, as Hugging Face
 *     applies it: coordinates c and c + d/2 form a pair, turned by the angle i·f_c with
 *     f_c = rope_freq[c] or θ^(−2c/d))
 *     S_h = q_h k_gᵀ/√d (q_h k_gᵀ when unscaled; − slope_h·|i − j| with ALiBi), masked above
 *     the diagonal (−∞) unless unmasked,
 *     A_h = softmax of each row (values d_v = value_dim wide)
 *     x' = x_l + [A_1V_1 … A_HV_H]·W_O + b_O   (without W_O: x' = x_l, and the heads' outputs
 *                                               stay in r->mixed, H·d_v wide)
 *     x_{l+1} = x' + MLP(norm₂(x'))            (x_{l+1} = x' without an MLP)
 *         GELU:   gelu(z·W_up + b_up)·W_down + b_down (the tanh form)
 *         SwiGLU: (silu(z·W_gate) ⊙ z·W_up)·W_down, silu(u) = u/(1 + e^−u)
 * then logits = norm_f(x_L)[n − 1] · unembedᵀ for the last position (none without unembed).
 * The explorer's one head or H heads are this pass too: one layer, no norm,
 * no MLP, its X as wte read by ids 0 … n − 1, its added positions as wpe.
 * LayerNorm divides by √(var + ε) (the biased variance) then scales and
 * shifts; RMSNorm divides by √(mean(x²) + ε) then scales. Weights are stored
 * row-major (in, out) (NET_LAYOUT_IN_OUT: GPT-2's Conv1D) or (out, in)
 * (NET_LAYOUT_OUT_IN: torch's Linear, the Llama family); unembed is vocab×w in
 * both. Every matrix product goes through gemm_f32 (OpenBLAS on the desktop), or
 * gemm_f32_portable for an exact model.
 *
 *   bool net_reserve(Net_Run *r, const Net_Model *m, int n)
 *       buffers for up to n tokens (heap; only when the model's shapes or n grow); false when
 *       out of memory, or when every head's S and A would pass NET_STORE_BUDGET
 *   int64_t net_store_bytes(const Net_Model *m, int n)
 *       what every head's S and A take for n tokens: 2 · 4 · layers · heads · n² bytes
 *   bool net_store_fits(const Net_Model *m, int n, char *err, size_t errsz)
 *       false with one line naming the text's length, the model's size and the budget when
 *       net_store_bytes passes NET_STORE_BUDGET
 *   void net_forward(const Net_Model *m, const int32_t *ids, int n, Net_Run *r)
 *       the pass over n ids (each below m->vocab, n ≤ m->positions when wpe is given), after
 *       net_reserve for at least n: fills r->stream, r->scores, r->attn and r->logits
 *   void net_begin(const Net_Model *m, const int32_t *ids, int n, Net_Run *r)
 *   bool net_step(const Net_Model *m, Net_Run *r)
 *       the same pass in slices, so a window never waits a whole pass in one frame: begin
 *       embeds; each step runs one layer (with r->halves, its attention, then its MLP, in two
 *       steps), then the logits: all at once, or with r->logit_rows set (net_slice_rows: a pass
 *       that shares a browser's frames, where GPT-2's 39 M at once took 48 ms) that many rows a
 *       step; true once all is done (r->stage counts the layers run). The numbers are the same
 *       however it is sliced. net_forward is begin, then steps until done
 *   void net_update_row(const Net_Model *m, const int32_t *ids, Net_Run *r, int i)
 *       after a whole pass of a one-layer exact model, when only token i's embedding (wte[ids[i]]
 *       or wpe[i]) has changed: its rows of x₀, q, k and v, row and column i of every S,
 *       then every A, the heads' outputs and what follows, as the whole pass computes them
 *       (each cell the same sum: the same numbers bit for bit). A drag in the explorer
 *   int net_slice_rows(const Net_Model *m)
 *       rows of the logits in NET_SLICE_MADDS multiply-adds (1 at least)
 *   float *net_scores(const Net_Run *r, int layer, int head)
 *   float *net_attn(const Net_Run *r, int layer, int head)
 *       that head's n×n S (masked entries −∞) or A (masked entries 0), rows n apart
 *   void net_head_vectors(const Net_Model *m, Net_Run *r, int layer, int head, float *Q, float *K,
 *                        float *V, float *out_norm)
 *       after a pass: that head's q, k and v rows (n×d each; q and k as the scores read
 *       them: normed and turned), recomputed from the stream the layer read, and for every
 *       key j, ‖v_j W_O^h‖ with W_O^h the head's d rows of W_O: what the head adds to the
 *       stream per unit of weight (a_ij·‖v_j W_O^h‖ is Kobayashi et al.'s value-weighted
 *       attention). Uses r->normed and r->mixed as scratch
 *   void net_head_unturned(const Net_Model *m, Net_Run *r, int layer, int head, float *Q,
 *                          float *K)
 *       the same q and k rows before RoPE's turn (normed, as the pass read them): what the
 *       head's scores would be without positions in the rule
 *   float net_head_turn_share(const Net_Model *m, Net_Run *r, int layer, int head, float *A0)
 *       after a pass of a RoPE model: into A0 (n×n) that head's weights from the same q and k
 *       unturned (net_head_unturned's), by the pass's own scale, mask and softmax; returns the
 *       share of weight RoPE's turn moves, as r->turn_moved defines it (that one from q and k
 *       turned back: the two agree within float32 rounding). Uses r->normed and r->unturned as
 *       scratch
 *   r->keep (set before net_begin: a Net_Cache with room for n tokens)
 *       the pass also keeps each layer's k (normed, turned) and v rows in that cache, as its
 *       one-token step would have: net_cache_prefill's way to fill a cache in one pass
 *   r->want_turn (set before net_begin, for a RoPE model)
 *       the pass also fills r->turn_moved[layer·heads + head]: the share of a row's weight
 *       RoPE's turn puts elsewhere, half the sum over a row of |A − A₀|, where A₀ is the
 *       softmax of the same q and k unturned, the mean over rows 1 … n − 1 (row 0 has one
 *       key); NAN without RoPE or want_turn. It costs a second QKᵀ and softmax per head
 *   void net_products(const Net_Model *m, int n, Net_Run *r)
 *       only the matrix products a pass over n tokens makes, the same calls on the same
 *       buffers (whatever they hold): the bench's yardstick for the products' share
 *   void net_free(Net_Run *r)
 *   int net_kv_head(const Net_Model *m, int head)
 *       the key/value head query head `head` reads
 *
 * A pass whose numbers stop being finite (weights that are finite, but whose
 * scores or stream overflow float32) stops at the layer where it happens:
 * r->fault says where, the first cell found, and net_step returns true. The
 * scores are checked where the mask keeps them, then the stream each layer
 * writes, then the logits.
 *   void net_fault_text(const Net_Run *r, char *buf, size_t size)
 *       "layer 2, head 5: the score of row 3, column 1 is inf" (layers, heads, rows counted
 *       from 0, as --layer and --head take them), or "" for a finite pass
 *
 * With r->profile set, net_forward adds each part's wall time, in ms, to
 * r->ms[NET_PART_…] (the bench reads where time goes).
 */
#ifndef ATTN_NET_H
#define ATTN_NET_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

/* The most every head's scores and weights may take: they are kept whole so
 * that every head can be shown and exported. 2 GiB holds GPT-2 small at its
 * full 1024 tokens (1.2 GB); a model 8 times its layers × heads reads up to
 * a third of that; the browser's 32-bit memory (4 GiB in all) keeps room
 * for the weights beside it. Without a bound, a config within its own limits
 * could ask for terabytes (2 layers of 8 heads at 8192 tokens: 8.6 GB). */
#define NET_STORE_BUDGET ((int64_t)2 << 30)

typedef enum Net_Norm { NET_NORM_NONE = 0, NET_NORM_LAYER, NET_NORM_RMS } Net_Norm;
typedef enum Net_Mlp { NET_MLP_NONE = 0, NET_MLP_GELU, NET_MLP_SWIGLU } Net_Mlp;
typedef enum Net_Layout { NET_LAYOUT_IN_OUT = 0, NET_LAYOUT_OUT_IN } Net_Layout;
/* Which coordinates RoPE turns together: c and c + d/2 (Hugging Face's
 * rotate-half, every checkpoint's), or 2c and 2c + 1 (the paper's, the
 * explorer's: posenc.c's turn, angles in double, an odd last one unturned). */
typedef enum Net_Rope_Pairs { NET_ROPE_HALVES = 0, NET_ROPE_ADJACENT } Net_Rope_Pairs;

typedef struct Net_Block {
    const float *norm1_w, *norm1_b; /* w each; b NULL for RMSNorm */
    const float *qkv_w;             /* IN_OUT only: w×(H + 2G)·d, Q K V side by side (GPT-2) */
    const float *q_w, *k_w, *v_w;   /* or each apart: H·d, G·d, G·d outputs */
    const float *q_b, *k_b, *v_b;   /* H·d, G·d, G·d; or NULL */
    const float *q_norm, *k_norm;   /* d each: RMSNorm of every head's q, k; or NULL */
    const float *o_w, *o_b;         /* H·d → w; w or NULL */
    const float *norm2_w, *norm2_b; /* w each */
    const float *up_w, *up_b;       /* w → inner (GELU's fc, SwiGLU's up); inner or NULL */
    const float *gate_w;            /* w → inner: SwiGLU's gate */
    const float *down_w, *down_b;   /* inner → w; w or NULL */
} Net_Block;

typedef struct Net_Model {
    int layers, heads, kv_heads, head_dim, width, inner, positions, vocab;
    Net_Norm norm; /* every norm of the model: before attention, the MLP, and the logits */
    float eps;     /* the norm's ε */
    Net_Mlp mlp;   /* NET_MLP_NONE: blocks have no MLP */
    Net_Layout layout;
    int value_dim;          /* d_v, each head's value width; 0: head_dim */
    bool unscaled;          /* S = q kᵀ, not divided by √d */
    bool unmasked;          /* every query sees every key: no causal mask */
    bool exact;             /* products by the portable kernel, each cell one sum in one order
                               whatever the shape: net_update_row then matches a whole pass bit
                               for bit (OpenBLAS picks its kernel by shape) */
    double rope_theta;      /* > 0: RoPE with this base */
    const float *rope_freq; /* d/2 frequencies (scaled ones, say Llama 3's), or NULL: θ^(−2c/d) */
    Net_Rope_Pairs rope_pairs;
    int rope_offset;    /* RoPE: the first token's position (added positions are wpe's rows) */
    const float *alibi; /* heads slopes, or NULL */
    const float *wte;   /* vocab×w */
    const float *wpe;   /* positions×w, or NULL for no added positions */
    const float *normf_w, *normf_b; /* w each, or NULL */
    const float *unembed;           /* vocab×w: logits = x·unembedᵀ (tied: wte) */
    const Net_Block *blocks;        /* layers of them */
} Net_Model;

typedef enum Net_Part {
    NET_PART_EMBED = 0, /* x₀ = wte[ids] + wpe */
    NET_PART_NORM,      /* LayerNorms and RMSNorms */
    NET_PART_PRODUCTS,  /* every gemm_f32: projections, QKᵀ, AV, MLP, logits */
    NET_PART_SOFTMAX,   /* the mask and the row softmax */
    NET_PART_GELU,      /* the MLP's activation: GELU or SwiGLU's gate */
    NET_PART_OTHER,     /* biases, RoPE, the residual copy */
    NET_PARTS
} Net_Part;

/* Where a pass first held a value that is not finite. */
typedef enum Net_Fault_Kind {
    NET_FAULT_NONE = 0,
    NET_FAULT_EMBED,  /* x₀: row = token, col = channel */
    NET_FAULT_SCORE,  /* layer's head's S: row = query, col = key */
    NET_FAULT_STREAM, /* what layer writes: row = token, col = channel */
    NET_FAULT_LOGIT   /* col = token id */
} Net_Fault_Kind;
typedef struct Net_Fault {
    Net_Fault_Kind kind;
    int layer, head, row, col;
    float value;
} Net_Fault;

/* A slice of the logits (net_step, net_cache_next): about 2 ms in the browser. */
#define NET_SLICE_MADDS (4 << 20)

typedef struct Net_Run {
    int n, heads;   /* tokens and heads per layer of the last pass */
    int stage;      /* net_step's done so far: layers, then the logits */
    int logit_rows; /* rows of the logits a step computes; 0: all at once */
    bool halves;    /* a step runs half a layer: its attention, then its MLP */
    bool in_mlp;    /* halves: the layer's attention is done, its MLP is next */
    int logit_at;   /* the logits' rows done, while stage is the layers' count */
    float *stream;  /* (layers + 1)×n×w: x₀ … x_L, what each layer reads, then the output */
    float *mid;     /* layers×n×w: each layer's x' (after attention, before the MLP) */
    float *scores;  /* layers×heads×n×n */
    float *attn;    /* layers×heads×n×n */
    float *logits;  /* vocab: the last position's, raw */
    float *normed;  /* n×w scratch: the norm's output */
    float *qkv;     /* n×(H + 2G)·d */
    float *mixed;   /* n×max(H·d, w): the heads' outputs side by side */
    float *hidden;  /* n×inner */
    float *gate;    /* n×inner (SwiGLU) */
    float *rope;    /* positions'×d: cos then sin of each pair's angle, per position */
    bool want_turn; /* RoPE: fill turn_moved too */
    struct Net_Cache *keep; /* when set, each layer's k and v rows are kept in it (a prefill) */
    float *turn_moved;      /* layers×heads: the share of weight the turn moves, or NAN */
    float *unturned;        /* scratch: q and k turned back (2·n×d), then their n×n scores */
    int rope_rows;          /* positions rope holds, for rope_for */
    double rope_for;
    int rope_offset_for;
    const float *rope_freq_for;
    int cap_n; /* capacity, in tokens, for the shapes below */
    int cap_layers, cap_heads, cap_width, cap_inner, cap_vocab, cap_qkv, cap_mixed, cap_dim;
    bool profile;
    double ms[NET_PARTS];
    Net_Fault fault; /* kind NET_FAULT_NONE while every value is finite */
} Net_Run;

bool net_reserve(Net_Run *r, const Net_Model *m, int n);
int64_t net_store_bytes(const Net_Model *m, int n);
bool net_store_fits(const Net_Model *m, int n, char *err, size_t errsz);
void net_forward(const Net_Model *m, const int32_t *ids, int n, Net_Run *r);
void net_begin(const Net_Model *m, const int32_t *ids, int n, Net_Run *r);
void net_update_row(const Net_Model *m, const int32_t *ids, Net_Run *r, int i);
bool net_step(const Net_Model *m, Net_Run *r);
int net_slice_rows(const Net_Model *m);
float *net_scores(const Net_Run *r, int layer, int head);
float *net_attn(const Net_Run *r, int layer, int head);
void net_head_vectors(const Net_Model *m, Net_Run *r, int layer, int head, float *Q, float *K,
                      float *V, float *out_norm);
void net_head_unturned(const Net_Model *m, Net_Run *r, int layer, int head, float *Q, float *K);
float net_head_turn_share(const Net_Model *m, Net_Run *r, int layer, int head, float *A0);
void net_products(const Net_Model *m, int n, Net_Run *r);
void net_fault_text(const Net_Run *r, char *buf, size_t size);
void net_free(Net_Run *r);
int net_kv_head(const Net_Model *m, int head);

#endif
