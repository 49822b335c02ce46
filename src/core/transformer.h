/* The forward pass of a stack of attention blocks over a residual stream, in
 * float32: GPT-2's, and the induction lab's attention-only stack as the case
 * with no LayerNorm and no MLP. One function, parameterised by what each
 * block holds (a NULL pointer is a part the block does not have).
 *
 * With x₀ = wte[ids] + wpe[0…n−1] (n×w, w = width) and d_h = w / heads:
 *     a = LN₁(x_l)                      (a = x_l without ln1)
 *     [Q K V] = a·W_qkv + b_qkv         (W_qkv w×3w; head h reads columns h·d_h … of each)
 *     S_h = Q_h K_hᵀ / √d_h, masked above the diagonal (−∞), A_h = softmax of each row
 *     x' = x_l + [A_1V_1 … A_HV_H]·W_proj + b_proj
 *     x_{l+1} = x' + gelu(LN₂(x')·W_fc + b_fc)·W_fcproj + b_fcproj   (without fc: x' itself)
 * then logits = LN_f(x_L)[n − 1] · unembedᵀ for the last position. GELU is
 * the tanh form, 0.5·z·(1 + tanh(√(2/π)(z + 0.044715 z³))); LayerNorm
 * divides by √(var + ε) with the biased variance. Weights are row-major with
 * Conv1D's (in, out) layout, as GPT-2's checkpoints store them. Every matrix
 * product goes through gemm_f32 (OpenBLAS on the desktop).
 *
 *   bool tf_reserve(Tf_Run *r, const Tf_Model *m, int n)
 *       buffers for up to n tokens (heap; only when the model's shapes or n grow); false when
 *       out of memory, or when every head's S and A would pass TF_STORE_BUDGET
 *   int64_t tf_store_bytes(const Tf_Model *m, int n)
 *       what every head's S and A take for n tokens: 2 · 4 · layers · heads · n² bytes
 *   bool tf_store_fits(const Tf_Model *m, int n, char *err, size_t errsz)
 *       false with one line naming the text's length, the model's size and the budget when
 *       tf_store_bytes passes TF_STORE_BUDGET
 *   void tf_forward(const Tf_Model *m, const int32_t *ids, int n, Tf_Run *r)
 *       the pass over n ids (each below m->vocab, n ≤ m->positions when wpe is given), after
 *       tf_reserve for at least n: fills r->stream, r->scores, r->attn and r->logits
 *   void tf_begin(const Tf_Model *m, const int32_t *ids, int n, Tf_Run *r)
 *   bool tf_step(const Tf_Model *m, Tf_Run *r)
 *       the same pass in slices, so a window never waits a whole pass in one frame: begin
 *       embeds; each step runs one layer, the last one the logits; true once all is done
 *       (r->stage counts the steps run). tf_forward is begin, then steps until done
 *   float *tf_scores(const Tf_Run *r, int layer, int head)
 *   float *tf_attn(const Tf_Run *r, int layer, int head)
 *       that head's n×n S (masked entries −∞) or A (masked entries 0), rows n apart
 *   void tf_head_vectors(const Tf_Model *m, Tf_Run *r, int layer, int head, float *Q, float *K,
 *                        float *V, float *out_norm)
 *       after a pass: that head's q, k and v rows (n×d_h each), recomputed from the stream the
 *       layer read (LN₁ and W_qkv's columns of the head, biases included), and for every key
 *       j, ‖v_j W_O^h‖ with W_O^h the head's d_h rows of W_proj: what the head adds to the
 *       stream per unit of weight (a_ij·‖v_j W_O^h‖ is Kobayashi et al.'s value-weighted
 *       attention). Uses r->normed and r->mixed as scratch
 *   void tf_products(const Tf_Model *m, int n, Tf_Run *r)
 *       only the matrix products a pass over n tokens makes, the same calls on the same
 *       buffers (whatever they hold): the bench's yardstick for the products' share
 *   void tf_free(Tf_Run *r)
 *
 * A pass whose numbers stop being finite (weights that are finite, but whose
 * scores or stream overflow float32) stops at the layer where it happens:
 * r->fault says where, the first cell found, and tf_step returns true. The
 * scores are checked where the mask keeps them, then the stream each layer
 * writes, then the logits.
 *   void tf_fault_text(const Tf_Run *r, char *buf, size_t size)
 *       "layer 2, head 5: the score of row 3, column 1 is inf" (layers, heads, rows counted
 *       from 0, as --layer and --head take them), or "" for a finite pass
 *
 * With r->profile set, tf_forward adds each part's wall time, in ms, to
 * r->ms[TF_PART_…] (C11's timespec_get; the bench reads where time goes).
 */
#ifndef ATTN_TRANSFORMER_H
#define ATTN_TRANSFORMER_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

/* The most every head's scores and weights may take: they are kept whole so
 * that every head can be shown and exported. 2 GiB holds GPT-2 small at its
 * full 1024 tokens (1.2 GB); a model 8 times its layers × heads reads up to
 * a third of that; the browser's 32-bit memory (4 GiB in all) keeps room
 * for the weights beside it. Without a bound, a config within its own limits
 * could ask for terabytes (2 layers of 8 heads at 8192 tokens: 8.6 GB). */
#define TF_STORE_BUDGET ((int64_t)2 << 30)

typedef struct Tf_Block {
    const float *ln1_w, *ln1_b;         /* w each; NULL: no LayerNorm before attention */
    const float *qkv_w, *qkv_b;         /* w×3w; 3w or NULL */
    const float *proj_w, *proj_b;       /* w×w; w or NULL */
    const float *ln2_w, *ln2_b;         /* w each; NULL: no LayerNorm before the MLP */
    const float *fc_w, *fc_b;           /* w×inner; inner or NULL. fc_w NULL: no MLP */
    const float *fc_proj_w, *fc_proj_b; /* inner×w; w or NULL */
} Tf_Block;

typedef struct Tf_Model {
    int layers, heads, width, inner, positions, vocab;
    float eps;                  /* LayerNorm's ε */
    const float *wte;           /* vocab×w */
    const float *wpe;           /* positions×w, or NULL for no positions */
    const float *lnf_w, *lnf_b; /* w each, or NULL */
    const float *unembed;       /* vocab×w: logits = x·unembedᵀ (GPT-2 ties it to wte) */
    const Tf_Block *blocks;     /* layers of them */
} Tf_Model;

typedef enum Tf_Part {
    TF_PART_EMBED = 0, /* x₀ = wte[ids] + wpe */
    TF_PART_NORM,      /* LayerNorms */
    TF_PART_PRODUCTS,  /* every gemm_f32: projections, QKᵀ, AV, MLP, logits */
    TF_PART_SOFTMAX,   /* the mask and the row softmax */
    TF_PART_GELU,
    TF_PART_OTHER, /* biases, the residual copy */
    TF_PARTS
} Tf_Part;

/* Where a pass first held a value that is not finite. */
typedef enum Tf_Fault_Kind {
    TF_FAULT_NONE = 0,
    TF_FAULT_EMBED,  /* x₀: row = token, col = channel */
    TF_FAULT_SCORE,  /* layer's head's S: row = query, col = key */
    TF_FAULT_STREAM, /* what layer writes: row = token, col = channel */
    TF_FAULT_LOGIT   /* col = token id */
} Tf_Fault_Kind;
typedef struct Tf_Fault {
    Tf_Fault_Kind kind;
    int layer, head, row, col;
    float value;
} Tf_Fault;

typedef struct Tf_Run {
    int n, heads;  /* tokens and heads per layer of the last pass */
    int stage;     /* tf_step's done so far: layers, then the logits */
    float *stream; /* (layers + 1)×n×w: x₀ … x_L, what each layer reads, then the output */
    float *mid;    /* layers×n×w: each layer's x' (after attention, before the MLP) */
    float *scores; /* layers×heads×n×n */
    float *attn;   /* layers×heads×n×n */
    float *logits; /* vocab: the last position's, raw */
    float *normed; /* n×w scratch: LN's output */
    float *qkv;    /* n×3w */
    float *mixed;  /* n×w: the heads' outputs side by side */
    float *hidden; /* n×inner */
    int cap_n;     /* capacity, in tokens, for the shapes below */
    int cap_layers, cap_heads, cap_width, cap_inner, cap_vocab;
    bool profile;
    double ms[TF_PARTS];
    Tf_Fault fault; /* kind TF_FAULT_NONE while every value is finite */
} Tf_Run;

bool tf_reserve(Tf_Run *r, const Tf_Model *m, int n);
int64_t tf_store_bytes(const Tf_Model *m, int n);
bool tf_store_fits(const Tf_Model *m, int n, char *err, size_t errsz);
void tf_forward(const Tf_Model *m, const int32_t *ids, int n, Tf_Run *r);
void tf_begin(const Tf_Model *m, const int32_t *ids, int n, Tf_Run *r);
bool tf_step(const Tf_Model *m, Tf_Run *r);
float *tf_scores(const Tf_Run *r, int layer, int head);
float *tf_attn(const Tf_Run *r, int layer, int head);
void tf_head_vectors(const Tf_Model *m, Tf_Run *r, int layer, int head, float *Q, float *K,
                     float *V, float *out_norm);
void tf_products(const Tf_Model *m, int n, Tf_Run *r);
void tf_fault_text(const Tf_Run *r, char *buf, size_t size);
void tf_free(Tf_Run *r);

#endif
