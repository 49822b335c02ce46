/* The shift lab: the whole sentence moved later in a document, and its words
 * reordered, under each positional scheme at once.
 *
 *   void shift_frame(Ui *ui, View_State *vs, const Model *m, Rect r)
 */
#ifndef ATTN_SHIFT_VIEW_H
#define ATTN_SHIFT_VIEW_H

#include "view_state.h"

void shift_frame(Ui *ui, View_State *vs, const Model *m, Rect r);

#endif
