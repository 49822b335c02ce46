/* The app's model: the scene being explored, what is derived from it, the
 * undo history, and the vocabulary words are embedded with.
 *
 * The UI, lessons and tests never edit the scene directly; they call the
 * model_* actions below, which validate, record an undo step, change the
 * scene and mark the derived data stale. model_update recomputes once,
 * however many actions came in a frame.
 *
 * A gesture (a whole drag, a slider being moved) is one undo step:
 * model_gesture_begin records the scene once, actions inside the gesture
 * record nothing more, model_gesture_end closes it.
 *
 *   bool model_init(Model *m, const Scene *scene, const Vocab *vocab)
 *   void model_free(Model *m)
 *   bool model_update(Model *m)
 *       recompute Q, K, V, S, A, O if stale
 *   void model_set_dk(Model *m, int d_k)
 *   void model_set_dv(Model *m, int d_v)
 *   void model_set_d(Model *m, int d)
 *   void model_set_scaled(Model *m, bool scaled)
 *   void model_set_pos(Model *m, Pos_Mode pos)
 *   void model_set_pos_strength(Model *m, float strength)
 *   void model_set_seed(Model *m, uint32_t seed)
 *   void model_move_token(Model *m, int i, int c0, float x0, int c1, float x1)
 *       set two coordinates of x_i
 *   bool model_set_sentence(Model *m, const char *text, char *err, size_t errsz)
 *   void model_permute(Model *m, const int *p)
 *   void model_reverse(Model *m)
 *   void model_shuffle(Model *m, uint64_t seed)
 *   void model_rotate(Model *m, int k)
 *   void model_restore_order(Model *m)
 *   void model_replace_scene(Model *m, const Scene *s)
 *       load: one undoable step
 *   bool model_undo(Model *m)
 *   bool model_redo(Model *m)
 *   void model_gesture_begin(Model *m)
 *   void model_gesture_end(Model *m)
 */
#ifndef ATTN_MODEL_H
#define ATTN_MODEL_H

#include <stdbool.h>
#include <stddef.h>

#include "labs.h"
#include "scene.h"

#define MODEL_UNDO_DEPTH 200

typedef struct Model {
    Scene scene;
    Derived derived;
    const Vocab *vocab;
    bool stale;
    unsigned long version; /* bumps on every change of the scene */
    int moved;             /* while stale: the one token moved, or -1 when more changed */
    /* undo / redo: compact snapshots (tokens and X only as large as n×d) */
    void *undo[MODEL_UNDO_DEPTH];
    int undo_count;
    void *redo[MODEL_UNDO_DEPTH];
    int redo_count;
    int gesture_depth;
    bool gesture_recorded;
    Labs labs;  /* the scaling and permutation labs' derived data, on demand */
    Scene next; /* scratch: a new sentence is built here, so the scene changes only if valid */
} Model;

bool model_init(Model *m, const Scene *scene, const Vocab *vocab);
void model_free(Model *m);
bool model_update(Model *m);

void model_set_dk(Model *m, int d_k);
void model_set_dv(Model *m, int d_v);
void model_set_d(Model *m, int d);
void model_set_scaled(Model *m, bool scaled);
void model_set_pos(Model *m, Pos_Mode pos);
void model_set_pos_strength(Model *m, float strength);
void model_set_seed(Model *m, uint32_t seed);
void model_move_token(Model *m, int i, int c0, float x0, int c1, float x1);
bool model_set_sentence(Model *m, const char *text, char *err, size_t errsz);
void model_permute(Model *m, const int *p);
void model_reverse(Model *m);
void model_shuffle(Model *m, uint64_t seed);
void model_rotate(Model *m, int k);
void model_restore_order(Model *m);
void model_replace_scene(Model *m, const Scene *s);
bool model_undo(Model *m);
bool model_redo(Model *m);
void model_gesture_begin(Model *m);
void model_gesture_end(Model *m);

#endif
