/* The lesson panel and its keys (the menu: lesson_menu.h).
 *
 *   void lesson_update(const Ui *ui, View_State *vs, Model *m)
 *       before the frame lays out: enter, step (the keys ← → PageUp PageDown Home End, or the
 *       panel's buttons last frame), leave, and play "show me", applying the lesson's actions
 *   void lesson_frame(Ui *ui, View_State *vs, const Model *m, Rect r)
 *       the step's text, formulas set as boxes with live values from m, and goals; its
 *       buttons ask lesson_update for a step
 *   Rect lesson_formula_figure(Ui *ui, View_State *vs, const Model *m, const char *tex, bool draw)
 *       one formula as the panel sets it in display, on the panel's background with its padding;
 *       the size it needs (0 × 0 if it cannot be set), drawn at the origin when draw
 *   bool lesson_enter(View_State *vs, Model *m, char *err, size_t errsz)
 *       start the loaded lesson, keeping the user's scene to give back
 *   void lesson_leave(View_State *vs, Model *m)   give the user's scene back
 */
#ifndef ATTN_LESSON_PANEL_H
#define ATTN_LESSON_PANEL_H

#include "view_state.h"

void lesson_update(const Ui *ui, View_State *vs, Model *m);
void lesson_frame(Ui *ui, View_State *vs, const Model *m, Rect r);
Rect lesson_formula_figure(Ui *ui, View_State *vs, const Model *m, const char *tex, bool draw);
bool lesson_enter(View_State *vs, Model *m, char *err, size_t errsz);
void lesson_leave(View_State *vs, Model *m);

#endif
