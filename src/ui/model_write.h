/* The Model view's writing panel (the next-token panel's second mode): the
 * model writes after the text a token a step (model/real_gen.h). Buttons to
 * step, play or stop, and start again; the tokens written, a click on one
 * scrubbing back to its step; that step's ten candidates with the one chosen
 * marked; what the step cost against recomputing the whole pass; and the KV
 * cache of the open head's layer: the keys and values kept, a row a token,
 * beside the step's row of weights over them.
 *
 *   void model_write_panel(Ui *ui, View_State *vs, const Real_Lab *l, Rect r, Rect side)
 *       the panel's body in r, and where side has a width (a wide, low panel) the candidates
 *       and the cache there, beside the rest; clicks go to vs->real_req.write and
 *       vs->real_gen_shown
 *   bool model_write_wide(const Theme *t, Rect r)
 *       whether a body this shape puts the candidates and the cache beside the rest
 */
#ifndef ATTN_MODEL_WRITE_H
#define ATTN_MODEL_WRITE_H

#include "view_state.h"

void model_write_panel(Ui *ui, View_State *vs, const Real_Lab *l, Rect r, Rect side);
bool model_write_wide(const Theme *t, Rect r);

#endif
