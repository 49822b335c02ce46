/* The training lab's state: one head being trained (nn/train_head.h), its loss
 * so far, and what the Train view and lessons read from it. Training only
 * ever advances by whole steps, so where it stands depends on the seed and
 * the step count, never on how fast frames come.
 *
 *   bool train_lab_reset(Train_Lab *l, const Train_Desc *desc, bool compare)
 *       start again from step 0 with these settings; with compare, a second head with the
 *       other scaling (÷√d_k on/off) trains beside it on the same batches; false when out of
 *       memory
 *   bool train_lab_run(Train_Lab *l, long steps)
 *       that many more steps now (starting with the default settings if none yet)
 *   long train_lab_step_cost(const Train_Lab *l)
 *       what one step costs, in steps of one head at d_k = 16 (a wide head or a compared pair
 *       costs more): the unit lessons, the window and the checker budget training in
 *   bool train_lab_drain(Train_Lab *l, long units)
 *       run queued steps (what a lesson's `steps N` or "+100 steps" asked for) worth at most
 *       `units`, at least one; the window calls it once a frame, so no frame waits on training
 *   void train_lab_derive(Train_Lab *l)
 *       the held-out loss and accuracy, the example sentence's A and W_Q·W_Kᵀ, for the step
 *       training stands at (recomputed only when it moved, and while queued steps run, every
 *       TRAIN_LAB_DERIVE_EVERY steps); and, when training rests (or every TRAIN_LAB_LONG_EVERY
 *       steps), the accuracy on sentences of TRAIN_LAB_LONG_N tokens, kept per scheme and task
 *       in `lengths` across resets: train short, test long
 *   void train_lab_free(Train_Lab *l)
 *   void train_token_name(Train_Task task, int id, char *buf, size_t size)
 *       "B1", "b2" (colour, kind by case, number) for match; "w07" for previous
 */
#ifndef ATTN_TRAIN_LAB_H
#define ATTN_TRAIN_LAB_H

#include "../nn/train_head.h"

#include <stddef.h>

#define TRAIN_LAB_POINTS       512 /* loss points kept; older ones thin out by halves */
#define TRAIN_LAB_DERIVE_EVERY 25  /* steps between held-out evaluations while steps are queued */
#define TRAIN_LAB_LONG_N       16  /* the lab's test length: twice what it trains on */
#define TRAIN_LAB_LONG_EVERY                                                                       \
    200 /* steps between evaluations at that length while training runs                            \
         */

/* One scheme's last result at both lengths, for one task. */
typedef struct Train_Length_Row {
    bool filled;
    long steps;
    double accuracy, accuracy_long;
} Train_Length_Row;

typedef struct Train_Lab {
    bool ready;
    bool running; /* the Train view's play/pause */
    long queued;  /* steps asked for and not run yet: run a slice a frame */
    Train_Desc desc;
    Trainer trainer;
    bool compare; /* `other` trains too: the same, with the other scaling */
    Trainer other;
    /* the training loss, one point per `stride` steps (their mean) */
    int points;
    long stride;
    double loss[TRAIN_LAB_POINTS];
    double loss_other[TRAIN_LAB_POINTS];
    double pending_sum, pending_other;
    long pending_count;
    /* derived for the step training stands at */
    long derived_at; /* -1: not yet */
    double held_loss, held_accuracy;
    double held_loss_other; /* with compare */
    int example[TRAIN_N];
    double example_A[TRAIN_N * TRAIN_N];
    double bilinear[64 * 64]; /* W_Q·W_Kᵀ, d×d */
    /* that form over the example's tokens: x_i·W_Q·W_Kᵀ·x_jᵀ with X = E[tokens] + P, the
       head's scores before scaling, so the pairs it scores high can be read by name */
    double example_scores[TRAIN_N * TRAIN_N];
    long long_at; /* the step of the last evaluation at TRAIN_LAB_LONG_N, or -1 */
    double long_accuracy;
    Train_Length_Row lengths[2][5]; /* [task][scheme]: kept when training starts again */
} Train_Lab;

bool train_lab_reset(Train_Lab *l, const Train_Desc *desc, bool compare);
bool train_lab_run(Train_Lab *l, long steps);
long train_lab_step_cost(const Train_Lab *l);
bool train_lab_drain(Train_Lab *l, long units);
void train_lab_derive(Train_Lab *l);
void train_lab_free(Train_Lab *l);
void train_token_name(Train_Task task, int id, char *buf, size_t size);

#endif
