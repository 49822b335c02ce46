/* Checkpoint families: how each kind of Hugging Face checkpoint becomes the
 * layer stack's model (nn/net.h). A family is one row of a table: its
 * model_type, how its config.json reads, and its parameter table (as llm.c
 * lists its tensors): every tensor's name, its shape, and the field of the
 * model it fills. Loading is then one loop over that table. Nothing outside
 * src/checkpoint names a family.
 *
 *   bool model_config_parse(const char *text, size_t len, const char *name, Model_Config *c,
 *                           char *err, size_t errsz)
 *       config.json: its model_type (or, with none, its architectures; with neither,
 *       GPT-2's fields) picks the row; another model_type or architecture is one line
 *       naming it and the ones read; then the row reads its fields. False with
 *       "NAME: problem"
 *   bool model_weights_load(const St_Set *s, const char *what, const Model_Config *c,
 *                           Model_Weights *w, char *err, size_t errsz)
 *       every tensor of the row's table in the set's files (what names them in messages:
 *       the file, or the shard index), of its shape, finite, as float32: read where it lies
 *       when F32 and aligned, else widened once into one allocation. An optional tensor may
 *       be absent (lm_head of a tied model). False with "WHAT: problem" naming the first
 *       tensor missing, misshapen, under two names, or not finite
 *   void model_weights_free(Model_Weights *w)
 *   bool model_config_whole(const cJSON *root, const char *key, int lo, int hi, int missing,
 *                           const char *name, int *dest, char *err, size_t errsz)
 *       a config field that is a whole number from lo to hi; absent or null, `missing` (−1:
 *       required, "NAME: no "KEY""); else "NAME: "KEY" must be a whole number from LO to HI"
 *   const char *model_family_name(const Model_Config *c)
 *       the family as a class calls it: "GPT-2", "Llama", "Qwen2", "Qwen3"
 */
#ifndef ATTN_FAMILY_H
#define ATTN_FAMILY_H

#include "../nn/net.h"
#include "safetensors.h"

#include <cjson/cJSON.h>

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

/* The largest shapes read: past them a config is refused by name. Every
 * family's largest released model fits (Llama 3.1 405B's 126 layers do not:
 * 96 is more than any model a class can run here). */
#define MODEL_MAX_LAYERS   96
#define MODEL_MAX_HEADS    128
#define MODEL_MAX_WIDTH    16384
#define MODEL_MAX_HEAD_DIM 512
#define MODEL_MAX_VOCAB    1000000
#define MODEL_MAX_INNER    65536
/* Tokens a RoPE model reads at most here: its max_position_embeddings may be
 * 131072, but every head's scores for that many would take terabytes; the
 * store budget (net.h) stops far shorter texts anyway. */
#define MODEL_MAX_CONTEXT 8192
#define MODEL_MAX_EOS     16 /* end-of-text ids a config lists */

struct Model_Family;

typedef struct Model_Config {
    const struct Model_Family *family;
    Net_Model net; /* sizes and kinds; no weights */
    int positions; /* the config's own max (n_positions, max_position_embeddings) */
    bool tied;     /* the unembedding is wte */
    bool rope_scaled;
    float rope_freq[MODEL_MAX_HEAD_DIM / 2]; /* each pair's frequency, when scaled (Llama 3) */
    int bos_id;                              /* −1: none given */
    int eos_n;                               /* eos_token_id's ids (0: none given) */
    int32_t eos_ids[MODEL_MAX_EOS];
    bool attention_bias; /* Llama's q, k, v and o biases */
} Model_Config;

typedef struct Model_Weights {
    Net_Model model;
    Net_Block *blocks; /* layers of them */
    float *rope_freq;  /* head_dim/2, or NULL: model.rope_freq */
    float *widened;    /* the tensors not read in place */
    uint64_t widened_count;
} Model_Weights;

/* One row of a family's parameter table. */
typedef struct Model_Param {
    char name[96];
    int dims;
    uint64_t shape[2];
    const float **slot;
    bool optional;
} Model_Param;

typedef struct Model_Family {
    const char *model_type;   /* config.json's model_type */
    const char *name;         /* as a class calls it */
    const char *architecture; /* the architectures entry of its causal LM */
    const char *alias;        /* a prefix its tensors may carry ("transformer."), or NULL */
    bool export_shape;        /* --export json names the family, n_kv_head and head_dim (GPT-2's
                                 export predates them and keeps its fields) */
    bool (*config)(const char *text, size_t len, const char *name, Model_Config *c, char *err,
                   size_t errsz);
    /* the table into p (NULL: only count), slots in w; returns the count */
    int (*params)(const Model_Config *c, Model_Weights *w, Model_Param *p);
    void (*finish)(const Model_Config *c, Model_Weights *w); /* after loading, or NULL */
} Model_Family;

bool model_config_parse(const char *text, size_t len, const char *name, Model_Config *c, char *err,
                        size_t errsz);
bool model_weights_load(const St_Set *s, const char *what, const Model_Config *c, Model_Weights *w,
                        char *err, size_t errsz);
void model_weights_free(Model_Weights *w);
bool model_config_whole(const cJSON *root, const char *key, int lo, int hi, int missing,
                        const char *name, int *dest, char *err, size_t errsz);
const char *model_family_name(const Model_Config *c);

/* The rows (gpt2.c, llama.c). */
extern const Model_Family model_family_gpt2, model_family_llama, model_family_qwen2,
    model_family_qwen3;

#endif
