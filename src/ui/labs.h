/* The scaling lab and the permutation lab.
 *
 *   bool labs_derive(const View_State *vs, Model *m)
 *       before the frame lays out: the current lab's experiment, curves or comparison, computed
 *       only when what they depend on changed; false when out of memory
 *   void scaling_frame(Ui *ui, View_State *vs, const Model *m, Rect r)
 *   void permutation_frame(Ui *ui, View_State *vs, const Model *m, Rect r)
 *   void plot_frame(Ui *ui, Rect r)      the dark plotting area with its border
 */
#ifndef ATTN_UI_LABS_H
#define ATTN_UI_LABS_H

#include "view_state.h"

bool labs_derive(const View_State *vs, Model *m);
void scaling_frame(Ui *ui, View_State *vs, const Model *m, Rect r);
void permutation_frame(Ui *ui, View_State *vs, const Model *m, Rect r);
void plot_frame(Ui *ui, Rect r);

#endif
