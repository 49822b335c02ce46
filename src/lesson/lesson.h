/* Lessons: Markdown files that set the app up step by step and set goals
 * checked live against the state.
 *
 * The format is documented in lessons/README.md. md4c parses the Markdown;
 * '# Title' names the lesson, each '## Heading' starts a step, and fenced
 * ```attnlab blocks hold directives: set-up actions (dk 64, scale off, pos
 * sin 1, view scaling, order 5 4 3 2 1 0, select sat, move cat 0.5 0.2,
 * highlight A, …) and goals with their solutions. Problems are reported as
 * "FILE:LINE: problem".
 *
 * This header holds the types and the parser; the other jobs have files of
 * their own: lesson_text.h (text and math to spans), lesson_directives.h
 * (attnlab blocks), lesson_play.h (actions on the model), lesson_goals.h
 * (goals against the live state), lesson_check.h (the checker), and
 * platform/lesson_index.h (the lessons of a folder).
 *
 *   bool lesson_parse(Lesson *l, const char *text, size_t len, const char *name,
 *                     char *err, size_t errsz)      fill a (heap-allocated) Lesson
 *   bool lesson_load(Lesson *l, const char *path, char *err, size_t errsz)
 *   void lesson_sibling(const Lesson *l, const char *file, char *out, size_t size)
 *       the path of file in l's folder (a step's `see`)
 */
#ifndef ATTN_LESSON_H
#define ATTN_LESSON_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "../model/model.h"
#include "../model/view_kind.h"

#define LESSON_MAX_STEPS   24
#define LESSON_MAX_ACTIONS 384
#define LESSON_MAX_GOALS   4
#define LESSON_MAX_CONDS   4
#define LESSON_MAX_ORDER   64
#define LESSON_MAX_SPANS   6000
#define LESSON_TEXT_BYTES  (96 * 1024)
#define LESSON_FILE_MAX    (512 * 1024)
#define LESSON_INDEX_MAX   64
#define LESSON_MAX_LINE    1024 /* bytes in one directive line */
#define LESSON_MAX_WORDS   80   /* words in one directive */
#define LESSON_MATH_BYTES  4096 /* one formula's TeX */

typedef enum Directive_Kind {
    ACT_SCENE,
    ACT_TOKENS,
    ACT_DK,
    ACT_DV,
    ACT_D,
    ACT_SEED,
    ACT_SCALE,
    ACT_POS,
    ACT_VIEW,
    ACT_ORDER,
    ACT_SELECT,
    ACT_MOVE,
    ACT_REVERSE,
    ACT_SHUFFLE,
    ACT_ROTATE,
    ACT_RESTORE,
    ACT_HIGHLIGHT,
    ACT_HIDE,    /* panels that would give away what the lesson asks later: text, space-separated */
    ACT_SET,     /* a setting with no directive of its own (heads, mask): from the settings table */
    ACT_AXIS,    /* the scaling lab's raw histogram: one fixed axis, or its own */
    ACT_TRAIN,   /* start training a head: i = task, x = 1 with positions, y = 1 to compare
                    with the other scaling, n = d_k (0: the default) */
    ACT_STEPS,   /* train i more steps */
    ACT_ZERO,    /* the layers lab: zero head n of layer i, or bring it back */
    ACT_EXPLORE, /* the layers lab's head n of layer i, in the explorer */
    ACT_MODEL_TEXT,  /* the Model view's text: text */
    ACT_MODEL_HEAD,  /* the Model view's open head: setting −1 none, 0 head n of layer i,
                        1 + a Real_Head_Kind the best head of that kind */
    ACT_MODEL_ORDER, /* the Model view's tokens: i = 0 reversed, 1 shuffled, 2 as written */
    ACT_MODEL_WRITE, /* the Model view's model writes i more tokens, greedily */
    ACT_KIND_COUNT
} Directive_Kind;

typedef struct Lesson_Action {
    Directive_Kind kind;
    int line;
    int i;         /* the number for dk, dv, d, view, rotate; on/off for scale; mode for pos */
    uint32_t seed; /* seed: all 32 bits, exactly */
    float x, y;    /* move: the coordinates; pos: strength in x */
    int n;         /* order: length */
    int order[LESSON_MAX_ORDER];
    char text[128]; /* scene file, sentence, token for select/move, panel for highlight */
    int setting;    /* ACT_SET: a Setting_Id */
    double value;   /* ACT_SET: its value */
} Lesson_Action;

typedef enum Cond_Kind {
    COND_WEIGHT,
    COND_SCORE,
    COND_DK,
    COND_DV,
    COND_SCALE,
    COND_POS,
    COND_VIEW,
    COND_MEAN_MAX,
    COND_MEAN_ENTROPY,
    COND_ORDER,
    COND_PERM_DIFF,
    COND_SHIFT_DIFF, /* the shift lab's max |S(offset) − S(0)| for the scene's scheme */
    COND_SELECTED,
    COND_X, /* one coordinate of one token's embedding */
    COND_D,
    COND_N,
    COND_SETTING,    /* a setting (heads, mask) compared with a value: i is its Setting_Id */
    COND_LOSS,       /* the training lab's held-out loss */
    COND_TRAINED,    /* the training lab's step count */
    COND_LOSS_OTHER, /* the held-out loss of the head compared with (the other scaling) */
    COND_PREFIX,     /* the layers lab: the best prefix-matching score of any head */
    COND_IC_LOSS,    /* the layers lab: the in-context loss, with its zeroed heads zeroed */
    COND_ZEROED,     /* the layers lab: how many heads are zeroed */
    COND_LAYERS,     /* the layers lab: how many layers */
    COND_LAYERS_POS, /* the layers lab: its positional scheme (i, a Train_Pos) */
    COND_LEARNED,    /* the scene is a learned head (the layers lab's "explore") */
    /* the Model view (a real model): its open head's scores, real_lab.h */
    COND_HEAD_PREV,      /* weight on the token before */
    COND_HEAD_FIRST,     /* weight on the first token */
    COND_HEAD_TURN,      /* the share of its weight RoPE's turn moves */
    COND_HEAD_PREFIX,    /* an induction head's prefix match */
    COND_WEIGHTED_FIRST, /* the first token's share of the value-weighted attention */
    COND_WRITTEN,        /* tokens the Model view's model has written after its text */
    COND_MODEL_CHANGE,   /* after a reorder: how far A is from moving with its tokens */
} Cond_Kind;

typedef enum Cmp { CMP_GT, CMP_GE, CMP_LT, CMP_LE, CMP_EQ } Cmp;
typedef enum Order_Cond { ORDER_REVERSED, ORDER_ORIGINAL, ORDER_CHANGED } Order_Cond;

typedef struct Lesson_Cond {
    Cond_Kind kind;
    char a[32], b[32]; /* tokens: a word or #position */
    Cmp cmp;
    double value;
    int i; /* on/off, pos mode, view, order condition */
} Lesson_Cond;

typedef struct Lesson_Goal {
    int line;
    char label[200];
    Lesson_Cond conds[LESSON_MAX_CONDS];
    int cond_count;
    int sol_first, sol_count; /* into Lesson.actions */
} Lesson_Goal;

typedef enum Span_Kind {
    SPAN_TEXT,      /* styled text */
    SPAN_PARAGRAPH, /* a new paragraph starts */
    SPAN_HEADING,   /* a new heading line starts */
    SPAN_ITEM,      /* a new list item starts (bullet) */
    SPAN_BREAK,     /* a line break inside a paragraph */
    SPAN_MATH,      /* a formula: its TeX, checked by tex_parse, set by ui/math_layout */
} Span_Kind;

enum {
    STYLE_BOLD = 1,
    STYLE_EMPH = 2,
    STYLE_CODE = 4,
    STYLE_MATH = 8,
    STYLE_DISPLAY = 16 /* a formula alone in its paragraph, or $$…$$: centred, display style */
};

typedef struct Lesson_Span {
    unsigned char kind, style;
    int off, len; /* into Lesson.text */
} Lesson_Span;

/* "predict": the student commits to an answer before the numbers that would
 * give it away are shown. The answer is judged in the step's state after
 * the 'after' actions, played on a copy (so a question can be about what
 * reversing, or turning positions on, will do). */
typedef enum Predict_Kind {
    PREDICT_NONE = 0,
    PREDICT_KEY, /* which key will TOKEN give the most weight: the student picks a token */
    PREDICT_YES, /* yes or no: yes exactly when the conditions hold */
} Predict_Kind;

typedef struct Lesson_Predict {
    Predict_Kind kind;
    int line;
    char token[32];               /* PREDICT_KEY: the query, a word or #position */
    Lesson_Goal cond;             /* PREDICT_YES: its conditions */
    int after_first, after_count; /* into Lesson.actions */
    bool later; /* "predict later": judged on the live model once the step's goals are met,
                   for a question only training can answer */
    char question[200], why[240]; /* asked; said when it is revealed */
} Lesson_Predict;

typedef struct Lesson_Step {
    int line;
    char title[128];
    int span_first, span_count;
    int act_first, act_count; /* set-up */
    Lesson_Goal goals[LESSON_MAX_GOALS];
    int goal_count;
    Lesson_Predict predict;
    char see[96]; /* `see FILE.md`: another lesson of the folder, linked under the text */
} Lesson_Step;

typedef struct Lesson {
    char path[512];
    char title[128];
    int setup_first, setup_count; /* before the first step */
    Lesson_Step steps[LESSON_MAX_STEPS];
    int step_count;
    Lesson_Action actions[LESSON_MAX_ACTIONS];
    int action_count;
    Lesson_Span spans[LESSON_MAX_SPANS];
    int span_count;
    char text[LESSON_TEXT_BYTES];
    int text_len;
    /* "FILE:LINE: unknown TeX command \name" for the first one, or "": the
     * window shows it in red as written; --check-lessons refuses it */
    char tex_problem[300];
} Lesson;

bool lesson_parse(Lesson *l, const char *text, size_t len, const char *name, char *err,
                  size_t errsz);
bool lesson_load(Lesson *l, const char *path, char *err, size_t errsz);
void lesson_sibling(const Lesson *l, const char *file, char *out, size_t size);

#endif
