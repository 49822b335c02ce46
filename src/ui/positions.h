/* The positional schemes' controls, shared by the explorer, the permutation
 * and shift labs and the Train view.
 *
 *   void positions_controls(Ui *ui, View_State *vs, const Model *m, Rect choice, Rect param)
 *       the scene's scheme (positions_pick under the name "pos") and its number: the
 *       strength of an added term, RoPE's base, or ALiBi's slope
 *   int positions_pick(Ui *ui, const char *const ids[3], Rect r, int now)
 *       five buttons ids[0] 0 … 4 where they fit, else ids[1] ◀ scheme ▶ ids[2] (string
 *       literals: the layout record keeps the pointers); returns the scheme picked this
 *       frame, or -1
 *   int positions_pick_first(Ui *ui, const char *const ids[3], Rect r, int now, int n)
 *       the same with only the first n schemes (4: all but ALiBi, for the layers lab)
 *   float positions_buttons_width(Ui *ui)     what the five buttons need side by side
 *   const char *positions_name(int mode)      "none", "sin", "learned", "RoPE", "ALiBi"
 */
#ifndef ATTN_POSITIONS_H
#define ATTN_POSITIONS_H

#include "view_state.h"

void positions_controls(Ui *ui, View_State *vs, const Model *m, Rect choice, Rect param);
int positions_pick(Ui *ui, const char *const ids[3], Rect r, int now);
int positions_pick_first(Ui *ui, const char *const ids[3], Rect r, int now, int n);
float positions_buttons_width(Ui *ui);
const char *positions_name(int mode);

#endif
