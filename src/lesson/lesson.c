/* Lessons: parsing a Markdown lesson with md4c; see lesson.h. The text and
 * math go to lesson_text.c, the attnlab blocks to lesson_directives.c. */
#define _POSIX_C_SOURCE 200809L
#include "../core/i18n.h"
#include "lesson.h"

#include "../core/fileio.h"
#include "../core/text.h"
#include "lesson_directives.h"
#include "lesson_parse.h"
#include "lesson_text.h"

#include <md4c.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* md4c hands over pointers into the text; their line comes from a table of
 * line starts built once per parse (a binary search, not a rescan: a
 * 100,000-line lesson checks in milliseconds). */
static int line_of(const Lesson_Parse *p, const char *ptr) {
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

/* ---- md4c callbacks -------------------------------------------------------- */

static void flush_code_line(Lesson_Parse *p) {
    p->code_line[p->code_len] = '\0';
    if (p->code_too_long) {
        p->code_too_long = false;
        p->code_len = 0;
        if (p->code_is_attnlab) {
            lesson_fail(p, p->code_line_no, _("directive line longer than %d bytes"),
                        LESSON_MAX_LINE);
            return;
        }
        /* code shown as text: a long line is kept whole, piece by piece */
    }
    if (p->code_is_attnlab)
        lesson_directive_line(p, p->code_line_no, p->code_line);
    else
        lesson_add_span(p, SPAN_TEXT, STYLE_CODE, p->code_line, (size_t)p->code_len);
    p->code_len = 0;
}

static int enter_block(MD_BLOCKTYPE type, void *detail, void *user) {
    Lesson_Parse *p = user;
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
        lesson_add_span(p, SPAN_HEADING, 0, "", 0);
        p->style |= STYLE_BOLD;
        return 0;
    }
    case MD_BLOCK_P:
        p->para_first_span = l->span_count;
        lesson_add_span(p, SPAN_PARAGRAPH, 0, "", 0);
        return 0;
    case MD_BLOCK_LI:
        lesson_add_span(p, SPAN_ITEM, 0, "", 0);
        return 0;
    case MD_BLOCK_CODE: {
        MD_BLOCK_CODE_DETAIL *d = detail;
        p->in_code = true;
        p->code_len = 0;
        p->code_line_no = 0;
        p->code_is_attnlab = d->lang.size == 7 && !strncmp(d->lang.text, "attnlab", 7);
        if (!p->code_is_attnlab) lesson_add_span(p, SPAN_PARAGRAPH, 0, "", 0);
        (void)l;
        return 0;
    }
    default:
        return 0;
    }
}

static int leave_block(MD_BLOCKTYPE type, void *detail, void *user) {
    Lesson_Parse *p = user;
    Lesson *l = p->l;
    if (p->failed) return 1;
    if (type == MD_BLOCK_H) {
        unsigned level = ((MD_BLOCK_H_DETAIL *)detail)->level;
        if ((level == 1 || level == 2) && p->heading_too_long)
            return lesson_fail(p, p->heading_line, _("heading longer than %d bytes"),
                               (int)sizeof p->heading - 1);
        if (level == 1) {
            if (!l->title[0]) snprintf(l->title, sizeof l->title, "%s", p->heading);
        } else if (level == 2) {
            if (p->open_goal && p->open_goal->sol_count == 0)
                return lesson_fail(p, p->open_goal->line, _("goal has no 'solution' line"));
            if (l->step_count == LESSON_MAX_STEPS)
                return lesson_fail(p, p->heading_line, _("more than %d steps"), LESSON_MAX_STEPS);
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
    } else if (type == MD_BLOCK_P) {
        /* a formula alone in its paragraph is display math */
        int math = -1, others = 0;
        for (int k = p->para_first_span + 1; k < l->span_count; k++) {
            const Lesson_Span *sp = &l->spans[k];
            bool blank =
                sp->kind == SPAN_TEXT && strspn(l->text + sp->off, " \t\n") >= (size_t)sp->len;
            if (sp->kind == SPAN_MATH)
                math = math < 0 ? k : -2;
            else if (!blank)
                others++;
        }
        if (math >= 0 && !others) l->spans[math].style |= STYLE_DISPLAY;
    }
    return 0;
}

static int enter_span(MD_SPANTYPE type, void *detail, void *user) {
    Lesson_Parse *p = user;
    (void)detail;
    if (type == MD_SPAN_STRONG) p->style |= STYLE_BOLD;
    if (type == MD_SPAN_EM) p->style |= STYLE_EMPH;
    if (type == MD_SPAN_CODE) p->style |= STYLE_CODE;
    if (type == MD_SPAN_LATEXMATH || type == MD_SPAN_LATEXMATH_DISPLAY) {
        p->in_math = true;
        p->math_display = type == MD_SPAN_LATEXMATH_DISPLAY;
        p->math_len = 0;
        p->math_too_long = false;
        p->math_line = p->last_line;
    }
    return 0;
}

static int leave_span(MD_SPANTYPE type, void *detail, void *user) {
    Lesson_Parse *p = user;
    (void)detail;
    if (type == MD_SPAN_STRONG) p->style &= ~STYLE_BOLD;
    if (type == MD_SPAN_EM) p->style &= ~STYLE_EMPH;
    if (type == MD_SPAN_CODE) p->style &= ~STYLE_CODE;
    if ((type == MD_SPAN_LATEXMATH || type == MD_SPAN_LATEXMATH_DISPLAY) && p->in_math) {
        p->in_math = false;
        if (p->math_too_long)
            return lesson_fail(p, p->math_line, _("formula longer than %d bytes"),
                               LESSON_MATH_BYTES);
        lesson_math(p, p->math, p->math_len, p->math_display);
        return p->failed;
    }
    return 0;
}

static int on_text(MD_TEXTTYPE type, const MD_CHAR *text, MD_SIZE size, void *user) {
    Lesson_Parse *p = user;
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
                lesson_add_span(p, SPAN_TEXT, STYLE_CODE, p->code_line, (size_t)p->code_len);
                p->code_len = 0;
            }
            p->code_line[p->code_len++] = text[k];
        }
        return p->failed;
    }
    if (p->in_math) { /* the formula is set whole when its span ends */
        if (p->math_len == 0 && line > 0) p->math_line = line;
        bool brk = type == MD_TEXT_SOFTBR || type == MD_TEXT_BR;
        size_t add = brk ? 1 : size;
        if (p->math_len + add > sizeof p->math) {
            p->math_too_long = true;
            return 0;
        }
        memcpy(p->math + p->math_len, brk ? " " : text, add);
        p->math_len += add;
        return 0;
    }
    switch (type) {
    case MD_TEXT_SOFTBR:
        lesson_add_span(p, SPAN_TEXT, p->style, " ", 1);
        break;
    case MD_TEXT_BR:
        lesson_add_span(p, SPAN_BREAK, 0, "", 0);
        break;
    case MD_TEXT_ENTITY:
        if (size == 5 && !strncmp(text, "&amp;", 5))
            lesson_add_span(p, SPAN_TEXT, p->style, "&", 1);
        else if (size == 4 && !strncmp(text, "&lt;", 4))
            lesson_add_span(p, SPAN_TEXT, p->style, "<", 1);
        else if (size == 4 && !strncmp(text, "&gt;", 4))
            lesson_add_span(p, SPAN_TEXT, p->style, ">", 1);
        else
            lesson_add_span(p, SPAN_TEXT, p->style, text, size);
        break;
    default:
        lesson_add_span(p, SPAN_TEXT, p->style, text, size);
        break;
    }
    return p->failed;
}

static bool parse_text(Lesson_Parse *p, Lesson *l, const char *text, size_t len);

bool lesson_parse(Lesson *l, const char *text, size_t len, const char *name, char *err,
                  size_t errsz) {
    memset(l, 0, sizeof *l);
    snprintf(l->path, sizeof l->path, "%s", name);
    Lesson_Parse p = {.l = l,
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
    p.tex = malloc(sizeof *p.tex);
    if (!p.tex) {
        free(p.line_start);
        snprintf(err, errsz, "%s: out of memory", name);
        return false;
    }
    bool ok = parse_text(&p, l, text, len);
    free(p.tex);
    free(p.line_start);
    return ok;
}

/* The lesson's text after the byte-order mark, with its line table built. */
static bool parse_text(Lesson_Parse *p, Lesson *l, const char *text, size_t len) {
    size_t bad;
    if (!text_utf8_check(text, len, &bad)) {
        int line = line_of(p, text + bad);
        lesson_fail(p, line, "%s",
                    text[bad] ? _("invalid UTF-8 (the file must be UTF-8)")
                              : _("NUL byte in the file"));
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
        lesson_fail(p, p->last_line, _("the Markdown could not be parsed"));
        return false;
    }
    if (p->open_goal && p->open_goal->sol_count == 0) {
        lesson_fail(p, p->open_goal->line, _("goal has no 'solution' line"));
        return false;
    }
    if (!l->title[0]) {
        lesson_fail(p, 1, _("a lesson must start with a '# Title' heading"));
        return false;
    }
    if (l->step_count == 0) {
        lesson_fail(p, p->last_line, _("a lesson needs at least one '## Step' heading"));
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

void lesson_sibling(const Lesson *l, const char *file, char *out, size_t size) {
    const char *slash = strrchr(l->path, '/');
    int dir = slash ? (int)(slash - l->path + 1) : 0;
    snprintf(out, size, "%.*s%s", dir, l->path, file);
}
