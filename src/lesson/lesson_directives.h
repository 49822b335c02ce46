/* One line of an attnlab block: set-up actions, goals and their solutions
 * (the format of lessons/README.md), appended to the lesson being parsed.
 *
 *   void lesson_directive_line(Lesson_Parse *p, int line, char *text)
 *       text is modified; problems go through lesson_fail with the line
 * Its keywords, and the panels a step may point at: lesson_keywords.h. */
#ifndef ATTN_LESSON_DIRECTIVES_H
#define ATTN_LESSON_DIRECTIVES_H

#include "lesson_keywords.h"
#include "lesson_parse.h"

void lesson_directive_line(Lesson_Parse *p, int line, char *text);

#endif
