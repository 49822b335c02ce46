/* The one-line text field the views share while vs->editing: the explorer's sentence and the
 * Model view's text (or a model's folder). Typing, a selection with the pointer or Shift,
 * Ctrl+A C X V, Enter to apply and Esc to put back what it was.
 *
 *   void edit_field(Ui *ui, View_State *vs, Rect r)
 *       the field in r, and the keys it takes this frame
 */
#ifndef ATTN_EDIT_FIELD_H
#define ATTN_EDIT_FIELD_H

#include "ui.h"
#include "view_state.h"

void edit_field(Ui *ui, View_State *vs, Rect r);

#endif
