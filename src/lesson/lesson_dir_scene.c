/* The explorer's directives: the scene, its sentence and settings, the order
 * of its tokens, a point moved, a panel pointed at or hidden; each row of
 * lesson_directive.h with its reading and its doing side by side. */
#define _POSIX_C_SOURCE 200809L
#include "lesson_directive.h"
#include "lesson_keywords.h"

#include "../core/perm.h"
#include "../model/hide.h"
#include "../model/limits.h"
#include "../model/scene_file.h"
#include "../model/settings.h"

#include <math.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

/* ---- a scene file, a sentence ---------------------------------------------------------- */

static bool parse_scene(Lesson_Parse *p, int line, const Lesson_Directive *d, char **w, int nw,
                        const char *rest) {
    (void)rest;
    Lesson_Action *a;
    if (!lesson_words(p, line, d, nw, 2) || !(a = lesson_new_action(p, line))) return false;
    if (strlen(w[1]) >= sizeof a->text || strchr(w[1], '/'))
        return lesson_fail(p, line, "scene: '%s' must be a file name in assets/scenes", w[1]),
               false;
    snprintf(a->text, sizeof a->text, "%s", w[1]);
    return true;
}

static bool apply_scene(const Lesson *l, const Lesson_Action *a, Lesson_Env *env, char *err,
                        size_t errsz) {
    Model *m = env->m;
    char path[1200], why[400];
    size_t dl = strlen(env->data_dir);
    snprintf(path, sizeof path, "%.*s/assets/scenes/%s",
             (int)(dl && env->data_dir[dl - 1] == '/' ? dl - 1 : dl), env->data_dir, a->text);
    /* a look, not an open: opening a FIFO there would wait for a writer */
    if (access(path, F_OK) != 0) {
        snprintf(err, errsz, "%s:%d: scene: no file '%s' in assets/scenes", l->path, a->line,
                 a->text);
        return false;
    }
    Scene *next = &m->next; /* the model's scratch scene */
    if (!scene_load(next, path, m->vocab, why, sizeof why)) {
        snprintf(err, errsz, "%s:%d: scene: %s", l->path, a->line, why);
        return false;
    }
    env->selected = 0;
    return lesson_act(m, (Action){.kind = ACTION_LOAD_SCENE, .scene = next}, l, a, "scene", err,
                      errsz);
}

static bool parse_tokens(Lesson_Parse *p, int line, const Lesson_Directive *d, char **w, int nw,
                         const char *rest) {
    (void)w;
    if (nw < 2) return lesson_fail(p, line, "tokens: expected '%s'", d->usage), false;
    Lesson_Action *a = lesson_new_action(p, line);
    if (!a) return false;
    if (strlen(rest) >= sizeof a->text)
        return lesson_fail(p, line, "tokens: at most %d characters", (int)sizeof a->text - 1),
               false;
    snprintf(a->text, sizeof a->text, "%s", rest);
    return true;
}

static bool apply_tokens(const Lesson *l, const Lesson_Action *a, Lesson_Env *env, char *err,
                         size_t errsz) {
    env->selected = 0;
    return lesson_act(env->m, (Action){.kind = ACTION_SENTENCE, .text = a->text}, l, a, "tokens",
                      err, errsz);
}

static void touches_tokens(const Lesson_Action *a, const char **two) {
    (void)a;
    two[0] = "edit";
}

/* ---- numbers and switches of the settings table ----------------------------------------- */

/* dk, dv, d and seed: a whole number in the setting's range */
static bool parse_number(Lesson_Parse *p, int line, const Lesson_Directive *d, char **w, int nw,
                         const char *rest) {
    (void)rest;
    int64_t v;
    if (!lesson_words(p, line, d, nw, 2)) return false;
    const Setting *st = setting_by_lesson(d->word); /* the range, from the settings table */
    int64_t lo = (int64_t)st->min, hi = (int64_t)st->max;
    if (!lesson_parse_long(w[1], lo, hi, &v))
        return lesson_fail(p, line, "%s: '%s' is not a whole number from %lld to %lld", d->word,
                           w[1], (long long)lo, (long long)hi),
               false;
    Lesson_Action *a = lesson_new_action(p, line);
    if (!a) return false;
    if (d->kind == ACT_SEED)
        a->seed = (uint32_t)v;
    else
        a->i = (int)v;
    return true;
}

static bool apply_number(const Lesson *l, const Lesson_Action *a, Lesson_Env *env, char *err,
                         size_t errsz) {
    const Setting *st = setting_by_lesson(lesson_directive_of(a->kind)->word);
    double value = a->kind == ACT_SEED ? (double)a->seed : a->i;
    return lesson_act(env->m, action_set(st->id, value), l, a, st->lesson, err, errsz);
}

static void touches_number(const Lesson_Action *a, const char **two) {
    two[0] = a->kind == ACT_SEED ? "reroll" : lesson_directive_of(a->kind)->word; /* its slider */
}

static bool parse_scale(Lesson_Parse *p, int line, const Lesson_Directive *d, char **w, int nw,
                        const char *rest) {
    (void)rest;
    if (!lesson_words(p, line, d, nw, 2)) return false;
    if (strcmp(w[1], "on") && strcmp(w[1], "off"))
        return lesson_fail(p, line, "scale: expected 'on' or 'off', not '%s'", w[1]), false;
    Lesson_Action *a = lesson_new_action(p, line);
    if (!a) return false;
    a->i = !strcmp(w[1], "on");
    return true;
}

static bool apply_scale(const Lesson *l, const Lesson_Action *a, Lesson_Env *env, char *err,
                        size_t errsz) {
    return lesson_act(env->m, action_set(SET_SCALED, a->i != 0), l, a, "scale", err, errsz);
}

static void touches_scale(const Lesson_Action *a, const char **two) {
    (void)a;
    two[0] = "scale";
}

static bool parse_pos(Lesson_Parse *p, int line, const Lesson_Directive *d, char **w, int nw,
                      const char *rest) {
    (void)d, (void)rest;
    if (nw < 2 || nw > 3)
        return lesson_fail(p, line,
                           "pos: expected 'pos none|rope|alibi' or 'pos sin|learned [STRENGTH]'"),
               false;
    Pos_Mode mode;
    if (!pos_mode_parse(w[1], &mode))
        return lesson_fail(p, line,
                           "pos: expected one of none, sin, learned, rope, alibi, not '%s'", w[1]),
               false;
    if (nw == 3 && !pos_mode_added(mode))
        return lesson_fail(p, line, "pos: only sin and learned take a strength"), false;
    double f = 1.0;
    const Setting *strength = setting(SET_POS_STRENGTH);
    if (nw == 3 && (!lesson_parse_double(w[2], &f) || f < strength->min || f > strength->max))
        return lesson_fail(p, line, "pos: strength '%s' is not a number from %g to %g", w[2],
                           strength->min, strength->max),
               false;
    Lesson_Action *a = lesson_new_action(p, line);
    if (!a) return false;
    a->i = mode;
    a->x = (float)f;
    return true;
}

static bool apply_pos(const Lesson *l, const Lesson_Action *a, Lesson_Env *env, char *err,
                      size_t errsz) {
    bool ok = lesson_act(env->m, action_set(SET_POS, a->i), l, a, "pos", err, errsz);
    if (ok && pos_mode_added((Pos_Mode)a->i))
        ok = lesson_act(env->m, action_set(SET_POS_STRENGTH, a->x), l, a, "pos", err, errsz);
    return ok;
}

static void touches_pos(const Lesson_Action *a, const char **two) {
    two[0] = "pos";
    two[1] = pos_mode_added((Pos_Mode)a->i) ? "pos_strength" : NULL;
}

/* heads, mask, offset and rope_base: a setting's words and range, all from the settings
 * table */
static bool parse_set(Lesson_Parse *p, int line, const Lesson_Directive *d, char **w, int nw,
                      const char *rest) {
    (void)rest;
    if (!lesson_words(p, line, d, nw, 2)) return false;
    const Setting *st = setting_by_lesson(d->word);
    double value;
    char why[200];
    if (!setting_parse(st, w[1], &value, why, sizeof why))
        return lesson_fail(p, line, "%s: %s", d->word, why), false;
    Lesson_Action *a = lesson_new_action(p, line);
    if (!a) return false;
    a->setting = st->id;
    a->value = value;
    return true;
}

static bool apply_set(const Lesson *l, const Lesson_Action *a, Lesson_Env *env, char *err,
                      size_t errsz) {
    return lesson_act(env->m, action_set((Setting_Id)a->setting, a->value), l, a,
                      setting((Setting_Id)a->setting)->lesson, err, errsz);
}

static void touches_set(const Lesson_Action *a, const char **two) {
    two[0] = a->setting == SET_MASK         ? "mask"
             : a->setting == SET_HEADS      ? "heads"
             : a->setting == SET_POS_OFFSET ? "pos_offset"
             : a->setting == SET_ROPE_BASE  ? "rope_base"
                                            : NULL;
}

/* ---- the view, the order of the tokens ---------------------------------------------------- */

static bool parse_view(Lesson_Parse *p, int line, const Lesson_Directive *d, char **w, int nw,
                       const char *rest) {
    (void)rest;
    View vi;
    if (!lesson_words(p, line, d, nw, 2)) return false;
    if (!view_parse(w[1], &vi))
        return lesson_fail(p, line, "view: '%s' is not one of %s", w[1], view_names_list()), false;
    Lesson_Action *a = lesson_new_action(p, line);
    if (!a) return false;
    a->i = vi;
    return true;
}

static bool apply_view(const Lesson *l, const Lesson_Action *a, Lesson_Env *env, char *err,
                       size_t errsz) {
    (void)l, (void)err, (void)errsz;
    env->view = a->i;
    return true;
}

static bool parse_order(Lesson_Parse *p, int line, const Lesson_Directive *d, char **w, int nw,
                        const char *rest) {
    (void)d, (void)rest;
    int64_t v;
    if (nw < 2 || nw - 1 > LESSON_MAX_ORDER)
        return lesson_fail(p, line, "order: expected 1 to %d token positions", LESSON_MAX_ORDER),
               false;
    Lesson_Action *a = lesson_new_action(p, line);
    if (!a) return false;
    a->n = nw - 1;
    for (int t = 0; t < a->n; t++) {
        if (!lesson_parse_long(w[t + 1], 0, LESSON_MAX_ORDER - 1, &v))
            return lesson_fail(p, line, "order: '%s' is not a token position", w[t + 1]), false;
        a->order[t] = (int)v;
    }
    char why[120];
    if (!perm_validate(a->order, a->n, why, sizeof why))
        return lesson_fail(p, line, "order: not a permutation: %s", why), false;
    return true;
}

static bool apply_order(const Lesson *l, const Lesson_Action *a, Lesson_Env *env, char *err,
                        size_t errsz) {
    const Scene *s = &env->m->scene;
    if (a->n != s->n) {
        snprintf(err, errsz, "%s:%d: order: %d positions but the scene has %d tokens", l->path,
                 a->line, a->n, s->n);
        return false;
    }
    /* order lists original positions; the permutation from the current order is: new slot
     * i takes the token whose origin is order[i] */
    int where[ATTN_MAX_TOKENS], perm[ATTN_MAX_TOKENS];
    for (int i = 0; i < s->n; i++) where[s->origin[i]] = i;
    for (int i = 0; i < s->n; i++) perm[i] = where[a->order[i]];
    return lesson_act(env->m, (Action){.kind = ACTION_PERMUTE, .n = s->n, .perm = perm}, l, a,
                      "order", err, errsz);
}

/* reverse, shuffle and restore: the word alone */
static bool parse_bare(Lesson_Parse *p, int line, const Lesson_Directive *d, char **w, int nw,
                       const char *rest) {
    (void)w, (void)rest;
    return lesson_words(p, line, d, nw, 1) && lesson_new_action(p, line);
}

static bool apply_reorder(const Lesson *l, const Lesson_Action *a, Lesson_Env *env, char *err,
                          size_t errsz) {
    const Scene *s = &env->m->scene;
    switch (a->kind) {
    case ACT_SHUFFLE:
        return lesson_act(env->m, (Action){.kind = ACTION_SHUFFLE, .seed = s->seed + 17u}, l, a,
                          "shuffle", err, errsz);
    case ACT_ROTATE:
        return lesson_act(env->m, (Action){.kind = ACTION_ROTATE, .i = a->i}, l, a, "rotate", err,
                          errsz);
    case ACT_RESTORE:
        return lesson_act(env->m, action_of(ACTION_RESTORE_ORDER), l, a, "restore", err, errsz);
    default:
        return lesson_act(env->m, action_of(ACTION_REVERSE), l, a, "reverse", err, errsz);
    }
}

static bool parse_rotate(Lesson_Parse *p, int line, const Lesson_Directive *d, char **w, int nw,
                         const char *rest) {
    (void)rest;
    int64_t v = 1;
    if (nw > 2) return lesson_fail(p, line, "rotate: expected '%s'", d->usage), false;
    if (nw == 2 && !lesson_parse_long(w[1], -LESSON_MAX_ORDER, LESSON_MAX_ORDER, &v))
        return lesson_fail(p, line, "rotate: '%s' is not a whole number", w[1]), false;
    Lesson_Action *a = lesson_new_action(p, line);
    if (!a) return false;
    a->i = (int)v;
    return true;
}

/* ---- a token selected or moved ------------------------------------------------------------ */

static bool parse_select(Lesson_Parse *p, int line, const Lesson_Directive *d, char **w, int nw,
                         const char *rest) {
    (void)rest;
    if (!lesson_words(p, line, d, nw, 2)) return false;
    if (!lesson_token_word_ok(w[1]))
        return lesson_fail(p, line, "select: bad token '%s'", w[1]), false;
    Lesson_Action *a = lesson_new_action(p, line);
    if (!a) return false;
    snprintf(a->text, sizeof a->text, "%s", w[1]);
    return true;
}

static bool parse_move(Lesson_Parse *p, int line, const Lesson_Directive *d, char **w, int nw,
                       const char *rest) {
    (void)rest;
    double x, y;
    if (!lesson_words(p, line, d, nw, 4)) return false;
    if (!lesson_parse_double(w[2], &x) || !lesson_parse_double(w[3], &y) ||
        fabs(x) > ATTN_MAX_ABS_X || fabs(y) > ATTN_MAX_ABS_X)
        return lesson_fail(p, line, "move: '%s %s' are not two numbers within ±%g", w[2], w[3],
                           ATTN_MAX_ABS_X),
               false;
    if (!lesson_token_word_ok(w[1]))
        return lesson_fail(p, line, "move: bad token '%s'", w[1]), false;
    Lesson_Action *a = lesson_new_action(p, line);
    if (!a) return false;
    snprintf(a->text, sizeof a->text, "%s", w[1]);
    a->x = (float)x;
    a->y = (float)y;
    return true;
}

/* select and move: the token named */
static bool apply_token(const Lesson *l, const Lesson_Action *a, Lesson_Env *env, char *err,
                        size_t errsz) {
    const Scene *s = &env->m->scene;
    int i = lesson_find_token(s, a->text);
    if (i < 0) {
        snprintf(err, errsz, "%s:%d: %s: no token '%s' in the scene at this step", l->path, a->line,
                 a->kind == ACT_SELECT ? "select" : "move", a->text);
        return false;
    }
    if (a->kind == ACT_SELECT) {
        env->selected = i;
        return true;
    }
    return lesson_act(env->m, action_move(i, 0, a->x, s->d > 1 ? 1 : 0, s->d > 1 ? a->y : a->x), l,
                      a, "move", err, errsz);
}

static void touches_move(const Lesson_Action *a, const char **two) {
    (void)a;
    two[0] = "plane";
}

/* ---- what the step shows ------------------------------------------------------------------ */

static bool parse_highlight(Lesson_Parse *p, int line, const Lesson_Directive *d, char **w, int nw,
                            const char *rest) {
    (void)rest;
    if (!lesson_words(p, line, d, nw, 2)) return false;
    if (!lesson_panel_known(w[1]))
        return lesson_fail(p, line,
                           "highlight: unknown panel '%s' (plane, controls, S, A, Q, K, V, "
                           "query, …)",
                           w[1]),
               false;
    Lesson_Action *a = lesson_new_action(p, line);
    if (!a) return false;
    snprintf(a->text, sizeof a->text, "%s", w[1]);
    return true;
}

static bool apply_highlight(const Lesson *l, const Lesson_Action *a, Lesson_Env *env, char *err,
                            size_t errsz) {
    (void)l, (void)err, (void)errsz;
    /* a known panel's name (lesson_panel_known), shorter than the field */
    snprintf(env->highlight, sizeof env->highlight, "%.*s", (int)sizeof env->highlight - 1,
             strcmp(a->text, "none") ? a->text : "");
    return true;
}

static bool parse_hide(Lesson_Parse *p, int line, const Lesson_Directive *d, char **w, int nw,
                       const char *rest) {
    (void)rest;
    if (nw < 2) return lesson_fail(p, line, "hide: expected '%s'", d->usage), false;
    Lesson_Action *a = lesson_new_action(p, line);
    if (!a) return false;
    size_t used = 0;
    for (int k = 1; k < nw; k++) {
        if (!hide_name_known(w[k]))
            return lesson_fail(p, line,
                               "hide: '%s' is not a panel or control (lessons/README.md lists "
                               "them)",
                               w[k]),
                   false;
        if (used + strlen(w[k]) + 2 > sizeof a->text)
            return lesson_fail(p, line, "hide: too many panels"), false;
        used += (size_t)snprintf(a->text + used, sizeof a->text - used, " %s", w[k]);
    }
    return true;
}

static bool apply_hide(const Lesson *l, const Lesson_Action *a, Lesson_Env *env, char *err,
                       size_t errsz) {
    (void)l, (void)err, (void)errsz;
    snprintf(env->hidden, sizeof env->hidden, "%s", a->text);
    return true;
}

static bool parse_axis(Lesson_Parse *p, int line, const Lesson_Directive *d, char **w, int nw,
                       const char *rest) {
    (void)rest;
    if (!lesson_words(p, line, d, nw, 2)) return false;
    if (strcmp(w[1], "fixed") && strcmp(w[1], "auto"))
        return lesson_fail(p, line, "axis: expected 'fixed' or 'auto', not '%s'", w[1]), false;
    Lesson_Action *a = lesson_new_action(p, line);
    if (!a) return false;
    a->i = !strcmp(w[1], "fixed");
    return true;
}

static bool apply_axis(const Lesson *l, const Lesson_Action *a, Lesson_Env *env, char *err,
                       size_t errsz) {
    (void)l, (void)err, (void)errsz;
    env->fixed_axis = a->i != 0;
    return true;
}

/* ---- the rows ------------------------------------------------------------------------------ */

#define CONTROLS                                                                                   \
    { .controls = true }
const Lesson_Directive lesson_scene_directives[] = {
    {"scene", ACT_SCENE, "scene FILE", parse_scene, apply_scene, NULL, {0}},
    {"tokens", ACT_TOKENS, "tokens WORD…", parse_tokens, apply_tokens, touches_tokens, {0}},
    {"dk", ACT_DK, "dk N", parse_number, apply_number, touches_number, CONTROLS},
    {"dv", ACT_DV, "dv N", parse_number, apply_number, touches_number, CONTROLS},
    {"d", ACT_D, "d N", parse_number, apply_number, touches_number, CONTROLS},
    {"seed", ACT_SEED, "seed N", parse_number, apply_number, touches_number, CONTROLS},
    {"scale", ACT_SCALE, "scale on|off", parse_scale, apply_scale, touches_scale, CONTROLS},
    {"pos", ACT_POS, "pos none|sin [STRENGTH]", parse_pos, apply_pos, touches_pos, CONTROLS},
    {"view", ACT_VIEW, "view explorer|scaling|permutation", parse_view, apply_view, NULL, {0}},
    {"order", ACT_ORDER, "order I0 I1 …", parse_order, apply_order, NULL, {0}},
    {"reverse", ACT_REVERSE, "reverse", parse_bare, apply_reorder, NULL, {0}},
    {"shuffle", ACT_SHUFFLE, "shuffle", parse_bare, apply_reorder, NULL, {0}},
    {"rotate", ACT_ROTATE, "rotate [K]", parse_rotate, apply_reorder, NULL, {0}},
    {"restore", ACT_RESTORE, "restore", parse_bare, apply_reorder, NULL, {0}},
    {"select", ACT_SELECT, "select TOKEN", parse_select, apply_token, NULL, {0}},
    {"move", ACT_MOVE, "move TOKEN X Y", parse_move, apply_token, touches_move, {.plane = true}},
    {"highlight", ACT_HIGHLIGHT, "highlight PANEL", parse_highlight, apply_highlight, NULL, {0}},
    {"hide", ACT_HIDE, "hide NAME …", parse_hide, apply_hide, NULL, {0}},
    {"heads", ACT_SET, "heads N", parse_set, apply_set, touches_set, CONTROLS},
    {"mask", ACT_SET, "mask none|causal", parse_set, apply_set, touches_set, CONTROLS},
    {"offset", ACT_SET, "offset N", parse_set, apply_set, touches_set, CONTROLS},
    {"rope_base", ACT_SET, "rope_base F", parse_set, apply_set, touches_set, CONTROLS},
    {"axis", ACT_AXIS, "axis fixed|auto", parse_axis, apply_axis, NULL, {0}},
};
const int lesson_scene_directive_count =
    (int)(sizeof lesson_scene_directives / sizeof *lesson_scene_directives);
