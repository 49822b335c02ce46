/* The explorer view, and the controls the labs share.
 *
 *   void explorer_frame(Ui *ui, View_State *vs, const Model *m, Rect r)
 *   int dk_slider(Ui *ui, View_State *vs, const Model *m, Rect r)     the d_k slider and its field
 */
#ifndef ATTN_EXPLORER_H
#define ATTN_EXPLORER_H

#include "view_state.h"

void explorer_frame(Ui *ui, View_State *vs, const Model *m, Rect r);
int dk_slider(Ui *ui, View_State *vs, const Model *m, Rect r);

#endif
