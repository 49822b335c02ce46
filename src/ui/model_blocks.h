/* The Model view's block diagram: the open model as boxes, as its kinds are
 * (LayerNorm or RMSNorm, GELU or SwiGLU, positions added or RoPE, heads
 * sharing key/value heads or not), with what each layer's attention and MLP
 * add to the residual stream beside it.
 *
 *   void model_block_diagram(Ui *ui, View_State *vs, const Real_Lab *l, Rect body)
 *       the diagram of l's model in body; hovering a box puts its numbers in
 *       vs->hover_text, a click on a layer's attention asks to open that layer
 */
#ifndef ATTN_MODEL_BLOCKS_H
#define ATTN_MODEL_BLOCKS_H

#include "../model/real_lab.h"
#include "ui.h"
#include "view_state.h"

void model_block_diagram(Ui *ui, View_State *vs, const Real_Lab *l, Rect body);

#endif
