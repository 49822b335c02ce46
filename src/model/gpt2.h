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
 *   bool gpt2_tensors(const St_File *f, const Gpt2_Config *c, Gpt2_Tensors *t, char *err,
 *                     size_t errsz)
 *       every tensor the forward pass reads, found with or without the "transformer." prefix,
 *       each of its shape (Conv1D weights stored (in, out)); lm_head.weight is optional (tied
 *       to wte when absent); the attn.bias and attn.masked_bias buffers are not needed. False
 *       with "FILE: problem" naming the first tensor missing or of another shape
 *   void gpt2_tensors_free(Gpt2_Tensors *t)
 *   bool gpt2_weights(const St_File *f, const uint8_t *bytes, const Gpt2_Config *c,
 *                     const Gpt2_Tensors *t, Gpt2_Weights *w, char *err, size_t errsz)
 *       the forward pass's model (nn/net.h) over the file's bytes: a float32 tensor
 *       aligned in them is read where it lies, any other is widened to float32 once into
 *       one allocation. False with "FILE: tensor NAME: element K is NaN" (or infinite), or
 *       out of memory
 *   void gpt2_weights_free(Gpt2_Weights *w)
 */
#ifndef ATTN_GPT2_H
#define ATTN_GPT2_H

#include "../nn/net.h"
#include "safetensors.h"

#define GPT2_MAX_LAYERS    96
#define GPT2_MAX_HEADS     128
#define GPT2_MAX_EMBD      12288
#define GPT2_MAX_POSITIONS 8192
#define GPT2_MAX_VOCAB     1000000
#define GPT2_MAX_INNER     65536

typedef struct Gpt2_Config {
    int n_layer, n_head, n_embd, n_positions, vocab_size, n_inner;
    double layer_norm_epsilon;
} Gpt2_Config;

typedef struct Gpt2_Block {
    const St_Tensor *ln_1_w, *ln_1_b, *attn_w, *attn_b, *proj_w, *proj_b;
    const St_Tensor *ln_2_w, *ln_2_b, *fc_w, *fc_b, *fc_proj_w, *fc_proj_b;
} Gpt2_Block;

typedef struct Gpt2_Tensors {
    const St_Tensor *wte, *wpe, *ln_f_w, *ln_f_b;
    const St_Tensor *lm_head; /* NULL: tied to wte */
    Gpt2_Block *blocks;       /* n_layer, malloc'd */
} Gpt2_Tensors;

typedef struct Gpt2_Weights {
    Net_Model model;
    Net_Block *blocks; /* n_layer */
    float *widened;    /* the tensors not read in place */
    uint64_t widened_count;
} Gpt2_Weights;

bool gpt2_config_parse(const char *text, size_t len, const char *name, Gpt2_Config *c, char *err,
                       size_t errsz);
bool gpt2_tensors(const St_File *f, const Gpt2_Config *c, Gpt2_Tensors *t, char *err, size_t errsz);
void gpt2_tensors_free(Gpt2_Tensors *t);
bool gpt2_weights(const St_File *f, const uint8_t *bytes, const Gpt2_Config *c,
                  const Gpt2_Tensors *t, Gpt2_Weights *w, char *err, size_t errsz);
void gpt2_weights_free(Gpt2_Weights *w);

#endif
