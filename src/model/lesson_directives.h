/* One line of an attnlab block: set-up actions, goals and their solutions
 * (the format of lessons/README.md), appended to the lesson being parsed.
 *
 *   void lesson_directive_line(Lesson_Parse *p, int line, char *text)
 *       text is modified; problems go through lesson_fail with the line
 *   const Lesson_Keyword *lesson_keywords(Lesson_Keyword_Table table, int *count)
 *       the directive keywords (actions, goal, solution) or the goal
 *       conditions, each with how it is written: the one list the parser
 *       reads and lessons/README.md documents
 */
#ifndef ATTN_LESSON_DIRECTIVES_H
#define ATTN_LESSON_DIRECTIVES_H

#include "lesson_parse.h"

typedef struct Lesson_Keyword {
    const char *name;
    int kind; /* a Directive_Kind or Cond_Kind; -1 for goal and solution */
    const char *usage;
} Lesson_Keyword;

typedef enum Lesson_Keyword_Table {
    LESSON_KEYWORDS_ACTIONS,
    LESSON_KEYWORDS_CONDITIONS
} Lesson_Keyword_Table;

void lesson_directive_line(Lesson_Parse *p, int line, char *text);
const Lesson_Keyword *lesson_keywords(Lesson_Keyword_Table table, int *count);

#endif
