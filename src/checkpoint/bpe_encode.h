/* Encoding a text with a loaded BPE tokenizer (bpe.h says the steps).
 *
 *   int bpe_encode(const Bpe *b, const char *text, size_t len, int32_t *ids, int max, char *err,
 *                  size_t errsz)
 *       the ids of text (at most BPE_MAX_TEXT bytes of UTF-8), or BPE_TOO_MANY (more than max
 *       tokens) or −1 (not UTF-8, at which byte; too long; a character neither the vocabulary
 *       nor its fallbacks have) with a one-line err
 */
#ifndef ATTN_BPE_ENCODE_H
#define ATTN_BPE_ENCODE_H

#include "bpe.h"

int bpe_encode(const Bpe *b, const char *text, size_t len, int32_t *ids, int max, char *err,
               size_t errsz);

#endif
