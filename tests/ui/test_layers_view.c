/* src/ui/layers_view.c: the Train view's layers model. It trains at a
 * watchable pace or fast, by whole steps, and ends where a stack with the
 * same settings and step count ends, however the frames came; its buttons
 * zero a head and open one in the explorer; a low window shows one panel at
 * a time. */
#include "harness.h"
#include "ui/layers_view.h"
#include "ui/train_view.h"

#include <math.h>

static Harness h;

static void open_layers(void) {
    harness_open(&h, "default.json", 1600, 900, (Text_Metrics){0});
    h.vs.view = VIEW_TRAIN;
    harness_frame(&h);
    const Ui_Record *sw = harness_find(&h, "button", "train_model", 1);
    harness_click(&h, rect_cx(sw), rect_cy(sw));
}

static void close_layers(void) {
    harness_close(&h);
}

TestSuite(layers_view, .init = open_layers, .fini = close_layers);

static void click(const char *name, int index) {
    const Ui_Record *b = harness_find(&h, "button", name, index);
    harness_click(&h, rect_cx(b), rect_cy(b));
}

Test(layers_view, the_switch_shows_the_layers_and_back) {
    cr_assert(h.m.layers);
    cr_assert(h.m.stack.ready);
    cr_assert_eq(h.m.stack.stack.steps, 0);
    cr_assert_eq(h.m.stack.stack.desc.layers, 2, "two layers of one head by default");
    static const char *const panels[] = {"layers_controls", "layers_loss", "layers_scores",
                                         "layers_heads"};
    for (size_t k = 0; k < sizeof panels / sizeof *panels; k++)
        cr_assert_not_null(harness_find_maybe(&h, "panel", panels[k], -1), "%s", panels[k]);
    cr_assert(harness_drew_text(&h, "LayerNorm."), "the toy model says what it lacks");
    cr_assert(harness_drew_text(&h, "induction task"), "the status line speaks of the layers");
    cr_assert_null(harness_find_maybe(&h, "button", "train_task", 0), "not the one head's");
    click("train_model", 0);
    cr_assert_not(h.m.layers);
    cr_assert_not_null(harness_find_maybe(&h, "button", "train_task", 0));
}

/* Playing runs LAYERS_PACE steps a second of view time (a frame of the
 * harness is 20 ms), so the phase change takes seconds to watch; fast runs
 * what LAYERS_FAST_UNITS afford each frame. */
Test(layers_view, it_plays_at_a_watchable_pace_or_fast) {
    click("layers_play", -1);
    cr_assert(h.m.stack.running);
    cr_assert(view_wants_frames(&h.vs), "a running model asks for frames");
    long before = h.m.stack.stack.steps;
    for (int k = 0; k < 50; k++) harness_one_frame(&h); /* one second */
    long slow = h.m.stack.stack.steps - before;
    cr_assert(slow >= LAYERS_PACE - 2 && slow <= LAYERS_PACE + 2, "%ld steps in a second", slow);
    click("layers_fast", -1);
    cr_assert(h.m.stack.fast);
    before = h.m.stack.stack.steps;
    for (int k = 0; k < 10; k++) harness_one_frame(&h);
    long per = LAYERS_FAST_UNITS / stack_lab_step_cost(&h.m.stack);
    cr_assert_eq(h.m.stack.stack.steps - before, 10 * per, "whole slices, one per frame");
    click("layers_play", -1);
    cr_assert_not(h.m.stack.running);
    long paused = h.m.stack.stack.steps;
    for (int k = 0; k < 5; k++) harness_frame(&h);
    cr_assert_eq(h.m.stack.stack.steps, paused);
}

/* "+100" runs a slice a frame, Esc stops the rest, and 300 steps are the
 * same 300 steps with no window at all. */
Test(layers_view, the_result_depends_on_the_steps_not_the_frames) {
    long per = TRAIN_DRAIN_UNITS / stack_lab_step_cost(&h.m.stack);
    click("layers_more", -1); /* a click takes frames: some slices have run */
    long ran = h.m.stack.stack.steps;
    cr_assert(ran > 0 && ran < 100 && ran % per == 0, "%ld steps", ran);
    cr_assert_eq(h.m.stack.queued, 100 - ran);
    harness_one_frame(&h);
    cr_assert_eq(h.m.stack.stack.steps, ran + per, "a slice a frame");
    cr_assert(strstr(h.vs.status, "to go") && strstr(h.vs.status, "Esc"), "%s", h.vs.status);
    harness_key(&h, KEY_ESCAPE, 0, false, false);
    cr_assert_eq(h.m.stack.queued, 0, "Esc stops it");
    cr_assert(strstr(h.vs.status, "stopped"), "%s", h.vs.status);
    click("layers_reset", -1);
    cr_assert_eq(h.m.stack.stack.steps, 0);
    for (int k = 0; k < 3; k++) click("layers_more", -1);
    for (int k = 0; k < 400 && h.m.stack.queued > 0; k++) harness_frame(&h);
    cr_assert_eq(h.m.stack.stack.steps, 300);
    static Stack s;
    cr_assert(stack_init(&s, &h.m.stack.stack.desc));
    for (int k = 0; k < 300; k++) stack_step(&s);
    cr_assert_eq(memcmp(s.param, h.m.stack.stack.param, sizeof(double) * (size_t)s.count), 0,
                 "the same parameters, bit for bit");
    stack_free(&s);
}

/* The counts and the scheme start again from step 0; ALiBi is not offered
 * (the stack has no bias rule). */
Test(layers_view, layers_heads_and_positions_start_again) {
    click("layers_more", -1);
    for (int k = 0; k < 100 && h.m.stack.queued > 0; k++) harness_frame(&h);
    click("layers_count", 3);
    cr_assert_eq(h.m.stack.stack.desc.layers, 3);
    cr_assert_eq(h.m.stack.stack.steps, 0, "a new model starts at step 0");
    click("layers_heads", 2);
    cr_assert_eq(h.m.stack.stack.desc.heads, 2);
    cr_assert_not_null(harness_find_maybe(&h, "button", "layers_explore", 2 * STACK_MAX_HEADS + 1),
                       "every head of three layers of two has its buttons");
    click("layers_pos", TRAIN_POS_ROPE);
    cr_assert_eq(h.m.stack.stack.desc.pos, TRAIN_POS_ROPE);
    cr_assert_null(harness_find_maybe(&h, "button", "layers_pos", TRAIN_POS_ALIBI));
    /* three heads do not share 16 coordinates: they get 18, not an "out of memory" */
    click("layers_heads", 3);
    cr_assert_eq(h.m.stack.stack.desc.heads, 3);
    cr_assert_eq(h.m.stack.stack.d_h, 6);
    cr_assert_not(h.vs.status_error, "%s", h.vs.status);
}

/* "zero it" zeroes a head and says what that does to the loss; "explore ↗"
 * opens a head in the explorer with its trained weights. */
Test(layers_view, a_head_is_zeroed_and_explored_by_its_buttons) {
    for (int k = 0; k < 4; k++) click("layers_more", -1);
    for (int k = 0; k < 400 && h.m.stack.queued > 0; k++) harness_frame(&h);
    click("layers_ablate", 0);
    cr_assert(h.m.stack.ablated[0][0]);
    harness_frame(&h);
    cr_assert(harness_drew_text(&h, "zeroed"), "its button says so");
    cr_assert(harness_drew_text(&h, "zeroed:"), "the controls say what it did");
    cr_assert_gt(h.m.stack.shown.in_context_loss, h.m.stack.last.in_context_loss);
    click("layers_ablate", 0);
    cr_assert_not(h.m.stack.ablated[0][0]);
    click("layers_explore", 1 * STACK_MAX_HEADS + 0);
    cr_assert_eq(h.vs.view, VIEW_EXPLORER);
    cr_assert(h.m.scene.learned);
    cr_assert(strstr(h.vs.status, "layer 1 head 0"), "%s", h.vs.status);
    h.vs.status[0] = '\0'; /* the note gone, the status line says it still */
    harness_frame(&h);
    cr_assert(harness_drew_text(&h, "trained weights: layer 1 head 0"),
              "the status line says whose weights these are");
}

/* Low (presenting at a projector's zoom): one panel at a time under tabs. */
Test(layers_view, a_low_window_shows_one_panel_at_a_time) {
    h.w = 960;
    h.h = 420;
    harness_frame(&h);
    cr_assert_not_null(harness_find_maybe(&h, "button", "layers_tab", 2));
    cr_assert_not_null(harness_find_maybe(&h, "panel", "layers_loss", -1));
    cr_assert_null(harness_find_maybe(&h, "panel", "layers_heads", -1));
    click("layers_tab", 2);
    cr_assert_not_null(harness_find_maybe(&h, "panel", "layers_heads", -1));
    cr_assert_null(harness_find_maybe(&h, "panel", "layers_loss", -1));
    /* (a lesson step's highlight turning the tab is checked by playing
     * lesson 13 by input in presenter mode: a step's panel must be on screen) */
}
