/* src/model/action.c and model_apply: every change as a value. Each kind
 * does what it says and refuses what it must, leaving the scene untouched;
 * undo keeps gesture-sized steps; a recorded list replays to the same bits. */
#include "core/perm.h"
#include "model/model.h"
#include "test_util.h"

#include <math.h>
#include <string.h>

static Vocab vocab;
static Scene start, s, before;
static Model m, m2;

static void setup(void) {
    test_load_vocab(&vocab);
    scene_default(&start);
    char err[256];
    cr_assert(scene_set_sentence(&start, "the cat sat on the mat", &vocab, err, sizeof err));
    s = start;
}

static void teardown(void) {
    vocab_free(&vocab);
}

TestSuite(action, .init = setup, .fini = teardown);

/* Apply a to s and say whether it worked; a refusal must leave s as it was. */
static bool apply(Action a, bool *changed, char *err, size_t errsz) {
    before = s;
    bool ok = scene_apply(&s, &a, &vocab, changed, err, errsz);
    if (!ok)
        cr_assert(scene_equal(&s, &before), "a refused %s changed the scene", action_name(a.kind));
    if (ok && !*changed)
        cr_assert(scene_equal(&s, &before), "an unchanged %s changed the scene",
                  action_name(a.kind));
    return ok;
}

static void ok(Action a) {
    char err[400];
    bool changed;
    cr_assert(apply(a, &changed, err, sizeof err), "%s: %s", action_name(a.kind), err);
}

static void refused(Action a, const char *want) {
    char err[400] = "";
    bool changed;
    cr_assert_not(apply(a, &changed, err, sizeof err), "%s was accepted", action_name(a.kind));
    cr_assert(strstr(err, want), "%s: got '%s', wanted '%s' in it", action_name(a.kind), err, want);
}

Test(action, settings_take_their_range_from_the_table) {
    ok(action_set(SET_DK, 64));
    cr_assert_eq(s.d_k, 64);
    ok(action_set(SET_SEED, 4294967295.0));
    cr_assert_eq(s.seed, 4294967295u);
    ok(action_set(SET_POS_STRENGTH, 2.5));
    cr_assert_eq(s.pos_strength, 2.5f);
    refused(action_set(SET_DK, 0), "must be 1 to 1024");
    refused(action_set(SET_DK, ATTN_MAX_DK + 1), "must be 1 to 1024");
    refused(action_set(SET_DV, 2.5), "whole number");
    refused(action_set(SET_POS_STRENGTH, NAN), "not a finite number");
    refused(action_set(SET_SEED, 4294967296.0), "4294967295");
    refused(action_set((Setting_Id)SET_COUNT, 1), "no setting");
    bool changed = true;
    char err[200];
    cr_assert(apply(action_set(SET_DK, 64), &changed, err, sizeof err));
    cr_assert_not(changed, "setting the value it has is no change");
}

Test(action, a_new_width_keeps_the_shared_columns_and_embeds_the_new_ones) {
    ok(action_move(2, 0, 0.5f, 1, -0.25f));
    ok(action_set(SET_D, 5));
    cr_assert_eq(s.d, 5);
    cr_assert_eq(s.X[2 * 5 + 0], 0.5f);
    cr_assert_eq(s.X[2 * 5 + 1], -0.25f);
    float row[ATTN_MAX_D];
    vocab_embed(&vocab, s.tokens[2], 5, row);
    for (int c = 2; c < 5; c++) cr_assert_eq(s.X[2 * 5 + c], row[c], "column %d", c);
}

Test(action, a_move_is_refused_outside_the_scene_never_clamped) {
    ok(action_move(1, 0, 3.0f, 1, -2.0f));
    cr_assert_eq(s.X[1 * s.d + 0], 3.0f);
    cr_assert_eq(s.X[1 * s.d + 1], -2.0f);
    refused(action_move(6, 0, 0, 1, 0), "no token at index 6");
    refused(action_move(-1, 0, 0, 1, 0), "no token at index -1");
    refused(action_move(0, 0, 0, s.d, 0), "d = 2");
    refused(action_move(0, 0, (float)ATTN_MAX_ABS_X * 1.01f, 1, 0), "not inside");
    refused(action_move(0, 0, INFINITY, 1, 0), "not inside");
    refused(action_move(0, 0, 0, 1, NAN), "not inside");
}

Test(action, orders_permute_and_restore_exactly) {
    int p[6] = {5, 0, 1, 2, 3, 4};
    ok((Action){.kind = ACTION_PERMUTE, .n = 6, .perm = p});
    cr_assert_str_eq(s.tokens[0], "mat");
    cr_assert_eq(s.origin[0], 5);
    ok(action_of(ACTION_REVERSE));
    cr_assert_str_eq(s.tokens[0], "the");
    cr_assert_eq(s.origin[0], 4);
    ok((Action){.kind = ACTION_ROTATE, .i = 1});
    ok((Action){.kind = ACTION_SHUFFLE, .seed = 99});
    ok(action_of(ACTION_RESTORE_ORDER));
    cr_assert(scene_equal(&s, &start), "restore brings back the original order, bit for bit");
    int bad[6] = {0, 0, 1, 2, 3, 4};
    refused((Action){.kind = ACTION_PERMUTE, .n = 6, .perm = bad}, "permute:");
    refused((Action){.kind = ACTION_PERMUTE, .n = 5, .perm = p}, "5 positions");
    int id[6] = {0, 1, 2, 3, 4, 5};
    bool changed = true;
    char err[200];
    cr_assert(
        apply((Action){.kind = ACTION_PERMUTE, .n = 6, .perm = id}, &changed, err, sizeof err));
    cr_assert_not(changed);
}

Test(action, a_shuffle_is_its_seed_and_never_the_order_it_started_from) {
    for (uint64_t seed = 0; seed < 300; seed++) {
        for (int n = 2; n <= 6; n += 4) {
            static Scene a, b;
            a = start;
            a.n = n;
            b = a;
            bool ca, cb;
            char err[200];
            Action sh = {.kind = ACTION_SHUFFLE, .seed = seed};
            cr_assert(scene_apply(&a, &sh, &vocab, &ca, err, sizeof err));
            cr_assert(scene_apply(&b, &sh, &vocab, &cb, err, sizeof err));
            cr_assert(ca, "seed %llu, n %d: the order did not change", (unsigned long long)seed, n);
            cr_assert(scene_equal(&a, &b), "the same seed gives the same order");
        }
    }
}

Test(action, a_sentence_or_a_scene_is_all_or_nothing) {
    ok((Action){.kind = ACTION_SENTENCE, .text = "  a dog  ran\t"});
    cr_assert_eq(s.n, 3);
    cr_assert_str_eq(s.tokens[2], "ran");
    refused((Action){.kind = ACTION_SENTENCE, .text = "   "}, "empty");
    refused((Action){.kind = ACTION_SENTENCE, .text = "ok \xff"}, "UTF-8");
    ok((Action){.kind = ACTION_LOAD_SCENE, .scene = &start});
    cr_assert(scene_equal(&s, &start));
    static Scene broken;
    broken = start;
    broken.d_k = 0;
    refused((Action){.kind = ACTION_LOAD_SCENE, .scene = &broken}, "load scene:");
    refused(action_of(ACTION_UNDO), "only a model");
}

/* ---- the model --------------------------------------------------------------- */

static void model_ok(Model *mm, Action a) {
    char err[400];
    cr_assert(model_apply(mm, &a, err, sizeof err), "%s: %s", action_name(a.kind), err);
}

Test(action, a_gesture_is_one_undo_step_and_no_change_records_nothing) {
    cr_assert(model_init(&m, &start, &vocab));
    model_ok(&m, action_set(SET_DK, m.scene.d_k)); /* no change */
    cr_assert_eq(m.undo_count, 0);
    model_ok(&m, action_of(ACTION_GESTURE_BEGIN));
    for (int k = 1; k <= 20; k++) model_ok(&m, action_move(0, 0, 0.1f * (float)k, 1, 0));
    model_ok(&m, action_of(ACTION_GESTURE_END));
    cr_assert_eq(m.undo_count, 1, "a drag of 20 moves is one step");
    model_ok(&m, action_set(SET_DK, 3));
    cr_assert_eq(m.undo_count, 2);
    unsigned long v = m.version;
    char err[200];
    Action zero = action_set(SET_DK, 0), undo = action_of(ACTION_UNDO);
    cr_assert_not(model_apply(&m, &zero, err, sizeof err));
    cr_assert_eq(m.version, v, "a refused action is no change");
    cr_assert_eq(m.undo_count, 2);
    model_ok(&m, action_of(ACTION_UNDO));
    model_ok(&m, action_of(ACTION_UNDO));
    cr_assert(scene_equal(&m.scene, &start));
    cr_assert_not(model_apply(&m, &undo, err, sizeof err));
    cr_assert_str_eq(err, "Nothing to undo");
    model_ok(&m, action_of(ACTION_REDO));
    cr_assert_eq(m.scene.X[0], 2.0f);
    model_free(&m);
}

/* A drag updates S by one row and column; it must give the bits a full
 * recompute gives, since the incremental path is only an optimization. */
static void same_bits(const Model *a, const Model *b) {
    const Attn *x = &a->derived.pass.head[0], *y = &b->derived.pass.head[0];
    int n = a->scene.n;
    cr_assert(scene_equal(&a->scene, &b->scene));
    cr_assert_eq(memcmp(x->S, y->S, sizeof(float) * (size_t)n * n), 0, "S differs");
    cr_assert_eq(memcmp(x->A, y->A, sizeof(float) * (size_t)n * n), 0, "A differs");
    cr_assert_eq(memcmp(x->O, y->O, sizeof(float) * (size_t)n * a->scene.d_v), 0, "O differs");
}

Test(action, a_recorded_list_replays_to_the_same_bits) {
    static Action_List rec, copy;
    action_list_clear(&rec);
    cr_assert(model_init(&m, &start, &vocab));
    Rng r;
    rng_seed(&r, 7);
    char err[400];
    for (int k = 0; k < ACTION_LIST_MAX; k++) {
        Action a;
        int p[ATTN_MAX_TOKENS];
        switch (rng_next_u64(&r) % 8) {
        case 0:
            a = action_set(SET_DK, 1 + (double)(rng_next_u64(&r) % 40));
            break;
        case 1:
            a = action_move((int)(rng_next_u64(&r) % (uint64_t)m.scene.n), 0,
                            (float)rng_uniform(&r) * 4 - 2, 1, (float)rng_uniform(&r) * 4 - 2);
            break;
        case 2:
            a = (Action){.kind = ACTION_SENTENCE,
                         .text = k % 2 ? "one two three four" : "a b c d e f g"};
            break;
        case 3:
            perm_identity(m.scene.n, p);
            p[0] = m.scene.n - 1;
            p[m.scene.n - 1] = 0;
            a = (Action){.kind = ACTION_PERMUTE, .n = m.scene.n, .perm = p};
            break;
        case 4:
            a = (Action){.kind = ACTION_SHUFFLE, .seed = rng_next_u64(&r)};
            break;
        case 5:
            a = action_set(SET_POS, (double)(rng_next_u64(&r) % 2));
            break;
        case 6:
            a = action_of(ACTION_UNDO);
            break;
        default:
            a = action_set(SET_SCALED, (double)(rng_next_u64(&r) % 2));
            break;
        }
        cr_assert(action_list_push(&rec, &a), "the list holds %d actions", ACTION_LIST_MAX);
        model_apply(&m, &a, err, sizeof err); /* an undo with nothing to undo may fail */
        if (k % 5 == 0) cr_assert(model_update(&m));
    }
    Action extra = action_of(ACTION_REDO);
    cr_assert_not(action_list_push(&rec, &extra), "a full list says so");
    cr_assert(model_update(&m));
    /* the list owns its payloads: a copy replays as well as the original */
    memcpy(&copy, &rec, sizeof rec);
    memset(&rec, 0xAB, sizeof rec);
    cr_assert(model_init(&m2, &start, &vocab));
    for (int k = 0; k < copy.count; k++) {
        Action a = action_list_get(&copy, k);
        model_apply(&m2, &a, err, sizeof err);
        if (k % 3 == 0) cr_assert(model_update(&m2));
    }
    cr_assert(model_update(&m2));
    same_bits(&m, &m2);
    model_free(&m);
    model_free(&m2);
}

Test(action, a_drag_updated_incrementally_equals_a_full_recompute) {
    cr_assert(model_init(&m, &start, &vocab));
    for (int k = 0; k < 50; k++) {
        model_ok(&m, action_move(k % 6, 0, 0.03f * (float)k - 0.7f, 1, 0.5f - 0.02f * (float)k));
        cr_assert_eq(m.moved, k % 6, "one token moved: the incremental path");
        cr_assert(model_update(&m));
    }
    cr_assert(model_init(&m2, &m.scene, &vocab)); /* everything computed from scratch */
    same_bits(&m, &m2);
    model_free(&m);
    model_free(&m2);
}

Test(action, a_list_refuses_payloads_it_cannot_hold) {
    static Action_List l;
    static char big[ACTION_LIST_BYTES + 10];
    action_list_clear(&l);
    memset(big, 'a', sizeof big - 1);
    Action a = {.kind = ACTION_SENTENCE, .text = big};
    cr_assert_not(action_list_push(&l, &a));
    cr_assert_eq(l.count, 0);
    Action b = {.kind = ACTION_SENTENCE, .text = "fits"};
    cr_assert(action_list_push(&l, &b));
    Action got = action_list_get(&l, 0);
    cr_assert_str_eq(got.text, "fits");
    cr_assert_neq(got.text, b.text, "the list keeps its own copy");
    char typed[32] = "the Model view's text"; /* the edit buffer, typed on after the push */
    Action c = {.kind = ACTION_REAL_TEXT, .text = typed};
    cr_assert(action_list_push(&l, &c));
    typed[0] = 'X';
    cr_assert_str_eq(action_list_get(&l, 1).text, "the Model view's text", "a copy for it too");
}

/* The training labs by action, as the Train view's controls and a lesson's
 * steps drive them: each does what it says and nothing is undone; a setting
 * starts training again only when it changes; a value out of range is
 * refused with a line and leaves the lab where it was; scene_apply refuses
 * every lab action (they are the model's). */
Test(action, the_labs_take_actions_and_refuse_what_they_cannot_do) {
    cr_assert(model_init(&m, &start, &vocab));
    char err[300];
    bool changed = false;
    Action play = action_lab(ACTION_LAB_PLAY, LAB_ONE_HEAD);
    cr_assert_not(scene_apply(&s, &play, &vocab, &changed, err, sizeof err));
    cr_assert_str_eq(err, "play: only a model can do that");

    model_ok(&m, play); /* the first touch starts the lab with its defaults */
    cr_assert(m.train.ready && m.train.running);
    model_ok(&m, play);
    cr_assert_not(m.train.running, "play is a toggle");
    model_ok(&m, (Action){.kind = ACTION_LAB_STEPS, .i = LAB_ONE_HEAD, .n = 100});
    model_ok(&m, (Action){.kind = ACTION_LAB_STEPS, .i = LAB_ONE_HEAD, .n = 1});
    cr_assert_eq(m.train.queued, 101, "steps wait for the frames, a slice each");
    cr_assert(train_lab_run(&m.train, 7));
    cr_assert_eq(m.train.trainer.steps, 7);
    model_ok(&m, action_lab_set(LAB_ONE_HEAD, LAB_KNOB_TASK, TRAIN_MATCH)); /* as it is */
    cr_assert_eq(m.train.trainer.steps, 7, "an unchanged setting keeps the training");
    model_ok(&m, action_lab_set(LAB_ONE_HEAD, LAB_KNOB_DK, 4));
    cr_assert_eq(m.train.trainer.steps, 0, "a new d_k trains again");
    cr_assert_eq(m.train.trainer.d_k, 4);
    model_ok(&m, action_lab_set(LAB_ONE_HEAD, LAB_KNOB_POS, TRAIN_POS_ROPE));
    model_ok(&m, action_lab_set(LAB_ONE_HEAD, LAB_KNOB_SCALED, 0));
    model_ok(&m, action_lab_set(LAB_ONE_HEAD, LAB_KNOB_COMPARE, 1));
    model_ok(&m, action_lab_set(LAB_ONE_HEAD, LAB_KNOB_LR, 0.05));
    cr_assert(m.train.trainer.pos == TRAIN_POS_ROPE && m.train.desc.unscaled && m.train.compare);
    cr_assert_eq(m.train.desc.lr, 0.05);
    const struct {
        Action a;
        const char *why;
    } refused[] = {
        {action_lab_set(LAB_ONE_HEAD, LAB_KNOB_DK, 0), "d_k: a whole number from 1 to 256"},
        {action_lab_set(LAB_ONE_HEAD, LAB_KNOB_DK, 2.5), "d_k: a whole number from 1 to 256"},
        {action_lab_set(LAB_ONE_HEAD, LAB_KNOB_LR, NAN), "learning rate: above 0, at most 10"},
        {action_lab_set(LAB_ONE_HEAD, LAB_KNOB_POS, 9), "no such positional scheme"},
        {action_lab_set(LAB_ONE_HEAD, LAB_KNOB_LAYERS, 2), "not a setting of the one-head lab"},
        {action_lab_set(LAB_LAYERS, LAB_KNOB_HEADS, 5), "heads: a whole number from 1 to 4"},
        {action_lab_set(LAB_LAYERS, LAB_KNOB_POS, TRAIN_POS_ALIBI),
         "the layers lab's positions: none, sin, learned or rope"},
        {action_lab_set(LAB_LAYERS, LAB_KNOB_DK, 8), "not a setting of the layers lab"},
        {(Action){.kind = ACTION_LAB_STEPS, .i = LAB_ONE_HEAD, .n = 0},
         "steps: 1 to 1000000 at a time"},
        {(Action){.kind = ACTION_LAB_STEPS, .i = LAB_ONE_HEAD, .n = 1000001},
         "steps: 1 to 1000000 at a time"},
        {(Action){.kind = ACTION_LAB_ZERO, .i = LAB_LAYERS, .c0 = 0, .c1 = 3},
         "the layers lab has no head 3 of layer 0"},
        {action_lab(ACTION_LAB_FAST, LAB_ONE_HEAD), "not an action of the one-head lab"},
        {action_lab(ACTION_LAB_PLAY, (Lab_Id)7), "no such lab"},
    };
    m.train.queued = 0;
    for (int k = 0; k < 100; k++) /* a hundred million waiting: the bound, met */
        model_ok(&m, (Action){.kind = ACTION_LAB_STEPS, .i = LAB_ONE_HEAD, .n = 1000000});
    Action over = {.kind = ACTION_LAB_STEPS, .i = LAB_ONE_HEAD, .n = 1};
    cr_assert_not(model_apply(&m, &over, err, sizeof err), "the queue's bound is a message");
    cr_assert_str_eq(err, "steps: at most 100000000 waiting to run");
    cr_assert_eq(m.train.queued, 100000000L);
    m.train.queued = 0;
    for (size_t k = 0; k < sizeof refused / sizeof *refused; k++) {
        Train_Desc desc = m.train.desc;
        long queued = m.train.queued;
        cr_assert_not(model_apply(&m, &refused[k].a, err, sizeof err), "case %zu", k);
        cr_assert_str_eq(err, refused[k].why, "case %zu", k);
        cr_assert(!memcmp(&desc, &m.train.desc, sizeof desc) && queued == m.train.queued,
                  "case %zu: a refused action changed the lab", k);
    }

    model_ok(&m, action_lab(ACTION_LAB_SHOW, LAB_LAYERS));
    cr_assert(m.layers && m.stack.ready);
    model_ok(&m, action_lab_set(LAB_LAYERS, LAB_KNOB_LAYERS, 2));
    model_ok(&m, action_lab_set(LAB_LAYERS, LAB_KNOB_HEADS, 3));
    cr_assert(m.stack.stack.desc.layers == 2 && m.stack.stack.desc.heads == 3);
    cr_assert_eq(m.stack.stack.d_h, 6, "3 heads share 18 coordinates: 16 do not divide");
    model_ok(&m, action_lab(ACTION_LAB_FAST, LAB_LAYERS));
    cr_assert(m.stack.fast);
    model_ok(&m, (Action){.kind = ACTION_LAB_ZERO, .i = LAB_LAYERS, .c0 = 1, .c1 = 2});
    cr_assert(m.stack.ablated[1][2]);
    cr_assert(stack_lab_run(&m.stack, 5));
    model_ok(&m, action_lab(ACTION_LAB_RESET, LAB_LAYERS));
    cr_assert_eq(m.stack.stack.steps, 0, "reset trains again from step 0");
    cr_assert(m.stack.stack.desc.layers == 2 && m.stack.stack.desc.heads == 3, "the same shape");
    cr_assert_eq(m.undo_count, 0, "no lab action is undone");
    model_ok(&m, (Action){.kind = ACTION_LAB_EXPLORE, .i = LAB_LAYERS, .c0 = 1, .c1 = 0});
    cr_assert(m.scene.learned && m.learned.layer == 1);
    cr_assert_eq(m.undo_count, 1, "opening a head changes the scene: that is undone");
    model_ok(&m, action_lab(ACTION_LAB_SHOW, LAB_ONE_HEAD));
    cr_assert_not(m.layers);
    model_free(&m);
}
