/* Lesson goals, checked against the live state.
 *
 *   int lesson_goal_met(const Lesson_Goal *g, Model *m, int view, int selected, char *err,
 *       size_t errsz)
 *       against the model (up to date: model_update done; the permutation lab's comparison is
 *       computed on demand), the view shown and the query selected: 1 met, 0 not yet, -1
 *       cannot be evaluated (err says why)
 *   void lesson_goal_describe(const Lesson_Goal *g, char *buf, size_t size)
 *       the goal's conditions in words, for a goal without a label
 */
#ifndef ATTN_LESSON_GOALS_H
#define ATTN_LESSON_GOALS_H

#include "lesson_play.h"

int lesson_goal_met(const Lesson_Goal *g, Model *m, int view, int selected, char *err,
                    size_t errsz);
void lesson_goal_describe(const Lesson_Goal *g, char *buf, size_t size);

#endif
