/* Playing a lesson's actions on the model; see lesson_play.h. */
#define _POSIX_C_SOURCE 200809L
#include "lesson_play.h"

#include "../core/text.h"
#include "../model/scene_file.h"

#include <ctype.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

/* ---- acting on the model ------------------------------------------------------ */

/* A token reference: "#3" is position 3; a word is its first occurrence
 * (ignoring ASCII case). -1 if there is no such token. */
int lesson_find_token(const Scene *s, const char *ref) {
    if (ref[0] == '#') {
        int64_t v;
        if (text_parse_i64(ref + 1, 0, s->n - 1, &v) != TEXT_NUM_OK) return -1;
        return (int)v;
    }
    for (int i = 0; i < s->n; i++) {
        const char *a = s->tokens[i], *b = ref;
        while (*a && *b && tolower((unsigned char)*a) == tolower((unsigned char)*b)) a++, b++;
        if (!*a && !*b) return i;
    }
    return -1;
}

/* One directive's change, through the model's one door. */
static bool act(Model *m, Action a, const Lesson *l, const Lesson_Action *la, const char *what,
                char *err, size_t errsz) {
    char why[400];
    if (model_apply(m, &a, why, sizeof why)) return true;
    snprintf(err, errsz, "%s:%d: %s: %s", l->path, la->line, what, why);
    return false;
}

/* The Model view's directives; with no model they wait (the view says how to get
 * one). The checker (now) runs the pass to its end; the window runs it a slice a
 * frame, and a head asked for by kind opens once the pass is shown. */
static bool model_act(Real_Lab *r, const Lesson_Action *a, bool now, char *why, size_t whysz) {
    if (!r->model) { /* the text waits for a model: attaching one reads it */
        if (a->kind == ACT_MODEL_TEXT) snprintf(r->text, sizeof r->text, "%s", a->text);
        return true;
    }
    switch (a->kind) {
    case ACT_MODEL_TEXT:
        if (!real_lab_set_text(r, a->text, strlen(a->text), why, whysz)) return false;
        break;
    case ACT_MODEL_HEAD:
        if (a->setting > 0)
            real_lab_find(r, (Real_Head_Kind)(a->setting - 1));
        else if (a->setting == 0 && (a->i >= r->model->weights.model.layers ||
                                     a->n >= r->model->weights.model.heads)) {
            snprintf(why, whysz, "model-head: the model has no head %d of layer %d", a->n, a->i);
            return false;
        } else {
            real_lab_open(r, a->setting < 0 ? -1 : a->i, a->setting < 0 ? -1 : a->n);
        }
        break;
    case ACT_MODEL_WRITE: /* greedily, as the window's panel starts */
        if (r->n == 0) {
            snprintf(why, whysz, "%s", "model-write: the Model view has no text to write after");
            return false;
        }
        if (!r->gen.model && !real_gen_start(&r->gen, r->model, r->input, r->n,
                                             &(Net_Choice){0, 0, 1}, 0, why, whysz))
            return false;
        for (int k = 0; k < a->i; k++) real_gen_step(&r->gen);
        break;
    default:
        real_lab_rearrange(r, a->i, 1);
        break;
    }
    if (now) real_lab_settle(r);
    return true;
}

/* Whether a goal or a prediction of the lesson reads RoPE's share (head-turn):
 * then the Model view's passes compute it from the lesson's start. */
static bool reads_turn(const Lesson *l) {
    for (int s = 0; s < l->step_count; s++) {
        const Lesson_Step *st = &l->steps[s];
        for (int k = 0; k < st->predict.cond.cond_count; k++)
            if (st->predict.cond.conds[k].kind == COND_HEAD_TURN) return true;
        for (int g = 0; g < st->goal_count; g++)
            for (int k = 0; k < st->goals[g].cond_count; k++)
                if (st->goals[g].conds[k].kind == COND_HEAD_TURN) return true;
    }
    return false;
}

bool lesson_apply(const Lesson *l, int first, int count, Lesson_Env *env, char *err, size_t errsz) {
    Model *m = env->m;
    if (m->real.model && !m->real.want_turn && reads_turn(l)) real_lab_want_turn(&m->real);
    for (int k = first; k < first + count; k++) {
        const Lesson_Action *a = &l->actions[k];
        const Scene *s = &m->scene;
        char why[400];
        bool ok = true;
        switch (a->kind) {
        case ACT_SCENE: {
            char path[1200];
            size_t dl = strlen(env->data_dir);
            snprintf(path, sizeof path, "%.*s/assets/scenes/%s",
                     (int)(dl && env->data_dir[dl - 1] == '/' ? dl - 1 : dl), env->data_dir,
                     a->text);
            /* a look, not an open: opening a FIFO there would wait for a writer */
            if (access(path, F_OK) != 0) {
                snprintf(err, errsz, "%s:%d: scene: no file '%s' in assets/scenes", l->path,
                         a->line, a->text);
                return false;
            }
            Scene *next = &m->next; /* the model's scratch scene */
            if (!scene_load(next, path, m->vocab, why, sizeof why)) {
                snprintf(err, errsz, "%s:%d: scene: %s", l->path, a->line, why);
                return false;
            }
            ok = act(m, (Action){.kind = ACTION_LOAD_SCENE, .scene = next}, l, a, "scene", err,
                     errsz);
            env->selected = 0;
            break;
        }
        case ACT_TOKENS:
            ok = act(m, (Action){.kind = ACTION_SENTENCE, .text = a->text}, l, a, "tokens", err,
                     errsz);
            env->selected = 0;
            break;
        case ACT_DK:
            ok = act(m, action_set(SET_DK, a->i), l, a, "dk", err, errsz);
            break;
        case ACT_DV:
            ok = act(m, action_set(SET_DV, a->i), l, a, "dv", err, errsz);
            break;
        case ACT_D:
            ok = act(m, action_set(SET_D, a->i), l, a, "d", err, errsz);
            break;
        case ACT_SEED:
            ok = act(m, action_set(SET_SEED, (double)a->seed), l, a, "seed", err, errsz);
            break;
        case ACT_SCALE:
            ok = act(m, action_set(SET_SCALED, a->i != 0), l, a, "scale", err, errsz);
            break;
        case ACT_POS:
            ok = act(m, action_set(SET_POS, a->i), l, a, "pos", err, errsz);
            if (ok && pos_mode_added((Pos_Mode)a->i))
                ok = act(m, action_set(SET_POS_STRENGTH, a->x), l, a, "pos", err, errsz);
            break;
        case ACT_VIEW:
            env->view = a->i;
            break;
        case ACT_ORDER: {
            if (a->n != s->n) {
                snprintf(err, errsz, "%s:%d: order: %d positions but the scene has %d tokens",
                         l->path, a->line, a->n, s->n);
                return false;
            }
            /* order lists original positions; the permutation from the current
             * order is: new slot i takes the token whose origin is order[i] */
            int where[ATTN_MAX_TOKENS], p[ATTN_MAX_TOKENS];
            for (int i = 0; i < s->n; i++) where[s->origin[i]] = i;
            for (int i = 0; i < s->n; i++) p[i] = where[a->order[i]];
            ok = act(m, (Action){.kind = ACTION_PERMUTE, .n = s->n, .perm = p}, l, a, "order", err,
                     errsz);
            break;
        }
        case ACT_SELECT:
        case ACT_MOVE: {
            int i = lesson_find_token(s, a->text);
            if (i < 0) {
                snprintf(err, errsz, "%s:%d: %s: no token '%s' in the scene at this step", l->path,
                         a->line, a->kind == ACT_SELECT ? "select" : "move", a->text);
                return false;
            }
            if (a->kind == ACT_SELECT)
                env->selected = i;
            else
                ok = act(m, action_move(i, 0, a->x, s->d > 1 ? 1 : 0, s->d > 1 ? a->y : a->x), l, a,
                         "move", err, errsz);
            break;
        }
        case ACT_REVERSE:
            ok = act(m, action_of(ACTION_REVERSE), l, a, "reverse", err, errsz);
            break;
        case ACT_SHUFFLE:
            ok = act(m, (Action){.kind = ACTION_SHUFFLE, .seed = s->seed + 17u}, l, a, "shuffle",
                     err, errsz);
            break;
        case ACT_ROTATE:
            ok = act(m, (Action){.kind = ACTION_ROTATE, .i = a->i}, l, a, "rotate", err, errsz);
            break;
        case ACT_RESTORE:
            ok = act(m, action_of(ACTION_RESTORE_ORDER), l, a, "restore", err, errsz);
            break;
        case ACT_SET:
            ok = act(m, action_set((Setting_Id)a->setting, a->value), l, a,
                     setting((Setting_Id)a->setting)->lesson, err, errsz);
            break;
        case ACT_TRAIN:
            if (a->i == 2) { /* induction: the layers lab */
                Stack_Desc d = stack_lab_desc(a->n, (int)a->y, (Train_Pos)(int)a->x, 1);
                if (!stack_lab_reset(&m->stack, &d)) {
                    snprintf(err, errsz, "%s:%d: train: out of memory", l->path, a->line);
                    return false;
                }
                m->layers = true;
                m->stack.running = false;
                break;
            }
            m->layers = false;
            if (!train_lab_reset(&m->train,
                                 &(Train_Desc){.task = (Train_Task)a->i,
                                               .pos = (Train_Pos)(int)a->x,
                                               .d_k = a->n,
                                               .seed = 1},
                                 a->y != 0)) {
                snprintf(err, errsz, "%s:%d: train: out of memory", l->path, a->line);
                return false;
            }
            m->train.running = false; /* steps come from 'steps N' or the student */
            break;
        case ACT_EXPLORE: {
            char why[300];
            if (!model_explore_head(m, a->i, a->n, why, sizeof why)) {
                snprintf(err, errsz, "%s:%d: explore: %s", l->path, a->line, why);
                return false;
            }
            env->view = VIEW_EXPLORER;
            break;
        }
        case ACT_MODEL_TEXT:
        case ACT_MODEL_HEAD:
        case ACT_MODEL_ORDER:
        case ACT_MODEL_WRITE:
            if (!model_act(&m->real, a, env->train_now, why, sizeof why)) {
                snprintf(err, errsz, "%s:%d: %s", l->path, a->line, why);
                return false;
            }
            break;
        case ACT_ZERO:
            if (!m->stack.ready || a->i >= m->stack.stack.desc.layers ||
                a->n >= m->stack.stack.desc.heads) {
                snprintf(err, errsz, "%s:%d: zero: the layers lab has no head %d of layer %d",
                         l->path, a->line, a->n, a->i);
                return false;
            }
            stack_lab_ablate(&m->stack, a->i, a->n);
            break;
        case ACT_STEPS: {
            if (m->layers) { /* the layers lab: the same, in its own steps */
                if (!env->train_now) {
                    if (!m->stack.ready && !stack_lab_run(&m->stack, 0)) {
                        snprintf(err, errsz, "%s:%d: steps: out of memory", l->path, a->line);
                        return false;
                    }
                    m->stack.queued += a->i;
                    break;
                }
                long cost = stack_lab_step_cost(&m->stack), steps = a->i;
                if (steps * cost > env->train_budget) {
                    steps = env->train_budget / cost;
                    if (!env->capped_line) env->capped_line = a->line;
                }
                env->train_budget -= steps * cost;
                if (!stack_lab_run(&m->stack, steps)) {
                    snprintf(err, errsz, "%s:%d: steps: out of memory", l->path, a->line);
                    return false;
                }
                break;
            }
            if (!env->train_now) { /* the window: a slice a frame, never a frozen one */
                if (!m->train.ready && !train_lab_run(&m->train, 0)) {
                    snprintf(err, errsz, "%s:%d: steps: out of memory", l->path, a->line);
                    return false;
                }
                m->train.queued += a->i;
                break;
            }
            long cost = train_lab_step_cost(&m->train), steps = a->i;
            if (steps * cost > env->train_budget) {
                steps = env->train_budget / cost;
                if (!env->capped_line) env->capped_line = a->line;
            }
            env->train_budget -= steps * cost;
            if (!train_lab_run(&m->train, steps)) {
                snprintf(err, errsz, "%s:%d: steps: out of memory", l->path, a->line);
                return false;
            }
            break;
        }
        case ACT_AXIS:
            env->fixed_axis = a->i != 0;
            break;
        case ACT_HIDE:
            snprintf(env->hidden, sizeof env->hidden, "%s", a->text);
            break;
        case ACT_HIGHLIGHT:
            snprintf(env->highlight, sizeof env->highlight, "%s",
                     strcmp(a->text, "none") ? a->text : "");
            break;
        }
        if (!ok) return false;
    }
    if (!model_update(m)) {
        snprintf(err, errsz, "%s: out of memory", l->path);
        return false;
    }
    return true;
}

int lesson_goal_touches(const Lesson *l, const Lesson_Goal *g, const char **names, int max) {
    int count = 0;
    for (int k = g->sol_first; k < g->sol_first + g->sol_count; k++) {
        const Lesson_Action *a = &l->actions[k];
        const char *two[2] = {NULL, NULL};
        switch (a->kind) {
        case ACT_DK:
            two[0] = "dk";
            break;
        case ACT_DV:
            two[0] = "dv";
            break;
        case ACT_D:
            two[0] = "d";
            break;
        case ACT_SEED:
            two[0] = "reroll";
            break;
        case ACT_SCALE:
            two[0] = "scale";
            break;
        case ACT_POS:
            two[0] = "pos";
            two[1] = pos_mode_added((Pos_Mode)a->i) ? "pos_strength" : NULL;
            break;
        case ACT_SET:
            two[0] = a->setting == SET_MASK         ? "mask"
                     : a->setting == SET_HEADS      ? "heads"
                     : a->setting == SET_POS_OFFSET ? "pos_offset"
                     : a->setting == SET_ROPE_BASE  ? "rope_base"
                                                    : NULL;
            break;
        case ACT_MOVE:
            two[0] = "plane";
            break;
        case ACT_TOKENS:
            two[0] = "edit";
            break;
        case ACT_ZERO:
        case ACT_EXPLORE:
            two[0] = "layers_heads";
            break;
        case ACT_TRAIN:
        case ACT_STEPS:
            two[0] = a->kind == ACT_TRAIN && a->i == 2 ? "layers_controls" : "train_controls";
            break;
        default:
            break;
        }
        for (int q = 0; q < 2 && two[q]; q++) {
            bool seen = false;
            for (int j = 0; j < count; j++) seen |= !strcmp(names[j], two[q]);
            if (!seen && count < max) names[count++] = two[q];
        }
    }
    return count;
}

Lesson_Needs lesson_step_needs(const Lesson *l, int step) {
    Lesson_Needs need = {0};
    if (!l || step < 0 || step >= l->step_count) return need;
    const Lesson_Step *st = &l->steps[step];
    for (int g = 0; g < st->goal_count; g++) {
        const Lesson_Goal *goal = &st->goals[g];
        for (int k = goal->sol_first; k < goal->sol_first + goal->sol_count; k++) {
            switch (l->actions[k].kind) {
            case ACT_DK:
            case ACT_DV:
            case ACT_D:
            case ACT_SEED:
            case ACT_SCALE:
            case ACT_POS:
            case ACT_SET:
                need.controls = true;
                break;
            case ACT_MOVE:
                need.plane = true;
                break;
            default:
                break;
            }
        }
    }
    return need;
}
