/* The mapping between data and screen that every 2D plot shares: the
 * embedding plane, the q–k plane, the o_i picture and the labs' axes.
 *
 *   float nice_span(float v)          the smallest 1, 1.5, 2, 3, 5 × 10^k covering v
 *   void plane_to_screen(const Plane_Map *p, float x, float y, float *sx, float *sy)
 *   void plane_from_screen(const Plane_Map *p, float sx, float sy, float *x, float *y)
 *   bool plane_label_spot(const Rect *placed, int count, float x, float y, float r, float w,
 *                         float lh, bool sideways, Rect *spot)
 *       a w × lh label for the point at (x, y) of radius r: above, below, right or left of
 *       it (sideways: right, left, above, below), the first that overlaps none of
 *       placed[0..count); false (spot: the first tried) if none
 */
#ifndef ATTN_PLANE_H
#define ATTN_PLANE_H

#include "view_state.h"

float nice_span(float v);
void plane_to_screen(const Plane_Map *p, float x, float y, float *sx, float *sy);
void plane_from_screen(const Plane_Map *p, float sx, float sy, float *x, float *y);
bool plane_label_spot(const Rect *placed, int count, float x, float y, float r, float w, float lh,
                      bool sideways, Rect *spot);

#endif
