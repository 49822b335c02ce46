/* The app's model; see model.h. */
#include "model.h"

#include <string.h>

bool model_init(Model *m, const Scene *scene, const Vocab *vocab) {
    memset(m, 0, sizeof *m);
    m->scene = *scene;
    m->vocab = vocab;
    m->stale = true;
    return model_update(m);
}

void model_free(Model *m) {
    derived_free(&m->derived);
}

bool model_update(Model *m) {
    if (!m->stale) return true;
    if (!derived_update(&m->derived, &m->scene)) return false;
    m->stale = false;
    return true;
}
