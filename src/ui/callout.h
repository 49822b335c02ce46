/* The presenter's hover callout.
 *
 *   void callout_hover(Ui *ui, const View_State *vs, const Model *m)
 *       the hovered cell's arithmetic (or what is under the pointer) in a large box beside
 *       it, the score on one line and the weight on the next; never over the cell, its row,
 *       its column or the headers above S's and A's cells
 */
#ifndef ATTN_CALLOUT_H
#define ATTN_CALLOUT_H

#include "view_state.h"

void callout_hover(Ui *ui, const View_State *vs, const Model *m);

#endif
