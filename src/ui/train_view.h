/* The Train view: one head learning a toy task, live.
 *
 *   void train_update(const Ui *ui, View_State *vs, Model *m)
 *       before the frame lays out (after the controls' actions, model_apply): while playing,
 *       a slice of steps (TRAIN_SLICE at d_k = 16, fewer for wider or compared heads), then
 *       the derived pictures
 *   void train_drain(const Ui *ui, View_State *vs, Model *m)
 *       every frame, in any view: a slice (TRAIN_DRAIN_UNITS) of the steps a lesson or
 *       "+100 steps" asked for, with the progress in the status line; Esc stops them
 *   void train_frame(Ui *ui, View_State *vs, const Model *m, Rect r)
 */
#ifndef ATTN_TRAIN_VIEW_H
#define ATTN_TRAIN_VIEW_H

#include "view_state.h"

#define TRAIN_SLICE                                                                                \
    16 /* steps per frame while playing (about 10 ms): the result never depends on the frame rate  \
        */

/* queued steps a frame may run, in steps of one head at d_k = 16 (about 0.65 ms
 * each here): some 10 ms, so the window keeps its frame rate while it trains */
#define TRAIN_DRAIN_UNITS 16

void train_update(const Ui *ui, View_State *vs, Model *m);
void train_drain(const Ui *ui, View_State *vs, Model *m);
void train_frame(Ui *ui, View_State *vs, const Model *m, Rect r);

#endif
