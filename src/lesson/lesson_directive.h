/* The lesson directives as one table: a row is a directive's word and how it
 * is written (lessons/README.md documents exactly these; a test holds the two
 * together), how a line of it becomes an action, how that action is carried
 * out on the model, and what a student touches to do it by hand. The rows
 * live beside their code: the explorer's directives in lesson_dir_scene.c,
 * the labs' and the Model view's in lesson_dir_labs.c. Doing a directive by
 * input, as a person at the window would, is the platform's
 * (platform/lesson_input.c keeps that column, by kind; a test holds it to
 * these rows). Internal to src/lesson and the platform's lesson player.
 *
 *   const Lesson_Directive *lesson_directive_find(const char *word)
 *       the row of that word, or NULL
 *   const Lesson_Directive *lesson_directive_of(Directive_Kind kind)
 *       the first row that makes kind (every kind has one)
 *   const Lesson_Directive *lesson_directive_at(int k)
 *       row k, or NULL past the last (0, 1, … every row once)
 *
 * For the rows' code (lesson_directive.c):
 *   Lesson_Action *lesson_new_action(Lesson_Parse *p, int line)
 *       the next action of the lesson, zeroed, or NULL (after lesson_fail) when it is full
 *   bool lesson_words(Lesson_Parse *p, int line, const Lesson_Directive *d, int nw, int want)
 *       false (after lesson_fail with the usage) unless the line has want words
 *   bool lesson_parse_long(const char *w, int64_t lo, int64_t hi, int64_t *dest)
 *   bool lesson_parse_double(const char *w, double *dest)
 *       the whole word as a number (core/text.h), within [lo, hi] for a long
 *   bool lesson_token_word_ok(const char *w)
 *       1 to 31 bytes: a token reference a goal or an action may hold
 *   bool lesson_act(Model *m, Action a, const Lesson *l, const Lesson_Action *la,
 *                   const char *what, char *err, size_t errsz)
 *       a through the model's one door; false with "PATH:LINE: what: why"
 */
#ifndef ATTN_LESSON_DIRECTIVE_H
#define ATTN_LESSON_DIRECTIVE_H

#include "lesson_parse.h"
#include "lesson_play.h"

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

typedef struct Lesson_Directive {
    const char *word;
    Directive_Kind kind;
    const char *usage;
    /* the line's words w[0 … nw) (w[0] is the word) and the text after the word: one action
     * made (lesson_new_action) and filled in, or false after lesson_fail */
    bool (*parse)(Lesson_Parse *p, int line, const struct Lesson_Directive *d, char **w, int nw,
                  const char *rest);
    /* the action carried out; false with err ("PATH:LINE: …") */
    bool (*apply)(const Lesson *l, const Lesson_Action *a, Lesson_Env *env, char *err,
                  size_t errsz);
    /* the controls and panels (hide.h names) a student touches to do it: up to two, or
     * none; NULL for none */
    void (*touches)(const Lesson_Action *a, const char **two);
    Lesson_Needs needs; /* what a layout must keep on screen for it (lesson_step_needs) */
} Lesson_Directive;

/* the rows of each file */
extern const Lesson_Directive lesson_scene_directives[];
extern const int lesson_scene_directive_count;
extern const Lesson_Directive lesson_lab_directives[];
extern const int lesson_lab_directive_count;

const Lesson_Directive *lesson_directive_find(const char *word);
const Lesson_Directive *lesson_directive_of(Directive_Kind kind);
const Lesson_Directive *lesson_directive_at(int k);

Lesson_Action *lesson_new_action(Lesson_Parse *p, int line);
bool lesson_words(Lesson_Parse *p, int line, const Lesson_Directive *d, int nw, int want);
bool lesson_parse_long(const char *w, int64_t lo, int64_t hi, int64_t *dest);
bool lesson_parse_double(const char *w, double *dest);
bool lesson_token_word_ok(const char *w);
bool lesson_act(Model *m, Action a, const Lesson *l, const Lesson_Action *la, const char *what,
                char *err, size_t errsz);

#endif
