/* The app's model: the scene being explored, what is derived from it, the
 * undo history, and the vocabulary words are embedded with.
 *
 * Nothing edits the scene directly: every change is an Action (action.h),
 * and model_apply is the one function that carries it out. It checks the
 * action, records an undo step, changes the scene and marks the derived data
 * stale; model_update recomputes once, however many actions came before.
 *
 * A gesture (a whole drag, a slider being moved) is one undo step: the
 * changes between ACTION_GESTURE_BEGIN and ACTION_GESTURE_END record the
 * scene once, before the first that changes it.
 *
 *   bool model_init(Model *m, const Scene *scene, const Vocab *vocab)
 *   void model_free(Model *m)
 *   bool model_update(Model *m)
 *       recompute Q, K, V, S, A, O if stale; false when out of memory
 *   bool model_explore_head(Model *m, int layer, int head, char *err, size_t errsz)
 *       the layers lab's head as the scene: its trained weights (m->learned) on what it reads,
 *       the example's stream x_layer, one token per position ("t5": token 5); undoable
 *   bool model_explore_check(const Model *m, char *why, size_t whysz)
 *       whether model_explore_real can take the open head, and if not why (one line)
 *   bool model_explore_real(Model *m, char *err, size_t errsz)
 *       the Model view's open head as the scene, exactly: for its n tokens (2 to ATTN_MAX_D)
 *       and d_h ≤ LEARNED_MAX_W, the head's q, k, v rows (biases in) stacked as M = [Q K V]
 *       are factored M = X·[W_Q W_K W_V] with X = U·Λ^½ from the eigenvectors of M·Mᵀ, so
 *       the explorer's Q = X·W_Q is the head's own (d = n; X's first coordinates are the
 *       directions its q, k, v spread along most), scaled by √d_h, causal; undoable
 *   bool model_apply(Model *m, const Action *a, char *err, size_t errsz)
 *       carry out a; false with err saying why when a is not valid for the scene (the scene is
 *       then unchanged), or "Nothing to undo" / "Nothing to redo"
 *   bool model_apply_list(Model *m, const Action_List *l, char *err, size_t errsz)
 *       every action of l in order, stopping at the first that fails
 */
#ifndef ATTN_MODEL_H
#define ATTN_MODEL_H

#include <stdbool.h>
#include <stddef.h>

#include "action.h"
#include "labs.h"
#include "real_lab.h"
#include "stack_lab.h"
#include "train_lab.h"
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
    Labs labs;            /* the scaling and permutation labs' derived data, on demand */
    Train_Lab train;      /* the training lab: not part of the scene, not undone */
    Stack_Lab stack;      /* the layers lab: the same */
    Learned_Head learned; /* a head of it opened in the explorer (a scene with `learned`) */
    bool layers;          /* the Train view shows the layers lab, not the one head */
    Real_Lab real;        /* the Model view's real model and text (the platform opens it) */
    Scene next;           /* scratch for whoever builds a scene to load (a lesson's scene file) */
} Model;

bool model_init(Model *m, const Scene *scene, const Vocab *vocab);
void model_free(Model *m);
bool model_update(Model *m);
bool model_explore_head(Model *m, int layer, int head, char *err, size_t errsz);
bool model_explore_real(Model *m, char *err, size_t errsz);
bool model_explore_check(const Model *m, char *why, size_t whysz);

bool model_apply(Model *m, const Action *a, char *err, size_t errsz);
bool model_apply_list(Model *m, const Action_List *l, char *err, size_t errsz);

#endif
