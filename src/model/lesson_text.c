/* Lesson text and math to spans; see lesson_text.h. */
#include "lesson_text.h"

#include <ctype.h>
#include <string.h>

static int add_text(Lesson_Parse *p, const char *s, size_t n) {
    Lesson *l = p->l;
    if (l->text_len + (int)n > LESSON_TEXT_BYTES) return -1;
    memcpy(l->text + l->text_len, s, n);
    int off = l->text_len;
    l->text_len += (int)n;
    return off;
}

void lesson_add_span(Lesson_Parse *p, int kind, int style, const char *s, size_t n) {
    Lesson *l = p->l;
    if (p->failed) return;
    if (l->span_count == LESSON_MAX_SPANS) {
        lesson_fail(p, p->last_line, "the lesson has too much text (more than %d pieces)",
                    LESSON_MAX_SPANS);
        return;
    }
    int off = n ? add_text(p, s, n) : l->text_len;
    if (off < 0) {
        lesson_fail(p, p->last_line, "the lesson has more than %d bytes of text",
                    LESSON_TEXT_BYTES);
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

void lesson_math(Lesson_Parse *p, const char *s, size_t n, int base_style, int depth) {
    /* Each ^{…}, _{…} and \\frac{…}{…} is a level; a real formula needs a
     * few, and a limit keeps a hostile one from exhausting the stack. */
    if (depth > LESSON_MAX_MATH_DEPTH) {
        lesson_fail(p, p->last_line, "formula nested deeper than %d levels", LESSON_MAX_MATH_DEPTH);
        return;
    }
    size_t k = 0;
    while (k < n && !p->failed) {
        char c = s[k];
        if (c == '^' || c == '_') {
            const char *in;
            size_t in_len, used = math_group(s + k + 1, n - k - 1, &in, &in_len);
            lesson_math(p, in, in_len,
                        (base_style & ~(STYLE_SUB | STYLE_SUP)) |
                            (c == '^' ? STYLE_SUP : STYLE_SUB),
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
                lesson_math(p, a, al, base_style, depth + 1);
                lesson_add_span(p, SPAN_TEXT, base_style, "/", 1);
                bool wrap = memchr(b, '+', bl) || memchr(b, '-', bl) || memchr(b, ' ', bl);
                if (wrap) lesson_add_span(p, SPAN_TEXT, base_style, "(", 1);
                lesson_math(p, b, bl, base_style, depth + 1);
                if (wrap) lesson_add_span(p, SPAN_TEXT, base_style, ")", 1);
                k = j + u1 + u2;
                continue;
            }
            if (!rep) rep = ""; /* unknown commands vanish rather than show backslashes */
            lesson_add_span(p, SPAN_TEXT, base_style, rep, strlen(rep));
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
            lesson_add_span(p, SPAN_TEXT, base_style, ", ", 2);
            k++;
            continue;
        }
        if (j - k == 1 && strchr("=<>", s[k])) { /* relations get room to breathe */
            char rel[4] = {' ', s[k], ' ', 0};
            lesson_add_span(p, SPAN_TEXT, base_style, rel, 3);
            k++;
            continue;
        }
        lesson_add_span(p, SPAN_TEXT, base_style, s + k, j - k);
        k = j;
    }
}
