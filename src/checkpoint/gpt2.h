/* A GPT-2-family checkpoint's config.json, and which tensors of its
 * safetensors file the forward pass needs, each with the shape the config
 * asks for. Pure parsing over bytes and the parsed header.
 *
 *   bool gpt2_config_parse(const char *text, size_t len, const char *name, Gpt2_Config *c,
 *                          char *err, size_t errsz)
 *       config.json: a model_type other than "gpt2", or architectures without a GPT-2 one, is
 *       refused naming what is read; n_layer, n_head, n_embd (a multiple of n_head),
 *       n_positions and vocab_size are whole numbers in their ranges; n_inner is null (4 ·
 *       n_embd) or one; layer_norm_epsilon defaults to 1e-5; activation_function, if given,
 *       is gelu_new (the tanh form). Other fields are ignored. False with "NAME: problem"
 *   model_family_gpt2 (family.h): the row that reads these configs, and the tensors the
 *       forward pass needs, each with the shape the config asks for: wte, wpe, per layer
 *       ln_1, c_attn, c_proj, ln_2, c_fc and the MLP's c_proj (Conv1D weights stored (in,
 *       out)), ln_f, and lm_head.weight when there (else tied to wte), each found with or
 *       without the "transformer." prefix; the attn.bias and attn.masked_bias buffers are
 *       not read
 */
#ifndef ATTN_GPT2_H
#define ATTN_GPT2_H

#include "family.h"

#define MODEL_MAX_LAYERS   96
#define MODEL_MAX_HEADS    128
#define GPT2_MAX_EMBD      12288
#define GPT2_MAX_POSITIONS 8192
#define GPT2_MAX_VOCAB     1000000
#define GPT2_MAX_INNER     65536

typedef struct Gpt2_Config {
    int n_layer, n_head, n_embd, n_positions, vocab_size, n_inner;
    double layer_norm_epsilon;
} Gpt2_Config;

bool gpt2_config_parse(const char *text, size_t len, const char *name, Gpt2_Config *c, char *err,
                       size_t errsz);

#endif
