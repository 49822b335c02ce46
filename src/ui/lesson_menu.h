/* The ☰ Lessons menu, and the progress it shows.
 *
 *   void lesson_menu(Ui *ui, View_State *vs)      the ☰ Lessons list
 *   bool lesson_progress_mark(Lesson_Progress *p, const Lesson *l, int step)
 *       step of l is done (its goals met); the menu marks a lesson whose steps all are; false
 *       when the list is full (PROGRESS_MAX_LESSONS) and it could not be recorded
 */
#ifndef ATTN_LESSON_MENU_H
#define ATTN_LESSON_MENU_H

#include "view_state.h"

void lesson_menu(Ui *ui, View_State *vs);
bool lesson_progress_mark(Lesson_Progress *p, const Lesson *l, int step);

#endif
