/* Directive lines to actions and goals; see lesson_directives.h. */
#include "lesson_directives.h"
#include "lesson_directive.h"

#include "../core/text.h"
#include "../model/limits.h"
#include "../model/settings.h"

#include <ctype.h>
#include <math.h>
#include <string.h>

/* ---- directives ---------------------------------------------------------- */

/* Words of a line; -1 if there are more than max (never a silent cut). */
static int split(char *line, char **words, int max) {
    int n = 0;
    for (char *t = strtok(line, " \t"); t; t = strtok(NULL, " \t")) {
        if (n == max) return -1;
        words[n++] = t;
    }
    return n;
}

/* One action from words; used for set-up lines and for each solution step. */
static bool parse_action(Lesson_Parse *p, int line, char **w, int nw, const char *rest) {
    const Lesson_Directive *d = lesson_directive_find(w[0]);
    if (!d) return lesson_fail(p, line, "unknown directive '%s'", w[0]), false;
    if (!d->parse(p, line, d, w, nw, rest)) return false;
    p->l->actions[p->l->action_count - 1].kind = d->kind;
    return true;
}

static bool parse_cmp(const char *w, Cmp *c) {
    static const char *const ops[] = {">", ">=", "<", "<=", "="};
    for (int k = 0; k < 5; k++)
        if (!strcmp(w, ops[k])) {
            *c = (Cmp)k;
            return true;
        }
    return false;
}

/* One condition from words w[0..nw). */
static bool parse_cond(Lesson_Parse *p, int line, char **w, int nw, Lesson_Cond *c) {
    memset(c, 0, sizeof *c);
    const char *k = w[0];
    if (!lesson_keyword_find(LESSON_KEYWORDS_CONDITIONS, k))
        return lesson_fail(p, line, "goal: unknown condition '%s'", k), false;
    if (!strcmp(k, "weight") || !strcmp(k, "score")) {
        if (nw != 5)
            return lesson_fail(p, line, "goal: expected '%s QUERY KEY > NUMBER'", k), false;
        c->kind = !strcmp(k, "weight") ? COND_WEIGHT : COND_SCORE;
        if (!lesson_token_word_ok(w[1]) || !lesson_token_word_ok(w[2]))
            return lesson_fail(p, line, "goal: bad token"), false;
        snprintf(c->a, sizeof c->a, "%s", w[1]);
        snprintf(c->b, sizeof c->b, "%s", w[2]);
        if (!parse_cmp(w[3], &c->cmp))
            return lesson_fail(p, line, "goal: expected one of > >= < <= = before '%s'", w[4]),
                   false;
        if (!lesson_parse_double(w[4], &c->value))
            return lesson_fail(p, line, "goal: '%s' is not a number", w[4]), false;
    } else if (!strcmp(k, "x")) {
        int64_t axis;
        if (nw != 5 || !lesson_token_word_ok(w[1]) ||
            !lesson_parse_long(w[2], 0, ATTN_MAX_D - 1, &axis))
            return lesson_fail(p, line, "goal: expected 'x TOKEN COORDINATE > NUMBER'"), false;
        c->kind = COND_X;
        snprintf(c->a, sizeof c->a, "%s", w[1]);
        c->i = (int)axis;
        if (!parse_cmp(w[3], &c->cmp))
            return lesson_fail(p, line, "goal: expected one of > >= < <= = before '%s'", w[4]),
                   false;
        if (!lesson_parse_double(w[4], &c->value))
            return lesson_fail(p, line, "goal: '%s' is not a number", w[4]), false;
    } else if (!strcmp(k, "d") || !strcmp(k, "n")) {
        if (nw != 3) return lesson_fail(p, line, "goal: expected '%s > NUMBER'", k), false;
        c->kind = !strcmp(k, "d") ? COND_D : COND_N;
        if (!parse_cmp(w[1], &c->cmp))
            return lesson_fail(p, line, "goal: expected one of > >= < <= = after '%s'", k), false;
        if (!lesson_parse_double(w[2], &c->value))
            return lesson_fail(p, line, "goal: '%s' is not a number", w[2]), false;
    } else if (!strcmp(k, "dk") || !strcmp(k, "dv") || !strcmp(k, "mean-max") ||
               !strcmp(k, "mean-entropy") || !strcmp(k, "perm-diff") || !strcmp(k, "shift-diff")) {
        if (nw != 3) return lesson_fail(p, line, "goal: expected '%s > NUMBER'", k), false;
        c->kind = !strcmp(k, "dk")             ? COND_DK
                  : !strcmp(k, "dv")           ? COND_DV
                  : !strcmp(k, "mean-max")     ? COND_MEAN_MAX
                  : !strcmp(k, "mean-entropy") ? COND_MEAN_ENTROPY
                  : !strcmp(k, "perm-diff")    ? COND_PERM_DIFF
                                               : COND_SHIFT_DIFF;
        if (!parse_cmp(w[1], &c->cmp))
            return lesson_fail(p, line, "goal: expected one of > >= < <= = after '%s'", k), false;
        if (!lesson_parse_double(w[2], &c->value))
            return lesson_fail(p, line, "goal: '%s' is not a number", w[2]), false;
    } else if (!strcmp(k, "head-prev") || !strcmp(k, "head-first") || !strcmp(k, "head-prefix") ||
               !strcmp(k, "head-turn") || !strcmp(k, "weighted-first") ||
               !strcmp(k, "model-change") || !strcmp(k, "written")) {
        if (nw != 3) return lesson_fail(p, line, "goal: expected '%s > NUMBER'", k), false;
        c->kind = (Cond_Kind)lesson_keyword_find(LESSON_KEYWORDS_CONDITIONS, k)->kind;
        if (!parse_cmp(w[1], &c->cmp))
            return lesson_fail(p, line, "goal: expected one of > >= < <= = after '%s'", k), false;
        if (!lesson_parse_double(w[2], &c->value))
            return lesson_fail(p, line, "goal: '%s' is not a number", w[2]), false;
    } else if (!strcmp(k, "loss") || !strcmp(k, "trained") || !strcmp(k, "loss-other") ||
               !strcmp(k, "prefix") || !strcmp(k, "ic-loss") || !strcmp(k, "zeroed") ||
               !strcmp(k, "layers")) {
        if (nw != 3) return lesson_fail(p, line, "goal: expected '%s > NUMBER'", k), false;
        c->kind = !strcmp(k, "loss")         ? COND_LOSS
                  : !strcmp(k, "trained")    ? COND_TRAINED
                  : !strcmp(k, "loss-other") ? COND_LOSS_OTHER
                  : !strcmp(k, "prefix")     ? COND_PREFIX
                  : !strcmp(k, "ic-loss")    ? COND_IC_LOSS
                  : !strcmp(k, "zeroed")     ? COND_ZEROED
                                             : COND_LAYERS;
        if (!parse_cmp(w[1], &c->cmp))
            return lesson_fail(p, line, "goal: expected one of > >= < <= = after '%s'", k), false;
        if (!lesson_parse_double(w[2], &c->value))
            return lesson_fail(p, line, "goal: '%s' is not a number", w[2]), false;
    } else if (!strcmp(k, "heads") || !strcmp(k, "mask") || !strcmp(k, "offset") ||
               !strcmp(k, "rope_base")) {
        const Setting *st = setting_by_lesson(k);
        c->kind = COND_SETTING;
        c->i = st->id;
        c->cmp = CMP_EQ;
        char why[200];
        if (st->type == SETTING_CHOICE) { /* mask causal */
            if (nw != 2 || !setting_parse(st, w[1], &c->value, why, sizeof why))
                return lesson_fail(p, line, "goal: expected '%s'", "mask none|causal"), false;
        } else { /* heads >= 2 */
            if (nw != 3) return lesson_fail(p, line, "goal: expected '%s > NUMBER'", k), false;
            if (!parse_cmp(w[1], &c->cmp))
                return lesson_fail(p, line, "goal: expected one of > >= < <= = after '%s'", k),
                       false;
            if (!lesson_parse_double(w[2], &c->value))
                return lesson_fail(p, line, "goal: '%s' is not a number", w[2]), false;
        }
    } else if (!strcmp(k, "scale")) {
        if (nw != 2 || (strcmp(w[1], "on") && strcmp(w[1], "off")))
            return lesson_fail(p, line, "goal: expected 'scale on' or 'scale off'"), false;
        c->kind = COND_SCALE;
        c->i = !strcmp(w[1], "on");
    } else if (!strcmp(k, "pos")) {
        Pos_Mode m;
        if (nw != 2 || !pos_mode_parse(w[1], &m))
            return lesson_fail(p, line, "goal: expected 'pos none|sin|learned|rope|alibi'"), false;
        c->kind = COND_POS;
        c->i = m;
    } else if (!strcmp(k, "learned")) {
        if (nw != 1) return lesson_fail(p, line, "goal: 'learned' takes nothing after it"), false;
        c->kind = COND_LEARNED;
    } else if (!strcmp(k, "layers-pos")) {
        int scheme;
        if (nw != 2 || !setting_choice_parse(SET_POS, w[1], &scheme) || scheme == POS_ALIBI)
            return lesson_fail(p, line, "goal: expected 'layers-pos none|sin|learned|rope'"), false;
        c->kind = COND_LAYERS_POS;
        c->i = scheme;
    } else if (!strcmp(k, "view")) {
        View vi = VIEW_EXPLORER;
        if (nw != 2 || !view_parse(w[1], &vi))
            return lesson_fail(p, line, "goal: expected 'view explorer|scaling|permutation'"),
                   false;
        c->kind = COND_VIEW;
        c->i = vi;
    } else if (!strcmp(k, "order")) {
        static const char *const o[3] = {"reversed", "original", "changed"};
        int oi = 0;
        while (nw == 2 && oi < 3 && strcmp(w[1], o[oi])) oi++;
        if (nw != 2 || oi == 3)
            return lesson_fail(p, line, "goal: expected 'order reversed|original|changed'"), false;
        c->kind = COND_ORDER;
        c->i = oi;
    } else if (!strcmp(k, "selected")) {
        if (nw != 2 || !lesson_token_word_ok(w[1]))
            return lesson_fail(p, line, "goal: expected 'selected TOKEN'"), false;
        c->kind = COND_SELECTED;
        snprintf(c->a, sizeof c->a, "%s", w[1]);
    } else {
        return lesson_fail(p, line, "goal: unknown condition '%s'", k), false;
    }
    return true;
}

/* Conditions joined by 'and' into g (what names the directive in errors). */
static bool parse_conds(Lesson_Parse *p, int line, char *body, Lesson_Goal *g, const char *what) {
    char *cursor = body;
    while (cursor && !p->failed) {
        char *and = strstr(cursor, " and ");
        if (and) *and = '\0';
        char *w[8];
        int nw = split(cursor, w, 8);
        if (nw < 0)
            return lesson_fail(p, line, "%s: a condition has more than 8 words", what), false;
        if (nw == 0) return lesson_fail(p, line, "%s: empty condition", what), false;
        if (g->cond_count == LESSON_MAX_CONDS)
            return lesson_fail(p, line, "%s: at most %d conditions", what, LESSON_MAX_CONDS), false;
        if (!parse_cond(p, line, w, nw, &g->conds[g->cond_count])) return false;
        g->cond_count++;
        cursor = and? and+5 : NULL;
    }
    return !p->failed;
}

/* Actions separated by ';', things a student does (what names the
 * directive in errors): how many were added, or -1. */
static int parse_action_list(Lesson_Parse *p, int line, const char *list, const char *what) {
    int count = 0;
    for (const char *seg = list; !p->failed;) {
        const char *semi = strchr(seg, ';');
        char piece[LESSON_MAX_LINE + 1];
        snprintf(piece, sizeof piece, "%.*s", (int)(semi ? (size_t)(semi - seg) : strlen(seg)),
                 seg);
        char *pw = piece;
        while (*pw && isspace((unsigned char)*pw)) pw++;
        char *after = pw + strcspn(pw, " \t");
        char rest_copy[LESSON_MAX_LINE + 1];
        snprintf(rest_copy, sizeof rest_copy, "%s", after + strspn(after, " \t"));
        rest_copy[strcspn(rest_copy, "\r\n")] = '\0';
        char *w[LESSON_MAX_WORDS];
        int nw = split(pw, w, LESSON_MAX_WORDS);
        if (nw < 0)
            return lesson_fail(p, line, "%s: an action has more than %d words", what,
                               LESSON_MAX_WORDS),
                   -1;
        if (nw > 0) {
            if (!strcmp(w[0], "highlight") || !strcmp(w[0], "scene"))
                return lesson_fail(p, line, "%s: '%s' is not something a student does", what, w[0]),
                       -1;
            /* a prediction is judged the moment it is answered, on a copy of
             * the model: training there would stall that frame (100,000 steps
             * at d_k = 256 took minutes), so it trains in the step instead */
            if (!strncmp(what, "predict", 7) && (!strcmp(w[0], "steps") || !strcmp(w[0], "train")))
                return lesson_fail(p, line,
                                   "%s: '%s' cannot be judged at once; train in the step itself",
                                   what, w[0]),
                       -1;
            if (!parse_action(p, line, w, nw, rest_copy)) return -1;
            count++;
        }
        if (!semi) break;
        seg = semi + 1;
    }
    return p->failed ? -1 : count;
}

/* predict key TOKEN [after ACTIONS] : QUESTION | WHY
 * predict yes if CONDITION [and CONDITION …] [after ACTIONS] : QUESTION | WHY
 * predict later yes if CONDITION [and CONDITION …] : QUESTION | WHY */
static void parse_predict(Lesson_Parse *p, int line, const char *rest) {
    if (p->cur_step < 0) {
        lesson_fail(p, line, "predictions belong to a step: put them after a '## Step' heading");
        return;
    }
    Lesson_Step *st = &p->l->steps[p->cur_step];
    if (st->predict.kind != PREDICT_NONE) {
        lesson_fail(p, line, "one prediction per step");
        return;
    }
    Lesson_Predict *pr = &st->predict;
    memset(pr, 0, sizeof *pr);
    pr->line = line;
    char body[LESSON_MAX_LINE + 1];
    snprintf(body, sizeof body, "%s", rest);
    char *colon = strstr(body, " : "), *bar = colon ? strstr(colon + 3, " | ") : NULL;
    if (!colon || !bar) {
        lesson_fail(p, line,
                    "predict: write it as 'predict key TOKEN : QUESTION | WHY' or "
                    "'predict yes if CONDITION : QUESTION | WHY'");
        return;
    }
    *colon = *bar = '\0';
    const char *q = colon + 3, *why = bar + 3;
    if (!q[0] || !why[0] || strlen(q) >= sizeof pr->question || strlen(why) >= sizeof pr->why) {
        lesson_fail(p, line,
                    "predict: the question (at most %d bytes) and the explanation (at "
                    "most %d) must both be given",
                    (int)sizeof pr->question - 1, (int)sizeof pr->why - 1);
        return;
    }
    snprintf(pr->question, sizeof pr->question, "%s", q);
    snprintf(pr->why, sizeof pr->why, "%s", why);
    char *after = strstr(body, " after ");
    if (after) *after = '\0';
    if (!strncmp(body, "later ", 6)) { /* judged once the step's goals are met */
        if (strncmp(body + 6, "yes if ", 7) || after) {
            lesson_fail(p, line,
                        "predict later: write it as 'predict later yes if CONDITION : "
                        "QUESTION | WHY' (the step's own goals lead there, not 'after')");
            return;
        }
        if (p->cur_step >= 0 && p->l->steps[p->cur_step].goal_count > 0) {
            lesson_fail(p, line, "predict later: put it before the step's goals");
            return;
        }
        pr->later = true;
        memmove(body, body + 6, strlen(body + 6) + 1);
    }
    if (!strncmp(body, "key ", 4)) {
        char *w[4];
        int nw = split(body + 4, w, 4);
        if (nw != 1 || !lesson_token_word_ok(w[0]) || strlen(w[0]) >= sizeof pr->token) {
            lesson_fail(p, line, "predict key: name one token, a word or #position");
            return;
        }
        snprintf(pr->token, sizeof pr->token, "%s", w[0]);
        pr->kind = PREDICT_KEY;
    } else if (!strncmp(body, "yes if ", 7)) {
        if (!parse_conds(p, line, body + 7, &pr->cond, "predict")) return;
        pr->kind = PREDICT_YES;
    } else {
        lesson_fail(p, line, "predict: 'key TOKEN' or 'yes if CONDITION' comes first");
        return;
    }
    pr->after_first = p->l->action_count;
    if (after) {
        int count = parse_action_list(p, line, after + 7, "predict … after");
        if (count < 0) return;
        pr->after_count = count;
    }
}

void lesson_directive_line(Lesson_Parse *p, int line, char *text) {
    /* strip comments and surrounding space */
    char *hash = strchr(text, '#');
    if (hash && (hash == text || isspace((unsigned char)hash[-1])) &&
        !isdigit((unsigned char)hash[1]))
        *hash = '\0';
    while (*text && isspace((unsigned char)*text)) text++;
    size_t n = strlen(text);
    while (n && isspace((unsigned char)text[n - 1])) text[--n] = '\0';
    if (!n) return;
    Lesson *l = p->l;
    char *words[LESSON_MAX_WORDS];
    char *kw_end = text + strcspn(text, " \t");
    const char *rest = kw_end + strspn(kw_end, " \t");
    if (!strncmp(text, "goal", 4) && (text[4] == ' ' || text[4] == '\t')) {
        if (p->cur_step < 0) {
            lesson_fail(p, line, "goals belong to a step: put them after a '## Step' heading");
            return;
        }
        if (p->open_goal && p->open_goal->sol_count == 0) {
            lesson_fail(p, p->open_goal->line, "goal has no 'solution' line");
            return;
        }
        Lesson_Step *st = &l->steps[p->cur_step];
        if (st->goal_count == LESSON_MAX_GOALS) {
            lesson_fail(p, line, "more than %d goals in one step", LESSON_MAX_GOALS);
            return;
        }
        Lesson_Goal *g = &st->goals[st->goal_count++];
        memset(g, 0, sizeof *g);
        g->line = line;
        char body[LESSON_MAX_LINE + 1];
        snprintf(body, sizeof body, "%s", rest);
        char *colon = strstr(body, " : ");
        if (colon) {
            *colon = '\0';
            if (strlen(colon + 3) >= sizeof g->label) {
                lesson_fail(p, line, "goal: the text after ' : ' is longer than %d bytes",
                            (int)sizeof g->label - 1);
                return;
            }
            snprintf(g->label, sizeof g->label, "%s", colon + 3);
        }
        if (!parse_conds(p, line, body, g, "goal")) return;
        g->sol_first = l->action_count;
        p->open_goal = g;
        return;
    }
    if (!strncmp(text, "solution", 8) && (text[8] == ' ' || text[8] == '\t' || text[8] == '\0')) {
        Lesson_Goal *g = p->open_goal;
        if (!g || g->sol_count) {
            lesson_fail(p, line, "'solution' needs a 'goal' line before it");
            return;
        }
        g->sol_first = l->action_count;
        int count = parse_action_list(p, line, rest, "solution");
        if (count == 0 && !p->failed) lesson_fail(p, line, "solution: no actions");
        if (count > 0) g->sol_count = count;
        return;
    }
    if (!strncmp(text, "predict", 7) && (text[7] == ' ' || text[7] == '\t')) {
        parse_predict(p, line, rest);
        return;
    }
    if (!strncmp(text, "see", 3) && (text[3] == ' ' || text[3] == '\t' || text[3] == '\0')) {
        /* see FILE.md: a link under the step's text to another lesson of this folder */
        if (p->cur_step < 0) {
            lesson_fail(p, line, "see: a link belongs to a step: put it after a '## Step' heading");
            return;
        }
        Lesson_Step *st = &l->steps[p->cur_step];
        size_t len = strlen(rest);
        bool plain = len > 3 && len < sizeof st->see && !strcmp(rest + len - 3, ".md") &&
                     rest[strspn(rest, "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ"
                                       "0123456789-_.")] == '\0';
        if (!plain) {
            lesson_fail(p, line,
                        "see: expected 'see FILE.md', a lesson's file name in this folder");
            return;
        }
        if (st->see[0]) {
            lesson_fail(p, line, "see: one link per step");
            return;
        }
        snprintf(st->see, sizeof st->see, "%s", rest);
        return;
    }
    char rest_copy[LESSON_MAX_LINE + 1];
    snprintf(rest_copy, sizeof rest_copy, "%s", rest);
    int nw = split(text, words, LESSON_MAX_WORDS);
    if (nw < 0) {
        lesson_fail(p, line, "more than %d words on one line", LESSON_MAX_WORDS);
        return;
    }
    int before = l->action_count;
    if (!parse_action(p, line, words, nw, rest_copy)) return;
    if (p->open_goal && p->open_goal->sol_count == 0) {
        lesson_fail(p, p->open_goal->line, "goal has no 'solution' line");
        return;
    }
    /* set-up: before the first step for the lesson, else for the step */
    if (p->cur_step < 0) {
        if (l->setup_count == 0) l->setup_first = before;
        if (l->setup_first + l->setup_count != before) {
            lesson_fail(p, line, "the lesson's set-up must be one block before the first step");
            return;
        }
        l->setup_count++;
    } else {
        Lesson_Step *st = &l->steps[p->cur_step];
        if (st->act_count == 0) st->act_first = before;
        if (st->act_first + st->act_count != before) {
            lesson_fail(p, line, "put a step's set-up before its goals");
            return;
        }
        st->act_count++;
    }
}
