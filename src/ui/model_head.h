/* The Model view's open head (see model_view.h): its weights beside its value-weighted
 * attention on one scale, its lines, its queries and keys in one plane, or several heads side by
 * side; and the row of buttons the view's panels share.
 *
 *   void model_open_head(Ui *ui, View_State *vs, const Model *m, const char *const *names,
 *                        int count, bool lit, Rect r)
 *       the panel of m's open head in r; names are the shown tokens' labels (count of them),
 *       lit frames the panel for a lesson step
 *   void model_button_row(Ui *ui, const char *name, const char *const *names, int count, Rect r,
 *                         int *now)
 *       count buttons sharing r, *now the one picked; a click picks another. Each is as wide
 *       as its label plus an equal share of what is left in its row; where the labels do not
 *       fit in one row, they take as many as model_button_row_height gave room for
 *   float model_button_row_height(Ui *ui, const char *const *names, int count, float width)
 *       the height those buttons need at that width: one row, or more where a label would
 *       be cut
 */
#ifndef ATTN_MODEL_HEAD_H
#define ATTN_MODEL_HEAD_H

#include "../model/model.h"
#include "ui.h"
#include "view_state.h"

void model_open_head(Ui *ui, View_State *vs, const Model *m, const char *const *names, int count,
                     bool lit, Rect r);
float model_button_row_height(Ui *ui, const char *const *names, int count, float width);
void model_button_row(Ui *ui, const char *name, const char *const *names, int count, Rect r,
                      int *now);

#endif
