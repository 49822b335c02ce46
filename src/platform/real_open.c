/* Opening a real model for the window; see real_open.h. */
#include "../core/i18n.h"
#include "real_open.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

bool real_open(Model *m, Checkpoint **ck, const char *path_or_name, char *err, size_t errsz) {
    Checkpoint *fresh = malloc(sizeof *fresh);
    if (!fresh) {
        snprintf(err, errsz, _("out of memory opening %s"), path_or_name);
        return false;
    }
    if (!checkpoint_open(path_or_name, fresh, err, errsz)) {
        free(fresh);
        return false;
    }
    if (!real_lab_attach(&m->real, &fresh->model, path_or_name, err, errsz)) {
        checkpoint_close(fresh);
        free(fresh);
        return false;
    }
    /* the lab no longer reads the one before */
    if (*ck) {
        checkpoint_close(*ck);
        free(*ck);
    }
    *ck = fresh;
    if (!m->real.text[0]) {
        char why[600];
        real_lab_set_text(&m->real, REAL_DEFAULT_TEXT, strlen(REAL_DEFAULT_TEXT), why, sizeof why);
    }
    return true;
}

void real_look(Model *m, Checkpoint **ck) {
    if (m->real.model || m->real.note[0]) return;
    char err[1024], first[1024] = "";
    static const char *const names[2] = {"gpt2", "distilgpt2"};
    for (int k = 0; k < 2; k++) {
        if (real_open(m, ck, names[k], err, sizeof err)) return;
        if (k == 0) snprintf(first, sizeof first, "%s", err);
    }
    snprintf(m->real.note, sizeof m->real.note,
             _("No --model was given, and none was found: %.900s"), first);
}

bool real_pick_head(Model *m, int layer, int head, char *err, size_t errsz) {
    const Net_Model *tm = &m->real.model->weights.model;
    if (layer >= tm->layers || head >= tm->heads) {
        snprintf(err, errsz, _("attnlab: --%s: %d is past the model's %d (0 to %d)"),
                 layer >= tm->layers ? "layer" : "head", layer >= tm->layers ? layer : head,
                 layer >= tm->layers ? tm->layers : tm->heads,
                 (layer >= tm->layers ? tm->layers : tm->heads) - 1);
        return false;
    }
    real_lab_open(&m->real, layer >= 0 ? layer : m->real.open_layer,
                  head >= 0 ? head : m->real.open_head);
    return true;
}

void real_close(Model *m, Checkpoint **ck) {
    real_lab_free(&m->real);
    if (*ck) {
        checkpoint_close(*ck);
        free(*ck);
        *ck = NULL;
    }
}
