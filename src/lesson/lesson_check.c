/* The lesson checker; see lesson_check.h. */
#include "lesson_check.h"

#include "../core/i18n.h"

#include "lesson_goals.h"
#include "lesson_play.h"
#include "../model/scene_file.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

bool lesson_check(const Lesson *l, const Vocab *vocab, const char *data_dir, const Real_Model *real,
                  char *err, size_t errsz) {
    return lesson_check_within(l, vocab, data_dir, real, LESSON_CHECK_TRAIN_BUDGET, err, errsz);
}

bool lesson_check_within(const Lesson *l, const Vocab *vocab, const char *data_dir,
                         const Real_Model *real, long budget, char *err, size_t errsz) {
    /* A formula with an unknown command opens (the window shows it in red),
     * but an author checking lessons hears of it. */
    if (l->tex_problem[0]) {
        snprintf(err, errsz, "%s", l->tex_problem);
        return false;
    }
    /* a step's link (`see`) leads to a lesson of the same folder */
    for (int s = 0; s < l->step_count; s++) {
        if (!l->steps[s].see[0]) continue;
        char target[1200];
        lesson_sibling(l, l->steps[s].see, target, sizeof target);
        FILE *f = fopen(target, "rb");
        if (!f) {
            snprintf(err, errsz, "%s:%d: see: no lesson %s in this folder", l->path,
                     l->steps[s].line, l->steps[s].see);
            return false;
        }
        fclose(f);
    }
    /* Play the lesson from the default scene, step after step, the way a
     * student who always succeeds would. */
    Model *mp = calloc(1, sizeof *mp);
    Scene *start = malloc(sizeof *start);
    char path[1200];
    snprintf(path, sizeof path, "%s/assets/scenes/default.json", data_dir);
    if (!mp || !start) {
        free(mp);
        free(start);
        snprintf(err, errsz, "%s: out of memory", l->path);
        return false;
    }
    if (!scene_load(start, path, vocab, err, errsz)) {
        free(mp);
        free(start);
        return false;
    }
    bool inited = model_init(mp, start, vocab);
    free(start);
    if (!inited) {
        free(mp);
        snprintf(err, errsz, "%s: out of memory", l->path);
        return false;
    }
    Model *m = mp;
    if (real && !real_lab_attach(&m->real, real, "model", err, errsz)) {
        model_free(m);
        free(m);
        return false;
    }
    int no_model = 0; /* goals that read a real model, with none attached */
    int no_rope = 0;  /* goals that read RoPE's turn, with a model without RoPE */
    Lesson_Env env = {.m = m, .data_dir = data_dir, .train_now = true, .train_budget = budget};
    int skipped = 0; /* training goals not judged: the budget capped their training */
    bool ok = lesson_apply(l, l->setup_first, l->setup_count, &env, err, errsz);
    for (int s = 0; ok && s < l->step_count; s++) {
        const Lesson_Step *st = &l->steps[s];
        ok = lesson_apply(l, st->act_first, st->act_count, &env, err, errsz);
        /* a prediction must have one right answer in the state its step opens with
         * (a later one: once its step's goals are met, below) */
        if (ok && st->predict.later && st->goal_count == 0) {
            snprintf(err, errsz, "%s:%d: predict later: its step has no goal to wait for", l->path,
                     st->predict.line);
            ok = false;
        }
        bool model_predict =
            st->predict.kind == PREDICT_YES && lesson_goal_unjudged(&st->predict.cond, &m->real);
        if (ok && st->predict.kind != PREDICT_NONE && !st->predict.later && !model_predict &&
            model_update(env.m)) {
            char answer[96];
            if (lesson_predict_truth(l, &st->predict, env.m, env.view, env.selected, data_dir,
                                     answer, sizeof answer, err, errsz) < 0)
                ok = false; /* err names the file and line */
        }
        for (int g = 0; ok && g < st->goal_count; g++) {
            const Lesson_Goal *goal = &st->goals[g];
            char why[300];
            int unjudged = lesson_goal_unjudged(goal, &m->real);
            if (unjudged) { /* said below */
                *(unjudged == 1 ? &no_model : &no_rope) += 1;
                continue;
            }
            if (env.capped_line && lesson_goal_trains(goal)) { /* cannot be judged: said below */
                skipped++;
                if (!lesson_apply(l, goal->sol_first, goal->sol_count, &env, err, errsz))
                    ok = false;
                continue;
            }
            int met = lesson_goal_met(goal, env.m, env.view, env.selected, why, sizeof why);
            if (met < 0) {
                snprintf(err, errsz, "%s:%d: %s", l->path, goal->line, why);
                ok = false;
            } else if (met == 1) {
                snprintf(err, errsz, "%s:%d: goal is already met when the step starts", l->path,
                         goal->line);
                ok = false;
            } else if (!lesson_apply(l, goal->sol_first, goal->sol_count, &env, err, errsz)) {
                ok = false;
            } else if (env.capped_line && lesson_goal_trains(goal)) {
                skipped++; /* its own solution reached the budget */
            } else if ((met = lesson_goal_met(goal, env.m, env.view, env.selected, why,
                                              sizeof why)) != 1) {
                if (met < 0)
                    snprintf(err, errsz, "%s:%d: %s", l->path, goal->line, why);
                else
                    snprintf(err, errsz, "%s:%d: the solution does not reach its goal", l->path,
                             goal->line);
                ok = false;
            }
        }
        if (ok && st->predict.later && !env.capped_line && !model_predict && model_update(env.m)) {
            char answer[96], why[300];
            if (lesson_predict_later(&st->predict, env.m, env.view, env.selected, answer,
                                     sizeof answer, why, sizeof why) < 0) {
                snprintf(err, errsz, "%s:%d: %s", l->path, st->predict.line, why);
                ok = false;
            }
        }
    }
    model_free(m);
    free(m);
    if (ok) err[0] = '\0';
    if (ok && skipped)
        snprintf(err, errsz,
                 "%s:%d: note: training capped at %d steps of d_k = 16 for the check; %d "
                 "training goals not judged",
                 l->path, env.capped_line, (int)budget, skipped);
    if (ok && no_model)
        snprintf(err, errsz,
                 "%s: note: %d goal%s read%s a real model, and none is open; not judged (give "
                 "one with --model)",
                 l->path, no_model, no_model == 1 ? "" : "s", no_model == 1 ? "s" : "");
    else if (ok && no_rope)
        snprintf(err, errsz,
                 "%s: note: %d goal%s read%s RoPE's turn, and the model open has no RoPE; not "
                 "judged (give a Llama or Qwen with --model)",
                 l->path, no_rope, no_rope == 1 ? "" : "s", no_rope == 1 ? "s" : "");
    return ok;
}

/* ---- a translation against its original ----------------------------------- */

static bool same_action(const Lesson_Action *a, const Lesson_Action *b) {
    if (a->kind != b->kind || a->i != b->i || a->seed != b->seed || a->x != b->x || a->y != b->y ||
        a->n != b->n || a->setting != b->setting || a->value != b->value ||
        strcmp(a->text, b->text))
        return false;
    for (int k = 0; k < a->n && k < LESSON_MAX_ORDER; k++)
        if (a->order[k] != b->order[k]) return false;
    return true;
}

static bool same_actions(const Lesson *la, int fa, int ca, const Lesson *lb, int fb, int cb) {
    if (ca != cb) return false;
    for (int k = 0; k < ca; k++)
        if (!same_action(&la->actions[fa + k], &lb->actions[fb + k])) return false;
    return true;
}

static bool same_conds(const Lesson_Goal *a, const Lesson_Goal *b) {
    if (a->cond_count != b->cond_count) return false;
    for (int k = 0; k < a->cond_count; k++) {
        const Lesson_Cond *x = &a->conds[k], *y = &b->conds[k];
        if (x->kind != y->kind || x->cmp != y->cmp || x->value != y->value || x->i != y->i ||
            strcmp(x->a, y->a) || strcmp(x->b, y->b))
            return false;
    }
    return true;
}

/* what differs in step s, or NULL */
static const char *step_differs(const Lesson *o, const Lesson *t, int s) {
    const Lesson_Step *a = &o->steps[s], *b = &t->steps[s];
    if (!same_actions(o, a->act_first, a->act_count, t, b->act_first, b->act_count))
        return _("its directives differ");
    if (a->goal_count != b->goal_count) return _("it has another number of goals");
    for (int g = 0; g < a->goal_count; g++) {
        if (!same_conds(&a->goals[g], &b->goals[g])) return _("a goal's conditions differ");
        if (!same_actions(o, a->goals[g].sol_first, a->goals[g].sol_count, t, b->goals[g].sol_first,
                          b->goals[g].sol_count))
            return _("a goal's solution differs");
    }
    if (strcmp(a->see, b->see)) return _("its link (see) differs");
    const Lesson_Predict *p = &a->predict, *q = &b->predict;
    if (p->kind != q->kind || p->later != q->later || strcmp(p->token, q->token) ||
        !same_conds(&p->cond, &q->cond) ||
        !same_actions(o, p->after_first, p->after_count, t, q->after_first, q->after_count))
        return _("its prediction's answer differs");
    return NULL;
}

bool lesson_same_shape(const Lesson *original, const Lesson *translation, char *err, size_t errsz) {
    if (!same_actions(original, original->setup_first, original->setup_count, translation,
                      translation->setup_first, translation->setup_count)) {
        snprintf(err, errsz, _("%s:1: its set-up before the first step differs from %s"),
                 translation->path, original->path);
        return false;
    }
    if (original->step_count != translation->step_count) {
        snprintf(err, errsz, _("%s:1: it has %d steps, and %s has %d"), translation->path,
                 translation->step_count, original->path, original->step_count);
        return false;
    }
    for (int s = 0; s < original->step_count; s++) {
        const char *why = step_differs(original, translation, s);
        if (why) {
            snprintf(err, errsz, _("%s:%d: step %d differs from %s: %s"), translation->path,
                     translation->steps[s].line, s + 1, original->path, why);
            return false;
        }
    }
    return true;
}
