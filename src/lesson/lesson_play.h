/* Playing a lesson: its set-up and solution actions applied to the model.
 *
 *   bool lesson_apply(const Lesson *l, int first, int count, Lesson_Env *env,
 *                     char *err, size_t errsz)    run actions [first, first + count)
 *   Lesson_Needs lesson_step_needs(const Lesson *l, int step)
 *       what the student must touch to meet the step's goals (their solutions say): a layout
 *       that leaves panels out (presenter mode) keeps these on screen
 *   int lesson_goal_touches(const Lesson *l, const Lesson_Goal *g, const char **names, int max)
 *       the controls and panels (by their hide.h names) that g's solution has a student
 *       touch, at most max of them, each once; how many
 *   int lesson_find_token(const Scene *s, const char *ref)
 *       "#3" is position 3, a word its first occurrence (ASCII case ignored); -1 if none
 */
#ifndef ATTN_LESSON_PLAY_H
#define ATTN_LESSON_PLAY_H

#include "lesson.h"

/* What lesson actions and goals act on: the model plus the pieces of view
 * state a lesson can set (which view, which query, the histogram's axis)
 * and its highlight. */
typedef struct Lesson_Env {
    Model *m;
    const char *data_dir; /* scenes are read from data_dir/assets/scenes */
    int view;
    int selected;
    char highlight[32];
    char hidden[128]; /* " max_plot entropy_plot": what the step hides (`hide`) */
    bool fixed_axis;  /* the scaling lab's raw histogram keeps one axis */
    /* `steps N`: the window queues them (Train_Lab.queued, a slice a frame);
     * the checker runs them at once, within a budget of train_lab_step_cost
     * units, and past it runs what fits and records where in capped_line */
    bool train_now;
    long train_budget;
    int capped_line;
} Lesson_Env;

/* What --check-lessons spends on one lesson's training, in steps of one head at
 * d_k = 16 (about 0.2 ms each here): lesson 11 needs 39,000. */
#define LESSON_CHECK_TRAIN_BUDGET 60000

typedef struct Lesson_Needs {
    bool controls; /* a slider or switch of the explorer's controls: d_k, d_v, d, H, mask … */
    bool plane;    /* a point of the embedding plane is dragged */
} Lesson_Needs;

bool lesson_apply(const Lesson *l, int first, int count, Lesson_Env *env, char *err, size_t errsz);
Lesson_Needs lesson_step_needs(const Lesson *l, int step);
int lesson_goal_touches(const Lesson *l, const Lesson_Goal *g, const char **names, int max);
int lesson_find_token(const Scene *s, const char *ref);

#endif
