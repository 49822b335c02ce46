/* The whole interface for one frame: top bar, token chips, the panels of
 * the current view (explorer.h, scaling_view.h, permutation_view.h, lesson_panel.h), overlays and
 * the status line. It reads the model and changes it only through model actions, so undo, lessons
 * and tests drive the same path as the mouse.
 *
 *   void view_frame(Ui *ui, View_State *vs, Model *m)    build the frame's draw list, apply input
 */
#ifndef ATTN_VIEW_H
#define ATTN_VIEW_H

#include "view_state.h"

void view_frame(Ui *ui, View_State *vs, Model *m);

#endif
