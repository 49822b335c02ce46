/* BPE tokenizers as Hugging Face's tokenizers run them: GPT-2's (vocab.json
 * and merges.txt), and a tokenizer.json of either kind:
 *   - byte-level (GPT-2, Llama 3, Qwen2.5, Qwen3, SmolLM2): tokens are text in
 *     GPT-2's byte alphabet, and every byte is a token;
 *   - SentencePiece-style (Llama 2, TinyLlama, Mistral): tokens are text, a
 *     space is ▁, and a character the vocabulary lacks falls back to its
 *     bytes' tokens <0xNN> (byte_fallback), or to the unknown token.
 * Encoding a text:
 *   1. added tokens (<|endoftext|>, <|im_start|>, <s>, …) typed anywhere are
 *      their own ids; each stretch of text between them goes on alone;
 *   2. the normalizers, in order: NFC (utf8proc), Prepend (before a stretch
 *      that is not empty), Replace of a string; then Metaspace's: each space
 *      a ▁, and a ▁ before the stretch (always, or only before the text's
 *      first, or never) unless it starts with one;
 *   3. the pre-tokenizers, in order, each splitting every piece further: a
 *      Split pattern (Llama 3's and Qwen's, matched by PCRE2 with Unicode
 *      properties: the match and the text between matches are pieces), Digits
 *      (the pattern \p{N}, or \p{N}+ for runs), ByteLevel's pattern, GPT-2's
 *          's|'t|'re|'ve|'m|'ll|'d| ?\p{L}+| ?\p{N}+| ?[^\s\p{L}\p{N}]+|\s+(?!\S)|\s+
 *      (vocab.json and merges.txt mean that one alone), and Metaspace's split
 *      before each ▁;
 *   4. each piece becomes symbols: its bytes (byte-level), or its characters,
 *      each the token of that character, else its bytes' <0xNN> tokens, else
 *      the unknown token (a run of them one, with fuse_unk); with
 *      ignore_merges a piece that is a token is that token; else the ranked
 *      merges join neighbours, lowest rank first and leftmost first, until
 *      none applies;
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
 *       steps above from normalizer, pre_tokenizer, model (byte_fallback, unk_token,
 *       fuse_unk, ignore_merges), added_tokens and post_processor; byte-level when a
 *       ByteLevel pre-tokenizer is there, else SentencePiece-style. Refused by name: a model
 *       type other than BPE, another normalizer or pre-tokenizer, a Replace or Split on what
 *       is not a plain string or a PCRE2 pattern, a Metaspace that is not the first
 *       pre-tokenizer or whose replacement is not ▁, ByteLevel's add_prefix_space, a
 *       continuing-subword prefix or word suffix, added token ids that leave a gap after the
 *       vocabulary
 *   void bpe_free(Bpe *b)
 *   size_t bpe_token_bytes(const Bpe *b, int32_t id, const char **bytes)
 *       the bytes of text a token stands for (not NUL-terminated; may end inside a
 *       character): a SentencePiece-style token's ▁ is a space and <0xNN> its byte
 *   int32_t bpe_lookup(const Bpe *b, const char *s, size_t n)
 *       the id of the token with these bytes (as the vocabulary writes them), or −1
 *   int32_t *bpe_pair_slot(const Bpe *b, uint64_t key, bool *found)
 *       the merge table's slot of the pair key (left id << 32 | right id): its join, with
 *       found; or the empty slot where it would go. These two are what encoding
 *       (bpe_encode.c) reads of what loading (bpe.c) built
 *   int32_t bpe_special(const Bpe *b)
 *       the id of <|endoftext|>, or −1 if the vocabulary has none
 */
#ifndef ATTN_BPE_H
#define ATTN_BPE_H

#define BPE_TOO_MANY (-2)

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#define BPE_MAX_VOCAB   1000000
#define BPE_MAX_MERGES  1000000
#define BPE_MAX_TEXT    16384 /* bytes a text may have: merging is quadratic in a piece */
#define BPE_EOT         "<|endoftext|>"
#define BPE_MAX_NORMAL  (4 * BPE_MAX_TEXT) /* bytes a stretch may have once normalized */
#define BPE_MAX_STEPS   4                  /* pre-tokenizers in a Sequence */
#define BPE_MAX_NORMS   6                  /* normalizers in a Sequence, and Metaspace's */
#define BPE_MAX_REPLACE 16                 /* bytes a Prepend or Replace string may have */
#define BPE_MAX_ADDED   4096               /* added tokens: Llama 3 has 256 */
#define BPE_MAX_AROUND  4 /* special tokens the post-processor puts before or after */

enum { BPE_NFC, BPE_PREPEND, BPE_REPLACE, BPE_METASPACE };
enum { BPE_ALWAYS, BPE_FIRST, BPE_NEVER }; /* where Metaspace puts a ▁ */

typedef struct Bpe_Norm {
    int kind;
    int scheme;                     /* BPE_METASPACE: BPE_ALWAYS … */
    char from[BPE_MAX_REPLACE + 1]; /* BPE_REPLACE: this string, */
    char to[BPE_MAX_REPLACE + 1];   /* becomes this; BPE_PREPEND: this goes before */
} Bpe_Norm;

typedef struct Bpe {
    int32_t count;    /* tokens */
    char *arena;      /* every token's bytes */
    uint32_t *offset; /* id → its bytes in the arena */
    uint16_t *length; /* id → how many */
    int32_t *table;   /* bytes → id, open addressing; −1 empty */
    uint32_t table_mask;
    bool chars;  /* SentencePiece-style: tokens are text, not GPT-2's byte alphabet */
    char *shown; /* chars: each token's text, ▁ a space and <0xNN> its byte; arena's offsets */
    uint16_t *shown_length;
    int32_t byte_id[256]; /* the token of each single byte (chars: <0xNN>, or −1) */
    bool byte_fallback, fuse_unk;
    int32_t unk; /* model.unk_token's id, or −1 */
    int32_t merges;
    uint64_t *pair_key;   /* (left id, right id) → */
    int32_t *pair_rank;   /* its rank, and */
    int32_t *pair_joined; /* the id of the join; −1 empty slot */
    uint32_t pair_mask;
    int32_t special;
    int32_t vocab_count; /* the model's vocabulary; ids from here on are added tokens */
    bool ignore_merges;
    int norms;
    Bpe_Norm norm[BPE_MAX_NORMS]; /* the normalizers, then Metaspace's replacing */
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
size_t bpe_token_bytes(const Bpe *b, int32_t id, const char **bytes);
int32_t bpe_special(const Bpe *b);
int32_t bpe_lookup(const Bpe *b, const char *s, size_t n);
int32_t *bpe_pair_slot(const Bpe *b, uint64_t key, bool *found);

#include "bpe_encode.h" /* encoding a text, in a file of its own */

#endif
