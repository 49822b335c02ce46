/* The labs' directives (training a head or layers of heads, its steps, a head
 * zeroed or opened in the explorer) and the Model view's (its text, its open
 * head, its order, its writing); each row of lesson_directive.h with its
 * reading and its doing side by side. */
#include "lesson_directive.h"

#include "../nn/train_stack.h"
#include "../model/limits.h"
#include "../model/real_gen.h"
#include "../model/settings.h"

#include <stdio.h>
#include <string.h>

/* ---- training ------------------------------------------------------------------------------ */

/* train induction [layers N] [heads N] [none|sin|learned|rope]: the layers lab (i = 2) */
static bool parse_induction(Lesson_Parse *p, int line, const Lesson_Directive *d, char **w,
                            int nw) {
    int64_t v;
    Lesson_Action *a = lesson_new_action(p, line);
    if (!a) return false;
    a->i = 2;
    a->n = 2; /* layers */
    a->y = 1; /* heads */
    a->x = (float)TRAIN_POS_LEARNED;
    for (int k = 2; k < nw; k++) {
        int scheme;
        if (setting_choice_parse(SET_POS, w[k], &scheme) && scheme != POS_ALIBI) {
            a->x = (float)scheme;
        } else if (!strcmp(w[k], "layers") || !strcmp(w[k], "heads")) {
            /* the value and its range, not the word before it */
            int most = w[k][0] == 'l' ? STACK_MAX_LAYERS : STACK_MAX_HEADS;
            if (k + 1 >= nw || !lesson_parse_long(w[k + 1], 1, most, &v))
                return lesson_fail(p, line, "train: %s takes a whole number from 1 to %d, not '%s'",
                                   w[k], most, k + 1 < nw ? w[k + 1] : ""),
                       false;
            if (w[k][0] == 'l')
                a->n = (int)v;
            else
                a->y = (float)v;
            k++;
        } else {
            return lesson_fail(p, line, "train: expected '%s', not '%s'", d->usage, w[k]), false;
        }
    }
    return true;
}

/* train match|previous [scheme] [compare] [dk N]: the one head (i = task) */
static bool parse_train(Lesson_Parse *p, int line, const Lesson_Directive *d, char **w, int nw,
                        const char *rest) {
    (void)rest;
    int64_t v;
    if (nw >= 2 && !strcmp(w[1], "induction")) return parse_induction(p, line, d, w, nw);
    if (nw < 2 || (strcmp(w[1], "match") && strcmp(w[1], "previous")))
        return lesson_fail(p, line, "train: expected '%s'", d->usage), false;
    Lesson_Action *a = lesson_new_action(p, line);
    if (!a) return false;
    a->i = !strcmp(w[1], "previous");
    for (int k = 2; k < nw; k++) {
        int scheme;
        if (setting_choice_parse(SET_POS, w[k], &scheme) && scheme != POS_NONE) {
            a->x = (float)scheme; /* the positional scheme it trains with */
        } else if (!strcmp(w[k], "compare")) {
            a->y = 1;
        } else if (!strcmp(w[k], "dk") && k + 1 < nw && lesson_parse_long(w[k + 1], 1, 256, &v)) {
            a->n = (int)v;
            k++;
        } else {
            return lesson_fail(p, line, "train: expected '%s', not '%s'", d->usage, w[k]), false;
        }
    }
    return true;
}

static bool apply_train(const Lesson *l, const Lesson_Action *a, Lesson_Env *env, char *err,
                        size_t errsz) {
    Model *m = env->m;
    if (a->i == 2) { /* induction: the layers lab */
        Stack_Desc d = stack_lab_desc(a->n, (int)a->y, (Train_Pos)(int)a->x, 1);
        if (!stack_lab_reset(&m->stack, &d)) {
            snprintf(err, errsz, "%s:%d: train: out of memory", l->path, a->line);
            return false;
        }
        m->layers = true;
        m->stack.running = false;
        return true;
    }
    m->layers = false;
    if (!train_lab_reset(
            &m->train,
            &(Train_Desc){
                .task = (Train_Task)a->i, .pos = (Train_Pos)(int)a->x, .d_k = a->n, .seed = 1},
            a->y != 0)) {
        snprintf(err, errsz, "%s:%d: train: out of memory", l->path, a->line);
        return false;
    }
    m->train.running = false; /* steps come from 'steps N' or the student */
    return true;
}

static void touches_train(const Lesson_Action *a, const char **two) {
    two[0] = a->kind == ACT_TRAIN && a->i == 2 ? "layers_controls" : "train_controls";
}

static bool parse_steps(Lesson_Parse *p, int line, const Lesson_Directive *d, char **w, int nw,
                        const char *rest) {
    (void)rest;
    int64_t v;
    if (!lesson_words(p, line, d, nw, 2)) return false;
    if (!lesson_parse_long(w[1], 1, 100000, &v))
        return lesson_fail(p, line, "steps: '%s' is not a whole number from 1 to 100000", w[1]),
               false;
    Lesson_Action *a = lesson_new_action(p, line);
    if (!a) return false;
    a->i = (int)v;
    return true;
}

/* The checker's steps: at once, within its budget (past it, what fits, and where). */
static long budgeted(const Lesson_Action *a, Lesson_Env *env, long cost) {
    long steps = a->i;
    if (steps * cost > env->train_budget) {
        steps = env->train_budget / cost;
        if (!env->capped_line) env->capped_line = a->line;
    }
    env->train_budget -= steps * cost;
    return steps;
}

static bool apply_steps(const Lesson *l, const Lesson_Action *a, Lesson_Env *env, char *err,
                        size_t errsz) {
    Model *m = env->m;
    char why[200];
    if (!env->train_now) { /* the window: a slice a frame, never a frozen one */
        Action steps = {
            .kind = ACTION_LAB_STEPS, .i = m->layers ? LAB_LAYERS : LAB_ONE_HEAD, .n = a->i};
        if (model_apply(m, &steps, why, sizeof why)) return true;
        snprintf(err, errsz, "%s:%d: steps: %s", l->path, a->line, why);
        return false;
    }
    bool ok; /* the checker: at once, within its budget */
    if (m->layers)
        ok = stack_lab_run(&m->stack, budgeted(a, env, stack_lab_step_cost(&m->stack)));
    else
        ok = train_lab_run(&m->train, budgeted(a, env, train_lab_step_cost(&m->train)));
    if (!ok) snprintf(err, errsz, "%s:%d: steps: out of memory", l->path, a->line);
    return ok;
}

/* ---- the layers lab's heads ---------------------------------------------------------------- */

/* zero and explore: LAYER HEAD */
static bool parse_head(Lesson_Parse *p, int line, const Lesson_Directive *d, char **w, int nw,
                       const char *rest) {
    (void)rest;
    int64_t v, head;
    if (nw != 3 || !lesson_parse_long(w[1], 0, STACK_MAX_LAYERS - 1, &v) ||
        !lesson_parse_long(w[2], 0, STACK_MAX_HEADS - 1, &head))
        return lesson_fail(p, line, "%s: expected '%s' (layer 0–3, head 0–3)", d->word, d->usage),
               false;
    Lesson_Action *a = lesson_new_action(p, line);
    if (!a) return false;
    a->i = (int)v;
    a->n = (int)head;
    return true;
}

/* zero and explore: the layers lab's actions */
static bool apply_head(const Lesson *l, const Lesson_Action *a, Lesson_Env *env, char *err,
                       size_t errsz) {
    bool zero = a->kind == ACT_ZERO;
    Action act = {.kind = zero ? ACTION_LAB_ZERO : ACTION_LAB_EXPLORE,
                  .i = LAB_LAYERS,
                  .c0 = a->i,
                  .c1 = a->n};
    char why[300];
    if (!env->m->stack.ready) {
        snprintf(why, sizeof why, "the layers lab has no head %d of layer %d", a->n, a->i);
    } else if (model_apply(env->m, &act, why, sizeof why)) {
        if (!zero) env->view = VIEW_EXPLORER;
        return true;
    }
    snprintf(err, errsz, "%s:%d: %s: %s", l->path, a->line, zero ? "zero" : "explore", why);
    return false;
}

static void touches_heads(const Lesson_Action *a, const char **two) {
    (void)a;
    two[0] = "layers_heads";
}

/* ---- the Model view -------------------------------------------------------------------------- */

static bool parse_model_text(Lesson_Parse *p, int line, const Lesson_Directive *d, char **w, int nw,
                             const char *rest) {
    (void)w;
    if (nw < 2) return lesson_fail(p, line, "model-text: expected '%s'", d->usage), false;
    Lesson_Action *a = lesson_new_action(p, line);
    if (!a) return false;
    if (strlen(rest) >= sizeof a->text)
        return lesson_fail(p, line, "model-text: at most %d bytes", (int)sizeof a->text - 1), false;
    snprintf(a->text, sizeof a->text, "%s", rest);
    return true;
}

static bool parse_model_head(Lesson_Parse *p, int line, const Lesson_Directive *d, char **w, int nw,
                             const char *rest) {
    (void)rest;
    static const char *const kinds[] = {"prev", "first", "induction", "turn"}; /* Real_Head_Kind */
    int64_t v, head;
    Lesson_Action *a = lesson_new_action(p, line);
    if (!a) return false;
    a->setting = -2;
    if (nw == 2 && !strcmp(w[1], "none")) a->setting = -1;
    for (int q = 0; nw == 2 && q < 4; q++)
        if (!strcmp(w[1], kinds[q])) a->setting = 1 + q;
    if (nw == 3 && lesson_parse_long(w[1], 0, MODEL_MAX_LAYERS - 1, &v) &&
        lesson_parse_long(w[2], 0, MODEL_MAX_HEADS - 1, &head)) {
        a->setting = 0;
        a->i = (int)v;
        a->n = (int)head;
    }
    if (a->setting == -2) return lesson_fail(p, line, "model-head: expected '%s'", d->usage), false;
    return true;
}

static bool parse_model_order(Lesson_Parse *p, int line, const Lesson_Directive *d, char **w,
                              int nw, const char *rest) {
    (void)rest;
    Lesson_Action *a;
    if (!lesson_words(p, line, d, nw, 2) || !(a = lesson_new_action(p, line))) return false;
    a->i = !strcmp(w[1], "reverse") ? 0 : !strcmp(w[1], "shuffle") ? 1 : 2;
    if (a->i == 2 && strcmp(w[1], "original"))
        return lesson_fail(p, line, "model-order: expected '%s'", d->usage), false;
    return true;
}

static bool parse_model_write(Lesson_Parse *p, int line, const Lesson_Directive *d, char **w,
                              int nw, const char *rest) {
    (void)rest;
    int64_t v;
    if (!lesson_words(p, line, d, nw, 2)) return false;
    if (!lesson_parse_long(w[1], 1, REAL_GEN_MAX, &v))
        return lesson_fail(p, line, "model-write: '%s' is not a whole number from 1 to %d", w[1],
                           REAL_GEN_MAX),
               false;
    Lesson_Action *a = lesson_new_action(p, line);
    if (!a) return false;
    a->i = (int)v;
    return true;
}

/* The Model view's directives, as its actions; with no model they wait (the view says how
 * to get one). The checker (train_now) runs the pass to its end; the window runs it a slice
 * a frame, and a head asked for by kind opens once the pass is shown. */
static bool model_act(Model *m, const Lesson_Action *a, bool now, char *why, size_t whysz) {
    Real_Lab *r = &m->real;
    if (!r->model) { /* the text waits for a model: attaching one reads it */
        if (a->kind == ACT_MODEL_TEXT) snprintf(r->text, sizeof r->text, "%s", a->text);
        return true;
    }
    Action act = {.kind = ACTION_REAL_ORDER, .i = a->i, .seed = 1};
    int times = 1;
    switch (a->kind) {
    case ACT_MODEL_TEXT:
        act = (Action){.kind = ACTION_REAL_TEXT, .text = a->text};
        break;
    case ACT_MODEL_HEAD:
        if (a->setting > 0) { /* by kind: the view's own search, once the pass is shown */
            real_lab_find(r, (Real_Head_Kind)(a->setting - 1));
            times = 0;
        } else { /* a head by number, or none */
            act = (Action){.kind = ACTION_REAL_OPEN,
                           .c0 = a->setting < 0 ? -1 : a->i,
                           .c1 = a->setting < 0 ? -1 : a->n};
        }
        break;
    case ACT_MODEL_WRITE: /* greedily, as the window's panel starts */
        act = (Action){.kind = ACTION_REAL_WRITE, .i = REAL_WRITE_STEP, .x0 = 1};
        times = a->i;
        break;
    default:
        break;
    }
    char got[300];
    for (int k = 0; k < times; k++)
        if (!model_apply(m, &act, got, sizeof got)) {
            snprintf(why, whysz, "%s: %s", lesson_directive_of(a->kind)->word, got);
            return false;
        }
    if (now) real_lab_settle(r);
    return true;
}

static bool apply_model(const Lesson *l, const Lesson_Action *a, Lesson_Env *env, char *err,
                        size_t errsz) {
    char why[400];
    if (model_act(env->m, a, env->train_now, why, sizeof why)) return true;
    snprintf(err, errsz, "%s:%d: %s", l->path, a->line, why);
    return false;
}

/* ---- the rows ------------------------------------------------------------------------------ */

const Lesson_Directive lesson_lab_directives[] = {
    {"train",
     ACT_TRAIN,
     "train match|previous [sin|learned|rope|alibi] [compare] [dk N] · train induction [layers N] "
     "[heads N] [none|sin|learned|rope]",
     parse_train,
     apply_train,
     touches_train,
     {0}},
    {"steps", ACT_STEPS, "steps N", parse_steps, apply_steps, touches_train, {0}},
    {"zero", ACT_ZERO, "zero LAYER HEAD", parse_head, apply_head, touches_heads, {0}},
    {"explore", ACT_EXPLORE, "explore LAYER HEAD", parse_head, apply_head, touches_heads, {0}},
    {"model-text", ACT_MODEL_TEXT, "model-text TEXT", parse_model_text, apply_model, NULL, {0}},
    {"model-head",
     ACT_MODEL_HEAD,
     "model-head LAYER HEAD|prev|first|induction|turn|none",
     parse_model_head,
     apply_model,
     NULL,
     {0}},
    {"model-order",
     ACT_MODEL_ORDER,
     "model-order reverse|shuffle|original",
     parse_model_order,
     apply_model,
     NULL,
     {0}},
    {"model-write", ACT_MODEL_WRITE, "model-write N", parse_model_write, apply_model, NULL, {0}},
};
const int lesson_lab_directive_count =
    (int)(sizeof lesson_lab_directives / sizeof *lesson_lab_directives);
