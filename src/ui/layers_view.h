/* The Train view's "layers" model: an attention-only transformer learning
 * the induction task live (model/stack_lab.h).
 *
 *   bool layers_update(const Ui *ui, View_State *vs, Model *m)
 *       before the frame lays out (after the controls' actions, model_apply): while
 *       playing, a slice of steps, LAYERS_PACE a second of view time or, fast, what
 *       LAYERS_FAST_UNITS afford; then the derived pictures. False when the Train view shows
 *       the one-head lab instead
 *   void layers_frame(Ui *ui, View_State *vs, const Model *m, Rect left, Rect r)
 *       the controls in `left`; the loss, the heads' scores and every head's A in `r`
 */
#ifndef ATTN_LAYERS_VIEW_H
#define ATTN_LAYERS_VIEW_H

#include "view_state.h"

#define LAYERS_PACE       60 /* steps a second while playing: the phase change takes seconds */
#define LAYERS_FAST_UNITS 16 /* fast: a frame's steps cost about TRAIN_DRAIN_UNITS */

bool layers_update(const Ui *ui, View_State *vs, Model *m);
void layers_frame(Ui *ui, View_State *vs, const Model *m, Rect left, Rect r);

#endif
