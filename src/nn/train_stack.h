/* An attention-only transformer trained on the induction task, with an
 * analytic backward pass through every layer, in float64 (the gradient check
 * needs it).
 *
 * The model (the papers' toy models: no MLP, no LayerNorm): token embeddings
 * E (V×w), positions by the scheme (none, sin added, a learned table added,
 * or RoPE turning q and k), a residual stream x₀ = E[tokens] + P, and L
 * layers of H causal heads each with its own W_Q, W_K, W_V (w×d_h) and W_O
 * (d_h×w), d_h = w/H:
 *     x_{l+1} = x_l + Σ_h softmax(mask(q kᵀ/√d_h)) v W_O,  q = x_l W_Q, k = x_l W_K, v = x_l W_V
 * and an unembedding U (w×V): logits = x_L U. Every position i < n − 1
 * predicts token i + 1 (cross-entropy, mean over the batch's positions).
 *
 * The task `induction`: a block of random tokens, its length drawn per
 * sequence from [repeat_min, repeat_max], repeated to fill the context. From
 * the second copy on, the next token is the one that followed the current
 * token the copy before: an induction head finds it.
 *
 * Metrics on a fixed held-out batch: the loss; the in-context loss (only the
 * positions whose next token repeats an earlier one); per head the
 * previous-token score (mean weight on i − 1) and the prefix-matching score
 * (mean total weight on the positions just after earlier copies of the
 * current token, over the positions that have one).
 *
 *   bool stack_init(Stack *s, const Stack_Desc *desc)
 *       parameters drawn from the seed; false when out of memory or a size is out of range
 *   void stack_free(Stack *s)
 *   void stack_sequence(const Stack_Desc *desc, Rng *r, int *tokens, int *block)
 *       one sequence of desc->context tokens and its block length
 *   double stack_loss_grad(Stack *s, const int *tokens, const int *blocks, int count,
 *                          bool want_grad)
 *       the mean loss of count sequences and, if want_grad, its gradient in s->grad
 *   double stack_step(Stack *s)
 *       one Adam step on a fresh batch; returns its loss
 *   void stack_eval(Stack *s, Stack_Metrics *m)
 *       the held-out metrics for the parameters as they are
 *   const double *stack_attention(Stack *s, int layer, int head)
 *       that head's A (context × context) for the held-out batch's first sequence, after
 *       stack_eval or stack_example
 *   const int *stack_example(Stack *s)
 *       the forward pass of that first sequence alone (a sixty-fourth of stack_eval): its
 *       every A, for a picture that follows each step; returns its tokens
 *   const double *stack_stream(Stack *s, int layer)
 *       x_layer (context × width) of that sequence, right after stack_example: what layer
 *       `layer`'s heads read
 *   double stack_k_composition(Stack *s, int from_layer, int from_head, int to_layer,
 *                              int to_head)
 *       how much the keys of head `to` read what head `from` writes (from_layer < to_layer):
 *       ‖W_QK W_OVᵀ‖_F / (‖W_QK‖_F ‖W_OV‖_F) with W_QK = W_Q W_Kᵀ of `to` and W_OV = W_V W_O
 *       of `from` (Elhage et al. 2021, in our row-vector convention); RoPE's turn left out
 */
#ifndef ATTN_TRAIN_STACK_H
#define ATTN_TRAIN_STACK_H

#include "../core/rng.h"
#include "train_head.h"

#include <stdbool.h>
#include <stdint.h>

#define STACK_MAX_LAYERS  4
#define STACK_MAX_HEADS   4
#define STACK_MAX_CONTEXT 64
#define STACK_MAX_WIDTH   64
#define STACK_MAX_VOCAB   64
#define STACK_HELDOUT     64 /* sequences in the fixed held-out batch */

typedef struct Stack_Desc {
    int layers, heads; /* 1 … 4 each */
    int width;         /* w, a multiple of heads, up to 64 */
    int vocab;         /* 2 … 64 */
    int context;       /* n, 4 … 64 */
    int repeat_min, repeat_max;
    Train_Pos pos; /* none, sin, learned or rope */
    uint64_t seed;
    double lr;
    int batch;
} Stack_Desc;

typedef struct Stack_Metrics {
    double loss, in_context_loss;
    double prev_token[STACK_MAX_LAYERS][STACK_MAX_HEADS];
    double prefix_match[STACK_MAX_LAYERS][STACK_MAX_HEADS];
} Stack_Metrics;

typedef struct Stack {
    Stack_Desc desc;
    int d_h;
    long count;                     /* parameters */
    double *param, *grad, *m1, *m2; /* E, [learned table], U, then per layer and head Q K V O */
    double *E, *L, *U;
    double *W[STACK_MAX_LAYERS][STACK_MAX_HEADS][4];
    double *P; /* n×w: the sinusoid, or zeros */
    bool ablated[STACK_MAX_LAYERS][STACK_MAX_HEADS];
    long steps;
    Rng data;
    int *held_tokens, held_blocks[STACK_HELDOUT];
    double *scratch;
    double *first_A; /* the held-out batch's first sequence: every head's A */
    double *square;  /* 3 w×w: stack_k_composition's products */
} Stack;

bool stack_init(Stack *s, const Stack_Desc *desc);
void stack_free(Stack *s);
void stack_sequence(const Stack_Desc *desc, Rng *r, int *tokens, int *block);
double stack_loss_grad(Stack *s, const int *tokens, const int *blocks, int count, bool want_grad);
double stack_step(Stack *s);
void stack_eval(Stack *s, Stack_Metrics *m);
const double *stack_attention(Stack *s, int layer, int head);
const int *stack_example(Stack *s);
const double *stack_stream(Stack *s, int layer);
double stack_k_composition(Stack *s, int from_layer, int from_head, int to_layer, int to_head);

#endif
