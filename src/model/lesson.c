/* Lessons: parsing with md4c, directives, goals and the checker; see lesson.h. */
#define _POSIX_C_SOURCE 200809L
#include "lesson.h"

#include "../core/perm.h"
#include "../core/stats.h"
#include "../core/text.h"
#include "limits.h"
#include "../core/fileio.h"
#include "scene_file.h"

#include <ctype.h>
#include <dirent.h>
#include <errno.h>
#include <math.h>
#include <md4c.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static const char *const panel_names[] = {
    "plane",
    "controls",
    "S",
    "A",
    "Q",
    "K",
    "V",
    "query",
    "qk_plane",
    "experiment",
    "hist_raw",
    "hist_scaled",
    "entropy_plot",
    "max_plot",
    "scaling_controls",
    "P",
    "reorder",
    "verdict",
    "A_PX",
    "A_P",
    "A_diff",
    "O_PX",
    "O_P",
    "O_diff",
    "none",
};

/* ---- parsing state ------------------------------------------------------- */

typedef struct Parse {
    Lesson *l;
    const char *src;
    size_t len;
    const char *name;
    char *err;
    size_t errsz;
    bool failed;
    int depth_h;       /* inside a heading: 1 or 2 (0 = no) */
    char heading[128]; /* heading text being collected */
    int heading_line;
    bool in_code, code_is_attnlab;
    char code_line[LESSON_MAX_LINE + 2];
    bool code_too_long;
    int code_len, code_line_no, last_line;
    int style; /* current inline style bits */
    bool in_math;
    int cur_step;       /* -1 before the first step */
    size_t *line_start; /* offset of each line's first byte */
    int line_count;
    bool heading_too_long;
    Lesson_Goal *open_goal; /* the last goal, waiting for its solution */
} Parse;

/* md4c hands over pointers into the text; their line comes from a table of
 * line starts built once per parse (a binary search, not a rescan: a
 * 100,000-line lesson checks in milliseconds). */
static int line_of(const Parse *p, const char *ptr) {
    if (ptr < p->src || ptr > p->src + p->len) return -1;
    size_t off = (size_t)(ptr - p->src);
    int lo = 0, hi = p->line_count - 1; /* last start <= off */
    while (lo < hi) {
        int mid = lo + (hi - lo + 1) / 2;
        if (p->line_start[mid] <= off)
            lo = mid;
        else
            hi = mid - 1;
    }
    return lo + 1;
}

static int fail(Parse *p, int line, const char *fmt, ...) {
    if (p->failed) return 1;
    char msg[400];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(msg, sizeof msg, fmt, ap);
    va_end(ap);
    snprintf(p->err, p->errsz, "%s:%d: %s", p->name, line, msg);
    p->failed = true;
    return 1; /* non-zero stops md4c */
}

static int add_text(Parse *p, const char *s, size_t n) {
    Lesson *l = p->l;
    if (l->text_len + (int)n > LESSON_TEXT_BYTES) return -1;
    memcpy(l->text + l->text_len, s, n);
    int off = l->text_len;
    l->text_len += (int)n;
    return off;
}

static void add_span(Parse *p, int kind, int style, const char *s, size_t n) {
    Lesson *l = p->l;
    if (p->failed) return;
    if (l->span_count == LESSON_MAX_SPANS) {
        fail(p, p->last_line, "the lesson has too much text (more than %d pieces)",
             LESSON_MAX_SPANS);
        return;
    }
    int off = n ? add_text(p, s, n) : l->text_len;
    if (off < 0) {
        fail(p, p->last_line, "the lesson has more than %d bytes of text", LESSON_TEXT_BYTES);
        return;
    }
    /* merge plain text into the previous run of the same style */
    Lesson_Span *prev = l->span_count ? &l->spans[l->span_count - 1] : NULL;
    if (kind == SPAN_TEXT && prev && prev->kind == SPAN_TEXT && prev->style == style &&
        prev->off + prev->len == off) {
        prev->len += (int)n;
        return;
    }
    l->spans[l->span_count++] =
        (Lesson_Span){(unsigned char)kind, (unsigned char)style, off, (int)n};
    if (p->cur_step >= 0) l->steps[p->cur_step].span_count++;
}

/* ---- LaTeX math → Unicode text with sub/superscript runs ------------------ */

static const struct {
    const char *cmd, *text;
} latex_symbols[] = {
    {"sqrt", "√"},      {"sum", "Σ"},         {"langle", "⟨"},    {"rangle", "⟩"},
    {"cdot", "·"},      {"approx", "≈"},      {"le", "≤"},        {"leq", "≤"},
    {"ge", "≥"},        {"geq", "≥"},         {"top", "ᵀ"},       {"in", "∈"},
    {"ldots", "…"},     {"dots", "…"},        {"rho", "ρ"},       {"ne", "≠"},
    {"neq", "≠"},       {"times", "×"},       {"to", "→"},        {"infty", "∞"},
    {"mathbb{E}", "E"}, {"ell", "ℓ"},         {"quad", "  "},     {"qquad", "    "},
    {"mid", "|"},       {"partial", "∂"},     {"mathbb{R}", "ℝ"}, {"exp", "exp"},
    {"log", "log"},     {"max", "max"},       {"left", ""},       {"right", ""},
    {"!", ""},          {",", " "},           {";", " "},         {"{", "{"},
    {"}", "}"},         {"operatorname", ""}, {"mathbf", ""},     {"mathrm", ""},
    {"text", ""},       {"alpha", "α"},       {"beta", "β"},      {"sigma", "σ"},
    {"mu", "μ"},        {"frac", ""},         {"Var", "Var"},     {"Cov", "Cov"},
};

static void math(Parse *p, const char *s, size_t n, int base_style, int depth);

/* The argument of a command: {…} (balanced) or one character. */
static size_t math_group(const char *s, size_t n, const char **inner, size_t *inner_len) {
    if (n == 0) {
        *inner = s;
        *inner_len = 0;
        return 0;
    }
    if (s[0] != '{') {
        size_t k = 1;
        if (s[0] == '\\') {
            while (k < n && isalpha((unsigned char)s[k])) k++;
        } else {
            while (k < n && ((unsigned char)s[k] & 0xC0) == 0x80) k++;
        }
        *inner = s;
        *inner_len = k;
        return k;
    }
    int depth = 0;
    for (size_t k = 0; k < n; k++) {
        if (s[k] == '{') depth++;
        if (s[k] == '}' && --depth == 0) {
            *inner = s + 1;
            *inner_len = k - 1;
            return k + 1;
        }
    }
    *inner = s + 1;
    *inner_len = n - 1;
    return n;
}

static void math(Parse *p, const char *s, size_t n, int base_style, int depth) {
    /* Each ^{…}, _{…} and \\frac{…}{…} is a level; a real formula needs a
     * few, and a limit keeps a hostile one from exhausting the stack. */
    if (depth > LESSON_MAX_MATH_DEPTH) {
        fail(p, p->last_line, "formula nested deeper than %d levels", LESSON_MAX_MATH_DEPTH);
        return;
    }
    size_t k = 0;
    while (k < n && !p->failed) {
        char c = s[k];
        if (c == '^' || c == '_') {
            const char *in;
            size_t in_len, used = math_group(s + k + 1, n - k - 1, &in, &in_len);
            math(p, in, in_len,
                 (base_style & ~(STYLE_SUB | STYLE_SUP)) | (c == '^' ? STYLE_SUP : STYLE_SUB),
                 depth + 1);
            k += 1 + used;
            continue;
        }
        if (c == '{' || c == '}') {
            k++;
            continue;
        }
        if (c == '\\') {
            size_t j = k + 1;
            while (j < n && isalpha((unsigned char)s[j])) j++;
            if (j == k + 1 && j < n) j++; /* \, \! \{ … */
            size_t clen = j - k - 1;
            const char *rep = NULL;
            for (size_t t = 0; t < sizeof latex_symbols / sizeof *latex_symbols; t++)
                if (strlen(latex_symbols[t].cmd) == clen &&
                    !strncmp(latex_symbols[t].cmd, s + k + 1, clen))
                    rep = latex_symbols[t].text;
            if (clen == 4 && !strncmp(s + k + 1, "frac", 4)) {
                const char *a, *b;
                size_t al, bl, u1 = math_group(s + j, n - j, &a, &al);
                size_t u2 = math_group(s + j + u1, n - j - u1, &b, &bl);
                math(p, a, al, base_style, depth + 1);
                add_span(p, SPAN_TEXT, base_style, "/", 1);
                bool wrap = memchr(b, '+', bl) || memchr(b, '-', bl) || memchr(b, ' ', bl);
                if (wrap) add_span(p, SPAN_TEXT, base_style, "(", 1);
                math(p, b, bl, base_style, depth + 1);
                if (wrap) add_span(p, SPAN_TEXT, base_style, ")", 1);
                k = j + u1 + u2;
                continue;
            }
            if (!rep) rep = ""; /* unknown commands vanish rather than show backslashes */
            add_span(p, SPAN_TEXT, base_style, rep, strlen(rep));
            k = j;
            continue;
        }
        /* plain math text: LaTeX ignores spaces in math; a comma gets one */
        if (c == ' ') {
            k++;
            continue;
        }
        size_t j = k;
        while (j < n && !strchr("^_{}\\ ,=<>", s[j])) j++;
        if (j == k) j = k + 1; /* a lone '=', '<' or '>' */
        if (j == k && s[j] == ',') {
            add_span(p, SPAN_TEXT, base_style, ", ", 2);
            k++;
            continue;
        }
        if (j - k == 1 && strchr("=<>", s[k])) { /* relations get room to breathe */
            char rel[4] = {' ', s[k], ' ', 0};
            add_span(p, SPAN_TEXT, base_style, rel, 3);
            k++;
            continue;
        }
        add_span(p, SPAN_TEXT, base_style, s + k, j - k);
        k = j;
    }
}

/* ---- directives ---------------------------------------------------------- */

static Lesson_Action *new_action(Parse *p, int line) {
    Lesson *l = p->l;
    if (l->action_count == LESSON_MAX_ACTIONS) {
        fail(p, line, "more than %d directives in one lesson", LESSON_MAX_ACTIONS);
        return NULL;
    }
    Lesson_Action *a = &l->actions[l->action_count++];
    memset(a, 0, sizeof *a);
    a->line = line;
    return a;
}

/* Whole strings only (core/text.h): "500" followed by junk is not 500, and
 * a seed is read as the integer it is, never through a float. */
static bool parse_long(const char *w, int64_t lo, int64_t hi, int64_t *dest) {
    return text_parse_i64(w, lo, hi, dest) == TEXT_NUM_OK;
}

static bool parse_double(const char *w, double *dest) {
    return text_parse_f64(w, -HUGE_VAL, HUGE_VAL, dest) == TEXT_NUM_OK;
}

/* Words of a line; -1 if there are more than max (never a silent cut). */
static int split(char *line, char **words, int max) {
    int n = 0;
    for (char *t = strtok(line, " \t"); t; t = strtok(NULL, " \t")) {
        if (n == max) return -1;
        words[n++] = t;
    }
    return n;
}

static bool token_word_ok(const char *w) {
    return strlen(w) > 0 && strlen(w) < 32;
}

/* One action from words; used for set-up lines and for each solution step. */
static bool parse_action(Parse *p, int line, char **w, int nw, const char *rest) {
    const char *k = w[0];
    Lesson_Action *a = NULL;
    int64_t v;
    double f;
#define NEED(count, usage)                                                                         \
    do {                                                                                           \
        if (nw != (count)) return fail(p, line, "%s: expected '%s'", k, usage), false;             \
    } while (0)
    if (!strcmp(k, "scene")) {
        NEED(2, "scene FILE");
        if (!(a = new_action(p, line))) return false;
        a->kind = ACT_SCENE;
        if (strlen(w[1]) >= sizeof a->text || strchr(w[1], '/'))
            return fail(p, line, "scene: '%s' must be a file name in assets/scenes", w[1]), false;
        snprintf(a->text, sizeof a->text, "%s", w[1]);
    } else if (!strcmp(k, "tokens")) {
        if (nw < 2) return fail(p, line, "tokens: expected 'tokens WORD…'"), false;
        if (!(a = new_action(p, line))) return false;
        a->kind = ACT_TOKENS;
        if (strlen(rest) >= sizeof a->text)
            return fail(p, line, "tokens: at most %d characters", (int)sizeof a->text - 1), false;
        snprintf(a->text, sizeof a->text, "%s", rest);
    } else if (!strcmp(k, "dk") || !strcmp(k, "dv") || !strcmp(k, "d") || !strcmp(k, "seed")) {
        NEED(2, "dk N");
        int64_t hi = !strcmp(k, "d")      ? ATTN_MAX_D
                     : !strcmp(k, "seed") ? (int64_t)ATTN_MAX_SEED
                                          : ATTN_MAX_DK;
        int64_t lo = !strcmp(k, "seed") ? 0 : 1;
        if (!parse_long(w[1], lo, hi, &v))
            return fail(p, line, "%s: '%s' is not a whole number from %lld to %lld", k, w[1],
                        (long long)lo, (long long)hi),
                   false;
        if (!(a = new_action(p, line))) return false;
        a->kind = !strcmp(k, "dk")   ? ACT_DK
                  : !strcmp(k, "dv") ? ACT_DV
                  : !strcmp(k, "d")  ? ACT_D
                                     : ACT_SEED;
        if (a->kind == ACT_SEED)
            a->seed = (uint32_t)v;
        else
            a->i = (int)v;
    } else if (!strcmp(k, "scale")) {
        NEED(2, "scale on|off");
        if (strcmp(w[1], "on") && strcmp(w[1], "off"))
            return fail(p, line, "scale: expected 'on' or 'off', not '%s'", w[1]), false;
        if (!(a = new_action(p, line))) return false;
        a->kind = ACT_SCALE;
        a->i = !strcmp(w[1], "on");
    } else if (!strcmp(k, "pos")) {
        if (nw < 2 || nw > 3)
            return fail(p, line, "pos: expected 'pos none' or 'pos sin [STRENGTH]'"), false;
        Pos_Mode mode;
        if (!pos_mode_parse(w[1], &mode))
            return fail(p, line, "pos: expected 'none' or 'sin', not '%s'", w[1]), false;
        f = 1.0;
        if (nw == 3 && (!parse_double(w[2], &f) || f < 0 || f > ATTN_MAX_POS_STRENGTH))
            return fail(p, line, "pos: strength '%s' is not a number from 0 to %g", w[2],
                        ATTN_MAX_POS_STRENGTH),
                   false;
        if (!(a = new_action(p, line))) return false;
        a->kind = ACT_POS;
        a->i = mode;
        a->x = (float)f;
    } else if (!strcmp(k, "view")) {
        NEED(2, "view explorer|scaling|permutation");
        View vi;
        if (!view_parse(w[1], &vi))
            return fail(p, line, "view: '%s' is not one of explorer, scaling, permutation", w[1]),
                   false;
        if (!(a = new_action(p, line))) return false;
        a->kind = ACT_VIEW;
        a->i = vi;
    } else if (!strcmp(k, "order")) {
        if (nw < 2 || nw - 1 > LESSON_MAX_ORDER)
            return fail(p, line, "order: expected 1 to %d token positions", LESSON_MAX_ORDER),
                   false;
        if (!(a = new_action(p, line))) return false;
        a->kind = ACT_ORDER;
        a->n = nw - 1;
        for (int t = 0; t < a->n; t++) {
            if (!parse_long(w[t + 1], 0, LESSON_MAX_ORDER - 1, &v))
                return fail(p, line, "order: '%s' is not a token position", w[t + 1]), false;
            a->order[t] = (int)v;
        }
        char why[120];
        if (!perm_validate(a->order, a->n, why, sizeof why))
            return fail(p, line, "order: not a permutation: %s", why), false;
    } else if (!strcmp(k, "select")) {
        NEED(2, "select TOKEN");
        if (!token_word_ok(w[1])) return fail(p, line, "select: bad token '%s'", w[1]), false;
        if (!(a = new_action(p, line))) return false;
        a->kind = ACT_SELECT;
        snprintf(a->text, sizeof a->text, "%s", w[1]);
    } else if (!strcmp(k, "move")) {
        NEED(4, "move TOKEN X Y");
        double x, y;
        if (!parse_double(w[2], &x) || !parse_double(w[3], &y) || fabs(x) > ATTN_MAX_ABS_X ||
            fabs(y) > ATTN_MAX_ABS_X)
            return fail(p, line, "move: '%s %s' are not two numbers within ±%g", w[2], w[3],
                        ATTN_MAX_ABS_X),
                   false;
        if (!token_word_ok(w[1])) return fail(p, line, "move: bad token '%s'", w[1]), false;
        if (!(a = new_action(p, line))) return false;
        a->kind = ACT_MOVE;
        snprintf(a->text, sizeof a->text, "%s", w[1]);
        a->x = (float)x;
        a->y = (float)y;
    } else if (!strcmp(k, "reverse") || !strcmp(k, "shuffle") || !strcmp(k, "restore")) {
        NEED(1, k);
        if (!(a = new_action(p, line))) return false;
        a->kind = !strcmp(k, "reverse")   ? ACT_REVERSE
                  : !strcmp(k, "shuffle") ? ACT_SHUFFLE
                                          : ACT_RESTORE;
    } else if (!strcmp(k, "rotate")) {
        if (nw > 2) return fail(p, line, "rotate: expected 'rotate [K]'"), false;
        v = 1;
        if (nw == 2 && !parse_long(w[1], -LESSON_MAX_ORDER, LESSON_MAX_ORDER, &v))
            return fail(p, line, "rotate: '%s' is not a whole number", w[1]), false;
        if (!(a = new_action(p, line))) return false;
        a->kind = ACT_ROTATE;
        a->i = (int)v;
    } else if (!strcmp(k, "highlight")) {
        NEED(2, "highlight PANEL");
        bool known = false;
        for (size_t t = 0; t < sizeof panel_names / sizeof *panel_names; t++)
            known |= !strcmp(w[1], panel_names[t]);
        if (!known)
            return fail(p, line,
                        "highlight: unknown panel '%s' (plane, controls, S, A, Q, K, V, query, …)",
                        w[1]),
                   false;
        if (!(a = new_action(p, line))) return false;
        a->kind = ACT_HIGHLIGHT;
        snprintf(a->text, sizeof a->text, "%s", w[1]);
    } else {
        return fail(p, line, "unknown directive '%s'", k), false;
    }
#undef NEED
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
static bool parse_cond(Parse *p, int line, char **w, int nw, Lesson_Cond *c) {
    memset(c, 0, sizeof *c);
    const char *k = w[0];
    if (!strcmp(k, "weight") || !strcmp(k, "score")) {
        if (nw != 5) return fail(p, line, "goal: expected '%s QUERY KEY > NUMBER'", k), false;
        c->kind = !strcmp(k, "weight") ? COND_WEIGHT : COND_SCORE;
        if (!token_word_ok(w[1]) || !token_word_ok(w[2]))
            return fail(p, line, "goal: bad token"), false;
        snprintf(c->a, sizeof c->a, "%s", w[1]);
        snprintf(c->b, sizeof c->b, "%s", w[2]);
        if (!parse_cmp(w[3], &c->cmp))
            return fail(p, line, "goal: expected one of > >= < <= = before '%s'", w[4]), false;
        if (!parse_double(w[4], &c->value))
            return fail(p, line, "goal: '%s' is not a number", w[4]), false;
    } else if (!strcmp(k, "x")) {
        int64_t axis;
        if (nw != 5 || !token_word_ok(w[1]) || !parse_long(w[2], 0, ATTN_MAX_D - 1, &axis))
            return fail(p, line, "goal: expected 'x TOKEN COORDINATE > NUMBER'"), false;
        c->kind = COND_X;
        snprintf(c->a, sizeof c->a, "%s", w[1]);
        c->i = (int)axis;
        if (!parse_cmp(w[3], &c->cmp))
            return fail(p, line, "goal: expected one of > >= < <= = before '%s'", w[4]), false;
        if (!parse_double(w[4], &c->value))
            return fail(p, line, "goal: '%s' is not a number", w[4]), false;
    } else if (!strcmp(k, "d") || !strcmp(k, "n")) {
        if (nw != 3) return fail(p, line, "goal: expected '%s > NUMBER'", k), false;
        c->kind = !strcmp(k, "d") ? COND_D : COND_N;
        if (!parse_cmp(w[1], &c->cmp))
            return fail(p, line, "goal: expected one of > >= < <= = after '%s'", k), false;
        if (!parse_double(w[2], &c->value))
            return fail(p, line, "goal: '%s' is not a number", w[2]), false;
    } else if (!strcmp(k, "dk") || !strcmp(k, "dv") || !strcmp(k, "mean-max") ||
               !strcmp(k, "mean-entropy") || !strcmp(k, "perm-diff")) {
        if (nw != 3) return fail(p, line, "goal: expected '%s > NUMBER'", k), false;
        c->kind = !strcmp(k, "dk")             ? COND_DK
                  : !strcmp(k, "dv")           ? COND_DV
                  : !strcmp(k, "mean-max")     ? COND_MEAN_MAX
                  : !strcmp(k, "mean-entropy") ? COND_MEAN_ENTROPY
                                               : COND_PERM_DIFF;
        if (!parse_cmp(w[1], &c->cmp))
            return fail(p, line, "goal: expected one of > >= < <= = after '%s'", k), false;
        if (!parse_double(w[2], &c->value))
            return fail(p, line, "goal: '%s' is not a number", w[2]), false;
    } else if (!strcmp(k, "scale")) {
        if (nw != 2 || (strcmp(w[1], "on") && strcmp(w[1], "off")))
            return fail(p, line, "goal: expected 'scale on' or 'scale off'"), false;
        c->kind = COND_SCALE;
        c->i = !strcmp(w[1], "on");
    } else if (!strcmp(k, "pos")) {
        Pos_Mode m;
        if (nw != 2 || !pos_mode_parse(w[1], &m))
            return fail(p, line, "goal: expected 'pos none' or 'pos sin'"), false;
        c->kind = COND_POS;
        c->i = m;
    } else if (!strcmp(k, "view")) {
        View vi = VIEW_EXPLORER;
        if (nw != 2 || !view_parse(w[1], &vi))
            return fail(p, line, "goal: expected 'view explorer|scaling|permutation'"), false;
        c->kind = COND_VIEW;
        c->i = vi;
    } else if (!strcmp(k, "order")) {
        static const char *const o[3] = {"reversed", "original", "changed"};
        int oi = 0;
        while (nw == 2 && oi < 3 && strcmp(w[1], o[oi])) oi++;
        if (nw != 2 || oi == 3)
            return fail(p, line, "goal: expected 'order reversed|original|changed'"), false;
        c->kind = COND_ORDER;
        c->i = oi;
    } else if (!strcmp(k, "selected")) {
        if (nw != 2 || !token_word_ok(w[1]))
            return fail(p, line, "goal: expected 'selected TOKEN'"), false;
        c->kind = COND_SELECTED;
        snprintf(c->a, sizeof c->a, "%s", w[1]);
    } else {
        return fail(p, line, "goal: unknown condition '%s'", k), false;
    }
    return true;
}

static void directive_line(Parse *p, int line, char *text) {
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
            fail(p, line, "goals belong to a step: put them after a '## Step' heading");
            return;
        }
        if (p->open_goal && p->open_goal->sol_count == 0) {
            fail(p, p->open_goal->line, "goal has no 'solution' line");
            return;
        }
        Lesson_Step *st = &l->steps[p->cur_step];
        if (st->goal_count == LESSON_MAX_GOALS) {
            fail(p, line, "more than %d goals in one step", LESSON_MAX_GOALS);
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
                fail(p, line, "goal: the text after ' : ' is longer than %d bytes",
                     (int)sizeof g->label - 1);
                return;
            }
            snprintf(g->label, sizeof g->label, "%s", colon + 3);
        }
        /* conditions joined by 'and' */
        char *cursor = body;
        while (cursor && !p->failed) {
            char *and = strstr(cursor, " and ");
            if (and) *and = '\0';
            char *w[8];
            int nw = split(cursor, w, 8);
            if (nw < 0) {
                fail(p, line, "goal: a condition has more than 8 words");
                return;
            }
            if (nw == 0) {
                fail(p, line, "goal: empty condition");
                return;
            }
            if (g->cond_count == LESSON_MAX_CONDS) {
                fail(p, line, "goal: at most %d conditions", LESSON_MAX_CONDS);
                return;
            }
            if (!parse_cond(p, line, w, nw, &g->conds[g->cond_count])) return;
            g->cond_count++;
            cursor = and? and+5 : NULL;
        }
        g->sol_first = l->action_count;
        p->open_goal = g;
        return;
    }
    if (!strncmp(text, "solution", 8) && (text[8] == ' ' || text[8] == '\t' || text[8] == '\0')) {
        Lesson_Goal *g = p->open_goal;
        if (!g || g->sol_count) {
            fail(p, line, "'solution' needs a 'goal' line before it");
            return;
        }
        g->sol_first = l->action_count;
        /* actions separated by ';' */
        for (const char *seg = rest; !p->failed;) {
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
            if (nw < 0) {
                fail(p, line, "solution: an action has more than %d words", LESSON_MAX_WORDS);
                return;
            }
            if (nw > 0) {
                if (!strcmp(w[0], "highlight") || !strcmp(w[0], "scene")) {
                    fail(p, line, "solution: '%s' is not something a student does", w[0]);
                    return;
                }
                if (!parse_action(p, line, w, nw, rest_copy)) return;
                g->sol_count++;
            }
            if (!semi) break;
            seg = semi + 1;
        }
        if (g->sol_count == 0 && !p->failed) fail(p, line, "solution: no actions");
        return;
    }
    char rest_copy[LESSON_MAX_LINE + 1];
    snprintf(rest_copy, sizeof rest_copy, "%s", rest);
    int nw = split(text, words, LESSON_MAX_WORDS);
    if (nw < 0) {
        fail(p, line, "more than %d words on one line", LESSON_MAX_WORDS);
        return;
    }
    int before = l->action_count;
    if (!parse_action(p, line, words, nw, rest_copy)) return;
    if (p->open_goal && p->open_goal->sol_count == 0) {
        fail(p, p->open_goal->line, "goal has no 'solution' line");
        return;
    }
    /* set-up: before the first step for the lesson, else for the step */
    if (p->cur_step < 0) {
        if (l->setup_count == 0) l->setup_first = before;
        if (l->setup_first + l->setup_count != before) {
            fail(p, line, "the lesson's set-up must be one block before the first step");
            return;
        }
        l->setup_count++;
    } else {
        Lesson_Step *st = &l->steps[p->cur_step];
        if (st->act_count == 0) st->act_first = before;
        if (st->act_first + st->act_count != before) {
            fail(p, line, "put a step's set-up before its goals");
            return;
        }
        st->act_count++;
    }
}

/* ---- md4c callbacks -------------------------------------------------------- */

static void flush_code_line(Parse *p) {
    p->code_line[p->code_len] = '\0';
    if (p->code_too_long) {
        p->code_too_long = false;
        p->code_len = 0;
        if (p->code_is_attnlab) {
            fail(p, p->code_line_no, "directive line longer than %d bytes", LESSON_MAX_LINE);
            return;
        }
        /* code shown as text: a long line is kept whole, piece by piece */
    }
    if (p->code_is_attnlab)
        directive_line(p, p->code_line_no, p->code_line);
    else
        add_span(p, SPAN_TEXT, STYLE_CODE, p->code_line, (size_t)p->code_len);
    p->code_len = 0;
}

static int enter_block(MD_BLOCKTYPE type, void *detail, void *user) {
    Parse *p = user;
    Lesson *l = p->l;
    if (p->failed) return 1;
    switch (type) {
    case MD_BLOCK_H: {
        unsigned level = ((MD_BLOCK_H_DETAIL *)detail)->level;
        if (level == 1 || level == 2) {
            p->depth_h = (int)level;
            p->heading[0] = '\0';
            p->heading_too_long = false;
            p->heading_line = p->last_line; /* until its text says where it is */
            return 0;
        }
        add_span(p, SPAN_HEADING, 0, "", 0);
        p->style |= STYLE_BOLD;
        return 0;
    }
    case MD_BLOCK_P:
        add_span(p, SPAN_PARAGRAPH, 0, "", 0);
        return 0;
    case MD_BLOCK_LI:
        add_span(p, SPAN_ITEM, 0, "", 0);
        return 0;
    case MD_BLOCK_CODE: {
        MD_BLOCK_CODE_DETAIL *d = detail;
        p->in_code = true;
        p->code_len = 0;
        p->code_line_no = 0;
        p->code_is_attnlab = d->lang.size == 7 && !strncmp(d->lang.text, "attnlab", 7);
        if (!p->code_is_attnlab) add_span(p, SPAN_PARAGRAPH, 0, "", 0);
        (void)l;
        return 0;
    }
    default:
        return 0;
    }
}

static int leave_block(MD_BLOCKTYPE type, void *detail, void *user) {
    Parse *p = user;
    Lesson *l = p->l;
    if (p->failed) return 1;
    if (type == MD_BLOCK_H) {
        unsigned level = ((MD_BLOCK_H_DETAIL *)detail)->level;
        if ((level == 1 || level == 2) && p->heading_too_long)
            return fail(p, p->heading_line, "heading longer than %d bytes",
                        (int)sizeof p->heading - 1);
        if (level == 1) {
            if (!l->title[0]) snprintf(l->title, sizeof l->title, "%s", p->heading);
        } else if (level == 2) {
            if (p->open_goal && p->open_goal->sol_count == 0)
                return fail(p, p->open_goal->line, "goal has no 'solution' line");
            if (l->step_count == LESSON_MAX_STEPS)
                return fail(p, p->heading_line, "more than %d steps", LESSON_MAX_STEPS);
            Lesson_Step *st = &l->steps[l->step_count];
            memset(st, 0, sizeof *st);
            st->line = p->heading_line;
            snprintf(st->title, sizeof st->title, "%s", p->heading);
            /* the lesson's introduction (text before the first step) opens step 1 */
            st->span_first = l->step_count == 0 ? 0 : l->span_count;
            st->span_count = l->step_count == 0 ? l->span_count : 0;
            p->cur_step = l->step_count++;
            p->open_goal = NULL;
        } else {
            p->style &= ~STYLE_BOLD;
        }
        p->depth_h = 0;
    } else if (type == MD_BLOCK_CODE) {
        if (p->code_len) flush_code_line(p);
        p->in_code = false;
    }
    return 0;
}

static int enter_span(MD_SPANTYPE type, void *detail, void *user) {
    Parse *p = user;
    (void)detail;
    if (type == MD_SPAN_STRONG) p->style |= STYLE_BOLD;
    if (type == MD_SPAN_EM) p->style |= STYLE_EMPH;
    if (type == MD_SPAN_CODE) p->style |= STYLE_CODE;
    if (type == MD_SPAN_LATEXMATH || type == MD_SPAN_LATEXMATH_DISPLAY) p->style |= STYLE_MATH;
    return 0;
}

static int leave_span(MD_SPANTYPE type, void *detail, void *user) {
    Parse *p = user;
    (void)detail;
    if (type == MD_SPAN_STRONG) p->style &= ~STYLE_BOLD;
    if (type == MD_SPAN_EM) p->style &= ~STYLE_EMPH;
    if (type == MD_SPAN_CODE) p->style &= ~STYLE_CODE;
    if (type == MD_SPAN_LATEXMATH || type == MD_SPAN_LATEXMATH_DISPLAY) p->style &= ~STYLE_MATH;
    return 0;
}

static int on_text(MD_TEXTTYPE type, const MD_CHAR *text, MD_SIZE size, void *user) {
    Parse *p = user;
    if (p->failed) return 1;
    int line = line_of(p, text);
    if (line > 0) p->last_line = line;
    if (p->depth_h == 1 || p->depth_h == 2) {
        size_t used = strlen(p->heading);
        if (used == 0 && line > 0) p->heading_line = line;
        if (used + size >= sizeof p->heading) {
            p->heading_too_long = true;
            return 0;
        }
        memcpy(p->heading + used, text, size);
        p->heading[used + size] = '\0';
        return 0;
    }
    if (p->in_code) {
        /* code arrives in pieces; directives are whole lines */
        for (MD_SIZE k = 0; k < size; k++) {
            if (p->code_len == 0 && p->code_line_no == 0)
                p->code_line_no = line > 0 ? line : p->last_line;
            if (text[k] == '\n') {
                flush_code_line(p);
                p->code_line_no = line > 0 ? line + 1 : p->code_line_no + 1;
                if (line > 0) line++;
                continue;
            }
            if (p->code_len == LESSON_MAX_LINE) {
                if (p->code_is_attnlab) {
                    p->code_too_long = true; /* reported when the line ends */
                    continue;
                }
                p->code_line[p->code_len] = '\0';
                add_span(p, SPAN_TEXT, STYLE_CODE, p->code_line, (size_t)p->code_len);
                p->code_len = 0;
            }
            p->code_line[p->code_len++] = text[k];
        }
        return p->failed;
    }
    switch (type) {
    case MD_TEXT_SOFTBR:
        add_span(p, SPAN_TEXT, p->style, " ", 1);
        break;
    case MD_TEXT_BR:
        add_span(p, SPAN_BREAK, 0, "", 0);
        break;
    case MD_TEXT_LATEXMATH:
        math(p, text, size, p->style, 0);
        break;
    case MD_TEXT_ENTITY:
        if (size == 5 && !strncmp(text, "&amp;", 5))
            add_span(p, SPAN_TEXT, p->style, "&", 1);
        else if (size == 4 && !strncmp(text, "&lt;", 4))
            add_span(p, SPAN_TEXT, p->style, "<", 1);
        else if (size == 4 && !strncmp(text, "&gt;", 4))
            add_span(p, SPAN_TEXT, p->style, ">", 1);
        else
            add_span(p, SPAN_TEXT, p->style, text, size);
        break;
    default:
        add_span(p, SPAN_TEXT, p->style, text, size);
        break;
    }
    return p->failed;
}

static bool parse_text(Parse *p, Lesson *l, const char *text, size_t len);

bool lesson_parse(Lesson *l, const char *text, size_t len, const char *name, char *err,
                  size_t errsz) {
    memset(l, 0, sizeof *l);
    snprintf(l->path, sizeof l->path, "%s", name);
    Parse p = {.l = l,
               .src = text,
               .len = len,
               .name = name,
               .err = err,
               .errsz = errsz,
               .cur_step = -1,
               .last_line = 1};
    /* A byte-order mark is how some editors start a UTF-8 file; skip it.
     * Line numbers are unaffected. */
    if (len >= 3 && !memcmp(text, "\xEF\xBB\xBF", 3)) {
        text += 3;
        len -= 3;
        p.src = text;
        p.len = len;
    }
    p.line_count = 1;
    for (size_t k = 0; k < len; k++) p.line_count += text[k] == '\n';
    p.line_start = malloc((size_t)p.line_count * sizeof *p.line_start);
    if (!p.line_start) {
        snprintf(err, errsz, "%s: out of memory", name);
        return false;
    }
    p.line_start[0] = 0;
    for (size_t k = 0, at = 1; k < len; k++)
        if (text[k] == '\n') p.line_start[at++] = k + 1;
    bool ok = parse_text(&p, l, text, len);
    free(p.line_start);
    return ok;
}

/* The lesson's text after the byte-order mark, with its line table built. */
static bool parse_text(Parse *p, Lesson *l, const char *text, size_t len) {
    size_t bad;
    if (!text_utf8_check(text, len, &bad)) {
        int line = line_of(p, text + bad);
        fail(p, line, "%s",
             text[bad] ? "invalid UTF-8 (the file must be UTF-8)" : "NUL byte in the file");
        return false;
    }
    MD_PARSER parser = {
        .abi_version = 0,
        .flags = MD_DIALECT_GITHUB | MD_FLAG_LATEXMATHSPANS | MD_FLAG_NOHTML,
        .enter_block = enter_block,
        .leave_block = leave_block,
        .enter_span = enter_span,
        .leave_span = leave_span,
        .text = on_text,
    };
    int rc = md_parse(text, (MD_SIZE)len, &parser, p);
    if (p->failed) return false;
    if (rc != 0) {
        fail(p, p->last_line, "the Markdown could not be parsed");
        return false;
    }
    if (p->open_goal && p->open_goal->sol_count == 0) {
        fail(p, p->open_goal->line, "goal has no 'solution' line");
        return false;
    }
    if (!l->title[0]) {
        fail(p, 1, "a lesson must start with a '# Title' heading");
        return false;
    }
    if (l->step_count == 0) {
        fail(p, p->last_line, "a lesson needs at least one '## Step' heading");
        return false;
    }
    return true;
}

bool lesson_load(Lesson *l, const char *path, char *err, size_t errsz) {
    char *text;
    size_t len;
    if (!file_read_all(path, LESSON_FILE_MAX, &text, &len, err, errsz)) return false;
    bool ok = lesson_parse(l, text, len, path, err, errsz);
    free(text);
    return ok;
}

/* ---- acting on the model ------------------------------------------------------ */

/* A token reference: "#3" is position 3; a word is its first occurrence
 * (ignoring ASCII case). -1 if there is no such token. */
int lesson_find_token(const Scene *s, const char *ref) {
    if (ref[0] == '#') {
        int64_t v;
        if (!parse_long(ref + 1, 0, s->n - 1, &v)) return -1;
        return (int)v;
    }
    for (int i = 0; i < s->n; i++) {
        const char *a = s->tokens[i], *b = ref;
        while (*a && *b && tolower((unsigned char)*a) == tolower((unsigned char)*b)) a++, b++;
        if (!*a && !*b) return i;
    }
    return -1;
}

bool lesson_apply(const Lesson *l, int first, int count, Lesson_Env *env, char *err, size_t errsz) {
    Model *m = env->m;
    for (int k = first; k < first + count; k++) {
        const Lesson_Action *a = &l->actions[k];
        Scene *s = &m->scene;
        char why[400];
        switch (a->kind) {
        case ACT_SCENE: {
            char path[1200];
            size_t dl = strlen(env->data_dir);
            snprintf(path, sizeof path, "%.*s/assets/scenes/%s",
                     (int)(dl && env->data_dir[dl - 1] == '/' ? dl - 1 : dl), env->data_dir,
                     a->text);
            static Scene next;
            FILE *probe = fopen(path, "r");
            if (!probe) {
                snprintf(err, errsz, "%s:%d: scene: no file '%s' in assets/scenes", l->path,
                         a->line, a->text);
                return false;
            }
            fclose(probe);
            if (!scene_load(&next, path, m->vocab, why, sizeof why)) {
                snprintf(err, errsz, "%s:%d: scene: %s", l->path, a->line, why);
                return false;
            }
            model_replace_scene(m, &next);
            env->selected = 0;
            break;
        }
        case ACT_TOKENS:
            if (!model_set_sentence(m, a->text, why, sizeof why)) {
                snprintf(err, errsz, "%s:%d: tokens: %s", l->path, a->line, why);
                return false;
            }
            env->selected = 0;
            break;
        case ACT_DK:
            model_set_dk(m, a->i);
            break;
        case ACT_DV:
            model_set_dv(m, a->i);
            break;
        case ACT_D:
            model_set_d(m, a->i);
            break;
        case ACT_SEED:
            model_set_seed(m, a->seed);
            break;
        case ACT_SCALE:
            model_set_scaled(m, a->i != 0);
            break;
        case ACT_POS:
            model_set_pos(m, (Pos_Mode)a->i);
            if (a->i == POS_SIN) model_set_pos_strength(m, a->x);
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
            model_permute(m, p);
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
                model_move_token(m, i, 0, a->x, s->d > 1 ? 1 : 0, s->d > 1 ? a->y : a->x);
            break;
        }
        case ACT_REVERSE:
            model_reverse(m);
            break;
        case ACT_SHUFFLE:
            model_shuffle(m, s->seed + 17u);
            break;
        case ACT_ROTATE:
            model_rotate(m, a->i);
            break;
        case ACT_RESTORE:
            model_restore_order(m);
            break;
        case ACT_HIGHLIGHT:
            snprintf(env->highlight, sizeof env->highlight, "%s",
                     strcmp(a->text, "none") ? a->text : "");
            break;
        }
    }
    if (!model_update(m)) {
        snprintf(err, errsz, "%s: out of memory", l->path);
        return false;
    }
    return true;
}

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

int lesson_goal_met(const Lesson_Goal *g, Lesson_Env *env, char *err, size_t errsz) {
    Model *m = env->m;
    if (!model_update(m)) return -1;
    const Scene *s = &m->scene;
    const Attn *a = &m->derived.attn;
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
                ok = env->selected == i;
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
            ok = env->view == c->i;
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
            snprintf(one, sizeof one, "positions %s", c->i ? "on" : "off");
            break;
        case COND_VIEW:
            snprintf(one, sizeof one, "open the %s view", view_name((View)c->i));
            break;
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
        }
        used += (size_t)snprintf(buf + used, size - used, k ? " and %s" : "%s", one);
    }
}

bool lesson_check(const Lesson *l, const Vocab *vocab, const char *data_dir, char *err,
                  size_t errsz) {
    /* Play the lesson from the default scene, step after step, the way a
     * student who always succeeds would. */
    static Model m;
    static Scene start;
    char path[1200];
    snprintf(path, sizeof path, "%s/assets/scenes/default.json", data_dir);
    if (!scene_load(&start, path, vocab, err, errsz)) return false;
    if (!model_init(&m, &start, vocab)) {
        snprintf(err, errsz, "%s: out of memory", l->path);
        return false;
    }
    Lesson_Env env = {.m = &m, .data_dir = data_dir};
    bool ok = lesson_apply(l, l->setup_first, l->setup_count, &env, err, errsz);
    for (int s = 0; ok && s < l->step_count; s++) {
        const Lesson_Step *st = &l->steps[s];
        ok = lesson_apply(l, st->act_first, st->act_count, &env, err, errsz);
        for (int g = 0; ok && g < st->goal_count; g++) {
            const Lesson_Goal *goal = &st->goals[g];
            char why[300];
            int met = lesson_goal_met(goal, &env, why, sizeof why);
            if (met < 0) {
                snprintf(err, errsz, "%s:%d: %s", l->path, goal->line, why);
                ok = false;
            } else if (met == 1) {
                snprintf(err, errsz, "%s:%d: goal is already met when the step starts", l->path,
                         goal->line);
                ok = false;
            } else if (!lesson_apply(l, goal->sol_first, goal->sol_count, &env, err, errsz)) {
                ok = false;
            } else if ((met = lesson_goal_met(goal, &env, why, sizeof why)) != 1) {
                if (met < 0)
                    snprintf(err, errsz, "%s:%d: %s", l->path, goal->line, why);
                else
                    snprintf(err, errsz, "%s:%d: the solution does not reach its goal", l->path,
                             goal->line);
                ok = false;
            }
        }
    }
    model_free(&m);
    return ok;
}

static int by_path(const void *a, const void *b) {
    return strcmp(a, b);
}

bool lesson_index_scan(Lesson_Index *index, const char *dir, char *err, size_t errsz) {
    memset(index, 0, sizeof *index);
    DIR *d = opendir(dir);
    if (!d) {
        snprintf(err, errsz, "%s: cannot open: %s", dir, strerror(errno));
        return false;
    }
    char(*names)[512] = malloc(sizeof(char[LESSON_INDEX_MAX][512]));
    Lesson *scratch = malloc(sizeof *scratch);
    if (!names || !scratch) {
        free(names);
        free(scratch);
        closedir(d);
        snprintf(err, errsz, "%s: out of memory", dir);
        return false;
    }
    int count = 0;
    for (struct dirent *e = readdir(d); e; e = readdir(d)) {
        size_t n = strlen(e->d_name);
        if (n < 4 || strcmp(e->d_name + n - 3, ".md") || !strcmp(e->d_name, "README.md")) continue;
        if (count == LESSON_INDEX_MAX) {
            index->skipped++;
            continue;
        }
        size_t dl = strlen(dir);
        snprintf(names[count++], sizeof names[0], "%.*s/%.*s",
                 (int)(dl && dir[dl - 1] == '/' ? dl - 1 : dl), dir, 250, e->d_name);
    }
    closedir(d);
    qsort(names, (size_t)count, sizeof names[0], by_path);
    for (int k = 0; k < count; k++) {
        snprintf(index->path[index->count], sizeof index->path[0], "%s", names[k]);
        char why[600];
        /* lesson_load refuses FIFOs and devices at once, and a hostile file
         * fails with its FILE:LINE instead of stopping the scan */
        if (lesson_load(scratch, names[k], why, sizeof why)) {
            snprintf(index->title[index->count], sizeof index->title[0], "%s", scratch->title);
        } else {
            const char *base = strrchr(names[k], '/');
            snprintf(index->title[index->count], sizeof index->title[0], "%.120s",
                     base ? base + 1 : names[k]);
            snprintf(index->error[index->count], sizeof index->error[0], "%.399s", why);
            index->broken++;
        }
        index->count++;
    }
    free(names);
    free(scratch);
    return true;
}
