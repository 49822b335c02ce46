/* The state of one lesson parse, shared by the files that fill a Lesson:
 * lesson.c (Markdown structure through md4c), lesson_text.c (text and math
 * to spans) and lesson_directives.c (attnlab blocks to actions and goals).
 * Not for use outside those three.
 *
 *   int lesson_fail(Lesson_Parse *p, int line, const char *fmt, ...)
 *       record "NAME:LINE: message" once; returns 1, which stops md4c
 */
#ifndef ATTN_LESSON_PARSE_H
#define ATTN_LESSON_PARSE_H

#include "lesson.h"
#include "tex.h"

#include <stdarg.h>
#include <stdbool.h>
#include <stdio.h>

typedef struct Lesson_Parse {
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
    bool in_math, math_display;
    char math[LESSON_MATH_BYTES]; /* the formula being collected */
    size_t math_len;
    bool math_too_long;
    int math_line;
    Tex *tex;            /* for checking each formula */
    int para_first_span; /* where the open paragraph's spans start */
    int cur_step;        /* -1 before the first step */
    size_t *line_start;  /* offset of each line's first byte */
    int line_count;
    bool heading_too_long;
    Lesson_Goal *open_goal; /* the last goal, waiting for its solution */
} Lesson_Parse;

static inline int lesson_fail(Lesson_Parse *p, int line, const char *fmt, ...) {
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

#endif
