/* Lesson text and math to spans; see lesson_text.h. */
#include "lesson_text.h"

#include <stdio.h>
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

/* ---- formulas ---------------------------------------------------------------- */

void lesson_math(Lesson_Parse *p, const char *s, size_t n, bool display) {
    if (p->failed) return;
    char msg[200];
    if (!tex_parse(p->tex, s, n, msg, sizeof msg)) {
        lesson_fail(p, p->math_line, "%s", msg);
        return;
    }
    const Tex *t = p->tex;
    if (t->unknown && !p->l->tex_problem[0])
        snprintf(p->l->tex_problem, sizeof p->l->tex_problem, "%s:%d: unknown TeX command %.*s",
                 p->name, p->math_line, t->unknown_len > 60 ? 60 : t->unknown_len, t->unknown);
    lesson_add_span(p, SPAN_MATH, STYLE_MATH | (display ? STYLE_DISPLAY : 0), s, n);
}
