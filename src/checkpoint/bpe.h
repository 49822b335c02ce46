/* Byte-level BPE tokenizers: GPT-2's (vocab.json and merges.txt), and any
 * tokenizer.json of that kind (Llama 3, Qwen2.5, Qwen3, SmolLM2), with ids
 * equal to Hugging Face's tokenizers. Encoding a text:
 *   1. added tokens (<|endoftext|>, <|im_start|>, …) typed anywhere are their
 *      own ids; the text between them goes on;
 *   2. the normalizer: none, or NFC (utf8proc);
 *   3. the pre-tokenizers, in order, each splitting every piece further: a
 *      Split pattern (Llama 3's and Qwen's, matched by PCRE2 with Unicode
 *      properties: the match and the text between matches are pieces), Digits
 *      (the pattern \p{N}, or \p{N}+ for runs), and ByteLevel's pattern,
 *      GPT-2's
 *          's|'t|'re|'ve|'m|'ll|'d| ?\p{L}+| ?\p{N}+| ?[^\s\p{L}\p{N}]+|\s+(?!\S)|\s+
 *      (vocab.json and merges.txt mean that one alone);
 *   4. each piece's bytes become the symbols of GPT-2's byte alphabet; with
 *      ignore_merges a piece that is a token is that token; else the ranked
 *      merges join neighbours, lowest rank first, until none applies;
 *   5. the post-processor's special tokens go before and after (Llama's BOS).
 * Anything else a tokenizer.json asks for is refused by name. Loading is
 * pure parsing over the bytes the platform hands in.
 *
 *   bool bpe_load(Bpe *b, const char *vocab, size_t vocab_len, const char *vocab_name,
 *                 const char *merges, size_t merges_len, const char *merges_name, char *err,
 *                 size_t errsz)
 *       vocab.json (an object of token → id, ids 0 … n − 1 each once, tokens in the byte
 *       alphabet) and merges.txt (a `#version` line may come first; then "A B" a line, both
 *       tokens of the vocabulary, and so their join); false with "NAME[:LINE]: problem"
 *   bool bpe_load_tokenizer_json(Bpe *b, const char *text, size_t len, const char *name,
 *                                char *err, size_t errsz)
 *       the same from a tokenizer.json (Hugging Face's tokenizers): model.vocab as vocab.json,
 *       model.merges ("A B" strings or ["A", "B"] pairs) as merges.txt's lines, and the
 *       steps above from normalizer, pre_tokenizer, model.ignore_merges, added_tokens and
 *       post_processor. Refused by name: a model type other than BPE, another normalizer
 *       or pre-tokenizer, ByteLevel's add_prefix_space, byte_fallback, a Split pattern
 *       PCRE2 does not compile, added token ids that leave a gap after the vocabulary
 *   void bpe_free(Bpe *b)
 *   int bpe_encode(const Bpe *b, const char *text, size_t len, int32_t *ids, int max, char *err,
 *                  size_t errsz)
 *       the ids of text (at most BPE_MAX_TEXT bytes of UTF-8), or BPE_TOO_MANY (more than max
 *       tokens) or −1 (not UTF-8, at which byte; too long) with a one-line err
 *   size_t bpe_token_bytes(const Bpe *b, int32_t id, const char **bytes)
 *       the raw bytes a token stands for (not NUL-terminated; may end inside a character)
 *   int32_t bpe_special(const Bpe *b)
 *       the id of <|endoftext|>, or −1 if the vocabulary has none
 */
#ifndef ATTN_BPE_H
#define ATTN_BPE_H

#define BPE_TOO_MANY (-2)

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#define BPE_MAX_VOCAB  1000000
#define BPE_MAX_MERGES 1000000
#define BPE_MAX_TEXT   16384 /* bytes a text may have: merging is quadratic in a piece */
#define BPE_EOT        "<|endoftext|>"
#define BPE_MAX_STEPS  4    /* pre-tokenizers in a Sequence */
#define BPE_MAX_ADDED  4096 /* added tokens: Llama 3 has 256 */
#define BPE_MAX_AROUND 4    /* special tokens the post-processor puts before or after */

typedef struct Bpe {
    int32_t count;    /* tokens */
    char *arena;      /* every token's bytes */
    uint32_t *offset; /* id → its bytes in the arena */
    uint16_t *length; /* id → how many */
    int32_t *table;   /* bytes → id, open addressing; −1 empty */
    uint32_t table_mask;
    int32_t byte_id[256]; /* the token of each single byte */
    int32_t merges;
    uint64_t *pair_key;   /* (left id, right id) → */
    int32_t *pair_rank;   /* its rank, and */
    int32_t *pair_joined; /* the id of the join; −1 empty slot */
    uint32_t pair_mask;
    int32_t special;
    int32_t vocab_count; /* the model's vocabulary; ids from here on are added tokens */
    bool nfc, ignore_merges;
    int steps;
    void *step[BPE_MAX_STEPS]; /* each pre-tokenizer's pattern: a pcre2_code (8-bit) */
    void *match;               /* pcre2_match_data for the patterns */
    void *limits;              /* pcre2_match_context: each match's step limit */
    int added;
    int32_t *added_id; /* added tokens, longest first */
    int before, after;
    int32_t around[2][BPE_MAX_AROUND]; /* the post-processor's: before, after */
} Bpe;

bool bpe_load(Bpe *b, const char *vocab, size_t vocab_len, const char *vocab_name,
              const char *merges, size_t merges_len, const char *merges_name, char *err,
              size_t errsz);
bool bpe_load_tokenizer_json(Bpe *b, const char *text, size_t len, const char *name, char *err,
                             size_t errsz);
void bpe_free(Bpe *b);
int bpe_encode(const Bpe *b, const char *text, size_t len, int32_t *ids, int max, char *err,
               size_t errsz);
size_t bpe_token_bytes(const Bpe *b, int32_t id, const char **bytes);
int32_t bpe_special(const Bpe *b);

#endif
