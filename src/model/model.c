/* The app's model and its actions; see model.h. */
#include "model.h"

#include "../core/i18n.h"

#include "settings.h"

#include "../core/stats.h"

#include <math.h>
#include <stdlib.h>
#include <stdio.h>
#include <string.h>

/* A snapshot keeps every setting (from the settings table, so a new setting
 * is undone with no line here) plus the used part of tokens, X and origin,
 * so a 6-token scene costs a few hundred bytes, not the whole Scene. */
typedef struct Snapshot {
    int n;
    bool learned; /* a learned head's weights (Learned_Head), not the seed's */
    double settings[SET_COUNT];
    /* then: n tokens, n×d floats, n ints */
} Snapshot;

static void *snapshot_take(const Scene *s) {
    size_t tok = (size_t)s->n * ATTN_MAX_TOKEN_BYTES, xs = (size_t)s->n * s->d * sizeof(float);
    size_t org = (size_t)s->n * sizeof(int);
    Snapshot *snap = malloc(sizeof *snap + tok + xs + org);
    if (!snap) return NULL;
    snap->n = s->n;
    snap->learned = s->learned;
    for (int k = 0; k < SET_COUNT; k++) snap->settings[k] = setting_get(s, (Setting_Id)k);
    char *p = (char *)(snap + 1);
    memcpy(p, s->tokens, tok);
    memcpy(p + tok, s->X, xs);
    memcpy(p + tok + xs, s->origin, org);
    return snap;
}

static void snapshot_restore(const void *blob, Scene *s) {
    const Snapshot *snap = blob;
    s->n = snap->n;
    s->learned = snap->learned;
    for (int k = 0; k < SET_COUNT; k++) setting_set(s, (Setting_Id)k, snap->settings[k]);
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

static void changed(Model *m) {
    m->stale = true;
    m->moved = -1;
    m->version++;
}

bool model_init(Model *m, const Scene *scene, const Vocab *vocab) {
    memset(m, 0, sizeof *m);
    m->derived.learned = &m->learned;
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
    train_lab_free(&m->train);
    stack_lab_free(&m->stack);
    real_lab_free(&m->real);
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

/* Carry out a scene change: the snapshot for undo is taken before, and
 * kept only if the scene did change. */
static bool change(Model *m, const Action *a, char *err, size_t errsz) {
    bool wants_snapshot = m->gesture_depth == 0 || !m->gesture_recorded;
    void *snap = wants_snapshot ? snapshot_take(&m->scene) : NULL;
    bool was_stale = m->stale, did = false;
    bool ok = scene_apply(&m->scene, a, m->vocab, &did, err, errsz);
    if (!ok || !did) {
        free(snap);
        return ok;
    }
    if (wants_snapshot) {
        if (m->gesture_depth > 0) m->gesture_recorded = true;
        /* out of memory for the snapshot: the edit still happens, it just cannot be undone */
        if (snap) {
            push(m->undo, &m->undo_count, snap);
            clear(m->redo, &m->redo_count);
        }
    }
    /* a drag moves one token: only its row and column of S need new dot
     * products, unless something else changed since the last update */
    bool only_i = a->kind == ACTION_MOVE && (!was_stale || m->moved == a->i);
    changed(m);
    if (only_i) m->moved = a->i;
    return true;
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

static bool undo(Model *m) {
    return step(m, m->undo, &m->undo_count, m->redo, &m->redo_count);
}

static bool redo(Model *m) {
    return step(m, m->redo, &m->redo_count, m->undo, &m->undo_count);
}

static void gesture_begin(Model *m) {
    if (m->gesture_depth++ == 0) m->gesture_recorded = false;
}

static void gesture_end(Model *m) {
    if (m->gesture_depth > 0) m->gesture_depth--;
}

bool model_explore_check(const Model *m, char *why, size_t whysz) {
    const Real_Lab *l = &m->real;
    int n = l->shown_n;
    if (!l->model || l->open_layer < 0 || !l->head_done) {
        snprintf(why, whysz, "%s", _("no head of the model is open"));
        return false;
    }
    int dh = l->model->weights.model.head_dim;
    if (dh > LEARNED_MAX_W) {
        snprintf(why, whysz,
                 _("this model's heads are %d wide (d_h); the explorer takes heads up to %d wide"),
                 dh, LEARNED_MAX_W);
        return false;
    }
    if (n < 2 || n > ATTN_MAX_D) {
        snprintf(why, whysz, _("the explorer takes 2 to %d tokens; this text has %d"), ATTN_MAX_D,
                 n);
        return false;
    }
    return true;
}

bool model_explore_real(Model *m, char *err, size_t errsz) {
    const Real_Lab *l = &m->real;
    int n = l->shown_n;
    if (!model_explore_check(m, err, errsz)) return false;
    int dh = l->model->weights.model.head_dim, w = 3 * dh;
    /* M = [Q K V] (n × 3·d_h) = U·Λ^½ · Λ^−½·Uᵀ·M, with M·Mᵀ = U·Λ·Uᵀ */
    double *g = malloc(sizeof(double) * (size_t)(2 * n * n + n));
    if (!g) {
        snprintf(err, errsz, "out of memory");
        return false;
    }
    double *u = g + n * n, *vals = u + n * n;
    const float *part[3] = {l->Q, l->K, l->V};
#define M_AT(i, c) ((double)part[(c) / dh][(ptrdiff_t)(i)*dh + (c) % dh])
    for (int i = 0; i < n; i++)
        for (int j = 0; j < n; j++) {
            double s = 0;
            for (int c = 0; c < w; c++) s += M_AT(i, c) * M_AT(j, c);
            g[i * n + j] = s;
        }
    stats_sym_eigen(g, n, vals, u);
    Learned_Head *h = &m->learned;
    Scene *sc = &m->next;
    *sc = m->scene;
    /* X's largest entry 1 (the explorer's plane shows it whole), W the larger for it */
    double floor = 1e-12 * (vals[0] > 0 ? vals[0] : 1), big = 0;
    for (int k = 0; k < n; k++)
        for (int i = 0; i < n; i++)
            if (vals[k] > floor) big = fmax(big, fabs(u[i * n + k]) * sqrt(vals[k]));
    if (big == 0) big = 1;
    for (int k = 0; k < n; k++) {
        double root = vals[k] > floor ? sqrt(vals[k]) : 0;
        for (int i = 0; i < n; i++) sc->X[i * n + k] = (float)(u[i * n + k] * root / big);
        for (int c = 0; c < w; c++) { /* row k of Λ^−½·Uᵀ·M, times big */
            double s = 0;
            for (int i = 0; i < n; i++) s += u[i * n + k] * M_AT(i, c);
            float v = root > 0 ? (float)(s / root * big) : 0;
            float *dest = c < dh ? h->W_Q : c < 2 * dh ? h->W_K : h->W_V;
            dest[k * dh + c % dh] = v;
        }
    }
#undef M_AT
    free(g);
    memset(h->W_O, 0, sizeof h->W_O);
    h->d = n;
    h->d_k = h->d_v = dh;
    h->ready = true;
    h->generation++;
    h->layer = l->open_layer;
    h->x_kind = LEARNED_X_FACTORS;
    snprintf(h->what, sizeof h->what, "layer %d head %d of %.60s", l->open_layer, l->open_head,
             l->name);
    sc->n = n;
    sc->d = n;
    sc->d_k = sc->d_v = dh;
    sc->heads = 1;
    sc->scaled = true;
    sc->mask = MASK_CAUSAL;
    sc->pos = POS_NONE; /* GPT-2's positions are in what the head reads */
    sc->pos_offset = 0;
    sc->rope_base = 10000;
    sc->learned = true;
    for (int i = 0; i < n; i++) {
        real_model_token_label(l->model, l->shown_ids[i], sc->tokens[i], sizeof sc->tokens[i]);
        sc->origin[i] = i;
    }
    if (!model_apply(m, &(Action){.kind = ACTION_LOAD_SCENE, .scene = sc}, err, errsz))
        return false;
    m->stale = true;
    m->moved = -1;
    return true;
}

/* ---- the training labs' actions ------------------------------------------------------------- */

static bool lab_fail(char *err, size_t errsz, const char *what) {
    snprintf(err, errsz, "%s", what);
    return false;
}

/* Steps asked for at once, and waiting: the command line's limit each, and a
 * bound on the queue that a 32-bit long (the browser's) holds. */
#define LAB_STEPS_MAX  1000000
#define LAB_QUEUED_MAX 100000000L

static bool steps_fit(long queued, int n, char *err, size_t errsz) {
    if (n < 1 || n > LAB_STEPS_MAX) return lab_fail(err, errsz, "steps: 1 to 1000000 at a time");
    if (queued > LAB_QUEUED_MAX - n)
        return lab_fail(err, errsz, "steps: at most 100000000 waiting to run");
    return true;
}

/* The one-head lab: started with the defaults the first time it is touched. */
static bool one_head(Model *m, const Action *a, char *err, size_t errsz) {
    Train_Lab *l = &m->train;
    if (!l->ready && !train_lab_reset(l, &(Train_Desc){.seed = 1}, false))
        return lab_fail(err, errsz, _("Out of memory for the training lab"));
    Train_Desc desc = l->desc;
    bool compare = l->compare, again = a->kind == ACTION_LAB_RESET;
    double v = a->value;
    switch (a->kind) {
    case ACTION_LAB_PLAY:
        l->running = !l->running;
        return true;
    case ACTION_LAB_STEPS:
        if (!steps_fit(l->queued, a->n, err, errsz)) return false;
        l->queued += a->n; /* a slice a frame: train_lab_drain */
        return true;
    case ACTION_LAB_SET:
        switch ((Lab_Knob)a->c0) {
        case LAB_KNOB_TASK:
            if (v != TRAIN_MATCH && v != TRAIN_PREVIOUS)
                return lab_fail(err, errsz, "no such task");
            again = (Train_Task)v != desc.task;
            desc.task = (Train_Task)v;
            break;
        case LAB_KNOB_POS:
            if (!(v >= TRAIN_POS_NONE && v <= TRAIN_POS_ALIBI) || v != floor(v))
                return lab_fail(err, errsz, "no such positional scheme");
            again = (Train_Pos)v != l->trainer.pos;
            desc.positions = false; /* the scheme says it all */
            desc.pos = (Train_Pos)v;
            break;
        case LAB_KNOB_SCALED:
            again = (v == 0) != desc.unscaled;
            desc.unscaled = v == 0;
            break;
        case LAB_KNOB_DK:
            if (!(v >= 1 && v <= 256) || v != floor(v))
                return lab_fail(err, errsz, "d_k: a whole number from 1 to 256");
            again = (int)v != (desc.d_k ? desc.d_k : 16);
            desc.d_k = (int)v;
            break;
        case LAB_KNOB_LR:
            if (!(v > 0 && v <= 10))
                return lab_fail(err, errsz, "learning rate: above 0, at most 10");
            again = v != desc.lr;
            desc.lr = v;
            break;
        case LAB_KNOB_COMPARE:
            again = (v != 0) != compare;
            compare = v != 0;
            break;
        default:
            return lab_fail(err, errsz, "not a setting of the one-head lab");
        }
        break;
    case ACTION_LAB_RESET:
        break;
    default:
        return lab_fail(err, errsz, "not an action of the one-head lab");
    }
    /* a new setting starts training again: the curve is of one set-up */
    if (again && !train_lab_reset(l, &desc, compare))
        return lab_fail(err, errsz, _("Out of memory for training"));
    return true;
}

/* The layers lab: the same, and its heads. */
static bool layers(Model *m, const Action *a, char *err, size_t errsz) {
    Stack_Lab *l = &m->stack;
    if (!l->ready && !stack_lab_run(l, 0))
        return lab_fail(err, errsz, _("Out of memory for the layers lab"));
    const Stack_Desc *now = &l->stack.desc;
    int count[2] = {now->layers, now->heads};
    Train_Pos pos = now->pos;
    double v = a->value;
    switch (a->kind) {
    case ACTION_LAB_PLAY:
        l->running = !l->running;
        return true;
    case ACTION_LAB_FAST:
        l->fast = !l->fast;
        return true;
    case ACTION_LAB_STEPS:
        if (!steps_fit(l->queued, a->n, err, errsz)) return false;
        l->queued += a->n;
        return true;
    case ACTION_LAB_ZERO:
    case ACTION_LAB_EXPLORE:
        if (a->c0 < 0 || a->c0 >= now->layers || a->c1 < 0 || a->c1 >= now->heads) {
            snprintf(err, errsz, "the layers lab has no head %d of layer %d", a->c1, a->c0);
            return false;
        }
        if (a->kind == ACTION_LAB_EXPLORE) return model_explore_head(m, a->c0, a->c1, err, errsz);
        stack_lab_ablate(l, a->c0, a->c1);
        return true;
    case ACTION_LAB_SET:
        if (a->c0 == LAB_KNOB_LAYERS || a->c0 == LAB_KNOB_HEADS) {
            int most = a->c0 == LAB_KNOB_LAYERS ? STACK_MAX_LAYERS : STACK_MAX_HEADS;
            if (!(v >= 1 && v <= most) || v != floor(v)) {
                snprintf(err, errsz, "%s: a whole number from 1 to %d",
                         a->c0 == LAB_KNOB_LAYERS ? "layers" : "heads", most);
                return false;
            }
            count[a->c0 == LAB_KNOB_HEADS] = (int)v;
        } else if (a->c0 == LAB_KNOB_POS) {
            if (v != TRAIN_POS_NONE && v != TRAIN_POS_SIN && v != TRAIN_POS_LEARNED &&
                v != TRAIN_POS_ROPE)
                return lab_fail(err, errsz,
                                "the layers lab's positions: none, sin, learned or rope");
            pos = (Train_Pos)v;
        } else {
            return lab_fail(err, errsz, "not a setting of the layers lab");
        }
        if (count[0] == now->layers && count[1] == now->heads && pos == now->pos) return true;
        break;
    case ACTION_LAB_RESET:
        break;
    default:
        return lab_fail(err, errsz, "not an action of the layers lab");
    }
    Stack_Desc d = stack_lab_desc(count[0], count[1], pos, now->seed);
    l->queued = 0;
    l->owed = 0;
    if (!stack_lab_reset(l, &d)) return lab_fail(err, errsz, _("Out of memory for training"));
    return true;
}

static bool lab(Model *m, const Action *a, char *err, size_t errsz) {
    if (a->i != LAB_ONE_HEAD && a->i != LAB_LAYERS) return lab_fail(err, errsz, "no such lab");
    if (a->kind == ACTION_LAB_SHOW) {
        if (a->i == LAB_LAYERS && !m->stack.ready && !stack_lab_run(&m->stack, 0))
            return lab_fail(err, errsz, _("Out of memory for the layers lab"));
        m->layers = a->i == LAB_LAYERS;
        return true;
    }
    return a->i == LAB_LAYERS ? layers(m, a, err, errsz) : one_head(m, a, err, errsz);
}

/* ---- the Model view's real model ------------------------------------------------------------ */

/* The writing after the text: started (or started again) as the action says. */
static bool real_write(Real_Lab *l, const Action *a, char *err, size_t errsz) {
    Real_Gen *g = &l->gen;
    if (a->i < REAL_WRITE_STEP || a->i > REAL_WRITE_AGAIN)
        return lab_fail(err, errsz, "no such way to write");
    if (l->n == 0) return lab_fail(err, errsz, "the Model view has no text to write after");
    /* the command line's ranges: a writing drawn from nothing, or never cut, is a mistake */
    if (!(a->value >= 0 && a->value <= 100) || a->n < 0 || a->n > 1000000 ||
        !(a->x0 >= 0.000001f && a->x0 <= 1))
        return lab_fail(err, errsz,
                        "sampling: temperature 0 to 100, top-k 0 to 1000000, top-p "
                        "above 0 and at most 1");
    if (!g->model || a->i == REAL_WRITE_START || a->i == REAL_WRITE_AGAIN) {
        /* again: as many tokens as were written, under the new sampling */
        int again = a->i == REAL_WRITE_AGAIN && g->model ? g->wanted : 0;
        Net_Choice how = {a->value, a->n, a->x0};
        if (!real_gen_start(g, l->model, l->input, l->n, &how, a->seed, err, errsz)) return false;
        for (int k = 0; k < again; k++) real_gen_step(g);
    }
    if (a->i == REAL_WRITE_STEP) real_gen_step(g);
    if (a->i == REAL_WRITE_PLAY) real_gen_play(g, !g->playing);
    if (a->i == REAL_WRITE_RECOMPUTE) return real_gen_recompute(g, !g->recompute, err, errsz);
    return true;
}

static bool real(Model *m, const Action *a, char *err, size_t errsz) {
    Real_Lab *l = &m->real;
    if (!l->model) return lab_fail(err, errsz, "no model is open");
    const Net_Model *nm = &l->model->weights.model;
    switch (a->kind) {
    case ACTION_REAL_TEXT:
        if (!a->text) return lab_fail(err, errsz, "no text");
        return real_lab_set_text(l, a->text, strlen(a->text), err, errsz);
    case ACTION_REAL_OPEN:
        if ((a->c0 != -1 || a->c1 != -1) &&
            (a->c0 < 0 || a->c0 >= nm->layers || a->c1 < 0 || a->c1 >= nm->heads)) {
            snprintf(err, errsz, "the model has no head %d of layer %d", a->c1, a->c0);
            return false;
        }
        real_lab_open(l, a->c0, a->c1);
        return true;
    case ACTION_REAL_ORDER:
        if (a->i < 0 || a->i > 2) return lab_fail(err, errsz, "no such order");
        return real_lab_rearrange(l, a->i, (unsigned)a->seed) ||
               lab_fail(err, errsz, "out of memory for another order");
    case ACTION_REAL_MOVE:
        if (a->c0 < 0 || a->c0 >= l->n || a->c1 < 0 || a->c1 >= l->n) {
            snprintf(err, errsz, "the text has %d tokens: no slot %d or %d", l->n, a->c0, a->c1);
            return false;
        }
        return real_lab_move(l, a->c0, a->c1) ||
               lab_fail(err, errsz, "out of memory for another order");
    case ACTION_REAL_EXPLORE:
        return model_explore_real(m, err, errsz);
    case ACTION_REAL_TURN:
        real_lab_want_turn(l);
        return true;
    default:
        return real_write(l, a, err, errsz);
    }
}

bool model_apply(Model *m, const Action *a, char *err, size_t errsz) {
    err[0] = '\0';
    if (a->kind >= ACTION_LAB_SHOW && a->kind <= ACTION_LAB_EXPLORE) return lab(m, a, err, errsz);
    if (a->kind >= ACTION_REAL_TEXT && a->kind <= ACTION_REAL_WRITE) return real(m, a, err, errsz);
    switch (a->kind) {
    case ACTION_UNDO:
        if (undo(m)) return true;
        snprintf(err, errsz, "Nothing to undo");
        return false;
    case ACTION_REDO:
        if (redo(m)) return true;
        snprintf(err, errsz, "Nothing to redo");
        return false;
    case ACTION_GESTURE_BEGIN:
        gesture_begin(m);
        return true;
    case ACTION_GESTURE_END:
        gesture_end(m);
        return true;
    default:
        return change(m, a, err, errsz);
    }
}

bool model_apply_list(Model *m, const Action_List *l, char *err, size_t errsz) {
    for (int k = 0; k < l->count; k++) {
        Action a = action_list_get(l, k);
        if (!model_apply(m, &a, err, errsz)) return false;
    }
    return true;
}

bool model_explore_head(Model *m, int layer, int head, char *err, size_t errsz) {
    Stack_Lab *l = &m->stack;
    Stack *s = &l->stack;
    const Stack_Desc *d = &s->desc;
    if (!l->ready || layer < 0 || layer >= d->layers || head < 0 || head >= d->heads) {
        snprintf(err, errsz, "the layers lab has no head %d of layer %d", head, layer);
        return false;
    }
    int w = d->width, dh = s->d_h, n = d->context;
    /* the head's weights, and what it reads: the stream x_layer of the example
     * (with any zeroed heads zeroed) */
    Learned_Head *h = &m->learned;
    double *const *W = s->W[layer][head];
    for (long k = 0; k < (long)w * dh; k++) {
        h->W_Q[k] = (float)W[0][k];
        h->W_K[k] = (float)W[1][k];
        h->W_V[k] = (float)W[2][k];
        h->W_O[k] = (float)W[3][k];
    }
    h->d = w;
    h->d_k = h->d_v = dh;
    h->ready = true;
    h->generation++;
    h->layer = layer;
    h->x_kind = LEARNED_X_STREAM;
    snprintf(h->what, sizeof h->what, "layer %d head %d of the layers lab at step %ld", layer, head,
             s->steps);
    Scene *sc = &m->next;
    *sc = m->scene;
    sc->n = n;
    sc->d = w;
    sc->d_k = sc->d_v = dh;
    sc->heads = 1;
    sc->scaled = true;
    sc->mask = MASK_CAUSAL;
    sc->pos = d->pos == TRAIN_POS_ROPE ? POS_ROPE : POS_NONE; /* added positions are in x already */
    sc->pos_offset = 0;
    sc->rope_base = 10000;
    sc->learned = true;
    memcpy(s->ablated, l->ablated, sizeof s->ablated);
    const int *tok = stack_example(s);
    memset(s->ablated, 0, sizeof s->ablated);
    const double *x = stack_stream(s, layer);
    for (int i = 0; i < n; i++) {
        snprintf(sc->tokens[i], sizeof sc->tokens[i], "t%d", tok[i]);
        sc->origin[i] = i;
        for (int c = 0; c < w; c++) sc->X[i * w + c] = (float)x[i * w + c];
    }
    if (!model_apply(m, &(Action){.kind = ACTION_LOAD_SCENE, .scene = sc}, err, errsz))
        return false;
    m->stale = true; /* new weights, even where the scene is the same as before */
    m->moved = -1;
    return true;
}
