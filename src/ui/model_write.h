/* The Model view's next-token panel: the ten likeliest next tokens under a
 * temperature slider, or (its second mode, *write*) the writing panel: the
 * model writes after the text a token a step (model/real_gen.h). Buttons to
 * step, play or stop, and start again; the tokens written, a click on one
 * scrubbing back to its step; that step's ten candidates with the one chosen
 * marked; what the step cost against recomputing the whole pass; and the KV
 * cache of the open head's layer: the keys and values kept, a row a token,
 * beside the step's row of weights over them.
 *
 *   void model_next_panel(Ui *ui, View_State *vs, const Real_Lab *l, Rect r)
 *       the panel in r, its title and mode buttons, and the mode's body
 */
#ifndef ATTN_MODEL_WRITE_H
#define ATTN_MODEL_WRITE_H

#include "view_state.h"

void model_next_panel(Ui *ui, View_State *vs, const Real_Lab *l, Rect r);

#endif
