/* The layers lab: an attention-only transformer (nn/train_stack.h) learning the
 * induction task while the Train view watches, with what the view and
 * lessons read from it. Like the one-head lab it only ever advances by whole
 * steps, and it measures at fixed steps (every STACK_LAB_EVERY, the command
 * line's points too), so every number depends on the seed and the step
 * count, never on how fast frames come.
 *
 *   bool stack_lab_reset(Stack_Lab *l, const Stack_Desc *desc)
 *       start again from step 0 (the desc as the command line's defaults fill it: see
 *       stack_lab_desc); false when out of memory or a size is out of range
 *   Stack_Desc stack_lab_desc(int layers, int heads, Train_Pos pos, uint64_t seed)
 *       the induction defaults (width 16, or 18 for 3 heads so each has 6 coordinates;
 *       vocabulary 16, context 24, blocks of 3 to 12, Adam lr 0.01, batches of 16) with these
 *   bool stack_lab_run(Stack_Lab *l, long steps)
 *       that many more steps now (starting with the defaults if none yet); measures the
 *       held-out metrics at every multiple of STACK_LAB_EVERY
 *   long stack_lab_step_cost(const Stack_Lab *l)
 *       one step's cost in the one-head lab's units (train_lab_step_cost)
 *   void stack_lab_derive(Stack_Lab *l)
 *       for the step training stands at: every head's A on the example (with the zeroed
 *       heads zeroed), the K-composition scores, and `shown`: the last measurement, or when
 *       heads are zeroed, the model without them at that step's parameters (evaluated again
 *       when the measurement or the zeroed heads change)
 *   void stack_lab_ablate(Stack_Lab *l, int layer, int head)
 *       zero that head, or bring it back; training always trains the whole model
 *   int stack_lab_ablated(const Stack_Lab *l)
 *       how many heads are zeroed
 *   double stack_lab_best_prefix(const Stack_Lab *l)
 *       the highest prefix-matching score of any head, as last measured
 *   void stack_lab_free(Stack_Lab *l)
 */
#ifndef ATTN_STACK_LAB_H
#define ATTN_STACK_LAB_H

#include "../nn/train_stack.h"

#define STACK_LAB_EVERY  25  /* steps between measurements: the command line's eval_steps */
#define STACK_LAB_POINTS 256 /* measurements kept; older ones thin out by halves */
#define STACK_LAB_HEADS  (STACK_MAX_LAYERS * STACK_MAX_HEADS)

typedef struct Stack_Lab {
    bool ready;
    bool running; /* play/pause */
    bool fast;    /* as many steps a frame as keep it quick, not the watchable pace */
    long queued;  /* steps asked for and not run yet */
    double owed;  /* at the watchable pace: steps due and not run yet */
    Stack stack;
    /* one point per measurement, `stride` measurements apart */
    int points;
    long stride;
    long at[STACK_LAB_POINTS];
    float loss[STACK_LAB_POINTS], in_context[STACK_LAB_POINTS];
    float prev_token[STACK_LAB_HEADS][STACK_LAB_POINTS];
    float prefix_match[STACK_LAB_HEADS][STACK_LAB_POINTS];
    long measured_at;   /* the step of `last` */
    Stack_Metrics last; /* the whole model, at measured_at */
    long phase_step;    /* the first measurement with a prefix match over 0.5, or -1 */
    bool ablated[STACK_MAX_LAYERS][STACK_MAX_HEADS];
    long derived_at;     /* -1: stale */
    Stack_Metrics shown; /* with the zeroed heads zeroed */
    long shown_at;       /* the measured_at `shown` was evaluated for, or -1 */
    double k_comp[STACK_MAX_LAYERS][STACK_MAX_HEADS][STACK_MAX_LAYERS][STACK_MAX_HEADS];
} Stack_Lab;

bool stack_lab_reset(Stack_Lab *l, const Stack_Desc *desc);
Stack_Desc stack_lab_desc(int layers, int heads, Train_Pos pos, uint64_t seed);
bool stack_lab_run(Stack_Lab *l, long steps);
long stack_lab_step_cost(const Stack_Lab *l);
void stack_lab_derive(Stack_Lab *l);
void stack_lab_ablate(Stack_Lab *l, int layer, int head);
int stack_lab_ablated(const Stack_Lab *l);
double stack_lab_best_prefix(const Stack_Lab *l);
void stack_lab_free(Stack_Lab *l);

#endif
