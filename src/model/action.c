/* Changes to the scene as values; see action.h. */
#include "action.h"

#include "../core/perm.h"
#include "../core/rng.h"

#include <assert.h>
#include <math.h>
#include <stdio.h>
#include <string.h>

static const char *const kind_names[ACTION_KIND_COUNT] = {
    [ACTION_SET] = "set",
    [ACTION_MOVE] = "move",
    [ACTION_SENTENCE] = "sentence",
    [ACTION_PERMUTE] = "permute",
    [ACTION_REVERSE] = "reverse",
    [ACTION_ROTATE] = "rotate",
    [ACTION_SHUFFLE] = "shuffle",
    [ACTION_RESTORE_ORDER] = "restore order",
    [ACTION_LOAD_SCENE] = "load scene",
    [ACTION_UNDO] = "undo",
    [ACTION_REDO] = "redo",
    [ACTION_GESTURE_BEGIN] = "gesture begin",
    [ACTION_GESTURE_END] = "gesture end",
    [ACTION_LAB_SHOW] = "show lab",
    [ACTION_LAB_PLAY] = "play",
    [ACTION_LAB_STEPS] = "steps",
    [ACTION_LAB_RESET] = "reset",
    [ACTION_LAB_SET] = "lab setting",
    [ACTION_LAB_FAST] = "fast",
    [ACTION_LAB_ZERO] = "zero",
    [ACTION_LAB_EXPLORE] = "explore",
    [ACTION_REAL_TEXT] = "model text",
    [ACTION_REAL_OPEN] = "model head",
    [ACTION_REAL_ORDER] = "model order",
    [ACTION_REAL_MOVE] = "model move",
    [ACTION_REAL_EXPLORE] = "model explore",
    [ACTION_REAL_TURN] = "model turn",
    [ACTION_REAL_WRITE] = "model write",
};

const char *action_name(Action_Kind kind) {
    return kind >= 0 && kind < ACTION_KIND_COUNT && kind_names[kind] ? kind_names[kind] : "?";
}

Action action_set(Setting_Id id, double value) {
    return (Action){.kind = ACTION_SET, .setting = id, .value = value};
}

Action action_move(int i, int c0, float x0, int c1, float x1) {
    return (Action){.kind = ACTION_MOVE, .i = i, .c0 = c0, .x0 = x0, .c1 = c1, .x1 = x1};
}

Action action_of(Action_Kind kind) {
    return (Action){.kind = kind};
}

Action action_lab(Action_Kind kind, Lab_Id lab) {
    return (Action){.kind = kind, .i = (int)lab};
}

Action action_lab_set(Lab_Id lab, Lab_Knob knob, double value) {
    return (Action){.kind = ACTION_LAB_SET, .i = (int)lab, .c0 = (int)knob, .value = value};
}

/* A random order that differs from the identity (when n ≥ 2). */
static void shuffled(int n, uint64_t seed, int *p) {
    Rng r;
    rng_seed_stream(&r, seed, 0x5F1ull, 0);
    /* Fisher–Yates, redrawn if it happens to leave the order unchanged */
    for (int attempt = 0; attempt < 8; attempt++) {
        perm_identity(n, p);
        for (int i = n - 1; i > 0; i--) {
            int j = (int)(rng_next_u64(&r) % (uint64_t)(i + 1)), t = p[i];
            p[i] = p[j];
            p[j] = t;
        }
        bool identity = true;
        for (int i = 0; i < n; i++) identity &= p[i] == i;
        if (!identity) return;
    }
    perm_rotate(n, 1, p); /* eight identities in a row: only when n is tiny */
}

static bool apply_perm(Scene *s, const int *p, bool *changed) {
    bool identity = true;
    for (int i = 0; i < s->n; i++) identity &= p[i] == i;
    if (!identity) scene_permute(s, p);
    *changed = !identity;
    return true;
}

static bool apply_set(Scene *s, const Action *a, const Vocab *vocab, bool *changed, char *err,
                      size_t errsz) {
    if ((int)a->setting < 0 || a->setting >= SET_COUNT) {
        snprintf(err, errsz, "set: no setting number %d", (int)a->setting);
        return false;
    }
    const Setting *st = setting(a->setting);
    char written[40];
    snprintf(written, sizeof written, "%.17g", a->value);
    if (!setting_check(st, a->value, written, err, errsz)) return false;
    if (setting_get(s, a->setting) == a->value) return true;
    /* a learned head's weights fit one shape and replace one seed's */
    if (a->setting == SET_SEED || a->setting == SET_D || a->setting == SET_DK ||
        a->setting == SET_DV || a->setting == SET_HEADS)
        s->learned = false;
    if (a->setting == SET_D)
        scene_set_d(s, (int)a->value, vocab); /* new columns come from the vocabulary */
    else
        setting_set(s, a->setting, a->value);
    *changed = true;
    return true;
}

static bool apply_move(Scene *s, const Action *a, bool *changed, char *err, size_t errsz) {
    if (a->i < 0 || a->i >= s->n) {
        snprintf(err, errsz, "move: no token at index %d (the scene has %d)", a->i, s->n);
        return false;
    }
    if (a->c0 < 0 || a->c0 >= s->d || a->c1 < 0 || a->c1 >= s->d) {
        snprintf(err, errsz, "move: coordinates %d and %d, but d = %d", a->c0, a->c1, s->d);
        return false;
    }
    /* a value past the scene limit would make the scene unsaveable: refuse, never clamp */
    if (!isfinite(a->x0) || !isfinite(a->x1) || fabsf(a->x0) > ATTN_MAX_ABS_X ||
        fabsf(a->x1) > ATTN_MAX_ABS_X) {
        snprintf(err, errsz, "move: (%g, %g) is not inside ±%g", (double)a->x0, (double)a->x1,
                 ATTN_MAX_ABS_X);
        return false;
    }
    float *row = &s->X[a->i * s->d];
    if (row[a->c0] == a->x0 && row[a->c1] == a->x1) return true;
    row[a->c0] = a->x0;
    row[a->c1] = a->x1;
    *changed = true;
    return true;
}

bool scene_apply(Scene *s, const Action *a, const Vocab *vocab, bool *changed, char *err,
                 size_t errsz) {
    *changed = false;
    int p[ATTN_MAX_TOKENS];
    switch (a->kind) {
    case ACTION_SET:
        return apply_set(s, a, vocab, changed, err, errsz);
    case ACTION_MOVE:
        return apply_move(s, a, changed, err, errsz);
    case ACTION_SENTENCE:
        if (!a->text) {
            snprintf(err, errsz, "sentence: no text");
            return false;
        }
        if (!scene_set_sentence(s, a->text, vocab, err, errsz)) return false; /* s untouched */
        *changed = true;
        return true;
    case ACTION_PERMUTE: {
        if (!a->perm || a->n != s->n) {
            snprintf(err, errsz, "permute: %d positions but the scene has %d tokens", a->n, s->n);
            return false;
        }
        char why[200];
        if (!perm_validate(a->perm, a->n, why, sizeof why)) {
            snprintf(err, errsz, "permute: %s", why);
            return false;
        }
        return apply_perm(s, a->perm, changed);
    }
    case ACTION_REVERSE:
        perm_reverse(s->n, p);
        return apply_perm(s, p, changed);
    case ACTION_ROTATE:
        perm_rotate(s->n, a->i, p);
        return apply_perm(s, p, changed);
    case ACTION_SHUFFLE:
        if (s->n < 2) return true;
        shuffled(s->n, a->seed, p);
        return apply_perm(s, p, changed);
    case ACTION_RESTORE_ORDER:
        /* origin[i] is the original index of the token now at i; sorting by
         * it is applying its inverse */
        perm_inverse(s->origin, s->n, p);
        return apply_perm(s, p, changed);
    case ACTION_LOAD_SCENE: {
        char why[400];
        if (!a->scene || !scene_validate(a->scene, why, sizeof why)) {
            snprintf(err, errsz, "load scene: %s", a->scene ? why : "no scene");
            return false;
        }
        *changed = !scene_equal(s, a->scene);
        if (*changed) *s = *a->scene;
        return true;
    }
    case ACTION_UNDO:
    case ACTION_REDO:
    case ACTION_GESTURE_BEGIN:
    case ACTION_GESTURE_END:
    case ACTION_LAB_SHOW:
    case ACTION_LAB_PLAY:
    case ACTION_LAB_STEPS:
    case ACTION_LAB_RESET:
    case ACTION_LAB_SET:
    case ACTION_LAB_FAST:
    case ACTION_LAB_ZERO:
    case ACTION_LAB_EXPLORE:
    case ACTION_REAL_TEXT:
    case ACTION_REAL_OPEN:
    case ACTION_REAL_ORDER:
    case ACTION_REAL_MOVE:
    case ACTION_REAL_EXPLORE:
    case ACTION_REAL_TURN:
    case ACTION_REAL_WRITE:
    case ACTION_KIND_COUNT:
        break;
    }
    snprintf(err, errsz, "%s: only a model can do that", action_name(a->kind));
    return false;
}

void action_list_clear(Action_List *l) {
    l->count = 0;
    l->used = 0;
}

bool action_list_push(Action_List *l, const Action *a) {
    if (l->count == ACTION_LIST_MAX) return false;
    const void *data = NULL;
    size_t size = 0;
    if ((a->kind == ACTION_SENTENCE || a->kind == ACTION_REAL_TEXT) && a->text) {
        data = a->text;
        size = strlen(a->text) + 1;
    } else if (a->kind == ACTION_PERMUTE && a->perm && a->n > 0) {
        data = a->perm;
        size = (size_t)a->n * sizeof(int);
    }
    int at = -1;
    if (data) {
        size_t start = ((size_t)l->used + sizeof(int) - 1) / sizeof(int) * sizeof(int);
        if (size > ACTION_LIST_BYTES || start > ACTION_LIST_BYTES - size) return false;
        memcpy(l->bytes + start, data, size);
        at = (int)start;
        l->used = (int)(start + size);
    }
    Action *dest = &l->items[l->count];
    *dest = *a;
    dest->text = NULL;
    dest->perm = NULL;
    l->payload[l->count++] = at;
    return true;
}

Action action_list_get(const Action_List *l, int k) {
    assert(k >= 0 && k < l->count);
    Action a = l->items[k];
    int at = l->payload[k];
    if (at >= 0 && (a.kind == ACTION_SENTENCE || a.kind == ACTION_REAL_TEXT))
        a.text = (const char *)(l->bytes + at);
    if (at >= 0 && a.kind == ACTION_PERMUTE) a.perm = (const int *)(const void *)(l->bytes + at);
    return a;
}
