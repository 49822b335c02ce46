/* src/ui/train_view.c: the Train view trains live, by whole steps, and ends
 * where a trainer with the same settings and step count ends, however the
 * frames came. */
#include "harness.h"
#include "lesson/lesson_play.h"
#include "ui/train_view.h"

#include <math.h>

static Harness h;

static void open_default(void) {
    harness_open(&h, "default.json", 1600, 900, (Text_Metrics){0});
    h.vs.view = VIEW_TRAIN;
    harness_frame(&h);
}

static void close_default(void) {
    harness_close(&h);
}

TestSuite(train_view, .init = open_default, .fini = close_default);

static void click(const char *name, int index) {
    const Ui_Record *b = harness_find(&h, "button", name, index);
    harness_click(&h, rect_cx(b), rect_cy(b));
}

Test(train_view, play_trains_by_slices_and_pause_stops) {
    cr_assert(h.m.train.ready);
    cr_assert_eq(h.m.train.trainer.steps, 0);
    click("train_play", -1);
    cr_assert(h.m.train.running);
    cr_assert(view_wants_frames(&h.vs), "a running trainer asks for frames");
    long before = h.m.train.trainer.steps;
    for (int k = 0; k < 10; k++) harness_frame(&h); /* each is a frame and its calm frame */
    cr_assert_eq(h.m.train.trainer.steps - before, 20 * TRAIN_SLICE, "whole slices, one per frame");
    click("train_play", -1);
    cr_assert_not(h.m.train.running);
    long paused = h.m.train.trainer.steps;
    for (int k = 0; k < 5; k++) harness_frame(&h);
    cr_assert_eq(h.m.train.trainer.steps, paused);
    cr_assert(harness_drew_text(&h, "held-out loss"), "the numbers are on screen");
}

Test(train_view, the_result_depends_on_the_steps_not_the_frames) {
    click("train_task", 1); /* previous */
    /* RoPE: its button, or ▶ until it shows */
    for (int k = 0; k < 5 && h.m.train.trainer.pos != TRAIN_POS_ROPE; k++) {
        const Ui_Record *pos = harness_find_maybe(&h, "button", "train_pos", TRAIN_POS_ROPE);
        if (!pos) pos = harness_find(&h, "button", "train_pos_next", -1);
        harness_click(&h, rect_cx(pos), rect_cy(pos));
    }
    cr_assert_eq(h.m.train.desc.task, TRAIN_PREVIOUS);
    cr_assert_eq(h.m.train.trainer.pos, TRAIN_POS_ROPE);
    cr_assert_eq(h.m.train.trainer.steps, 0, "a new task starts again");
    for (int k = 0; k < 3; k++) click("train_more", -1);
    for (int k = 0; k < 100 && h.m.train.queued > 0; k++) harness_frame(&h);
    cr_assert_eq(h.m.train.trainer.steps, 300);
    /* the same 300 steps with no window at all */
    static Trainer t;
    cr_assert(train_init(&t, &h.m.train.desc));
    for (int k = 0; k < 300; k++) train_step(&t);
    cr_assert_eq(memcmp(t.param, h.m.train.trainer.param, sizeof(double) * (size_t)t.count), 0,
                 "the same parameters, bit for bit");
    double acc, loss = train_eval(&t, &acc), acc_long;
    train_eval_long(&t, &acc_long);
    train_free(&t);
    cr_assert_eq(loss, h.m.train.held_loss);
    /* resting, the table holds RoPE's accuracy at both lengths */
    harness_frame(&h);
    const Train_Length_Row *row = &h.m.train.lengths[1][TRAIN_POS_ROPE];
    cr_assert(row->filled && row->steps == 300);
    cr_assert_eq(row->accuracy, acc);
    cr_assert_eq(row->accuracy_long, acc_long);
    cr_assert_not(h.m.train.lengths[1][TRAIN_POS_LEARNED].filled, "only what was trained");
    cr_assert(harness_drew_text(&h, "Train short, test long"), "the table is on screen");
    click("train_reset", -1);
    cr_assert_eq(h.m.train.trainer.steps, 0);
}

Test(train_view, compare_trains_the_other_scaling_beside_it) {
    const Ui_Record *c = harness_find(&h, "toggle", "train_compare", -1);
    harness_click(&h, rect_cx(c), rect_cy(c));
    cr_assert(h.m.train.compare);
    cr_assert_neq(h.m.train.other.desc.unscaled, h.m.train.desc.unscaled, "the other scaling");
    click("train_more", -1);
    for (int k = 0; k < 100 && h.m.train.queued > 0; k++) harness_frame(&h);
    cr_assert_eq(h.m.train.trainer.steps, 100);
    cr_assert_eq(h.m.train.other.steps, 100, "on the same step count");
    cr_assert(isfinite(h.m.train.held_loss_other));
    cr_assert(harness_drew_text(&h, "unscaled"), "the legend names both curves");
}

Test(train_view, one_step_at_a_time) {
    click("train_one", -1);
    click("train_one", -1);
    cr_assert_eq(h.m.train.trainer.steps, 2);
}

/* A lesson that asks for 100,000 steps of a compared d_k = 256 pair (minutes
 * of work) never holds up a frame: each frame runs a slice worth at most
 * TRAIN_DRAIN_UNITS, says how far it is, keeps asking for frames, and Esc
 * stops the rest. (It once trained all of it inside one frame: 147 s with
 * the window ignoring Ctrl+Q.) */
Test(train_view, a_lessons_long_training_runs_a_slice_a_frame_and_esc_stops_it) {
    static Lesson lesson;
    char path[1024], err[600];
    snprintf(path, sizeof path, "%s/long-training/long-training.md", test_env("ATTNLAB_TESTDATA"));
    cr_assert(lesson_load(&lesson, path, err, sizeof err), "%s", err);
    Lesson_Env env = {.m = &h.m, .data_dir = test_env("ATTNLAB_DATA")};
    cr_assert(lesson_apply(&lesson, lesson.setup_first, lesson.setup_count, &env, err, sizeof err),
              "%s", err);
    const Lesson_Goal *g = &lesson.steps[0].goals[0];
    cr_assert(lesson_apply(&lesson, g->sol_first, g->sol_count, &env, err, sizeof err), "%s", err);
    cr_assert_eq(h.m.train.trainer.d_k, 256);
    cr_assert(h.m.train.compare);
    cr_assert_eq(h.m.train.trainer.steps, 0, "nothing ran inside the lesson's action");
    cr_assert_eq(h.m.train.queued, 100000);
    /* a step of this pair costs more than a frame's units: one a frame */
    long per_frame = TRAIN_DRAIN_UNITS / train_lab_step_cost(&h.m.train);
    if (per_frame < 1) per_frame = 1;
    for (int k = 1; k <= 5; k++) {
        harness_one_frame(&h);
        cr_assert_eq(h.m.train.trainer.steps, k * per_frame, "a slice a frame");
        cr_assert(view_wants_frames(&h.vs), "more frames are asked for while it trains");
    }
    cr_assert(strstr(h.vs.status, "to go") && strstr(h.vs.status, "Esc"), "%s", h.vs.status);
    harness_key(&h, KEY_ESCAPE, 0, false, false);
    cr_assert_eq(h.m.train.queued, 0, "Esc stops it");
    cr_assert(strstr(h.vs.status, "stopped"), "%s", h.vs.status);
    long stopped = h.m.train.trainer.steps;
    harness_frame(&h);
    cr_assert_eq(h.m.train.trainer.steps, stopped);
}

/* The Train view trains its own toy sentences: the scene's chips, its Edit,
 * Reverse and Shuffle, and their keys are not offered there, and the status
 * line speaks of the view, not of the scene's n and d. */
Test(train_view, what_does_not_apply_is_not_shown) {
    cr_assert_null(harness_find_any(&h, "chip", "token"), "the scene's chips are on screen");
    cr_assert_null(harness_find_any(&h, "button", "reverse"), "Reverse is on screen");
    int first = h.m.scene.origin[0];
    harness_key(&h, KEY_CHAR, 'r', false, false);
    cr_assert_eq(h.m.scene.origin[0], first, "R reversed a sentence nobody sees");
    cr_assert(harness_drew_text(&h, "Train view: one head learns on toy sentences"));
}

/* W_Q·W_Kᵀ is shown over the example sentence's tokens: x_i·W_Q·W_Kᵀ·x_jᵀ,
 * which is the head's score q_i·k_j before scaling (an identity, checked in
 * float64), labelled by token; after training "match" the partner of each
 * token scores highest in most rows, as lesson 11 says. */
Test(train_view, the_learned_form_is_shown_over_the_tokens) {
    Train_Lab *l = &h.m.train;
    cr_assert(train_lab_run(l, 3000));
    train_lab_derive(l);
    const Trainer *t = &l->trainer;
    int n = t->n, d = t->d, dk = t->d_k, top_is_partner = 0;
    for (int i = 0; i < n; i++) {
        int best = 0;
        for (int j = 0; j < n; j++) {
            double qk = 0;
            for (int c = 0; c < dk; c++) {
                double q = 0, k = 0;
                for (int a = 0; a < d; a++) {
                    double xi = t->E[l->example[i] * d + a] + t->P[i * d + a];
                    double xj = t->E[l->example[j] * d + a] + t->P[j * d + a];
                    q += xi * t->W_Q[a * dk + c];
                    k += xj * t->W_K[a * dk + c];
                }
                qk += q * k;
            }
            cr_assert_float_eq(l->example_scores[i * n + j], qk, 1e-9 * (1 + fabs(qk)),
                               "score %d %d", i, j);
            if (l->example_scores[i * n + j] > l->example_scores[i * n + best]) best = j;
        }
        /* the partner: same colour (id / 4), other kind ((id / 2) % 2) */
        int a = l->example[i], b = l->example[best];
        top_is_partner += a / 4 == b / 4 && (a / 2) % 2 != (b / 2) % 2;
    }
    cr_assert_geq(top_is_partner, n - 2, "the partner scores highest in %d of %d rows",
                  top_is_partner, n);
    harness_frame(&h);
    char name[8];
    train_token_name(TRAIN_MATCH, l->example[0], name, sizeof name);
    const Ui_Record *p = harness_find(&h, "panel", "train_bilinear", -1);
    cr_assert(p);
    cr_assert(harness_drew_text(&h, "W_Q·W_Kᵀ over this sentence's tokens"));
}
