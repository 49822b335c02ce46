/* A change to the scene, as a value. The window's panels and keys, a
 * lesson's directives and its "show me", the command line's overrides and
 * the tests all describe what they want as Actions; model_apply (model.h)
 * is the one function that carries them out on the model, and scene_apply
 * below is the change itself on a bare scene.
 *
 * The labs take actions too: the training labs (ACTION_LAB_…) and the Model
 * view's real model (ACTION_REAL_…). Their controls and a lesson's
 * directives drive them the same way. The labs are not part of the scene,
 * so these are never undone, and scene_apply refuses them; only the two that
 * open a head in the explorer (ACTION_LAB_EXPLORE, ACTION_REAL_EXPLORE) load
 * a scene, and that is undone.
 *
 * An Action_List holds actions with their own copies of any text and
 * permutation, so it can wait a frame, be recorded and be replayed on
 * another model with the same result.
 *
 *   bool scene_apply(Scene *s, const Action *a, const Vocab *vocab, bool *changed, char *err,
 *       size_t errsz)
 *       check a, then change s; false (and s untouched) with err saying why when a is not
 *       valid for s. changed says whether s is now different. Undo, redo and gestures are
 *       the model's: here they fail.
 *   Action action_set(Setting_Id id, double value)
 *   Action action_move(int i, int c0, float x0, int c1, float x1)
 *   Action action_of(Action_Kind kind)
 *       an action with no arguments (reverse, restore, undo, gesture begin, …)
 *   Action action_lab(Action_Kind kind, Lab_Id lab)
 *       a lab action with no other argument (play, reset, show, fast)
 *   Action action_lab_set(Lab_Id lab, Lab_Knob knob, double value)
 *   void action_list_clear(Action_List *l)
 *   bool action_list_push(Action_List *l, const Action *a)
 *       copies a's text or permutation into the list; false when the list is full
 *   Action action_list_get(const Action_List *l, int k)
 *       the k-th action, its text and permutation pointing into l
 *   const char *action_name(Action_Kind kind)
 *       "set", "move", "sentence", … for messages and logs
 */
#ifndef ATTN_ACTION_H
#define ATTN_ACTION_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "scene.h"
#include "settings.h"

typedef enum Action_Kind {
    ACTION_SET,           /* setting .setting to .value, checked against the settings table */
    ACTION_MOVE,          /* x_i[c0] = x0 and x_i[c1] = x1 */
    ACTION_SENTENCE,      /* a new sentence: .text, split at whitespace */
    ACTION_PERMUTE,       /* new slot i takes the token now at .perm[i], for .n tokens */
    ACTION_REVERSE,       /* last token first */
    ACTION_ROTATE,        /* every token .i slots to the right, wrapping */
    ACTION_SHUFFLE,       /* a random order drawn from .seed, never the current one */
    ACTION_RESTORE_ORDER, /* the tokens back in their original order */
    ACTION_LOAD_SCENE,    /* the whole scene becomes *.scene */
    ACTION_UNDO,
    ACTION_REDO,
    ACTION_GESTURE_BEGIN, /* changes until the matching end are one undo step */
    ACTION_GESTURE_END,
    ACTION_LAB_SHOW,     /* the Train view shows lab .i (a Lab_Id) */
    ACTION_LAB_PLAY,     /* lab .i trains on, or pauses: a toggle */
    ACTION_LAB_STEPS,    /* lab .i runs .n more steps, a slice a frame */
    ACTION_LAB_RESET,    /* lab .i trains again from step 0 */
    ACTION_LAB_SET,      /* lab .i's knob .c0 (a Lab_Knob) becomes .value; training starts again */
    ACTION_LAB_FAST,     /* the layers lab's pace: all a frame affords, or watchable: a toggle */
    ACTION_LAB_ZERO,     /* the layers lab's head .c1 of layer .c0 zeroed, or brought back */
    ACTION_LAB_EXPLORE,  /* that head as the scene: its trained weights on what it reads */
    ACTION_REAL_TEXT,    /* the Model view reads .text (a list keeps its own copy) */
    ACTION_REAL_OPEN,    /* its head .c1 of layer .c0 opens; −1 −1 closes it */
    ACTION_REAL_ORDER,   /* its tokens: .i 0 reversed, 1 shuffled by .seed, 2 in the text's order */
    ACTION_REAL_MOVE,    /* the token in slot .c0 moves to slot .c1 */
    ACTION_REAL_EXPLORE, /* the open head as the scene, exactly (model_explore_real) */
    ACTION_REAL_TURN,    /* every pass from now on measures each head's RoPE share */
    ACTION_REAL_WRITE,   /* the writing: .i a Real_Write; the sampling in .value (T), .n
                            (top-k), .x0 (top-p) and .seed, for a writing it starts */
    ACTION_KIND_COUNT
} Action_Kind;

typedef enum Lab_Id { LAB_ONE_HEAD, LAB_LAYERS } Lab_Id;

/* What ACTION_REAL_WRITE asks: each starts the writing after the text
 * first if none runs. */
typedef enum Real_Write {
    REAL_WRITE_STEP,      /* one token more */
    REAL_WRITE_PLAY,      /* play or stop: a toggle */
    REAL_WRITE_START,     /* again from the text */
    REAL_WRITE_RECOMPUTE, /* the whole pass recomputed each step, or not: a toggle */
    REAL_WRITE_AGAIN      /* again from the text, as many tokens as were written (new sampling) */
} Real_Write;

/* What ACTION_LAB_SET changes, and the values it takes. */
typedef enum Lab_Knob {
    LAB_KNOB_TASK,    /* one head: a Train_Task */
    LAB_KNOB_POS,     /* both: a Train_Pos (the layers lab: none, sin, learned or rope) */
    LAB_KNOB_SCALED,  /* one head: 1 scores ÷ √d_k, 0 not */
    LAB_KNOB_DK,      /* one head: d_k, 1 … 64 */
    LAB_KNOB_LR,      /* one head: the learning rate, above 0 and at most 10 */
    LAB_KNOB_COMPARE, /* one head: 1 a second head with the other scaling trains beside it */
    LAB_KNOB_LAYERS,  /* layers: 1 … STACK_MAX_LAYERS */
    LAB_KNOB_HEADS    /* layers: 1 … STACK_MAX_HEADS */
} Lab_Knob;

typedef struct Action {
    Action_Kind kind;
    Setting_Id setting; /* ACTION_SET */
    double value;       /* ACTION_SET: every setting's value fits a double exactly */
    int i;              /* ACTION_MOVE: the token; ACTION_ROTATE: by how many slots; a lab */
    int c0, c1;         /* ACTION_MOVE: the two coordinates; ACTION_LAB_…: see their kinds */
    float x0, x1;
    uint64_t seed;      /* ACTION_SHUFFLE, ACTION_REAL_ORDER, ACTION_REAL_WRITE */
    int n;              /* ACTION_PERMUTE: length of perm; ACTION_LAB_STEPS: how many */
    const int *perm;    /* ACTION_PERMUTE (borrowed; a list keeps its own copy) */
    const char *text;   /* ACTION_SENTENCE, ACTION_REAL_TEXT (borrowed; a list keeps a copy) */
    const Scene *scene; /* ACTION_LOAD_SCENE (borrowed: it must outlive a list holding it) */
} Action;

#define ACTION_LIST_MAX   64
#define ACTION_LIST_BYTES 16384

typedef struct Action_List {
    Action items[ACTION_LIST_MAX]; /* text and perm are NULL here: see payload */
    int payload[ACTION_LIST_MAX];  /* byte offset of the item's text or perm, or -1 */
    int count;
    int used;
    _Alignas(int) unsigned char bytes[ACTION_LIST_BYTES];
} Action_List;

bool scene_apply(Scene *s, const Action *a, const Vocab *vocab, bool *changed, char *err,
                 size_t errsz);
Action action_set(Setting_Id id, double value);
Action action_move(int i, int c0, float x0, int c1, float x1);
Action action_of(Action_Kind kind);
Action action_lab(Action_Kind kind, Lab_Id lab);
Action action_lab_set(Lab_Id lab, Lab_Knob knob, double value);
void action_list_clear(Action_List *l);
bool action_list_push(Action_List *l, const Action *a);
Action action_list_get(const Action_List *l, int k);
const char *action_name(Action_Kind kind);

#endif
