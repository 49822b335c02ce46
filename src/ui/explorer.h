/* The explorer view, and the controls and plane mapping the labs share.
 *
 *   void explorer_frame(Ui *ui, View_State *vs, const Model *m, Rect r)
 *   int dk_slider(Ui *ui, View_State *vs, const Model *m, Rect r)     the d_k slider and its field
 *   void positions_controls(Ui *ui, View_State *vs, const Model *m, Rect toggle, Rect slider,
 *                           const char *label)                    positions on/off and strength
 *   float nice_span(float v)          the smallest 1, 1.5, 2, 3, 5 × 10^k covering v
 *   void plane_to_screen(const Plane_Map *p, float x, float y, float *sx, float *sy)
 *   void plane_from_screen(const Plane_Map *p, float sx, float sy, float *x, float *y)
 */
#ifndef ATTN_EXPLORER_H
#define ATTN_EXPLORER_H

#include "view_state.h"

void explorer_frame(Ui *ui, View_State *vs, const Model *m, Rect r);
int dk_slider(Ui *ui, View_State *vs, const Model *m, Rect r);
void positions_controls(Ui *ui, View_State *vs, const Model *m, Rect toggle, Rect slider,
                        const char *label);
float nice_span(float v);
void plane_to_screen(const Plane_Map *p, float x, float y, float *sx, float *sy);
void plane_from_screen(const Plane_Map *p, float sx, float sy, float *x, float *y);

#endif
