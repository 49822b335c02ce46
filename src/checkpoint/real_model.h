/* A model of any family of the table (family.h) ready to run: its config,
 * its weights over the safetensors bytes, and its tokenizer. Pure over bytes
 * the platform hands in (mapped files on the desktop, picked files in the
 * browser).
 *
 *   bool real_model_load(Real_Model *m, const Real_Model_Files *files, char *err, size_t errsz)
 *       config.json, the weights (model.safetensors, or with shards > 0 the shard index and
 *       each file it names, in the index's order), and vocab.json and merges.txt (or, with
 *       vocab NULL, tokenizer.json) as bytes (kept by the caller while m lives); false with
 *       one line naming the file and the problem (m untouched): model_config_parse's,
 *       st_parse's, st_index_parse's and st_index_check's, model_weights_load's, bpe_load's,
 *       or a tokenizer with ids past the config's vocab_size
 *   void real_model_free(Real_Model *m)
 *   int real_model_tokenize(const Real_Model *m, const char *text, size_t len, int32_t *ids,
 *                           char *err, size_t errsz)
 *       text's ids (ids has room for the model's positions), or −1 with one line: an empty
 *       text, not UTF-8, longer than BPE_MAX_TEXT bytes or than the model's positions (its
 *       n_positions, or for RoPE models at most MODEL_MAX_CONTEXT)
 *   size_t real_model_token_text(const Real_Model *m, int32_t id, char *dest, size_t size)
 *       the token's text as UTF-8: its bytes, with U+FFFD for a character cut at either end
 *       (or invalid); NUL-terminated, returns its length
 *   size_t real_model_token_label(const Real_Model *m, int32_t id, char *dest, size_t size)
 *       the token as a chip shows it: a space as ␣, a line break as ↵, a tab as ⇥, another
 *       control character or a byte that is not whole UTF-8 as ‹hex› (a fragment of a
 *       character shows its bytes, never U+FFFD); NUL-terminated, returns its length
 *   int real_model_eos(const Real_Model *m, int32_t ids[MODEL_MAX_EOS])
 *       the tokens that end a text: the config's eos_token_id (every one it lists), else the
 *       tokenizer's end-of-text token; how many (0: none, writing stops only at its limits)
 *   bool real_model_is_eos(const Real_Model *m, int32_t id)
 */
#ifndef ATTN_REAL_MODEL_H
#define ATTN_REAL_MODEL_H

#include "bpe.h"
#include "family.h"
#include "safetensors.h"

#define REAL_MODEL_MAX_CONFIG    (1u << 20)
#define REAL_MODEL_MAX_VOCAB     (64u << 20)
#define REAL_MODEL_MAX_MERGES    (64u << 20)
#define REAL_MODEL_MAX_TOKENIZER (128u << 20)

typedef struct Real_Model_Shard {
    const uint8_t *bytes;
    const char *name;
    uint64_t size;
} Real_Model_Shard;

typedef struct Real_Model_Files {
    const char *config, *config_name;
    size_t config_len;
    const uint8_t *weights;
    const char *weights_name;
    uint64_t weights_size;
    const char *vocab, *vocab_name;
    size_t vocab_len;
    const char *merges, *merges_name;
    size_t merges_len;
    const char *tokenizer, *tokenizer_name; /* tokenizer.json, read when vocab is NULL */
    size_t tokenizer_len;
    int shards; /* > 0: the weights are these files, as the index lists them */
    const Real_Model_Shard *shard;
    const char *index, *index_name; /* model.safetensors.index.json */
    size_t index_len;
} Real_Model_Files;

typedef struct Real_Model {
    Model_Config config;
    St_Set st;
    Model_Weights weights;
    Bpe bpe;
} Real_Model;

bool real_model_load(Real_Model *m, const Real_Model_Files *files, char *err, size_t errsz);
void real_model_free(Real_Model *m);
int real_model_tokenize(const Real_Model *m, const char *text, size_t len, int32_t *ids, char *err,
                        size_t errsz);
size_t real_model_token_text(const Real_Model *m, int32_t id, char *dest, size_t size);
size_t real_model_token_label(const Real_Model *m, int32_t id, char *dest, size_t size);
int real_model_eos(const Real_Model *m, int32_t ids[MODEL_MAX_EOS]);
bool real_model_is_eos(const Real_Model *m, int32_t id);

#endif
