/* The explorer view, and the controls the labs share.
 *
 *   void explorer_frame(Ui *ui, View_State *vs, const Model *m, Rect r)
 *   int dk_slider(Ui *ui, View_State *vs, const Model *m, Rect r)     the d_k slider and its field
 *   void positions_controls(Ui *ui, View_State *vs, const Model *m, Rect choice, Rect param)
 *       the five positional schemes as buttons (or ◀ name ▶ where they do not fit), and the
 *       chosen one's number
 *   float positions_buttons_width(Ui *ui)     what the five buttons need side by side
 */
#ifndef ATTN_EXPLORER_H
#define ATTN_EXPLORER_H

#include "view_state.h"

void explorer_frame(Ui *ui, View_State *vs, const Model *m, Rect r);
int dk_slider(Ui *ui, View_State *vs, const Model *m, Rect r);
void positions_controls(Ui *ui, View_State *vs, const Model *m, Rect choice, Rect param);
float positions_buttons_width(Ui *ui);

#endif
