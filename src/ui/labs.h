/* The scaling lab and the permutation lab.
 *
 *   void scaling_frame(Ui *ui, View_State *vs, Model *m, Rect r)
 *   void permutation_frame(Ui *ui, View_State *vs, Model *m, Rect r)
 *   void plot_frame(Ui *ui, Rect r)      the dark plotting area with its border
 */
#ifndef ATTN_UI_LABS_H
#define ATTN_UI_LABS_H

#include "view_state.h"

void scaling_frame(Ui *ui, View_State *vs, Model *m, Rect r);
void permutation_frame(Ui *ui, View_State *vs, Model *m, Rect r);
void plot_frame(Ui *ui, Rect r);

#endif
