/* The lesson panel, its keys, and the lesson menu.
 *
 *   void lesson_update(const Ui *ui, View_State *vs, Model *m)
 *       before the frame lays out: enter, step (the keys ← → PageUp PageDown Home End, or the
 *       panel's buttons last frame), leave, and play "show me", applying the lesson's actions
 *   void lesson_frame(Ui *ui, View_State *vs, const Model *m, Rect r)
 *       the step's text, formulas set as boxes with live values from m, and goals; its
 *       buttons ask lesson_update for a step
 *   void lesson_menu(Ui *ui, View_State *vs)      the ☰ Lessons list
 *   Rect lesson_formula_figure(Ui *ui, View_State *vs, const Model *m, const char *tex, bool draw)
 *       one formula as the panel sets it in display, on the panel's background with its padding;
 *       the size it needs (0 × 0 if it cannot be set), drawn at the origin when draw
 *   bool lesson_enter(View_State *vs, Model *m, char *err, size_t errsz)
 *       start the loaded lesson, keeping the user's scene to give back
 *   void lesson_leave(View_State *vs, Model *m)   give the user's scene back
 *   bool lesson_progress_mark(Lesson_Progress *p, const Lesson *l, int step)
 *       step of l is done (its goals met); the menu marks a lesson whose steps all are; false
 *       when the list is full (PROGRESS_MAX_LESSONS) and it could not be recorded
 */
#ifndef ATTN_LESSON_PANEL_H
#define ATTN_LESSON_PANEL_H

#include "view_state.h"

void lesson_update(const Ui *ui, View_State *vs, Model *m);
void lesson_frame(Ui *ui, View_State *vs, const Model *m, Rect r);
void lesson_menu(Ui *ui, View_State *vs);
Rect lesson_formula_figure(Ui *ui, View_State *vs, const Model *m, const char *tex, bool draw);
bool lesson_enter(View_State *vs, Model *m, char *err, size_t errsz);
void lesson_leave(View_State *vs, Model *m);
bool lesson_progress_mark(Lesson_Progress *p, const Lesson *l, int step);

#endif
