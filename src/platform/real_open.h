/* Opening a real model for the window (and the headless layout): its
 * checkpoint, kept on the heap while the Model view's lab reads it.
 *
 *   bool real_open(Model *m, Checkpoint **ck, const char *path_or_name, char *err, size_t errsz)
 *       checkpoint_open, then attached to m->real (which reads its text again, or the
 *       default text when it has none); false with one line, and the model open before
 *       stays open
 *   bool real_open_begin(Real_Opening *o, const char *const *names, int count,
 *                        void (*wake)(void *ctx), void *ctx)
 *       the same checkpoint_open on a thread of its own, so a window's frames never wait
 *       for a model's weights (seconds, for a few hundred million of them): names[0], then
 *       the next while one does not open (real_look's gpt2, then distilgpt2; at most
 *       REAL_OPEN_NAMES). wake(ctx), when given, is called from that thread once it is done.
 *       false when no thread starts (the browser has none), when one is running (one open at
 *       a time, since the tokenizer's reader keeps static scratch) or when a name is longer
 *       than a path may be (real_open then says so)
 *   bool real_open_busy(const Real_Opening *o)
 *   int real_open_finish(Real_Opening *o, Model *m, Checkpoint **ck, char *err, size_t errsz)
 *       −1 while the thread runs (or none was begun); once done, 1 with the model that opened
 *       attached as real_open attaches it, or 0 with the first name's one line (the model
 *       open before stays open). Called by the thread that owns m
 *   void real_open_cancel(Real_Opening *o)
 *       waits for a running open and drops what it read (the app closing)
 *   void real_look(Model *m, Checkpoint **ck)
 *       with none open and none looked for yet: gpt2, then distilgpt2, from the Hugging Face
 *       cache; if neither is there, m->real.note says where it looked
 *   bool real_look_begin(Real_Opening *o, Model *m, void (*wake)(void *ctx), void *ctx)
 *       the same look on a thread (real_open_begin), m->real.note saying it looks; false when
 *       there is nothing to look for or no thread began (real_look then)
 *   void real_look_found(Model *m, bool found, const char *err)
 *       the look's end in m->real.note: none when found, else where it looked (err, the
 *       first name's line)
 *   bool real_pick_head(Model *m, int layer, int head, char *err, size_t errsz)
 *       --layer / --head (−1: not given) within the open model, else one line
 *   void real_close(Model *m, Checkpoint **ck)
 */
#ifndef ATTN_REAL_OPEN_H
#define ATTN_REAL_OPEN_H

#include "../model/model.h"
#include "checkpoint.h"

#define REAL_DEFAULT_TEXT "When Mary and John went to the store, John gave a drink to"
#define REAL_OPEN_NAMES   2

#ifndef __EMSCRIPTEN__
#include <stdatomic.h>
#include <threads.h>
#endif

/* An open on a thread of its own: the thread writes fresh, opened and err,
 * then sets done; the owner reads them only after seeing done. */
typedef struct Real_Opening {
    char names[REAL_OPEN_NAMES][4096]; /* a path as long as a checkpoint's folder may be */
    int count, opened;
    Checkpoint *fresh; /* the checkpoint read, or NULL */
    char err[1200];
    void (*wake)(void *ctx);
    void *wake_ctx;
    bool running;
#ifndef __EMSCRIPTEN__
    thrd_t thread;
    atomic_bool done;
#endif
} Real_Opening;

bool real_open(Model *m, Checkpoint **ck, const char *path_or_name, char *err, size_t errsz);
bool real_open_begin(Real_Opening *o, const char *const *names, int count, void (*wake)(void *ctx),
                     void *ctx);
bool real_open_busy(const Real_Opening *o);
int real_open_finish(Real_Opening *o, Model *m, Checkpoint **ck, char *err, size_t errsz);
void real_open_cancel(Real_Opening *o);
void real_look(Model *m, Checkpoint **ck);
bool real_look_begin(Real_Opening *o, Model *m, void (*wake)(void *ctx), void *ctx);
void real_look_found(Model *m, bool found, const char *err);
bool real_pick_head(Model *m, int layer, int head, char *err, size_t errsz);
void real_close(Model *m, Checkpoint **ck);

#endif
