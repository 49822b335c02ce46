/* src/ui/lesson_panel.c: stepping through a lesson with the keys presenters
 * use, "show me" reaching a goal, and the student's scene kept safe. */
#include "harness.h"
#include "ui/explain.h"
#include "ui/lesson_menu.h"
#include "ui/lesson_panel.h"

#include <math.h>

static Harness h;
static Lesson lesson;
static Scene saved;
static Math_Scratch math;

static void open_lesson(void) {
    harness_open(&h, "default.json", 1600, 900, (Text_Metrics){0});
    char path[1024], err[1024];
    snprintf(path, sizeof path, "%s/lessons/03-scores-softmax-outputs.md",
             test_env("ATTNLAB_DATA"));
    cr_assert(lesson_load(&lesson, path, err, sizeof err), "%s", err);
    h.vs.session.lesson = &lesson;
    h.vs.session.saved = &saved;
    h.vs.session.math = &math;
    h.vs.session.data_dir = test_env("ATTNLAB_DATA");
}

static void close_lesson(void) {
    harness_close(&h);
}

TestSuite(lesson_panel, .init = open_lesson, .fini = close_lesson);

static void run_frames(int count) {
    for (int k = 0; k < count; k++) harness_frame(&h);
}

/* → until the next step shows, as a student reads a long step's pages. */
static void next_step(void) {
    int step = h.vs.session.step;
    for (int k = 0; k < 40 && h.vs.session.step == step; k++)
        harness_key(&h, KEY_RIGHT, 0, false, false);
    cr_assert_eq(h.vs.session.step, step + 1, "→ never reached the next step");
}

Test(lesson_panel, keys_step_through_and_apply_each_steps_setup) {
    char err[256];
    cr_assert(lesson_enter(&h.vs, &h.m, err, sizeof err));
    harness_frame(&h);
    cr_assert_eq(h.vs.session.step, 0);
    cr_assert_str_eq(h.vs.session.highlight, "S");
    cr_assert_str_eq(h.m.scene.tokens[h.vs.selected], "sat");
    harness_find(&h, "panel", "lesson", -1);
    next_step();
    cr_assert_eq(h.vs.session.step, 1);
    cr_assert_str_eq(h.vs.session.highlight, "A");
    /* PageDown and PageUp (a presenter's clicker) do what → and ← do */
    for (int k = 0; k < 40 && h.vs.session.step == 1; k++)
        harness_key(&h, KEY_PAGEDOWN, 0, false, false);
    cr_assert_eq(h.vs.session.step, 2);
    for (int k = 0; k < 40 && h.vs.session.step == 2; k++)
        harness_key(&h, KEY_PAGEUP, 0, false, false);
    cr_assert_eq(h.vs.session.step, 1);
    harness_key(&h, KEY_END, 0, false, false);
    cr_assert_eq(h.vs.session.step, lesson.step_count - 1);
    for (int k = 0; k < 40; k++) harness_key(&h, KEY_RIGHT, 0, false, false);
    cr_assert_eq(h.vs.session.step, lesson.step_count - 1, "→ on the last step stays there");
    harness_key(&h, KEY_HOME, 0, false, false);
    cr_assert_eq(h.vs.session.step, 0);
}

Test(lesson_panel, show_me_plays_the_solution_until_the_goal_is_met) {
    char err[256];
    cr_assert(lesson_enter(&h.vs, &h.m, err, sizeof err));
    next_step(); /* the step with "weight sat cat > 0.5" */
    harness_frame(&h);
    cr_assert_eq(h.vs.session.goal_state[0], 0, "not met when the step starts");
    int undo0 = h.m.undo_count;
    const Ui_Record *b = harness_find(&h, "button", "show_me", 0);
    harness_click(&h, rect_cx(b), rect_cy(b));
    cr_assert(h.vs.session.showing);
    cr_assert(view_wants_frames(&h.vs), "the platform keeps drawing while it plays");
    run_frames(60); /* 1.2 s of frames: the point glides for 0.6 s */
    cr_assert_not(h.vs.session.showing);
    cr_assert_eq(h.vs.session.goal_state[0], 1, "met after the solution played");
    cr_assert_eq(h.m.undo_count, undo0 + 1, "the glide is one undo step");
    int n = h.m.scene.n, sat = lesson_find_token(&h.m.scene, "sat"),
        cat = lesson_find_token(&h.m.scene, "cat");
    cr_assert_gt(h.m.derived.pass.head[0].A[sat * n + cat], 0.5);
}

Test(lesson_panel, leaving_gives_the_student_their_scene_back) {
    harness_act(&h, action_set(SET_DK, 100));
    harness_act(&h, action_move(1, 0, 0.25f, 1, -0.5f));
    harness_frame(&h);
    static Scene mine;
    mine = h.m.scene;
    char err[256];
    cr_assert(lesson_enter(&h.vs, &h.m, err, sizeof err));
    run_frames(2);
    next_step();
    harness_act(&h, action_set(SET_DK, 4)); /* the student plays inside the lesson */
    run_frames(2);
    const Ui_Record *b = harness_find(&h, "button", "lesson_leave", -1);
    harness_click(&h, rect_cx(b), rect_cy(b));
    cr_assert_not(h.vs.session.active);
    cr_assert(scene_equal(&h.m.scene, &mine), "the scene from before the lesson is back");
}

/* A step may hide what a later step asks the student to predict: lesson 5's
 * first steps hide the mean-max curve that step 5 asks about (it was on
 * screen from step 1); the step that no longer hides it shows it. */
Test(lesson_panel, a_step_hides_what_a_later_step_asks) {
    char path[1024], err[1024];
    snprintf(path, sizeof path, "%s/lessons/05-why-scale.md", test_env("ATTNLAB_DATA"));
    cr_assert(lesson_load(&lesson, path, err, sizeof err), "%s", err);
    cr_assert(lesson_enter(&h.vs, &h.m, err, sizeof err));
    harness_frame(&h);
    cr_assert_eq(h.vs.view, VIEW_SCALING);
    for (int s = 0; s < 4; s++) {
        cr_assert_eq(h.vs.session.step, s);
        cr_assert(harness_drew_text(&h, "a later step of the lesson asks"), "step %d shows it",
                  s + 1);
        cr_assert_not(harness_drew_text(&h, "one-hot = 1"), "step %d draws the curve", s + 1);
        next_step();
        harness_frame(&h);
    }
    next_step(); /* step 6: nothing is hidden or asked */
    harness_frame(&h);
    cr_assert_eq(h.vs.session.step, 5);
    cr_assert(harness_drew_text(&h, "one-hot = 1"), "the last step shows the curve");
    cr_assert_not(harness_drew_text(&h, "a later step of the lesson asks"));
}

/* The texts drawn inside a rectangle this frame, joined by spaces. */
static void texts_in(Rect r, char *out, size_t outsz) {
    out[0] = '\0';
    for (int k = 0; k < h.dl.count; k++) {
        const Draw_Cmd *c = &h.dl.cmds[k];
        if (c->kind != DRAW_TEXT || c->text.x < r.x || c->text.x > r.x + r.w || c->text.y < r.y ||
            c->text.y > r.y + r.h)
            continue;
        size_t n = strlen(out);
        snprintf(out + n, outsz - n, "%.*s ", c->text.len, h.dl.text + c->text.offset);
    }
}

Test(lesson_panel, a_long_step_reads_a_page_at_a_time_and_every_word_is_shown) {
    char path[1024], err[1024];
    snprintf(path, sizeof path, "%s/lessons/05-why-scale.md", test_env("ATTNLAB_DATA"));
    cr_assert(lesson_load(&lesson, path, err, sizeof err), "%s", err);
    h.w = 1024;
    h.h = 480;
    cr_assert(lesson_enter(&h.vs, &h.m, err, sizeof err));
    next_step();
    next_step(); /* "Adding independent pieces": long, with math */
    harness_frame(&h);
    int step = h.vs.session.step, pages = h.vs.session.pages;
    cr_assert_gt(pages, 1, "the step is longer than the panel");
    cr_assert(harness_drew_text(&h, "page 1 of"), "the panel says which page it shows");
    cr_assert_str_empty(h.vs.session.misfit, "%s", h.vs.session.misfit);
    /* → turns the pages; the words shown, page after page, are the step's
     * words in order, each once: nothing is cut between two pages */
    static char seen[16384], page[4096];
    seen[0] = '\0';
    const Ui_Record *panel = harness_find(&h, "panel", "lesson", -1);
    for (int k = 0; k < pages; k++) {
        cr_assert_eq(h.vs.session.step, step, "→ turned a page, not the step");
        cr_assert_eq(h.vs.session.page, k);
        texts_in(panel->r, page, sizeof page);
        snprintf(seen + strlen(seen), sizeof seen - strlen(seen), "%s", page);
        if (k + 1 < pages) harness_key(&h, KEY_RIGHT, 0, false, false);
    }
    /* every word of the step's text was on one of its pages */
    const Lesson_Step *st = &lesson.steps[step];
    int words = 0;
    for (int k = st->span_first; k < st->span_first + st->span_count; k++) {
        const Lesson_Span *sp = &lesson.spans[k];
        if (sp->kind != SPAN_TEXT) continue;
        const char *w = lesson.text + sp->off, *end = w + sp->len;
        while (w < end) {
            const char *e = w;
            while (e < end && *e != ' ' && *e != '\n') e++;
            char word[64];
            snprintf(word, sizeof word, "%.*s", (int)(e - w), w);
            if (e - w >= 4 && e - w < 60) {
                cr_assert(strstr(seen, word), "'%s' was never shown", word);
                words++;
            }
            w = e + 1;
        }
    }
    cr_assert_gt(words, 12, "the step has words to check (%d)", words);
    harness_key(&h, KEY_LEFT, 0, false, false);
    cr_assert_eq(h.vs.session.page, pages - 2, "← turns back a page");
    harness_key(&h, KEY_RIGHT, 0, false, false);
    harness_key(&h, KEY_RIGHT, 0, false, false);
    cr_assert_eq(h.vs.session.step, step + 1, "past the last page, → goes to the next step");
    cr_assert_eq(h.vs.session.page, 0, "a new step starts at its first page");
}

static bool has_panel(const char *name) {
    for (int k = 0; k < h.ui.record_count; k++)
        if (!strcmp(h.records[k].kind, "panel") && !strcmp(h.records[k].name, name)) return true;
    return false;
}

Test(lesson_panel, in_a_small_window_each_step_turns_to_the_panel_it_names) {
    h.w = 1024;
    h.h = 768;
    char err[256];
    cr_assert(lesson_enter(&h.vs, &h.m, err, sizeof err));
    harness_frame(&h);
    cr_assert_str_eq(h.vs.session.highlight, "S");
    cr_assert(has_panel("S") && !has_panel("query"));
    next_step();
    next_step();
    cr_assert_str_eq(h.vs.session.highlight, "query");
    cr_assert(has_panel("query"), "step 3 is about the query panel: it is on screen");
    next_step();
    cr_assert_str_eq(h.vs.session.highlight, "V");
    cr_assert(has_panel("V"), "step 4 is about V: the strips are on screen");
    cr_assert(has_panel("plane"), "and the plane stays");
}

static void tab_to(const char *name) {
    for (int k = 0; k < UI_MAX_FOCUS; k++) {
        for (int r = 0; r < h.ui.record_count; r++)
            if (!strcmp(h.records[r].name, name) &&
                ui_id(h.records[r].name, h.records[r].index) == h.ui.focus)
                return;
        harness_key(&h, KEY_TAB, 0, false, false);
    }
    cr_assert_fail("Tab never reaches '%s'", name);
}

Test(lesson_panel, show_me_and_leave_work_from_the_keyboard) {
    char err[256];
    cr_assert(lesson_enter(&h.vs, &h.m, err, sizeof err));
    next_step();
    tab_to("show_me");
    harness_key(&h, KEY_ENTER, 0, false, false);
    cr_assert(h.vs.session.showing, "Enter on the focused \"Show me\" plays the solution");
    run_frames(120);
    cr_assert_eq(h.vs.session.goal_state[0], 1);
    tab_to("lesson_leave");
    harness_key(&h, KEY_CHAR, ' ', false, false);
    cr_assert_not(h.vs.session.active, "Space on the focused \"Leave\" leaves");
}

/* The text as the panel writes a live value: a weight to 3 places, a score
 * to 2, with a real minus sign. */
static void value_text(float x, int places, char *out, size_t outsz) {
    char buf[32];
    snprintf(buf, sizeof buf, "%.*f", places, (double)x);
    if (buf[0] == '-')
        snprintf(out, outsz, "−%s", buf + 1);
    else
        snprintf(out, outsz, "%s", buf);
}

Test(lesson_panel, live_values_in_a_formula_follow_a_drag_while_it_happens) {
    char err[256], weight[64], score[64];
    cr_assert(lesson_enter(&h.vs, &h.m, err, sizeof err));
    next_step(); /* "Softmax makes weights": \val{a_{32}} */
    harness_frame(&h);
    int n = h.m.scene.n, sat = lesson_find_token(&h.m.scene, "sat"),
        cat = lesson_find_token(&h.m.scene, "cat");
    cr_assert(sat == 2 && cat == 1, "the lesson names query 3 and key 2");
    value_text(h.m.derived.pass.head[0].A[sat * n + cat], 3, weight, sizeof weight);
    value_text(h.m.derived.pass.head[0].S[sat * n + cat], 2, score, sizeof score);
    cr_assert(harness_drew_text(&h, weight), "a_32 = %s is not on screen", weight);
    cr_assert(harness_drew_text(&h, score), "s_32 = %s is not on screen", score);
    /* drag cat: the numbers change in the frames of the drag, not after it */
    const Ui_Record *p = harness_find(&h, "point", "token", cat);
    float x0 = rect_cx(p), y0 = rect_cy(p);
    harness_press(&h, x0, y0);
    for (int k = 1; k <= 6; k++) harness_move(&h, x0 + 10.0f * k, y0 + 12.0f * k);
    harness_frame(&h);
    char now[64];
    value_text(h.m.derived.pass.head[0].A[sat * n + cat], 3, now, sizeof now);
    cr_assert_str_neq(now, weight, "the drag changed the weight");
    cr_assert(harness_drew_text(&h, now), "mid-drag, a_32 = %s is not on screen", now);
    cr_assert_not(harness_drew_text(&h, weight), "the old value %s is still shown", weight);
    harness_release(&h);
}

/* Lesson 9 asks which key the first token weighs most with the mask on.
 * The second "the" is the same word but a key the query cannot see: picking
 * it is wrong, and the verdict tells the copies apart. */
Test(lesson_panel, a_key_prediction_is_judged_by_position_not_by_word) {
    char path[1024], err[1024];
    snprintf(path, sizeof path, "%s/lessons/09-causal-mask.md", test_env("ATTNLAB_DATA"));
    cr_assert(lesson_load(&lesson, path, err, sizeof err), "%s", err);
    cr_assert(lesson_enter(&h.vs, &h.m, err, sizeof err));
    while (lesson.steps[h.vs.session.step].predict.kind != PREDICT_KEY) next_step();
    harness_frame(&h);
    int second = -1;
    for (int j = 1; j < h.m.scene.n; j++)
        if (!strcmp(h.m.scene.tokens[j], h.m.scene.tokens[0])) second = j;
    cr_assert_geq(second, 1, "the first word comes again");
    const Ui_Record *b = harness_find(&h, "button", "predict_answer", second);
    harness_click(&h, rect_cx(b), rect_cy(b));
    harness_frame(&h);
    cr_assert_not(h.vs.session.predict_right, "a masked copy of the right word is not right");
    cr_assert_str_eq(h.vs.session.predict_picked, "the second “the”");
    cr_assert_str_eq(h.vs.session.predict_truth, "the first “the”");
    next_step();
    harness_key(&h, KEY_LEFT, 0, false, false);
    while (h.vs.session.page > 0) harness_key(&h, KEY_LEFT, 0, false, false);
    b = harness_find(&h, "button", "predict_answer", 0);
    harness_click(&h, rect_cx(b), rect_cy(b));
    harness_frame(&h);
    cr_assert(h.vs.session.predict_right, "the first “the” is the key it sees");
}

/* Lesson 9's step on the zero of a masked weight links lesson 16, where that
 * zero lets a model keep its KV cache: the link, under the text, bears the
 * lesson's title from the menu's index, and a click opens it at its first
 * step; the student's own scene stays the one kept for when they leave. */
Test(lesson_panel, a_steps_link_opens_the_lesson_it_names) {
    char path[1024], err[1024];
    snprintf(path, sizeof path, "%s/lessons/09-causal-mask.md", test_env("ATTNLAB_DATA"));
    cr_assert(lesson_load(&lesson, path, err, sizeof err), "%s", err);
    static Lesson_Index index;
    index.count = 1;
    snprintf(index.path[0], sizeof index.path[0], "%s/lessons/16-writing-one-token-at-a-time.md",
             test_env("ATTNLAB_DATA"));
    snprintf(index.title[0], sizeof index.title[0], "16 · Writing one token at a time");
    h.vs.session.index = &index;
    unsigned seed = h.m.scene.seed;
    cr_assert(lesson_enter(&h.vs, &h.m, err, sizeof err));
    while (!lesson.steps[h.vs.session.step].see[0]) next_step();
    cr_assert_str_eq(lesson.steps[h.vs.session.step].see, "16-writing-one-token-at-a-time.md");
    harness_frame(&h);
    cr_assert(harness_drew_text(&h, "→ 16 · Writing one token at a time"));
    const Ui_Record *b = harness_find(&h, "button", "lesson_see", -1);
    harness_click(&h, rect_cx(b), rect_cy(b));
    run_frames(2);
    cr_assert(h.vs.session.active && h.vs.session.step == 0);
    cr_assert(strstr(lesson.path, "16-writing-one-token-at-a-time.md"), "%s", lesson.path);
    cr_assert_eq(saved.seed, seed, "the kept scene is still the student's");
    cr_assert_null(harness_find_maybe(&h, "button", "lesson_see", -1), "its first step links none");
}

/* A step is done when its goals are met (or it has none); the menu then
 * says how far the lesson went, and marks it when every step is done. */
Test(lesson_panel, progress_marks_done_steps_and_the_menu_shows_it) {
    static Lesson_Index index;
    index.count = 1;
    snprintf(index.path[0], sizeof index.path[0], "%s", lesson.path);
    snprintf(index.title[0], sizeof index.title[0], "%s", lesson.title);
    index.steps[0] = lesson.step_count;
    h.vs.session.index = &index;
    char err[256];
    cr_assert(lesson_enter(&h.vs, &h.m, err, sizeof err));
    harness_frame(&h);
    const Lesson_Progress *p = &h.vs.session.progress;
    cr_assert_eq(p->count, 1, "step 1 has no goal: it is done once read");
    cr_assert_eq(p->done[0], 1u, "step 1 only");
    next_step(); /* step 2: make sat look at cat */
    cr_assert_eq(p->done[0], 1u, "step 2's goal is not met yet");
    const Ui_Record *b = harness_find(&h, "button", "show_me", 0);
    harness_click(&h, rect_cx(b), rect_cy(b));
    run_frames(60);
    cr_assert_eq(p->count, 1);
    cr_assert_str_eq(p->file[0], "03-scores-softmax-outputs.md");
    cr_assert_eq(p->steps[0], lesson.step_count);
    cr_assert_eq(p->done[0], 3u, "steps 1 and 2");
    cr_assert(p->changed, "the platform is told to save it");
    h.vs.session.menu = true;
    harness_frame(&h);
    char want[200];
    snprintf(want, sizeof want, "· 2 of %d steps", lesson.step_count);
    cr_assert(harness_drew_text(&h, want), "the menu does not say '%s'", want);
    for (int s = 0; s < lesson.step_count; s++)
        lesson_progress_mark(&h.vs.session.progress, &lesson, s);
    harness_frame(&h);
    snprintf(want, sizeof want, "✓ %s", lesson.title);
    cr_assert(harness_drew_text(&h, want), "a finished lesson is not marked");
}

/* A click on a menu item or inside the help never reaches what lies under
 * it, and a click outside them only closes them. (Picking a lesson whose
 * item lay over the token row once opened the sentence editor beneath, and
 * the next key went into the sentence.) */
Test(lesson_panel, a_click_on_an_overlay_never_reaches_what_lies_under_it) {
    static Lesson_Index index;
    index.count = 11;
    for (int k = 0; k < index.count; k++) {
        snprintf(index.path[k], sizeof index.path[k], "%s", lesson.path);
        snprintf(index.title[k], sizeof index.title[k], "%d · %.100s", k + 1, lesson.title);
        index.steps[k] = lesson.step_count;
    }
    h.vs.session.index = &index;
    h.w = 960; /* 1920 × 1080 at 2× */
    h.h = 540;
    harness_frame(&h);
    /* the token row: its chips' band across the window (a press between chips
     * starts the sentence editor) */
    Rect c0 = harness_find(&h, "chip", "token", 0)->r;
    Rect row = {0, c0.y, h.w, c0.h};
    /* the menu: find an item over the token row and pick it */
    h.vs.session.menu = true;
    harness_frame(&h);
    const Ui_Record *over = NULL;
    for (int k = 0; k < index.count && !over; k++) {
        const Ui_Record *it = harness_find(&h, "button", "lesson_item", k);
        float cx = it->r.x + it->r.w / 2, cy = it->r.y + it->r.h / 2;
        if (rect_contains(row, cx, cy)) over = it;
    }
    cr_assert(over, "no menu item lies over the token row at this size");
    harness_click(&h, over->r.x + over->r.w / 2, over->r.y + over->r.h / 2);
    harness_frame(&h);
    cr_assert_not(h.vs.editing, "the click reached the sentence editor under the menu");
    cr_assert(h.vs.session.active, "the lesson opened");
    int n = h.m.scene.n;
    harness_key(&h, KEY_CHAR, 'p', false, false);
    cr_assert_eq(h.m.scene.n, n, "a key after the click went into the sentence");
    cr_assert(h.vs.presenter, "P is the presenter key, not a letter of the sentence");
    /* the help: a click inside it and one outside it reach nothing below */
    lesson_leave(&h.vs, &h.m);
    h.vs.presenter = false;
    harness_frame(&h);
    Rect chips[2] = {harness_find(&h, "chip", "token", 0)->r,
                     harness_find(&h, "chip", "token", 1)->r};
    int selected = h.vs.selected;
    harness_key(&h, KEY_F1, 0, false, false);
    cr_assert(h.vs.help);
    Rect help = harness_find(&h, "panel", "help", -1)->r;
    int inside = -1, outside = -1;
    for (int k = 0; k < 2; k++) {
        if (k == selected) continue;
        if (rect_contains(help, chips[k].x + chips[k].w / 2, chips[k].y + chips[k].h / 2))
            inside = k;
        else
            outside = k;
    }
    cr_assert(inside >= 0 || outside >= 0);
    if (inside >= 0) { /* a chip under the help box: the click stays in the help */
        harness_click(&h, chips[inside].x + chips[inside].w / 2,
                      chips[inside].y + chips[inside].h / 2);
        harness_frame(&h);
        cr_assert(h.vs.help, "a click inside the help keeps it open");
        cr_assert_eq(h.vs.selected, selected, "the chip under the help was clicked");
        cr_assert_not(h.vs.editing, "the row under the help started editing");
    }
    if (outside >= 0) { /* beside it: the click only closes the help */
        harness_click(&h, chips[outside].x + chips[outside].w / 2,
                      chips[outside].y + chips[outside].h / 2);
        harness_frame(&h);
        cr_assert_eq(h.vs.selected, selected, "the chip beside the help was clicked");
        cr_assert_not(h.vs.editing, "the row beside the help started editing");
        cr_assert_not(h.vs.help, "a click outside the help closes it");
    }
}

/* Presenting has no status line, yet a save, an export or an error still
 * says so: a note at the top, wrapped rather than cut, gone when its time
 * is up. */
Test(lesson_panel, presenting_still_shows_what_the_status_line_would_say) {
    harness_key(&h, KEY_CHAR, 'p', false, false);
    cr_assert(h.vs.presenter);
    view_set_status(&h.vs, false, "Saved attnlab-scene.json");
    harness_frame(&h);
    cr_assert(harness_drew_text(&h, "Saved attnlab-scene.json"), "the note is not on screen");
    const Ui_Record *note = harness_find(&h, "label", "status", -1);
    cr_assert(note->r.y >= 0 && note->r.x >= 0 && note->r.x + note->r.w <= h.w);
    view_set_status(&h.vs, true,
                    "Not saved — /a/very/long/folder/name/that/goes/on/and/on/and/on/for/a/while/"
                    "attnlab-scene.json: cannot create a temporary file beside it: Permission "
                    "denied, and the explanation continues long past one line of the window");
    harness_frame(&h);
    cr_assert(harness_drew_text(&h, "denied,"), "a long error is wrapped, not cut");
    for (int k = 0; k < h.dl.count; k++)
        if (h.dl.cmds[k].kind == DRAW_TEXT) {
            const char *tx = h.dl.text + h.dl.cmds[k].text.offset;
            int n = h.dl.cmds[k].text.len;
            cr_assert(!(n >= 3 && !memcmp(tx + n - 3, "…", 3) && memchr(tx, '/', (size_t)n)),
                      "the error was cut: %.*s", n, tx);
        }
    h.in.time += VIEW_STATUS_SECONDS + 1;
    view_set_status(&h.vs, false, "Exported every matrix");
    harness_frame(&h);
    h.in.time += VIEW_STATUS_SECONDS + 1;
    harness_frame(&h);
    harness_frame(&h);
    cr_assert_not(harness_drew_text(&h, "Exported every matrix"),
                  "a note goes when its time is up");
}

/* The menu counts done steps against the lesson as it is now, not against
 * the step count stored with them: a stored "steps": 2 with both done does
 * not make a longer lesson look finished, and a done step past the lesson's
 * end does not count ("1 of 24 steps" once showed). */
Test(lesson_panel, the_menu_counts_against_the_lesson_as_it_is_now) {
    static Lesson_Index index;
    index.count = 1;
    snprintf(index.path[0], sizeof index.path[0], "%s", lesson.path);
    snprintf(index.title[0], sizeof index.title[0], "%s", lesson.title);
    index.steps[0] = lesson.step_count;
    h.vs.session.index = &index;
    cr_assert_geq(lesson.step_count, 3);
    Lesson_Progress *p = &h.vs.session.progress;
    *p = (Lesson_Progress){.count = 1, .steps = {2}, .done = {0x3u | 1u << 23}};
    snprintf(p->file[0], sizeof p->file[0], "03-scores-softmax-outputs.md");
    h.vs.session.menu = true;
    harness_frame(&h);
    char want[200];
    snprintf(want, sizeof want, "%s  · 2 of %d steps", lesson.title, lesson.step_count);
    cr_assert(harness_drew_text(&h, want), "the menu does not say '%s'", want);
    snprintf(want, sizeof want, "✓ %s", lesson.title);
    cr_assert_not(harness_drew_text(&h, want), "a lesson with steps left is not marked done");
}

/* Presenting: P switches the layout; hovering a cell shows its arithmetic in a
 * large callout beside it, not only in the (hidden) status line. */
Test(lesson_panel, presenting_shows_the_arithmetic_beside_the_hovered_cell) {
    harness_key(&h, KEY_CHAR, 'p', false, false);
    cr_assert(h.vs.presenter);
    const Ui_Record *g = harness_find(&h, "grid", "S", -1);
    float cx = g->r.x + g->r.w * (2.5f / 6), cy = g->r.y + g->r.h * (1.5f / 6);
    harness_move(&h, cx, cy);
    harness_frame(&h);
    cr_assert(h.vs.hover_row == 1 && h.vs.hover_col == 2, "hover %d %d", h.vs.hover_row,
              h.vs.hover_col);
    const Ui_Record *c = harness_find(&h, "callout", "hover", -1);
    Rect cell = {g->r.x + g->r.w * 2 / 6, g->r.y + g->r.h / 6, g->r.w / 6, g->r.h / 6};
    bool apart = c->r.x >= cell.x + cell.w || c->r.x + c->r.w <= cell.x ||
                 c->r.y >= cell.y + cell.h || c->r.y + c->r.h <= cell.y;
    cr_assert(apart, "the callout sits beside the cell, not over it");
    cr_assert(c->r.x >= 0 && c->r.y >= 0 && c->r.x + c->r.w <= h.w && c->r.y + c->r.h <= h.h,
              "and inside the window");
    char want[600];
    explain_cell(&h.m, view_attn(&h.vs, &h.m), 1, 2, want, sizeof want);
    /* the score on one line, the weight on the next: both whole, never cut */
    char *gap = strstr(want, "     ");
    cr_assert(gap, "%s", want);
    *gap = '\0';
    const char *second = gap + 5 + strspn(gap + 5, " ");
    cr_assert(harness_drew_text(&h, want), "the callout does not say '%s'", want);
    cr_assert(harness_drew_text(&h, second), "the callout does not say '%s'", second);
    float biggest = 0;
    for (int k = 0; k < h.dl.count; k++)
        if (h.dl.cmds[k].kind == DRAW_TEXT && h.dl.cmds[k].text.x >= c->r.x &&
            h.dl.cmds[k].text.y >= c->r.y)
            biggest = fmaxf(biggest, h.dl.cmds[k].text.size);
    cr_assert_gt(biggest, h.ui.theme->title_size, "its text is larger than a panel title");
    harness_key(&h, KEY_CHAR, 'p', false, false);
    cr_assert_not(h.vs.presenter);
}

/* Wherever the pointer is over S or A, presenting at 1920×1080 ×2 (960×540),
 * 1280×720 and 1600×900, the callout covers neither the hovered row nor its
 * column, in S or in A, nor the headers above their cells, and stays in the
 * window. */
Test(lesson_panel, a_callout_never_covers_the_row_the_column_or_the_headers) {
    static const float sizes[3][2] = {{960, 540}, {1280, 720}, {1600, 900}};
    for (int z = 0; z < 3; z++) {
        h.w = sizes[z][0];
        h.h = sizes[z][1];
        h.vs.presenter = true;
        harness_frame(&h);
        const char *grids[2] = {"S", "A"};
        for (int gk = 0; gk < 2; gk++)
            for (int i = 0; i < 6; i++)
                for (int j = 0; j < 6; j++) {
                    const Ui_Record *g = harness_find(&h, "grid", grids[gk], -1);
                    Rect gr = g->r;
                    harness_move(&h, gr.x + gr.w * (j + 0.5f) / 6, gr.y + gr.h * (i + 0.5f) / 6);
                    cr_assert(h.vs.hover_row == i && h.vs.hover_col == j);
                    const Ui_Record *c = harness_find(&h, "callout", "hover", -1);
                    cr_assert(c->r.x >= 0 && c->r.y >= 0 && c->r.x + c->r.w <= h.w + 0.5f &&
                              c->r.y + c->r.h <= h.h + 0.5f);
                    for (int k = 0; k < 2; k++) {
                        const Ui_Record *o = harness_find(&h, "grid", grids[k], -1);
                        const Ui_Record *p = harness_find(&h, "panel", grids[k], -1);
                        Rect row = {o->r.x, o->r.y + o->r.h * i / 6, o->r.w, o->r.h / 6};
                        Rect col = {o->r.x + o->r.w * j / 6, o->r.y, o->r.w / 6, o->r.h};
                        Rect head = {p->r.x, p->r.y, p->r.w, o->r.y - p->r.y};
                        Rect keep[3] = {row, col, head};
                        for (int q = 0; q < 3; q++) {
                            Rect a = c->r, b = keep[q];
                            bool apart = a.x >= b.x + b.w - 0.5f || b.x >= a.x + a.w - 0.5f ||
                                         a.y >= b.y + b.h - 0.5f || b.y >= a.y + a.h - 0.5f;
                            cr_assert(apart,
                                      "%gx%g: over cell (%d, %d) of %s the callout covers %s's %s",
                                      (double)h.w, (double)h.h, i, j, grids[gk], grids[k],
                                      q == 0   ? "row"
                                      : q == 1 ? "column"
                                               : "headers");
                        }
                    }
                }
    }
}

/* Predict, then reveal: lesson 3's first step asks which key "sat" favours.
 * Until the student answers, sat's rows of S and A and its query panel are
 * hidden; an answer is judged, explained and counted, and the rows return. */
Test(lesson_panel, a_prediction_hides_the_answer_until_it_is_given) {
    char err[256];
    cr_assert(lesson_enter(&h.vs, &h.m, err, sizeof err));
    harness_frame(&h);
    int sat = lesson_find_token(&h.m.scene, "sat"), cat = lesson_find_token(&h.m.scene, "cat");
    cr_assert_eq(h.vs.session.hide_row, sat);
    cr_assert(harness_drew_text(&h, "? predict first"));
    /* hovering the hidden row tells nothing */
    const Ui_Record *g = harness_find(&h, "grid", "A", -1);
    harness_move(&h, g->r.x + g->r.w * 0.5f, g->r.y + g->r.h * (sat + 0.5f) / h.m.scene.n);
    cr_assert_eq(h.vs.hover_row, -1);
    /* a wrong answer: cat */
    const Ui_Record *b = harness_find(&h, "button", "predict_answer", cat);
    harness_click(&h, rect_cx(b), rect_cy(b));
    harness_frame(&h);
    cr_assert_eq(h.vs.session.predict_given, cat);
    cr_assert_not(h.vs.session.predict_right);
    cr_assert(harness_drew_text(&h, "you picked “cat”"), "the verdict names the pick");
    cr_assert(harness_drew_text(&h, "“the”."), "and the right key");
    cr_assert(harness_drew_text(&h, "Predictions so far: 0 of 1 right"));
    cr_assert_eq(h.vs.session.hide_row, -1, "the rows are back");
    cr_assert_not(harness_drew_text(&h, "? predict first"));
    /* back to the step: it asks again, and a right answer counts */
    next_step();
    harness_key(&h, KEY_LEFT, 0, false, false);
    cr_assert_eq(h.vs.session.predict_given, -1);
    b = harness_find(&h, "button", "predict_answer", lesson_find_token(&h.m.scene, "the"));
    harness_click(&h, rect_cx(b), rect_cy(b));
    harness_frame(&h);
    cr_assert(h.vs.session.predict_right);
    cr_assert(harness_drew_text(&h, "Predictions so far: 1 of 2 right"));
}
