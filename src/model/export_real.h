/* The real model's export (`--model … --text … --export json`): one JSON
 * object with the keys, in order, model, ids, tokens, n, n_layer, n_head,
 * d_model, attn ([layer][head][query][key], masked weights 0), scores (the
 * same before softmax, masked entries null), logits (the last position's,
 * raw) and next (the top 10 next tokens: id, token, p). Numbers are written
 * with nine significant digits, enough to read back the same float32.
 *
 *   void export_real_top(const float *logits, int vocab, int k, double temperature, int32_t *ids,
 *                        double *p)
 *       the k most probable tokens under softmax(logits / temperature) (temperature > 0),
 *       most probable first (ties: lower id first), with their probabilities (in double)
 *   void export_real_json(const Real_Model *m, const char *name, const int32_t *ids, int n,
 *                         const Net_Run *r, FILE *f)
 *       after net_forward over ids; name is the model as given (--model)
 *   void export_real_step(const Real_Model *m, const Net_Cache *c, int step, int32_t chosen,
 *                         const Net_Candidate *top, int count, FILE *f)
 *       one step of --generate as a JSON object: step, position (of the query that chose:
 *       the cache's last token), id and token (the choice), candidates (the likeliest
 *       count: id, token, p) and attn ([layer][head]: that query's row of weights over the
 *       position + 1 cached keys)
 *   int export_real_generate(const Real_Model *m, const char *name, int32_t *ids, int n,
 *                            int steps, const Net_Choice *how, uint64_t seed, Net_Cache *c,
 *                            FILE *f, const char **stop)
 *       --generate's JSON: after the text's n ids are in c (net_cache_prefill), up to steps
 *       tokens chosen (from the seeded generator) and written to ids[n …] (room for steps),
 *       each step printed; then the ids and text written and why it stopped: *stop is
 *       "steps", "eos", "context" (c full), "not finite" or "out of memory". The count
 *       written, or −1 for the last two
 */
#ifndef ATTN_EXPORT_REAL_H
#define ATTN_EXPORT_REAL_H

#include "../nn/net.h"
#include "../nn/net_cache.h"
#include "../checkpoint/real_model.h"

#include <stdio.h>

#define EXPORT_REAL_TOP 10

void export_real_top(const float *logits, int vocab, int k, double temperature, int32_t *ids,
                     double *p);
void export_real_json(const Real_Model *m, const char *name, const int32_t *ids, int n,
                      const Net_Run *r, FILE *f);
void export_real_step(const Real_Model *m, const Net_Cache *c, int step, int32_t chosen,
                      const Net_Candidate *top, int count, FILE *f);
int export_real_generate(const Real_Model *m, const char *name, int32_t *ids, int n, int steps,
                         const Net_Choice *how, uint64_t seed, Net_Cache *c, FILE *f,
                         const char **stop);

#endif
