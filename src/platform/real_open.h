/* Opening a real model for the window (and the headless layout): its
 * checkpoint, kept on the heap while the Model view's lab reads it.
 *
 *   bool real_open(Model *m, Checkpoint **ck, const char *path_or_name, char *err, size_t errsz)
 *       checkpoint_open, then attached to m->real (which reads its text again, or the
 *       default text when it has none); false with one line, and the model open before
 *       stays open
 *   void real_look(Model *m, Checkpoint **ck)
 *       with none open and none looked for yet: gpt2, then distilgpt2, from the Hugging Face
 *       cache; if neither is there, m->real.note says where it looked
 *   bool real_pick_head(Model *m, int layer, int head, char *err, size_t errsz)
 *       --layer / --head (−1: not given) within the open model, else one line
 *   void real_close(Model *m, Checkpoint **ck)
 */
#ifndef ATTN_REAL_OPEN_H
#define ATTN_REAL_OPEN_H

#include "../model/model.h"
#include "checkpoint.h"

#define REAL_DEFAULT_TEXT "When Mary and John went to the store, John gave a drink to"

bool real_open(Model *m, Checkpoint **ck, const char *path_or_name, char *err, size_t errsz);
void real_look(Model *m, Checkpoint **ck);
bool real_pick_head(Model *m, int layer, int head, char *err, size_t errsz);
void real_close(Model *m, Checkpoint **ck);

#endif
