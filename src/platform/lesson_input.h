/* The lesson checker's second half, behind --check-lessons DIR --by-input:
 * every goal met only through the input a mouse and keyboard send. The
 * lesson is opened in the real view at a window size, the → button steps
 * through it, and each goal's solution is turned into what a person would do
 * on the laid-out widgets: clicks on chips, buttons, switches and tabs,
 * drags of points and chips, the d_k field typed into, sliders moved with
 * the arrow keys, R S T I, ✎ Edit and typing. A control hidden behind a tab
 * is looked for behind the tabs. Each step's highlighted panel must be on
 * screen.
 *
 *   bool lesson_by_input(Lesson *l, const Vocab *vocab, const char *data_dir, Text_Metrics tm,
 *                        const Lesson_Screen *screen, char *err, size_t errsz)
 *       laid out as the window would be: screen's w × h in logical units, presenter layout
 *       and theme; false with "FILE:LINE: goal cannot be met by input: …" (or
 *       what else stood in the way) in err
 *   bool lesson_input_plays(Directive_Kind kind)
 *       whether a solution's directive of that kind can be done by input (the directive
 *       table's by-input column, lesson/lesson_directive.h: a test holds every row to it)
 */
#ifndef ATTN_LESSON_INPUT_H
#define ATTN_LESSON_INPUT_H

#include "../gfx/text_metrics.h"
#include "../lesson/lesson.h"
#include "../ui/theme.h"
#include "../model/vocab.h"

#include <stdbool.h>
#include <stddef.h>

/* The window a lesson is played in: what the window itself would lay out. */
typedef struct Lesson_Screen {
    float w, h; /* logical units: the window's pixels over the zoom */
    bool presenter;
    Theme_Id theme;
    const Real_Model *real; /* the Model view's model, or NULL: its goals are not judged */
    bool layout_only;       /* only turn the pages: every step laid out and read, no goal played */
    long train_budget;      /* the training a lesson may wait for; 0: LESSON_CHECK_TRAIN_BUDGET */
} Lesson_Screen;

bool lesson_by_input(Lesson *l, const Vocab *vocab, const char *data_dir, Text_Metrics tm,
                     const Lesson_Screen *screen, char *err, size_t errsz);
bool lesson_input_plays(Directive_Kind kind);

#endif
