/* Opening a real model for the window; see real_open.h. */
#include "../core/i18n.h"
#include "real_open.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* A checkpoint read (fresh, on the heap) attached to m->real in place of the
 * one open: false with one line, and fresh closed. */
static bool attach(Model *m, Checkpoint **ck, Checkpoint *fresh, const char *path_or_name,
                   char *err, size_t errsz) {
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
    return attach(m, ck, fresh, path_or_name, err, errsz);
}

#ifndef __EMSCRIPTEN__ /* the browser build has no threads: it opens a model at once */
/* The thread: each name in turn until one opens; the first one's error. */
static int opening_main(void *arg) {
    Real_Opening *o = arg;
    char why[sizeof o->err];
    o->fresh = NULL;
    o->err[0] = '\0';
    for (int k = 0; k < o->count; k++) {
        Checkpoint *fresh = malloc(sizeof *fresh);
        if (!fresh) {
            if (k == 0) snprintf(o->err, sizeof o->err, _("out of memory opening %s"), o->names[k]);
            break;
        }
        if (checkpoint_open(o->names[k], fresh, why, sizeof why)) {
            o->fresh = fresh;
            o->opened = k;
            break;
        }
        free(fresh);
        if (k == 0) snprintf(o->err, sizeof o->err, "%s", why);
    }
    atomic_store(&o->done, true);
    if (o->wake) o->wake(o->wake_ctx);
    return 0;
}
#endif

bool real_open_begin(Real_Opening *o, const char *const *names, int count, void (*wake)(void *ctx),
                     void *ctx) {
#ifdef __EMSCRIPTEN__
    (void)o, (void)names, (void)count, (void)wake, (void)ctx;
    return false;
#else
    if (o->running || count < 1) return false;
    if (count > REAL_OPEN_NAMES) count = REAL_OPEN_NAMES;
    for (int k = 0; k < count; k++)
        if (strlen(names[k]) >= sizeof o->names[k]) return false; /* never cut short */
    for (int k = 0; k < count; k++) snprintf(o->names[k], sizeof o->names[k], "%s", names[k]);
    o->count = count;
    o->wake = wake;
    o->wake_ctx = ctx;
    atomic_store(&o->done, false);
    if (thrd_create(&o->thread, opening_main, o) != thrd_success) return false;
    o->running = true;
    return true;
#endif
}

bool real_open_busy(const Real_Opening *o) {
    return o->running;
}

int real_open_finish(Real_Opening *o, Model *m, Checkpoint **ck, char *err, size_t errsz) {
#ifdef __EMSCRIPTEN__
    (void)o, (void)m, (void)ck, (void)err, (void)errsz;
    return -1;
#else
    if (!o->running || !atomic_load(&o->done)) return -1;
    thrd_join(o->thread, NULL);
    o->running = false;
    if (!o->fresh) {
        snprintf(err, errsz, "%s", o->err);
        return 0;
    }
    Checkpoint *fresh = o->fresh;
    o->fresh = NULL;
    return attach(m, ck, fresh, o->names[o->opened], err, errsz) ? 1 : 0;
#endif
}

void real_open_cancel(Real_Opening *o) {
#ifndef __EMSCRIPTEN__
    if (!o->running) return;
    thrd_join(o->thread, NULL); /* checkpoint_open has no way to stop halfway: wait for it */
    o->running = false;
    if (o->fresh) {
        checkpoint_close(o->fresh);
        free(o->fresh);
        o->fresh = NULL;
    }
#else
    (void)o;
#endif
}

/* Where the first look goes, in order. */
static const char *const look_names[REAL_OPEN_NAMES] = {"gpt2", "distilgpt2"};

void real_look_found(Model *m, bool found, const char *err) {
    if (found)
        m->real.note[0] = '\0';
    else
        snprintf(m->real.note, sizeof m->real.note,
                 _("No --model was given, and none was found: %.900s"), err);
}

void real_look(Model *m, Checkpoint **ck) {
    if (m->real.model || m->real.note[0]) return;
    char err[1024], first[1024] = "";
    for (int k = 0; k < REAL_OPEN_NAMES; k++) {
        if (real_open(m, ck, look_names[k], err, sizeof err)) return;
        if (k == 0) snprintf(first, sizeof first, "%s", err);
    }
    real_look_found(m, false, first);
}

bool real_look_begin(Real_Opening *o, Model *m, void (*wake)(void *ctx), void *ctx) {
    if (m->real.model || m->real.note[0] ||
        !real_open_begin(o, look_names, REAL_OPEN_NAMES, wake, ctx))
        return false;
    snprintf(m->real.note, sizeof m->real.note, "%s",
             _("Looking for gpt2, then distilgpt2, in the Hugging Face cache…"));
    return true;
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
