/* Training one attention head on a toy task, with an analytic backward pass.
 *
 * The model: token embeddings E (V×d), trainable; positions by one of the
 * schemes of posenc.h (pos): a fixed sinusoid added to X, a trained table
 * added to X (TRAIN_MAX_N rows drawn like posenc_learned, only the rows a
 * sentence reaches get a gradient), RoPE turning q and k (base 10000), or
 * ALiBi's −m·|i − j| on the scores (one head: m = 2^−8); one head W_Q, W_K (d×d_k) and W_V (d×d_v);
 * a readout W_U (d_v×V). For a sentence of n tokens, X = E[tokens] + P, Q = XW_Q, K = XW_K, V =
 * XW_V, S = QKᵀ/√d_k (or QKᵀ), A = softmax of each row, O = AV, logits Z = OW_U, and the loss is
 * the mean cross-entropy over the scored positions. The readout sees only o_i: there is no residual
 * path, so a head that looks at its own token learns nothing from it.
 *
 * Tasks, generated from a seed:
 *   TRAIN_MATCH: 4 colours, each on two tokens of two kinds (say upper and
 *     lower case) with a number; every token must name the token of its
 *     colour and the other kind. Content alone decides it (no positions
 *     needed), attention is needed (the readout sees only o_i), and looking
 *     at oneself does not help (one's own kind is never the answer).
 *   TRAIN_PREVIOUS: distinct random tokens; every token but the first must
 *     name the token one place to its left. Without positions attention is
 *     permutation-equivariant and cannot tell left from right.
 * Chance is ln(n − 1): a uniform guess among the other tokens.
 *
 *   bool train_init(Trainer *t, const Train_Desc *desc)
 *       parameters drawn from desc->seed; false when out of memory
 *   void train_free(Trainer *t)
 *   double train_step(Trainer *t)
 *       one optimizer step on a fresh batch; returns that batch's loss
 *   double train_eval(Trainer *t, double *accuracy)
 *       mean loss and accuracy on the fixed held-out batch (TRAIN_HELDOUT sentences)
 *   double train_eval_long(Trainer *t, double *accuracy)
 *       the same on TRAIN_HELDOUT sentences of desc.test_n tokens (train short, test long);
 *       0 when test_n is 0
 *   double train_loss_grad(Trainer *t, const int *tokens, const int *targets, int count,
 *                          bool want_grad)
 *       the loss of count sentences (n tokens and targets each; a target < 0 is not scored)
 *       and, if want_grad, its gradient in t->grad (laid out like t->param)
 *   void train_sentence(Train_Task task, int n, int vocab, Rng *r, int *tokens, int *targets)
 *       one sentence of the task
 *   double train_chance(int n)    ln(n − 1)
 *   void train_attention(Trainer *t, const int *tokens, double *A)
 *       the head's weights A (n×n) for one sentence, as trained so far
 */
#ifndef ATTN_TRAIN_HEAD_H
#define ATTN_TRAIN_HEAD_H

#include "../core/rng.h"

#include <stdbool.h>
#include <stdint.h>

typedef enum Train_Task { TRAIN_MATCH, TRAIN_PREVIOUS } Train_Task;
typedef enum Train_Optimizer { TRAIN_ADAM, TRAIN_SGD } Train_Optimizer;

#define TRAIN_N       8  /* tokens per sentence */
#define TRAIN_VOCAB   32 /* 8 colours × 2 kinds × 2 numbers for match; 32 words for previous */
#define TRAIN_BATCH   32
#define TRAIN_HELDOUT 256 /* sentences in the fixed held-out batch */
#define TRAIN_MAX_N   16  /* the longest test sentence: match has 8 colours for 16 tokens */

/* The positional schemes, numbered as the scene's Pos_Mode. */
typedef enum Train_Pos {
    TRAIN_POS_NONE,
    TRAIN_POS_SIN,
    TRAIN_POS_LEARNED,
    TRAIN_POS_ROPE,
    TRAIN_POS_ALIBI
} Train_Pos;

typedef struct Train_Desc {
    Train_Task task;
    Train_Optimizer optimizer;
    uint64_t seed;
    int d, d_k, d_v; /* 0: 16 each */
    bool positions;  /* sinusoidal positions added to the embeddings (pos = TRAIN_POS_SIN) */
    Train_Pos pos;   /* the scheme, when positions is false */
    int test_n;      /* 0, or TRAIN_N + 1 … TRAIN_MAX_N: a held-out batch this long */
    bool unscaled;   /* scores QKᵀ instead of QKᵀ/√d_k */
    double lr;       /* 0: 0.01 for Adam, 0.5 for SGD */
    double init;     /* standard deviation of W_Q, W_K entries; 0: 1/√d */
} Train_Desc;

typedef struct Trainer {
    Train_Desc desc;
    int d, d_k, d_v, vocab, n;
    long count;                     /* parameters */
    double *param, *grad, *m1, *m2; /* count each: E, W_Q, W_K, W_V, W_U, [L] in that order */
    double *E, *W_Q, *W_K, *W_V, *W_U;
    double *L; /* learned: the TRAIN_MAX_N×d table, trained; else NULL */
    Train_Pos pos;
    double *P;       /* TRAIN_MAX_N×d: the sinusoid, or zeros */
    double *scratch; /* per-sentence forward and backward buffers */
    long steps;
    Rng data; /* the training batches */
    int *held_tokens, *held_targets;
    int *long_tokens, *long_targets; /* TRAIN_HELDOUT sentences of test_n tokens */
} Trainer;

bool train_init(Trainer *t, const Train_Desc *desc);
void train_free(Trainer *t);
double train_step(Trainer *t);
double train_eval(Trainer *t, double *accuracy);
double train_eval_long(Trainer *t, double *accuracy);
double train_loss_grad(Trainer *t, const int *tokens, const int *targets, int count,
                       bool want_grad);
void train_sentence(Train_Task task, int n, int vocab, Rng *r, int *tokens, int *targets);
double train_chance(int n);
void train_attention(Trainer *t, const int *tokens, double *A);

#endif
