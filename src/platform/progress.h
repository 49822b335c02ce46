/* The student's progress through the lessons, kept between runs in
 * $XDG_DATA_HOME/attnlab/progress.json (~/.local/share/attnlab/): for each
 * lesson file, which steps are done (and how many steps it had then; the menu
 * counts against the lesson as it is now).
 *
 * Nothing a student did is lost: a save re-reads the file under a lock and
 * writes the union of its done steps and this run's, so two windows never
 * undo each other; an entry this run cannot read is kept as it is; a file
 * that cannot be read at all is renamed to progress.json.bad-DATE, said once,
 * and never overwritten.
 *
 *   bool progress_load(Lesson_Progress *p, char *warn, size_t warnsz)
 *       the good entries in *p; false with a one-line warning if any of the file is bad
 *   bool progress_save(const Lesson_Progress *p, char *err, size_t errsz)
 *       merged as above; false with err if it could not be (the file is then left alone)
 */
#ifndef ATTN_PROGRESS_H
#define ATTN_PROGRESS_H

#include "../ui/view_state.h"

bool progress_load(Lesson_Progress *p, char *warn, size_t warnsz);
bool progress_save(const Lesson_Progress *p, char *err, size_t errsz);

#endif
