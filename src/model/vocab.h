/* The vocabulary: illustrative embeddings for common English words.
 *
 * Loaded from assets/vocab.tsv (word, group, x0..x3). Lookup ignores ASCII
 * case. A word that is not listed, and every coordinate past the listed
 * ones, gets a deterministic value derived from a hash of the word, so the
 * same sentence always embeds the same way.
 *
 *   bool vocab_load(Vocab *v, const char *path, char *err, size_t errsz)
 *       false + "FILE:LINE: problem" on error
 *   int vocab_find(const Vocab *v, const char *word)
 *       entry index or -1
 *   void vocab_embed(const Vocab *v, const char *word, int d, float *dest)
 *       fill d coordinates
 *   void vocab_free(Vocab *v)
 */
#ifndef ATTN_VOCAB_H
#define ATTN_VOCAB_H

#include <stdbool.h>
#include <stddef.h>

#include "limits.h"

#define VOCAB_DIMS     4
#define VOCAB_FILE_MAX (4 * 1024 * 1024)

typedef struct Vocab_Entry {
    char word[ATTN_MAX_TOKEN_BYTES];
    char group[24];
    float x[VOCAB_DIMS];
} Vocab_Entry;

typedef struct Vocab {
    Vocab_Entry *entries;
    int count;
} Vocab;

bool vocab_load(Vocab *v, const char *path, char *err, size_t errsz);
int vocab_find(const Vocab *v, const char *word);
void vocab_embed(const Vocab *v, const char *word, int d, float *dest);
void vocab_free(Vocab *v);

#endif
