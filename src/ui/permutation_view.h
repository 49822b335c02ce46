/* The permutation view (the permutation lab): the scene reordered, its
 * Attention(PX) beside P·Attention(X) and their difference, with the
 * permutation matrix and the reorder controls. Its data is model/labs.h's,
 * derived before the frame (view.c).
 *
 *   void permutation_frame(Ui *ui, View_State *vs, const Model *m, Rect r)
 */
#ifndef ATTN_PERMUTATION_VIEW_H
#define ATTN_PERMUTATION_VIEW_H

#include "view_state.h"

void permutation_frame(Ui *ui, View_State *vs, const Model *m, Rect r);

#endif
