/* Lesson goals, checked against the live state.
 *
 *   int lesson_goal_met(const Lesson_Goal *g, Model *m, int view, int selected, char *err,
 *       size_t errsz)
 *       against the model (up to date: model_update done; the permutation lab's comparison is
 *       computed on demand), the view shown and the query selected: 1 met, 0 not yet, -1
 *       cannot be evaluated (err says why)
 *   bool lesson_goal_trains(const Lesson_Goal *g)
 *       whether it depends on the training lab (loss, trained, loss-other)
 *   bool lesson_goal_needs_model(const Lesson_Goal *g)
 *       whether it reads the Model view's real model (head-prev, head-first, head-prefix,
 * head-turn, weighted-first, model-change): with none attached it is not met, and the checker skips
 * it with a note int lesson_goal_unjudged(const Lesson_Goal *g, const Real_Lab *r) 0 when the
 * checker can judge it with r; 1 when it reads a real model and none is attached; 2 when it reads
 * RoPE's turn (head-turn) and the model has no RoPE void lesson_goal_describe(const Lesson_Goal *g,
 * char *buf, size_t size) the goal's conditions in words, for a goal without a label int
 * lesson_predict_truth(const Lesson *l, const Lesson_Predict *pr, const Model *m, int view, int
 * selected, const char *data_dir, char *answer, size_t answersz, char *err, size_t errsz) the right
 * answer, judged on a copy of m after the prediction's 'after' actions: 1 or 0 for yes/no; for a
 * key, its position (0-based), named in answer as lesson_key_name does. -1 (and err) when it cannot
 * be told: no such token, the top key a tie between two positions (copies of one word too), or out
 * of memory; err then starts with the lesson's FILE:LINE int lesson_predict_later(const
 * Lesson_Predict *pr, Model *m, int view, int selected, char *answer, size_t answersz, char *err,
 * size_t errsz) a "predict later" question's answer on m as it stands (its step's goals met, its
 *       training done): 1 yes, 0 no, -1 (and err) when it cannot be told
 *   void lesson_key_name(const Scene *s, int j, char *out, size_t outsz)
 *       token j as a student tells it apart: “cat”, or the second “the” when the word
 *       comes more than once
 */
#ifndef ATTN_LESSON_GOALS_H
#define ATTN_LESSON_GOALS_H

#include "lesson_play.h"

int lesson_goal_met(const Lesson_Goal *g, Model *m, int view, int selected, char *err,
                    size_t errsz);
bool lesson_goal_trains(const Lesson_Goal *g);
bool lesson_goal_needs_model(const Lesson_Goal *g);
int lesson_goal_unjudged(const Lesson_Goal *g, const Real_Lab *r);
void lesson_goal_describe(const Lesson_Goal *g, char *buf, size_t size);
int lesson_predict_truth(const Lesson *l, const Lesson_Predict *pr, const Model *m, int view,
                         int selected, const char *data_dir, char *answer, size_t answersz,
                         char *err, size_t errsz);
int lesson_predict_later(const Lesson_Predict *pr, Model *m, int view, int selected, char *answer,
                         size_t answersz, char *err, size_t errsz);
void lesson_key_name(const Scene *s, int j, char *out, size_t outsz);

#endif
