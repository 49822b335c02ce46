/* Goals checked against the live state; see lesson_goals.h. */
#include "lesson_goals.h"

#include "lesson_play.h"
#include "../model/settings.h"

#include "../core/stats.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static bool compare(double v, Cmp c, double want) {
    switch (c) {
    case CMP_GT:
        return v > want;
    case CMP_GE:
        return v >= want;
    case CMP_LT:
        return v < want;
    case CMP_LE:
        return v <= want;
    case CMP_EQ:
        return fabs(v - want) <= 1e-9 * fmax(1, fabs(want));
    }
    return false;
}

int lesson_goal_met(const Lesson_Goal *g, Model *m, int view, int selected, char *err,
                    size_t errsz) {
    if (m->stale) { /* the caller applies actions, then updates: this is a bug, not a state */
        snprintf(err, errsz, "goal: the scene's attention is not computed yet");
        return -1;
    }
    const Scene *s = &m->scene;
    const Attn *a = &m->derived.pass.head[0];
    int n = s->n;
    bool all = true;
    for (int k = 0; k < g->cond_count; k++) {
        const Lesson_Cond *c = &g->conds[k];
        bool ok = false;
        switch (c->kind) {
        case COND_WEIGHT:
        case COND_SCORE:
        case COND_SELECTED: {
            int i = lesson_find_token(s, c->a),
                j = c->kind == COND_SELECTED ? 0 : lesson_find_token(s, c->b);
            if (i < 0 || j < 0) {
                snprintf(err, errsz, "goal: no token '%s' in the scene at this step",
                         i < 0 ? c->a : c->b);
                return -1;
            }
            if (c->kind == COND_SELECTED)
                ok = selected == i;
            else
                ok = compare(c->kind == COND_WEIGHT ? a->A[i * n + j] : a->S[i * n + j], c->cmp,
                             c->value);
            break;
        }
        case COND_X: {
            int i = lesson_find_token(s, c->a);
            if (i < 0) {
                snprintf(err, errsz, "goal: no token '%s' in the scene at this step", c->a);
                return -1;
            }
            if (c->i >= s->d) {
                snprintf(err, errsz, "goal: x[%d] does not exist when d = %d", c->i, s->d);
                return -1;
            }
            ok = compare(s->X[i * s->d + c->i], c->cmp, c->value);
            break;
        }
        case COND_D:
            ok = compare(s->d, c->cmp, c->value);
            break;
        case COND_N:
            ok = compare(s->n, c->cmp, c->value);
            break;
        case COND_DK:
            ok = compare(s->d_k, c->cmp, c->value);
            break;
        case COND_DV:
            ok = compare(s->d_v, c->cmp, c->value);
            break;
        case COND_SCALE:
            ok = s->scaled == (c->i != 0);
            break;
        case COND_POS:
            ok = (int)s->pos == c->i;
            break;
        case COND_VIEW:
            ok = view == c->i;
            break;
        case COND_SETTING:
            ok = compare(setting_get(s, (Setting_Id)c->i), c->cmp, c->value);
            break;
        case COND_LEARNED:
            ok = scene_uses_learned(s, m->derived.learned);
            break;
        case COND_PREFIX:
        case COND_IC_LOSS:
        case COND_ZEROED:
        case COND_LAYERS:
        case COND_LAYERS_POS:
            if (!m->stack.ready) {
                ok = false;
                break;
            }
            stack_lab_derive((Stack_Lab *)&m->stack);
            ok = c->kind == COND_LAYERS_POS
                     ? (int)m->stack.stack.desc.pos == c->i
                     : compare(c->kind == COND_PREFIX    ? stack_lab_best_prefix(&m->stack)
                               : c->kind == COND_IC_LOSS ? m->stack.shown.in_context_loss
                               : c->kind == COND_ZEROED  ? (double)stack_lab_ablated(&m->stack)
                                                         : (double)m->stack.stack.desc.layers,
                               c->cmp, c->value);
            break;
        case COND_TRAINED:
            if (m->layers) { /* the layers lab is on screen: its steps */
                ok = m->stack.ready && compare((double)m->stack.stack.steps, c->cmp, c->value);
                break;
            }
            /* fall through */
        case COND_LOSS:
        case COND_LOSS_OTHER:
            if (!m->train.ready || (c->kind == COND_LOSS_OTHER && !m->train.compare)) {
                ok = false;
                break;
            }
            train_lab_derive(&m->train);
            ok = compare(c->kind == COND_LOSS      ? m->train.held_loss
                         : c->kind == COND_TRAINED ? (double)m->train.trainer.steps
                                                   : m->train.held_loss_other,
                         c->cmp, c->value);
            break;
        case COND_MEAN_MAX:
        case COND_MEAN_ENTROPY: {
            double sum = 0;
            for (int i = 0; i < n; i++)
                sum += c->kind == COND_MEAN_MAX ? stats_row_max(&a->A[i * n], n)
                                                : stats_row_entropy(&a->A[i * n], n);
            ok = compare(sum / n, c->cmp, c->value);
            break;
        }
        case COND_ORDER: {
            bool original = true, reversed = true;
            for (int i = 0; i < n; i++) {
                original &= s->origin[i] == i;
                reversed &= s->origin[i] == n - 1 - i;
            }
            ok = c->i == ORDER_REVERSED ? reversed : c->i == ORDER_ORIGINAL ? original : !original;
            break;
        }
        case COND_PERM_DIFF:
            if (!labs_permutation(&m->labs, s, &m->derived)) return -1;
            ok = compare(m->labs.perm.max_diff_O, c->cmp, c->value);
            break;
        case COND_HEAD_PREV:
        case COND_HEAD_FIRST:
        case COND_HEAD_PREFIX:
        case COND_HEAD_TURN:
        case COND_WEIGHTED_FIRST:
        case COND_WRITTEN:
        case COND_MODEL_CHANGE: {
            const Real_Lab *r = &m->real;
            double v = c->kind == COND_WRITTEN        ? (r->model ? r->gen.written : NAN)
                       : c->kind == COND_MODEL_CHANGE ? (r->has_change ? r->change_max : NAN)
                       : c->kind == COND_WEIGHTED_FIRST
                           ? real_lab_weighted_first(r)
                           : real_lab_head_score(r,
                                                 c->kind == COND_HEAD_PREV    ? REAL_HEAD_PREV
                                                 : c->kind == COND_HEAD_FIRST ? REAL_HEAD_FIRST
                                                 : c->kind == COND_HEAD_TURN  ? REAL_HEAD_TURN
                                                                              : REAL_HEAD_PREFIX,
                                                 r->open_layer, r->open_head);
            ok = !isnan(v) && compare(v, c->cmp, c->value); /* no model, pass or head: not met */
            break;
        }
        case COND_SHIFT_DIFF: { /* the pair the lab follows now: its cache stays */
            const Lab_Shift *sh = &m->labs.shift;
            if (!shift_update(&m->labs.shift, s, &m->derived, sh->valid ? sh->query : 0,
                              sh->valid ? sh->key_token : -1))
                return -1;
            ok = compare(sh->scheme[s->pos].shift_max, c->cmp, c->value);
            break;
        }
        }
        all &= ok;
    }
    return all ? 1 : 0;
}

void lesson_goal_describe(const Lesson_Goal *g, char *buf, size_t size) {
    if (g->label[0]) {
        snprintf(buf, size, "%s", g->label);
        return;
    }
    static const char *const ops[] = {">", "≥", "<", "≤", "="};
    size_t used = 0;
    buf[0] = '\0';
    for (int k = 0; k < g->cond_count && used < size; k++) {
        const Lesson_Cond *c = &g->conds[k];
        char one[160];
        switch (c->kind) {
        case COND_WEIGHT:
            snprintf(one, sizeof one, "a(%s → %s) %s %g", c->a, c->b, ops[c->cmp], c->value);
            break;
        case COND_SCORE:
            snprintf(one, sizeof one, "s(%s → %s) %s %g", c->a, c->b, ops[c->cmp], c->value);
            break;
        case COND_DK:
            snprintf(one, sizeof one, "d_k %s %g", ops[c->cmp], c->value);
            break;
        case COND_DV:
            snprintf(one, sizeof one, "d_v %s %g", ops[c->cmp], c->value);
            break;
        case COND_SCALE:
            snprintf(one, sizeof one, "scaling %s", c->i ? "on" : "off");
            break;
        case COND_POS:
            if (c->i == POS_NONE)
                snprintf(one, sizeof one, "positions off");
            else
                snprintf(one, sizeof one, "positions: %s", pos_mode_name((Pos_Mode)c->i));
            break;
        case COND_VIEW:
            snprintf(one, sizeof one, "open the %s view", view_name((View)c->i));
            break;
        case COND_LOSS:
            snprintf(one, sizeof one, "held-out loss %s %g", ops[c->cmp], c->value);
            break;
        case COND_TRAINED:
            snprintf(one, sizeof one, "trained %s %g steps", ops[c->cmp], c->value);
            break;
        case COND_LOSS_OTHER:
            snprintf(one, sizeof one, "the other scaling's held-out loss %s %g", ops[c->cmp],
                     c->value);
            break;
        case COND_PREFIX:
            snprintf(one, sizeof one, "a head's prefix match %s %g", ops[c->cmp], c->value);
            break;
        case COND_IC_LOSS:
            snprintf(one, sizeof one, "in-context loss %s %g", ops[c->cmp], c->value);
            break;
        case COND_ZEROED:
            snprintf(one, sizeof one, "%s %g heads zeroed", ops[c->cmp], c->value);
            break;
        case COND_LAYERS:
            snprintf(one, sizeof one, "layers %s %g", ops[c->cmp], c->value);
            break;
        case COND_LEARNED:
            snprintf(one, sizeof one, "a learned head in the explorer");
            break;
        case COND_LAYERS_POS:
            snprintf(one, sizeof one, "the layers lab's positions: %s",
                     setting_choice_name(SET_POS, c->i));
            break;
        case COND_SETTING: {
            const Setting *st = setting((Setting_Id)c->i);
            if (st->type == SETTING_CHOICE)
                snprintf(one, sizeof one, "%s %s", st->lesson,
                         setting_choice_name(st->id, (int)c->value));
            else
                snprintf(one, sizeof one, "%s %s %g", st->lesson, ops[c->cmp], c->value);
            break;
        }
        case COND_MEAN_MAX:
            snprintf(one, sizeof one, "mean max weight %s %g", ops[c->cmp], c->value);
            break;
        case COND_MEAN_ENTROPY:
            snprintf(one, sizeof one, "mean entropy %s %g", ops[c->cmp], c->value);
            break;
        case COND_ORDER:
            snprintf(one, sizeof one, "order %s",
                     c->i == 0   ? "reversed"
                     : c->i == 1 ? "original"
                                 : "changed");
            break;
        case COND_PERM_DIFF:
            snprintf(one, sizeof one, "max |Attention(PX) − P·Attention(X)| %s %g", ops[c->cmp],
                     c->value);
            break;
        case COND_SHIFT_DIFF:
            snprintf(one, sizeof one, "max |S(shifted) − S(at 0)| %s %g", ops[c->cmp], c->value);
            break;
        case COND_SELECTED:
            snprintf(one, sizeof one, "select %s", c->a);
            break;
        case COND_X:
            snprintf(one, sizeof one, "x[%d] of %s %s %g", c->i, c->a, ops[c->cmp], c->value);
            break;
        case COND_D:
            snprintf(one, sizeof one, "d %s %g", ops[c->cmp], c->value);
            break;
        case COND_N:
            snprintf(one, sizeof one, "n %s %g", ops[c->cmp], c->value);
            break;
        case COND_HEAD_PREV:
        case COND_HEAD_FIRST:
        case COND_HEAD_PREFIX:
        case COND_HEAD_TURN:
        case COND_WEIGHTED_FIRST:
        case COND_WRITTEN:
        case COND_MODEL_CHANGE:
            snprintf(one, sizeof one, "%s %s %g",
                     c->kind == COND_HEAD_PREV     ? "the open head's weight on the token before"
                     : c->kind == COND_HEAD_FIRST  ? "the open head's weight on the first token"
                     : c->kind == COND_HEAD_PREFIX ? "the open head's prefix match"
                     : c->kind == COND_HEAD_TURN ? "the share of the open head's weight RoPE moves"
                     : c->kind == COND_WEIGHTED_FIRST
                         ? "the first token's share of the value-weighted attention"
                     : c->kind == COND_WRITTEN ? "the tokens the model has written"
                                               : "the largest change of a weight after reordering",
                     ops[c->cmp], c->value);
            break;
        }
        used += (size_t)snprintf(buf + used, size - used, k ? " and %s" : "%s", one);
    }
}

int lesson_goal_unjudged(const Lesson_Goal *g, const Real_Lab *r) {
    if (!lesson_goal_needs_model(g)) return 0;
    if (!r->model) return 1;
    for (int k = 0; k < g->cond_count; k++)
        if (g->conds[k].kind == COND_HEAD_TURN && !(r->model->weights.model.rope_theta > 0))
            return 2;
    return 0;
}

bool lesson_goal_needs_model(const Lesson_Goal *g) {
    for (int k = 0; k < g->cond_count; k++)
        if (g->conds[k].kind >= COND_HEAD_PREV && g->conds[k].kind <= COND_MODEL_CHANGE)
            return true;
    return false;
}

bool lesson_goal_trains(const Lesson_Goal *g) {
    for (int k = 0; k < g->cond_count; k++)
        if (g->conds[k].kind == COND_LOSS || g->conds[k].kind == COND_TRAINED ||
            g->conds[k].kind == COND_LOSS_OTHER || g->conds[k].kind == COND_PREFIX ||
            g->conds[k].kind == COND_IC_LOSS)
            return true;
    return false;
}

void lesson_key_name(const Scene *s, int j, char *out, size_t outsz) {
    static const char *const ordinal[] = {"first", "second",  "third",  "fourth", "fifth",
                                          "sixth", "seventh", "eighth", "ninth",  "tenth"};
    int before = 0, copies = 0;
    for (int k = 0; k < s->n; k++)
        if (!strcmp(s->tokens[k], s->tokens[j])) {
            copies++;
            before += k < j;
        }
    if (copies == 1)
        snprintf(out, outsz, "“%s”", s->tokens[j]);
    else if (before < 10)
        snprintf(out, outsz, "the %s “%s”", ordinal[before], s->tokens[j]);
    else
        snprintf(out, outsz, "“%s” at position %d", s->tokens[j], j + 1);
}

int lesson_predict_later(const Lesson_Predict *pr, Model *m, int view, int selected, char *answer,
                         size_t answersz, char *err, size_t errsz) {
    char why[300] = "";
    int truth = lesson_goal_met(&pr->cond, m, view, selected, why, sizeof why);
    if (truth < 0) {
        snprintf(err, errsz, "predict: %s", why);
        return -1;
    }
    snprintf(answer, answersz, "%s", truth == 1 ? "yes" : "no");
    return truth;
}

int lesson_predict_truth(const Lesson *l, const Lesson_Predict *pr, const Model *m, int view,
                         int selected, const char *data_dir, char *answer, size_t answersz,
                         char *err, size_t errsz) {
    Model *copy = malloc(sizeof *copy);
    if (!copy || !model_init(copy, &m->scene, m->vocab)) {
        free(copy);
        snprintf(err, errsz, "predict: out of memory");
        return -1;
    }
    Lesson_Env env = {.m = copy, .data_dir = data_dir, .view = view, .selected = selected};
    int truth = -1;
    /* what lesson_apply says names its own FILE:LINE; what is found here
     * gets the prediction's */
    char why[420] = "";
    err[0] = '\0';
    if (!lesson_apply(l, pr->after_first, pr->after_count, &env, err, errsz) ||
        !model_update(copy)) {
        if (!err[0]) snprintf(why, sizeof why, "predict: out of memory");
    } else if (pr->kind == PREDICT_YES) {
        truth = lesson_goal_met(&pr->cond, copy, env.view, env.selected, why, sizeof why);
        snprintf(answer, answersz, "%s", truth == 1 ? "yes" : "no");
    } else {
        const Scene *s = &copy->scene;
        const float *a = copy->derived.pass.head[0].A;
        int i = lesson_find_token(s, pr->token), n = s->n, best = 0;
        if (i < 0) {
            snprintf(why, sizeof why, "predict: no token '%s' in the scene at this step",
                     pr->token);
        } else {
            for (int j = 1; j < n; j++)
                if (a[i * n + j] > a[i * n + best]) best = j;
            truth = best;
            /* the answer is a position: another key within 0.001 of the top,
             * even a copy of the same word, would make it a coin toss */
            for (int j = 0; j < n; j++)
                if (j != best && a[i * n + j] >= a[i * n + best] - 1e-3f) {
                    char one[80], two[80];
                    lesson_key_name(s, best, one, sizeof one);
                    lesson_key_name(s, j, two, sizeof two);
                    snprintf(why, sizeof why,
                             "predict: the top key of '%s' is a tie between %s (key %d) and %s "
                             "(key %d)",
                             pr->token, one, best + 1, two, j + 1);
                    truth = -1;
                    break;
                }
            if (truth >= 0) lesson_key_name(s, best, answer, answersz);
        }
    }
    if (why[0]) snprintf(err, errsz, "%s:%d: %s", l->path, pr->line, why);
    model_free(copy);
    free(copy);
    return truth;
}
