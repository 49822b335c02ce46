/* Lesson text to styled spans: Markdown text runs and LaTeX math turned into
 * Unicode with sub- and superscript runs.
 *
 *   void lesson_add_span(Lesson_Parse *p, int kind, int style, const char *s, size_t n)
 *       append a span (plain text merges into the run before it)
 *   void lesson_math(Lesson_Parse *p, const char *s, size_t n, int base_style, int depth)
 *       a formula's TeX as spans; nesting past LESSON_MAX_MATH_DEPTH is an error
 */
#ifndef ATTN_LESSON_TEXT_H
#define ATTN_LESSON_TEXT_H

#include "lesson_parse.h"

void lesson_add_span(Lesson_Parse *p, int kind, int style, const char *s, size_t n);
void lesson_math(Lesson_Parse *p, const char *s, size_t n, int base_style, int depth);

#endif
