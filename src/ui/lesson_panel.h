/* The lesson panel, its keys, and the lesson menu.
 *
 *   void lesson_frame(Ui *ui, View_State *vs, Model *m, Rect r)   the step's text and goals
 *   void lesson_keys(Ui *ui, View_State *vs, Model *m)            ← → PageUp PageDown Home End
 *   void lesson_menu(Ui *ui, View_State *vs, Model *m)            the ☰ Lessons list
 *   bool lesson_enter(View_State *vs, Model *m, char *err, size_t errsz)
 *       start the loaded lesson, keeping the user's scene to give back
 *   void lesson_leave(View_State *vs, Model *m)                   give the user's scene back
 */
#ifndef ATTN_LESSON_PANEL_H
#define ATTN_LESSON_PANEL_H

#include "view_state.h"

void lesson_frame(Ui *ui, View_State *vs, Model *m, Rect r);
void lesson_keys(Ui *ui, View_State *vs, Model *m);
void lesson_menu(Ui *ui, View_State *vs, Model *m);
bool lesson_enter(View_State *vs, Model *m, char *err, size_t errsz);
void lesson_leave(View_State *vs, Model *m);

#endif
