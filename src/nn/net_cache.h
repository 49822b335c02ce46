/* Generation: the forward pass one token at a time on a KV cache, and the
 * choice of the next token.
 *
 * A model writes a text a token at a time. Under the causal mask token t's
 * query reads only the keys and values of tokens 0 … t, and nothing after t
 * changes them, so each layer's keys and values, once made, are kept: a step
 * computes only the new token's row (its q, k and v, its scores against the
 * t + 1 cached keys, its weights, the mixed values, the MLP) instead of the
 * whole pass again. Its rows of A are kept too, row t written at step t and
 * never again: what the Generate view scrubs through. It runs the checkpoints'
 * kind of model: masked, scaled, d_v = d, RoPE's pairs as Hugging Face's from
 * position 0 (the explorer's fields of Net_Model left at 0; the explorer never
 * writes).
 *
 *   int64_t net_cache_bytes(const Net_Model *m, int cap)
 *       what a cache for cap tokens holds (keys, values and every head's rows of A)
 *   bool net_cache_reserve(Net_Cache *c, const Net_Model *m, int cap)
 *       room for cap tokens (kept if there is enough already); false when out of memory.
 *       The cache starts empty
 *   void net_cache_clear(Net_Cache *c)
 *       empty again (its room kept)
 *   bool net_cache_step(const Net_Model *m, Net_Cache *c, int32_t id)
 *       token id appended at position c->n (below m->vocab; below c->cap and, with learned
 *       positions, m->positions): each layer's k and v row kept, row c->n of every head's A,
 *       c->logits for the next token; c->n grows by one. False, with c->fault, when a
 *       number stops being finite (then the token is not added)
 *   bool net_cache_begin(const Net_Model *m, Net_Cache *c, int32_t id)
 *   bool net_cache_next(const Net_Model *m, Net_Cache *c)
 *       the same step in slices, so a window never waits a whole step in one frame: begin
 *       embeds the token (false when there is no room or the id is out of range); each next
 *       runs one layer, then the logits: all at once, or with c->logit_rows set
 *       (net_slice_rows, for a step that shares a browser's frames) that many rows at a time,
 *       and returns true once the step is done
 *       (c->n grown, or c->fault set). net_cache_step is begin, then next until done
 *   bool net_cache_prefill(const Net_Model *m, Net_Cache *c, Net_Run *r, const int32_t *ids,
 *                          int n)
 *       the cache filled with n tokens by one whole pass (r reserved for n; n ≤ c->cap):
 *       the same keys, values, rows of A and logits as n steps, at a pass's cost. In slices:
 *       r->keep = c, net_begin, net_step until done, then net_cache_prefill_finish
 *   bool net_cache_prefill_finish(const Net_Model *m, Net_Cache *c, Net_Run *r)
 *       after such a pass: its rows of A and logits into the cache; false (c->fault) when the
 *       pass was not finite
 *   void net_cache_keep(const Net_Model *m, Net_Cache *c, int layer, const float *qkv, int ld,
 *                       int n)
 *       the pass's hook (r->keep): layer's k and v columns of n rows of qkv (ld apart) kept
 *   float *net_cache_attn(const Net_Cache *c, int layer, int head)
 *       that head's rows of A, cap floats apart: row t has t + 1 weights, then zeros
 *   int64_t net_cache_step_madds(const Net_Model *m, int t)
 *   int64_t net_pass_madds(const Net_Model *m, int n)
 *       the multiply-adds of the step that adds token t (t + 1 keys read), and of the whole
 *       pass over n tokens (what recomputing everything each step costs)
 *   void net_cache_free(Net_Cache *c)
 *
 *   double net_softmax_sum(const float *logits, int vocab, double T, double *max)
 *   double net_softmax_p(float logit, double max, double T, double sum)
 *       softmax(logits / T) in double, the largest subtracted first: the sum of
 *       e^((logit − max)/T) (and max), then one token's probability. The one softmax of
 *       the next token, for its choice and for every list of candidates
 *   double net_softmax_sum(const float *logits, int vocab, double T, double *max);
double net_softmax_p(float logit, double max, double T, double sum);
int net_choose(const float *logits, int vocab, const Net_Choice *how, Rng *rng,
 *                  Net_Candidate *top, int top_max, int *top_count)
 *       the next token: the likeliest (temperature 0: greedy, ties to the lower id), or a
 *       draw from softmax(logits / T) cut to the top_k likeliest (0: all) and then to the
 *       fewest whose probabilities sum to top_p or more (1: all), renormalized; one
 *       rng_uniform a draw, so a seed gives the same text on every machine that computes
 *       the same logits. top gets the likeliest top_max candidates with their
 *       probabilities before the cut (softmax(logits / T), or T = 1 when greedy), likeliest
 *       first, ties to the lower id
 */
#ifndef ATTN_NET_CACHE_H
#define ATTN_NET_CACHE_H

#include "../core/rng.h"
#include "net.h"

#include <stdbool.h>
#include <stdint.h>

typedef struct Net_Cache {
    int cap, n;   /* room, in tokens; tokens held */
    float *k, *v; /* layers × cap × G·d: each token's key (normed, turned) and value */
    float *attn;  /* layers × heads × cap × cap: row t is token t's weights */
    float *x;     /* width: the new token's stream row */
    float *normed, *qkv, *mixed, *hidden, *gate, *scores, *logits;
    float *rope; /* cap × d: cos then sin of each pair's angle at each position */
    int cap_layers, cap_heads, cap_kv, cap_dim, cap_width, cap_inner, cap_vocab;
    int stage;      /* a sliced step: layers done, then slices of the logits; −1 none running */
    int logit_rows; /* rows of the logits a slice computes; 0: all at once */
    Net_Fault fault;
} Net_Cache;

typedef struct Net_Choice {
    double temperature; /* 0: greedy */
    int top_k;          /* 0: every token */
    double top_p;       /* 1: no cut */
} Net_Choice;

typedef struct Net_Candidate {
    int32_t id;
    double p;
} Net_Candidate;

int64_t net_cache_bytes(const Net_Model *m, int cap);
bool net_cache_reserve(Net_Cache *c, const Net_Model *m, int cap);
void net_cache_clear(Net_Cache *c);
bool net_cache_step(const Net_Model *m, Net_Cache *c, int32_t id);
bool net_cache_begin(const Net_Model *m, Net_Cache *c, int32_t id);
bool net_cache_next(const Net_Model *m, Net_Cache *c);
bool net_cache_prefill(const Net_Model *m, Net_Cache *c, Net_Run *r, const int32_t *ids, int n);
bool net_cache_prefill_finish(const Net_Model *m, Net_Cache *c, Net_Run *r);
void net_cache_keep(const Net_Model *m, Net_Cache *c, int layer, const float *qkv, int ld, int n);
float *net_cache_attn(const Net_Cache *c, int layer, int head);
int64_t net_cache_step_madds(const Net_Model *m, int t);
int64_t net_pass_madds(const Net_Model *m, int n);
void net_cache_free(Net_Cache *c);
double net_softmax_sum(const float *logits, int vocab, double T, double *max);
double net_softmax_p(float logit, double max, double T, double sum);
int net_choose(const float *logits, int vocab, const Net_Choice *how, Rng *rng, Net_Candidate *top,
               int top_max, int *top_count);

#endif
