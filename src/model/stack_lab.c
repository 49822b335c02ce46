/* The layers lab; see stack_lab.h. */
#include "stack_lab.h"

#include <string.h>

Stack_Desc stack_lab_desc(int layers, int heads, Train_Pos pos, uint64_t seed) {
    /* every head gets an equal share: 3 heads have 18 coordinates, not 16 */
    int width = heads > 0 ? (16 + heads - 1) / heads * heads : 16;
    return (Stack_Desc){.layers = layers,
                        .heads = heads,
                        .width = width,
                        .vocab = 16,
                        .context = 24,
                        .repeat_min = 3,
                        .repeat_max = 12,
                        .pos = pos,
                        .seed = seed,
                        .lr = 0.01,
                        .batch = 16};
}

/* The held-out metrics of the whole model, as one more point. */
static void measure(Stack_Lab *l) {
    Stack *s = &l->stack;
    Stack_Metrics *m = &l->last;
    stack_eval(s, m);
    l->measured_at = s->steps;
    int L = s->desc.layers, H = s->desc.heads;
    for (int a = 0; a < L; a++)
        for (int h = 0; h < H; h++)
            if (l->phase_step < 0 && m->prefix_match[a][h] > 0.5) l->phase_step = s->steps;
    if (s->steps % (STACK_LAB_EVERY * l->stride)) return; /* between kept points */
    if (l->points == STACK_LAB_POINTS) {                  /* full: every other point goes */
        int half = STACK_LAB_POINTS / 2;
        for (int p = 0; p < half; p++) {
            l->at[p] = l->at[2 * p];
            l->loss[p] = l->loss[2 * p];
            l->in_context[p] = l->in_context[2 * p];
            for (int k = 0; k < L * H; k++) {
                l->prev_token[k][p] = l->prev_token[k][2 * p];
                l->prefix_match[k][p] = l->prefix_match[k][2 * p];
            }
        }
        l->points = half;
        l->stride *= 2;
        if (s->steps % (STACK_LAB_EVERY * l->stride)) return;
    }
    int p = l->points++;
    l->at[p] = s->steps;
    l->loss[p] = (float)m->loss;
    l->in_context[p] = (float)m->in_context_loss;
    for (int a = 0; a < L; a++)
        for (int h = 0; h < H; h++) {
            l->prev_token[a * H + h][p] = (float)m->prev_token[a][h];
            l->prefix_match[a * H + h][p] = (float)m->prefix_match[a][h];
        }
}

bool stack_lab_reset(Stack_Lab *l, const Stack_Desc *desc) {
    bool running = l->ready && l->running, fast = l->fast;
    stack_lab_free(l);
    if (!stack_init(&l->stack, desc)) return false;
    l->ready = true;
    l->running = running;
    l->fast = fast;
    l->stride = 1;
    l->phase_step = -1;
    l->derived_at = -1;
    l->shown_at = -1;
    measure(l);
    return true;
}

bool stack_lab_run(Stack_Lab *l, long steps) {
    if (!l->ready) {
        Stack_Desc d = stack_lab_desc(2, 1, TRAIN_POS_LEARNED, 1);
        if (!stack_lab_reset(l, &d)) return false;
    }
    for (long k = 0; k < steps; k++) {
        stack_step(&l->stack);
        if (l->stack.steps % STACK_LAB_EVERY == 0) measure(l);
    }
    return true;
}

long stack_lab_step_cost(const Stack_Lab *l) {
    /* measured here against a step of one head at d_k = 16 (0.65 ms): 1.6 at
     * 1 × 1, 3.3 at 2 × 1, 5.3 at 4 × 1, 11 at 4 × 4; rounded up */
    int layers = l->ready ? l->stack.desc.layers : 2, heads = l->ready ? l->stack.desc.heads : 1;
    return (layers * (3L + heads) + 1) / 2;
}

void stack_lab_derive(Stack_Lab *l) {
    if (!l->ready || l->derived_at == l->stack.steps) return;
    Stack *s = &l->stack;
    int L = s->desc.layers, H = s->desc.heads;
    memcpy(s->ablated, l->ablated, sizeof s->ablated);
    /* what the model does without the zeroed heads: measured (a held-out
     * evaluation costs two steps) when the whole model is, or they change */
    if (!stack_lab_ablated(l))
        l->shown = l->last;
    else if (l->shown_at != l->measured_at) {
        stack_eval(s, &l->shown);
        l->shown_at = l->measured_at;
    }
    stack_example(s);
    memset(s->ablated, 0, sizeof s->ablated); /* training trains every head */
    for (int a = 0; a < L; a++)
        for (int h = 0; h < H; h++)
            for (int b = a + 1; b < L; b++)
                for (int g = 0; g < H; g++)
                    l->k_comp[a][h][b][g] = stack_k_composition(s, a, h, b, g);
    l->derived_at = s->steps;
}

void stack_lab_ablate(Stack_Lab *l, int layer, int head) {
    if (!l->ready || layer < 0 || layer >= l->stack.desc.layers || head < 0 ||
        head >= l->stack.desc.heads)
        return;
    l->ablated[layer][head] = !l->ablated[layer][head];
    l->shown_at = -1;
    l->derived_at = -1;
}

int stack_lab_ablated(const Stack_Lab *l) {
    int count = 0;
    for (int a = 0; a < STACK_MAX_LAYERS; a++)
        for (int h = 0; h < STACK_MAX_HEADS; h++) count += l->ablated[a][h];
    return count;
}

double stack_lab_best_prefix(const Stack_Lab *l) {
    double best = 0;
    for (int a = 0; a < l->stack.desc.layers; a++)
        for (int h = 0; h < l->stack.desc.heads; h++)
            if (l->last.prefix_match[a][h] > best) best = l->last.prefix_match[a][h];
    return best;
}

void stack_lab_free(Stack_Lab *l) {
    if (l->ready) stack_free(&l->stack);
    memset(l, 0, sizeof *l);
}
