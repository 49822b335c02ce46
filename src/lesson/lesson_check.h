/* The lesson checker behind --check-lessons: plays every step from the
 * default scene the way a student who always succeeds would. Parse-level
 * problems are lesson_parse's; this refuses a formula with an unknown TeX
 * command (which the window would show in red), a prediction without one
 * right answer in its step's state, goals already met when their step starts
 * and solutions that do not reach their goal.
 *
 *   bool lesson_check(const Lesson *l, const Vocab *vocab, const char *data_dir,
 *                     const Real_Model *real, char *err, size_t errsz)
 *       false with the problem in err; true with err "" or a note. real: the model the
 *       Model view's directives and goals read, or NULL; without one, the goals that need
 *       it are not judged, and the note says how many
 *   bool lesson_check_within(const Lesson *l, const Vocab *vocab, const char *data_dir,
                         const Real_Model *real, long budget, char *err, size_t errsz);
bool lesson_same_shape(const Lesson *original, const Lesson *translation, char *err,
 *                          size_t errsz)
 *       a translation keeps its original's steps, directives, goals' conditions and solutions
 *       and predictions' answers; only prose, headings, goal labels and the questions' words may
 *       differ. False with "TRANSLATION:LINE: step N differs from ORIGINAL: what" in err
 *
 * Training is bounded: one lesson's `steps` may cost LESSON_CHECK_TRAIN_BUDGET
 * steps of one head at d_k = 16 (lesson_play.h). Past that the checker runs
 * what fits, does not judge the goals that depend on training (loss, trained,
 * loss-other) from then on, and says so in the note, so a valid lesson with
 * 100,000 steps at d_k = 256 is checked in seconds, not minutes.
 *   bool lesson_check_within(const Lesson *l, const Vocab *vocab, const char *data_dir,
 *                            const Real_Model *real, long budget, char *err, size_t errsz)
 *       the same with another budget (--train-budget: the sanitizer pass, where training is
 *       ten times slower, judges its goals in the normal pass)
 */
#ifndef ATTN_LESSON_CHECK_H
#define ATTN_LESSON_CHECK_H

#include "lesson.h"

bool lesson_check(const Lesson *l, const Vocab *vocab, const char *data_dir, const Real_Model *real,
                  char *err, size_t errsz);
bool lesson_check_within(const Lesson *l, const Vocab *vocab, const char *data_dir,
                         const Real_Model *real, long budget, char *err, size_t errsz);
bool lesson_same_shape(const Lesson *original, const Lesson *translation, char *err, size_t errsz);

#endif
