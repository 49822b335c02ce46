/* The training lab; see train_lab.h. */
#include "train_lab.h"

#include <stdio.h>
#include <string.h>

bool train_lab_reset(Train_Lab *l, const Train_Desc *desc, bool compare) {
    bool running = l->ready && l->running;
    Train_Length_Row lengths[2][5];
    memcpy(lengths, l->lengths, sizeof lengths);
    train_lab_free(l);
    memcpy(l->lengths, lengths, sizeof lengths);
    Train_Desc with_long = *desc;
    with_long.test_n = TRAIN_LAB_LONG_N;
    desc = &with_long;
    if (!train_init(&l->trainer, desc)) return false;
    if (compare) {
        Train_Desc flip = *desc;
        flip.unscaled = !desc->unscaled;
        if (!train_init(&l->other, &flip)) {
            train_free(&l->trainer);
            return false;
        }
        l->compare = true;
    }
    l->desc = *desc;
    l->ready = true;
    l->running = running;
    l->stride = 1;
    l->derived_at = -1;
    l->long_at = -1;
    /* the example: the held-out batch's first sentence */
    memcpy(l->example, l->trainer.held_tokens, sizeof l->example);
    return true;
}

bool train_lab_run(Train_Lab *l, long steps) {
    if (!l->ready && !train_lab_reset(l, &(Train_Desc){.seed = 1}, false)) return false;
    for (long k = 0; k < steps; k++) {
        l->pending_sum += train_step(&l->trainer);
        if (l->compare) l->pending_other += train_step(&l->other);
        if (++l->pending_count < l->stride) continue;
        if (l->points == TRAIN_LAB_POINTS) { /* full: every other point goes, the stride doubles */
            for (int p = 0; p < TRAIN_LAB_POINTS / 2; p++) {
                l->loss[p] = 0.5 * (l->loss[2 * p] + l->loss[2 * p + 1]);
                l->loss_other[p] = 0.5 * (l->loss_other[2 * p] + l->loss_other[2 * p + 1]);
            }
            l->points = TRAIN_LAB_POINTS / 2;
            l->stride *= 2;
        }
        l->loss_other[l->points] = l->pending_other / (double)l->pending_count;
        l->loss[l->points++] = l->pending_sum / (double)l->pending_count;
        l->pending_sum = l->pending_other = 0;
        l->pending_count = 0;
    }
    return true;
}

long train_lab_step_cost(const Train_Lab *l) {
    long dk = l->ready && l->trainer.d_k > 0 ? l->trainer.d_k : 16;
    long cost = dk * (l->compare ? 2 : 1) / 16;
    return cost < 1 ? 1 : cost;
}

bool train_lab_drain(Train_Lab *l, long units) {
    if (l->queued <= 0) return true;
    long steps = units / train_lab_step_cost(l);
    if (steps < 1) steps = 1;
    if (steps > l->queued) steps = l->queued;
    l->queued -= steps;
    return train_lab_run(l, steps);
}

/* The accuracy at TRAIN_LAB_LONG_N, into the table row of this task and scheme. */
static void derive_long(Train_Lab *l) {
    Trainer *t = &l->trainer;
    train_eval_long(t, &l->long_accuracy);
    l->long_at = t->steps;
    l->lengths[t->desc.task == TRAIN_PREVIOUS][t->pos] =
        (Train_Length_Row){.filled = true,
                           .steps = t->steps,
                           .accuracy = l->held_accuracy,
                           .accuracy_long = l->long_accuracy};
}

void train_lab_derive(Train_Lab *l) {
    if (!l->ready) return;
    bool resting = l->queued <= 0 && !l->running;
    if (l->derived_at == l->trainer.steps) {
        if (resting && l->long_at != l->trainer.steps) derive_long(l);
        return;
    }
    /* the held-out batch costs about three steps to evaluate: while asked-for
     * steps still run, the pictures follow every TRAIN_LAB_DERIVE_EVERY steps
     * (the loss curve still gets every step), and exactly once they end */
    if (l->queued > 0 && l->derived_at >= 0 &&
        l->trainer.steps - l->derived_at < TRAIN_LAB_DERIVE_EVERY)
        return;
    Trainer *t = &l->trainer;
    l->held_loss = train_eval(t, &l->held_accuracy);
    if (l->compare) l->held_loss_other = train_eval(&l->other, NULL);
    /* the longer batch costs four times the short one: when training rests,
     * or now and then while it runs */
    if (resting || l->long_at < 0 || t->steps - l->long_at >= TRAIN_LAB_LONG_EVERY) derive_long(l);
    train_attention(t, l->example, l->example_A);
    int d = t->d, dk = t->d_k;
    for (int a = 0; a < d && a < 64; a++)
        for (int b = 0; b < d && b < 64; b++) {
            double s = 0;
            for (int k = 0; k < dk; k++) s += t->W_Q[a * dk + k] * t->W_K[b * dk + k];
            l->bilinear[a * d + b] = s;
        }
    int n = t->n;
    for (int i = 0; i < n; i++)
        for (int j = 0; j < n; j++) {
            const double *xi = t->E + (long)l->example[i] * d, *xj = t->E + (long)l->example[j] * d;
            const double *add = t->L ? t->L : t->P; /* the added positions, if any */
            const double *pi = add + i * d, *pj = add + j * d;
            double s = 0;
            for (int a = 0; a < d && a < 64; a++)
                for (int b = 0; b < d && b < 64; b++)
                    s += (xi[a] + pi[a]) * l->bilinear[a * d + b] * (xj[b] + pj[b]);
            l->example_scores[i * n + j] = s;
        }
    l->derived_at = t->steps;
}

void train_lab_free(Train_Lab *l) {
    if (l->ready) train_free(&l->trainer);
    if (l->compare) train_free(&l->other);
    memset(l, 0, sizeof *l);
}

void train_token_name(Train_Task task, int id, char *buf, size_t size) {
    if (task == TRAIN_MATCH) /* colour A…H, upper or lower case for the kind, then the number */
        snprintf(buf, size, "%c%d", (id / 2) % 2 ? 'a' + id / 4 : 'A' + id / 4, id % 2 + 1);
    else
        snprintf(buf, size, "w%02d", id);
}
