/* The words of lesson directives: what the parser reads and
 * lessons/README.md documents, one list (a test holds the two together).
 *
 *   const Lesson_Keyword *lesson_keywords(Lesson_Keyword_Table table, int *count)
 *       the directive keywords (actions, goal, solution, predict) or the goal conditions,
 *       each with how it is written
 *   const Lesson_Keyword *lesson_keyword_find(Lesson_Keyword_Table table, const char *word)
 *       that keyword of the table, or NULL
 *   bool lesson_panel_known(const char *name)
 *       a panel `highlight` may point at ("none" too)
 */
#ifndef ATTN_LESSON_KEYWORDS_H
#define ATTN_LESSON_KEYWORDS_H

#include "lesson.h"

#include <stdbool.h>

#define LESSON_KEYWORDS_MAX 64 /* directive keywords, actions and the rest */

typedef struct Lesson_Keyword {
    const char *name;
    int kind; /* a Directive_Kind or Cond_Kind; -1 for goal and solution */
    const char *usage;
} Lesson_Keyword;

typedef enum Lesson_Keyword_Table {
    LESSON_KEYWORDS_ACTIONS,
    LESSON_KEYWORDS_CONDITIONS
} Lesson_Keyword_Table;

const Lesson_Keyword *lesson_keywords(Lesson_Keyword_Table table, int *count);
const Lesson_Keyword *lesson_keyword_find(Lesson_Keyword_Table table, const char *word);
bool lesson_panel_known(const char *name);

#endif
