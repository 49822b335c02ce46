/* The directive table's lookups, and the helpers its rows share; see
 * lesson_directive.h. */
#include "lesson_directive.h"

#include "../core/text.h"

#include <math.h>
#include <stdio.h>
#include <string.h>

Lesson_Action *lesson_new_action(Lesson_Parse *p, int line) {
    Lesson *l = p->l;
    if (l->action_count == LESSON_MAX_ACTIONS) {
        lesson_fail(p, line, "more than %d directives in one lesson", LESSON_MAX_ACTIONS);
        return NULL;
    }
    Lesson_Action *a = &l->actions[l->action_count++];
    memset(a, 0, sizeof *a);
    a->line = line;
    return a;
}

bool lesson_words(Lesson_Parse *p, int line, const Lesson_Directive *d, int nw, int want) {
    if (nw == want) return true;
    lesson_fail(p, line, "%s: expected '%s'", d->word, d->usage);
    return false;
}

/* Whole strings only (core/text.h): "500" followed by junk is not 500, and
 * a seed is read as the integer it is, never through a float. */
bool lesson_parse_long(const char *w, int64_t lo, int64_t hi, int64_t *dest) {
    return text_parse_i64(w, lo, hi, dest) == TEXT_NUM_OK;
}

bool lesson_parse_double(const char *w, double *dest) {
    return text_parse_f64(w, -HUGE_VAL, HUGE_VAL, dest) == TEXT_NUM_OK;
}

bool lesson_token_word_ok(const char *w) {
    return strlen(w) > 0 && strlen(w) < 32;
}

const Lesson_Directive *lesson_directive_at(int k) {
    if (k >= 0 && k < lesson_scene_directive_count) return &lesson_scene_directives[k];
    k -= lesson_scene_directive_count;
    if (k >= 0 && k < lesson_lab_directive_count) return &lesson_lab_directives[k];
    return NULL;
}

const Lesson_Directive *lesson_directive_find(const char *word) {
    const Lesson_Directive *d;
    for (int k = 0; (d = lesson_directive_at(k)); k++)
        if (!strcmp(d->word, word)) return d;
    return NULL;
}

const Lesson_Directive *lesson_directive_of(Directive_Kind kind) {
    const Lesson_Directive *d;
    for (int k = 0; (d = lesson_directive_at(k)); k++)
        if (d->kind == kind) return d;
    return NULL;
}

/* One directive's change, through the model's one door. */
bool lesson_act(Model *m, Action a, const Lesson *l, const Lesson_Action *la, const char *what,
                char *err, size_t errsz) {
    char why[400];
    if (model_apply(m, &a, why, sizeof why)) return true;
    snprintf(err, errsz, "%s:%d: %s: %s", l->path, la->line, what, why);
    return false;
}
