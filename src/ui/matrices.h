/* The matrices of one attention layer as panels: the Q, K, V and O strips
 * (and the q–k plane when d_k = 2), X, and the selected query's row with its
 * output built as a weighted sum.
 *
 *   float matrix_max_abs(const float *x, long count)
 *       the largest finite |x| (masked scores are −∞), at least 1e-6
 *   void strips_panel(Ui *ui, View_State *vs, const Model *m, Rect r,
 *       const char *const *labels)
 *   void query_panel(Ui *ui, View_State *vs, const Model *m, Rect r)
 *   void x_panel(Ui *ui, View_State *vs, const Model *m, Rect r)
 *       X with numbers; the row being dragged stands out
 *   void heads_strip(Ui *ui, View_State *vs, const Model *m, Rect r)
 *       H > 1: every head's A small, side by side; a click shows that head everywhere
 */
#ifndef ATTN_MATRICES_H
#define ATTN_MATRICES_H

#include "view_state.h"

float matrix_max_abs(const float *x, long count);
void strips_panel(Ui *ui, View_State *vs, const Model *m, Rect r, const char *const *labels);
void query_panel(Ui *ui, View_State *vs, const Model *m, Rect r);
void x_panel(Ui *ui, View_State *vs, const Model *m, Rect r);
void heads_strip(Ui *ui, View_State *vs, const Model *m, Rect r);

#endif
