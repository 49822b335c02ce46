/* The Model view (6): a real model (GPT-2 family) on a text the class
 * types. The text's BPE tokens as chips; every head's A as a thumbnail in a
 * layer × head grid, a click opening it; the open head's A beside its
 * value-weighted attention (a_ij·‖v_j W_O^h‖); the ten likeliest next tokens
 * under a temperature. Low windows (presenter at 2×) show one of the three
 * under tabs. With no model, where the platform looked and how to get GPT-2.
 *
 *   void real_update(const Ui *ui, View_State *vs, Model *m)
 *       before the layout: the text typed (live while editing, and on Enter), the head
 *       clicked, then a frame's slice of the pass (REAL_LAB_BUDGET_MS)
 *   void real_frame(Ui *ui, View_State *vs, const Model *m, Rect r)
 *       the view in r
 *   void real_start_editing(View_State *vs, const Model *m)
 *       the text into the editing field
 */
#ifndef ATTN_MODEL_VIEW_H
#define ATTN_MODEL_VIEW_H

#include "view_state.h"

void real_update(const Ui *ui, View_State *vs, Model *m);
void real_frame(Ui *ui, View_State *vs, const Model *m, Rect r);
void real_start_editing(View_State *vs, const Model *m);

#endif
