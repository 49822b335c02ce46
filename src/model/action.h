/* A change to the scene, as a value. The window's panels and keys, a
 * lesson's directives and its "show me", the command line's overrides and
 * the tests all describe what they want as Actions; model_apply (model.h)
 * is the one function that carries them out on the model, and scene_apply
 * below is the change itself on a bare scene.
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
    ACTION_KIND_COUNT
} Action_Kind;

typedef struct Action {
    Action_Kind kind;
    Setting_Id setting; /* ACTION_SET */
    double value;       /* ACTION_SET: every setting's value fits a double exactly */
    int i;              /* ACTION_MOVE: the token; ACTION_ROTATE: by how many slots */
    int c0, c1;         /* ACTION_MOVE: the two coordinates */
    float x0, x1;
    uint64_t seed;      /* ACTION_SHUFFLE */
    int n;              /* ACTION_PERMUTE: length of perm */
    const int *perm;    /* ACTION_PERMUTE (borrowed; a list keeps its own copy) */
    const char *text;   /* ACTION_SENTENCE (borrowed; a list keeps its own copy) */
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
void action_list_clear(Action_List *l);
bool action_list_push(Action_List *l, const Action *a);
Action action_list_get(const Action_List *l, int k);
const char *action_name(Action_Kind kind);

#endif
