/* The scaling view (the scaling lab): the reference's variance experiment
 * run live (raw and scaled dot products, their histograms and moments), and
 * how softmax sharpens with d_k with and without ÷√d_k, over the scene's S.
 * Its data is model/labs.h's, derived before the frame (view.c).
 *
 *   void scaling_frame(Ui *ui, View_State *vs, const Model *m, Rect r)
 */
#ifndef ATTN_SCALING_VIEW_H
#define ATTN_SCALING_VIEW_H

#include "view_state.h"

void scaling_frame(Ui *ui, View_State *vs, const Model *m, Rect r);

#endif
