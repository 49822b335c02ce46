/* Playing a lesson's actions on the model; see lesson_play.h. */
#define _POSIX_C_SOURCE 200809L
#include "lesson_play.h"
#include "lesson_directive.h"

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
        if (!lesson_directive_of(a->kind)->apply(l, a, env, err, errsz)) return false;
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
        const Lesson_Directive *d = lesson_directive_of(a->kind);
        if (d->touches) d->touches(a, two);
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
            Lesson_Needs its = lesson_directive_of(l->actions[k].kind)->needs;
            need.controls |= its.controls;
            need.plane |= its.plane;
        }
    }
    return need;
}
