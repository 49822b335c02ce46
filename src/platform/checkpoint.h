/* Finding a checkpoint of any family (checkpoint/family.h) and mapping its files: the only code
 * that knows the Hugging Face cache. Nothing is ever downloaded.
 *
 *   bool checkpoint_find(const char *path_or_name, char *dir, size_t size, char *err,
 *                        size_t errsz)
 *       a folder holding config.json is the checkpoint. Else a NAME ("gpt2", "distilgpt2",
 *       "openai-community/gpt2": letters, digits, - _ . and at most one /) is looked up in
 *       the cache, the first of $HF_HUB_CACHE, $HF_HOME/hub and $HOME/.cache/huggingface/hub
 *       that is set, at models--NAME (its / as --)/snapshots/REV/: the revision refs/main
 *       names, else the newest snapshot holding config.json. False with one line: a folder
 *       without config.json, or a name not in the cache (saying where it looked)
 *   bool checkpoint_map(const char *path, Mapped_File *m, uint64_t max, char *err,
 *                       size_t errsz)
 *       a regular file of 1 to max bytes, read whole into memory the checkpoint owns (not
 *       mapped: a file changed or cut under the app cannot take the tensors with it); a
 *       folder, FIFO or device, an empty or larger file is one line naming it (a FIFO is
 *       refused without waiting)
 *   void checkpoint_unmap(Mapped_File *m)
 *   bool checkpoint_open(const char *path_or_name, Checkpoint *ck, char *err, size_t errsz)
 *       checkpoint_find, then config.json, model.safetensors (or, when it is not there,
 *       model.safetensors.index.json and each shard it names), and vocab.json and merges.txt
 *       (or, when neither is there, tokenizer.json) mapped and loaded (real_model_load);
 *       false with one line (ck untouched): a missing file names the folder and what a
 *       checkpoint folder holds
 *   void checkpoint_close(Checkpoint *ck)
 */
#ifndef ATTN_CHECKPOINT_H
#define ATTN_CHECKPOINT_H

#include "../checkpoint/real_model.h"

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

typedef struct Mapped_File {
    const uint8_t *bytes;
    uint64_t size;
} Mapped_File;

typedef struct Checkpoint {
    char dir[4096];
    Mapped_File config, weights, vocab, merges, tokenizer; /* vocab + merges, or tokenizer */
    Mapped_File index, shard[ST_MAX_SHARDS];               /* or the weights in shards */
    int shards;
    Real_Model model;
} Checkpoint;

bool checkpoint_find(const char *path_or_name, char *dir, size_t size, char *err, size_t errsz);
bool checkpoint_map(const char *path, Mapped_File *m, uint64_t max, char *err, size_t errsz);
void checkpoint_unmap(Mapped_File *m);
bool checkpoint_open(const char *path_or_name, Checkpoint *ck, char *err, size_t errsz);
void checkpoint_close(Checkpoint *ck);

#endif
