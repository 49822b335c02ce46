/* Lesson text to styled spans: Markdown text runs, and formulas kept as TeX
 * (checked here, set as boxes by ui/math_layout).
 *
 *   void lesson_add_span(Lesson_Parse *p, int kind, int style, const char *s, size_t n)
 *       append a span (plain text merges into the run before it)
 *   void lesson_math(Lesson_Parse *p, const char *s, size_t n, bool display)
 *       a formula as a SPAN_MATH; one tex_parse cannot set is an error at p->math_line,
 *       and the first unknown command goes to the lesson's tex_problem
 */
#ifndef ATTN_LESSON_TEXT_H
#define ATTN_LESSON_TEXT_H

#include "lesson_parse.h"

void lesson_add_span(Lesson_Parse *p, int kind, int style, const char *s, size_t n);
void lesson_math(Lesson_Parse *p, const char *s, size_t n, bool display);

#endif
