/* The app's model and its actions; see model.h. */
#include "model.h"

#include "../core/perm.h"
#include "../core/rng.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

/* A snapshot keeps the fixed-size fields plus the used part of tokens, X and
 * origin, so a 6-token scene costs a few hundred bytes, not the whole Scene. */
typedef struct Snapshot {
    int n, d, d_k, d_v;
    uint32_t seed;
    bool scaled;
    Pos_Mode pos;
    float pos_strength;
    /* then: n tokens, n×d floats, n ints */
} Snapshot;

static void *snapshot_take(const Scene *s) {
    size_t tok = (size_t)s->n * ATTN_MAX_TOKEN_BYTES, xs = (size_t)s->n * s->d * sizeof(float);
    size_t org = (size_t)s->n * sizeof(int);
    Snapshot *snap = malloc(sizeof *snap + tok + xs + org);
    if (!snap) return NULL;
    *snap = (Snapshot){s->n, s->d, s->d_k, s->d_v, s->seed, s->scaled, s->pos, s->pos_strength};
    char *p = (char *)(snap + 1);
    memcpy(p, s->tokens, tok);
    memcpy(p + tok, s->X, xs);
    memcpy(p + tok + xs, s->origin, org);
    return snap;
}

static void snapshot_restore(const void *blob, Scene *s) {
    const Snapshot *snap = blob;
    s->n = snap->n;
    s->d = snap->d;
    s->d_k = snap->d_k;
    s->d_v = snap->d_v;
    s->seed = snap->seed;
    s->scaled = snap->scaled;
    s->pos = snap->pos;
    s->pos_strength = snap->pos_strength;
    size_t tok = (size_t)s->n * ATTN_MAX_TOKEN_BYTES, xs = (size_t)s->n * s->d * sizeof(float);
    const char *p = (const char *)(snap + 1);
    memcpy(s->tokens, p, tok);
    memcpy(s->X, p + tok, xs);
    memcpy(s->origin, p + tok + xs, (size_t)s->n * sizeof(int));
}

static void push(void **stack, int *count, void *snap) {
    if (*count == MODEL_UNDO_DEPTH) {
        free(stack[0]); /* forget the oldest step */
        memmove(stack, stack + 1, sizeof *stack * (MODEL_UNDO_DEPTH - 1));
        (*count)--;
    }
    stack[(*count)++] = snap;
}

static void clear(void **stack, int *count) {
    for (int i = 0; i < *count; i++) free(stack[i]);
    *count = 0;
}

/* Record the scene before a change, unless the current gesture already did. */
static void record(Model *m) {
    if (m->gesture_depth > 0) {
        if (m->gesture_recorded) return;
        m->gesture_recorded = true;
    }
    void *snap = snapshot_take(&m->scene);
    if (!snap) return; /* out of memory: the edit still happens, it just cannot be undone */
    push(m->undo, &m->undo_count, snap);
    clear(m->redo, &m->redo_count);
}

static void changed(Model *m) {
    m->stale = true;
    m->moved = -1;
    m->version++;
}

bool model_init(Model *m, const Scene *scene, const Vocab *vocab) {
    memset(m, 0, sizeof *m);
    m->scene = *scene;
    m->vocab = vocab;
    m->stale = true;
    m->moved = -1;
    return model_update(m);
}

void model_free(Model *m) {
    clear(m->undo, &m->undo_count);
    clear(m->redo, &m->redo_count);
    derived_free(&m->derived);
    labs_free(&m->labs);
}

bool model_update(Model *m) {
    if (!m->stale) return true;
    /* a drag moves one token: only its row and column of S need new dot products */
    bool ok = m->moved >= 0 ? derived_update_token(&m->derived, &m->scene, m->moved)
                            : derived_update(&m->derived, &m->scene);
    if (!ok) return false;
    m->stale = false;
    return true;
}

#define SETTER(name, field, type)                                                                  \
    void name(Model *m, type v) {                                                                  \
        if (m->scene.field == v) return;                                                           \
        record(m);                                                                                 \
        m->scene.field = v;                                                                        \
        changed(m);                                                                                \
    }

SETTER(model_set_scaled, scaled, bool)
SETTER(model_set_pos, pos, Pos_Mode)
SETTER(model_set_seed, seed, uint32_t)

void model_set_dk(Model *m, int d_k) {
    if (d_k < 1 || d_k > ATTN_MAX_DK || d_k == m->scene.d_k) return;
    record(m);
    m->scene.d_k = d_k;
    changed(m);
}

void model_set_dv(Model *m, int d_v) {
    if (d_v < 1 || d_v > ATTN_MAX_DV || d_v == m->scene.d_v) return;
    record(m);
    m->scene.d_v = d_v;
    changed(m);
}

void model_set_d(Model *m, int d) {
    if (d < 1 || d > ATTN_MAX_D || d == m->scene.d) return;
    record(m);
    scene_set_d(&m->scene, d, m->vocab);
    changed(m);
}

void model_set_pos_strength(Model *m, float strength) {
    if (!(strength >= 0 && strength <= ATTN_MAX_POS_STRENGTH) || strength == m->scene.pos_strength)
        return;
    record(m);
    m->scene.pos_strength = strength;
    changed(m);
}

void model_move_token(Model *m, int i, int c0, float x0, int c1, float x1) {
    Scene *s = &m->scene;
    if (i < 0 || i >= s->n || c0 < 0 || c0 >= s->d || c1 < 0 || c1 >= s->d) return;
    if (!isfinite(x0) || !isfinite(x1)) return;
    /* The plane's own range keeps drags far inside this, but a value past
     * the scene limit would make the scene unsaveable: refuse, never clamp. */
    if (fabsf(x0) > ATTN_MAX_ABS_X || fabsf(x1) > ATTN_MAX_ABS_X) return;
    float *row = &s->X[i * s->d];
    if (row[c0] == x0 && row[c1] == x1) return;
    record(m);
    row[c0] = x0;
    row[c1] = x1;
    /* only token i moved, unless something else changed since the last update */
    bool only_i = !m->stale || m->moved == i;
    changed(m);
    m->moved = only_i ? i : -1;
}

bool model_set_sentence(Model *m, const char *text, char *err, size_t errsz) {
    Scene *next = &m->next;
    *next = m->scene;
    if (!scene_set_sentence(next, text, m->vocab, err, errsz)) return false;
    record(m);
    m->scene = *next;
    changed(m);
    return true;
}

void model_permute(Model *m, const int *p) {
    bool identity = true;
    for (int i = 0; i < m->scene.n; i++) identity &= p[i] == i;
    if (identity) return;
    record(m);
    scene_permute(&m->scene, p);
    changed(m);
}

void model_reverse(Model *m) {
    int p[ATTN_MAX_TOKENS];
    perm_reverse(m->scene.n, p);
    model_permute(m, p);
}

void model_rotate(Model *m, int k) {
    int p[ATTN_MAX_TOKENS];
    perm_rotate(m->scene.n, k, p);
    model_permute(m, p);
}

void model_shuffle(Model *m, uint64_t seed) {
    int n = m->scene.n, p[ATTN_MAX_TOKENS];
    if (n < 2) return;
    Rng r;
    rng_seed_stream(&r, seed, 0x5F1ull, (uint64_t)m->version);
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
        if (!identity) break;
    }
    model_permute(m, p);
}

void model_restore_order(Model *m) {
    /* origin[i] is the original index of the token now at i; sorting by it
     * is applying its inverse. */
    int p[ATTN_MAX_TOKENS];
    perm_inverse(m->scene.origin, m->scene.n, p);
    model_permute(m, p);
}

void model_replace_scene(Model *m, const Scene *s) {
    record(m);
    m->scene = *s;
    changed(m);
}

static bool step(Model *m, void **from, int *from_count, void **to, int *to_count) {
    if (*from_count == 0) return false;
    void *now = snapshot_take(&m->scene);
    if (!now) return false;
    void *prev = from[--*from_count];
    push(to, to_count, now);
    snapshot_restore(prev, &m->scene);
    free(prev);
    changed(m);
    return true;
}

bool model_undo(Model *m) {
    return step(m, m->undo, &m->undo_count, m->redo, &m->redo_count);
}

bool model_redo(Model *m) {
    return step(m, m->redo, &m->redo_count, m->undo, &m->undo_count);
}

void model_gesture_begin(Model *m) {
    if (m->gesture_depth++ == 0) m->gesture_recorded = false;
}

void model_gesture_end(Model *m) {
    if (m->gesture_depth > 0) m->gesture_depth--;
}
