/* A lesson step's prediction, asked before the student acts: its question and answer buttons,
 * then the verdict and why, and the tally of predictions so far. A "later" prediction is
 * judged once the step's goal is met, on the model as it then stands.
 *
 *   float lesson_predict_box(Ui *ui, View_State *vs, const Model *m, const Lesson_Predict *pr,
 *                            Rect r, bool draw)
 *       the box of pr at r's top, r.w wide; the height it needs. Draws (and takes an answer)
 *       only when draw
 *   void lesson_predict_judge_later(View_State *vs, Model *m, const Lesson_Predict *pr)
 *       the verdict of a later prediction, now
 */
#ifndef ATTN_LESSON_PREDICT_H
#define ATTN_LESSON_PREDICT_H

#include "../lesson/lesson.h"
#include "../model/model.h"
#include "ui.h"
#include "view_state.h"

float lesson_predict_box(Ui *ui, View_State *vs, const Model *m, const Lesson_Predict *pr, Rect r,
                         bool draw);
void lesson_predict_judge_later(View_State *vs, Model *m, const Lesson_Predict *pr);

#endif
