/* The app's model: the scene being explored, what is derived from it, and
 * the vocabulary it embeds words with.
 *
 * The UI never edits the scene directly; it calls model_* actions, which
 * validate, change the scene and mark the derived data stale. model_update
 * recomputes once, however many actions came in a frame.
 *
 *   model_init(m, scene, vocab) / model_free(m)
 *   model_update(m)              recompute Q, K, V, S, A, O if stale
 */
#ifndef ATTN_MODEL_H
#define ATTN_MODEL_H

#include <stdbool.h>

#include "scene.h"

typedef struct Model {
    Scene scene;
    Derived derived;
    const Vocab *vocab;
    bool stale;
    unsigned long version; /* bumps on every change of the scene */
} Model;

bool model_init(Model *m, const Scene *scene, const Vocab *vocab);
void model_free(Model *m);
bool model_update(Model *m);

#endif
