/* GPT-2's byte-level BPE tokenizer, exact to the reference encoder (OpenAI's,
 * as npm's gpt-3-encoder carries it): the text's UTF-8 bytes are split by
 * the pre-tokenizer pattern
 *     's|'t|'re|'ve|'m|'ll|'d| ?\p{L}+| ?\p{N}+| ?[^\s\p{L}\p{N}]+|\s+(?!\S)|\s+
 * (matched by hand, with the classes of unicode_classes.h), each piece's
 * bytes become the symbols of GPT-2's byte alphabet, and the ranked merges
 * of merges.txt join neighbours, lowest rank first, until none applies. The
 * text <|endoftext|> is the special token, wherever it is typed. Loading is
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
 *       model.merges ("A B" strings or ["A", "B"] pairs) as merges.txt's lines; a model
 *       type other than BPE is refused
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
