/* The student's progress through the lessons, kept between runs in
 * $XDG_DATA_HOME/attnlab/progress.json (~/.local/share/attnlab/): for each
 * lesson file, how many steps it has and which are done. A file that cannot
 * be read or makes no sense is ignored with one warning.
 *
 *   bool progress_load(Lesson_Progress *p, char *warn, size_t warnsz)
 *       false (and *p empty) with a one-line warning if the file exists and is bad
 *   bool progress_save(const Lesson_Progress *p, char *err, size_t errsz)
 */
#ifndef ATTN_PROGRESS_H
#define ATTN_PROGRESS_H

#include "../ui/view_state.h"

bool progress_load(Lesson_Progress *p, char *warn, size_t warnsz);
bool progress_save(const Lesson_Progress *p, char *err, size_t errsz);

#endif
