/* src/platform/app.c: the app driven by App_Events and app_frame(), with no
 * window on screen (SDL's offscreen driver for the GL context). A press and
 * a release that arrive in one frame (a touchpad tap, a presenter remote,
 * `xdotool click`) must act as a click everywhere. */
#define _POSIX_C_SOURCE 200809L
#include "model/scene_file.h"
#include "platform/app.h"
#include "gl_fixture.h"
#include "reference_run.h"
#include "test_util.h"

#include <stdatomic.h>
#include <time.h>

#include <stdlib.h>
#include <string.h>
#include <unistd.h>

static Gl_Fixture gl;
static App *app;
static Cli_Options opts;
static Scene scene;
static Vocab vocab;
static App_Desc desc;

static void up(void) {
    gl_fixture_up(&gl, 1280, 800);
    test_load_vocab(&vocab);
    char path[1024], err[1024];
    snprintf(path, sizeof path, "%s/assets/scenes/default.json", test_env("ATTNLAB_DATA"));
    cr_assert(scene_load(&scene, path, &vocab, err, sizeof err), "%s", err);
    char *argv[] = {"attnlab"};
    cr_assert(cli_parse(1, argv, &opts, err, sizeof err), "%s", err);
    opts.width = 1280;
    opts.height = 800;
    desc = (App_Desc){
        .opts = &opts, .scene = &scene, .vocab = &vocab, .data_dir = test_env("ATTNLAB_DATA")};
    app = calloc(1, sizeof *app);
    cr_assert(app_init(app, &desc, err, sizeof err), "%s", err);
}

static void down(void) {
    app_shutdown(app);
    free(app);
    vocab_free(&vocab);
    gl_fixture_down(&gl);
}

TestSuite(app, .init = up, .fini = down);

static double clock_s;

static App_Frame_Result one_frame(void) {
    clock_s += 0.016;
    return app_frame(
        app, &(App_Frame){.fb_w = 1280, .fb_h = 800, .win_w = 1280, .win_h = 800, .time = clock_s});
}

/* What the window backend does: a frame, and more at once while the app
 * asks for them (a tap's release waits for the frame after its press; the
 * frame after a click applies what it changed). */
static void frame(void) {
    int frames = 0;
    do {
        cr_assert(one_frame().more ||
                      (app->queued == 0 && app->vs.actions.count == 0 && !app->vs.view_asked),
                  "input or actions wait, and the app does not ask for the frame they need");
        cr_assert_lt(++frames, 8, "events or actions keep waiting");
    } while (app->queued > 0 || app->vs.actions.count > 0 || app->vs.view_asked);
}

static const Ui_Record *find(const char *kind, const char *name, int index) {
    for (int k = 0; k < app->ui.record_count; k++) {
        const Ui_Record *r = &app->ui.records[k];
        if (!strcmp(r->kind, kind) && !strcmp(r->name, name) && r->index == index) return r;
    }
    cr_assert_fail("no %s '%s' %d in the layout", kind, name, index);
    return NULL;
}

/* Move there, then press and release within one frame. */
static void quick_click(const Ui_Record *r) {
    float x = r->r.x + r->r.w * 0.5f, y = r->r.y + r->r.h * 0.5f;
    app_event(app, &(App_Event){.kind = APP_EV_MOUSE_MOVE, .x = x, .y = y});
    frame();
    app_event(app, &(App_Event){.kind = APP_EV_MOUSE_DOWN, .x = x, .y = y});
    app_event(app, &(App_Event){.kind = APP_EV_MOUSE_UP, .x = x, .y = y});
    frame();
}

Test(app, a_quick_click_on_a_chip_selects_it_and_leaves_nothing_attached) {
    frame();
    quick_click(find("chip", "token", 2));
    cr_assert_eq(app->vs.selected, 2, "the chip was not selected");
    cr_assert_eq(app->vs.drag_chip, -1, "the chip stays attached to the cursor");
    /* a later click elsewhere must not reorder the sentence */
    char before[64];
    snprintf(before, sizeof before, "%s %s", app->model.scene.tokens[0],
             app->model.scene.tokens[2]);
    quick_click(find("chip", "token", 4));
    char after[64];
    snprintf(after, sizeof after, "%s %s", app->model.scene.tokens[0], app->model.scene.tokens[2]);
    cr_assert_str_eq(before, after, "a quick click reordered the sentence");
    cr_assert_eq(app->vs.selected, 4);
}

Test(app, a_quick_click_opens_the_lesson_menu_and_a_lesson) {
    frame();
    quick_click(find("button", "lessons", -1));
    cr_assert(app->vs.session.menu, "the menu did not open");
    frame();
    quick_click(find("button", "lesson_item", 0));
    frame();
    cr_assert_not(app->vs.session.menu, "the menu stayed open");
    cr_assert(app->vs.session.active, "the lesson did not open");
}

/* A live language switch changes the open lesson too: its translation takes
 * its place at the same step, and English comes back the same way. */
Test(app, the_open_lesson_follows_a_live_language_switch_at_the_same_step) {
    frame();
    quick_click(find("button", "lessons", -1));
    frame();
    quick_click(find("button", "lesson_item", 0));
    frame();
    cr_assert(app->vs.session.active);
    app_event(app, &(App_Event){.kind = APP_EV_KEY, .key = KEY_RIGHT});
    frame();
    int step = app->vs.session.step;
    cr_assert_eq(step, 1, "→ went to the second step");
    char english[128];
    snprintf(english, sizeof english, "%s", app->vs.session.lesson->title);
    app->vs.lang_want = 2; /* Deutsch, as the picker sets it */
    frame();
    cr_assert(strstr(app->vs.session.lesson->path, "/lessons/de/01-"), "%s",
              app->vs.session.lesson->path);
    cr_assert_str_neq(app->vs.session.lesson->title, english);
    cr_assert(app->vs.session.active);
    cr_assert_eq(app->vs.session.step, step, "the same step");
    app->vs.lang_want = 0;
    frame();
    cr_assert_str_eq(app->vs.session.lesson->title, english);
    cr_assert_null(strstr(app->vs.session.lesson->path, "/de/"));
    cr_assert_eq(app->vs.session.step, step);
}

Test(app, commands_and_keys_arrive_in_order) {
    frame();
    float before = app->zoom;
    app_event(app, &(App_Event){.kind = APP_EV_COMMAND, .command = APP_CMD_ZOOM_IN});
    app_event(app, &(App_Event){.kind = APP_EV_COMMAND, .command = APP_CMD_ZOOM_IN});
    app_event(app, &(App_Event){.kind = APP_EV_COMMAND, .command = APP_CMD_ZOOM_OUT});
    frame();
    cr_assert_gt(app->zoom, before, "in, in, out should end one step up");
    app_event(app, &(App_Event){.kind = APP_EV_COMMAND, .command = APP_CMD_QUIT});
    App_Frame_Result r =
        app_frame(app, &(App_Frame){.fb_w = 1280, .fb_h = 800, .win_w = 1280, .win_h = 800});
    cr_assert(r.quit, "quit was not passed to the backend");
}

static const Ui_Record *find_any(const char *kind, const char *name) {
    for (int k = 0; k < app->ui.record_count; k++) {
        const Ui_Record *r = &app->ui.records[k];
        if (!strcmp(r->kind, kind) && !strcmp(r->name, name)) return r;
    }
    cr_assert_fail("no %s '%s' in the layout", kind, name);
    return NULL;
}

/* The same tap on every other kind of thing a person clicks. */
Test(app, a_quick_click_works_on_every_kind_of_clickable_widget) {
    frame();
    /* a tab */
    quick_click(find("button", "tab", 1));
    cr_assert_eq(app->vs.view, VIEW_SCALING, "tab");
    quick_click(find("button", "tab", 0));
    cr_assert_eq(app->vs.view, VIEW_EXPLORER, "tab back");
    /* a toggle */
    bool scaled = app->model.scene.scaled;
    quick_click(find("toggle", "scale", -1));
    cr_assert_neq(app->model.scene.scaled, scaled, "toggle");
    /* a toolbar button, then undo (also a button) */
    char first[32];
    snprintf(first, sizeof first, "%s", app->model.scene.tokens[0]);
    quick_click(find("button", "reverse", -1));
    cr_assert_str_eq(app->model.scene.tokens[0], "mat", "reverse button");
    frame();
    quick_click(find("button", "undo", -1));
    cr_assert_str_eq(app->model.scene.tokens[0], first, "undo button");
    /* a heatmap row: the grid of S, one cell in row 3 */
    const Ui_Record *g = find_any("grid", "S");
    int n = app->model.scene.n;
    Ui_Record cell = *g;
    cell.r.h = g->r.h / (float)n;
    cell.r.y = g->r.y + 3 * cell.r.h;
    quick_click(&cell);
    cr_assert_eq(app->vs.selected, 3, "a row of S");
    /* a slider: a tap on its track moves it */
    int dk = app->model.scene.d_k;
    const Ui_Record *sl = find("slider", "dk", -1);
    Ui_Record right = *sl;
    right.r.x = sl->r.x + sl->r.w * 0.5f; /* the middle of the track, in either layout */
    right.r.w = 1;
    quick_click(&right);
    cr_assert_neq(app->model.scene.d_k, dk, "a tap on the d_k slider's track");
}

Test(app, a_quick_click_drives_a_lesson_show_me_and_leave) {
    frame();
    quick_click(find("button", "lessons", -1));
    frame();
    quick_click(find("button", "lesson_item", 0));
    frame();
    cr_assert(app->vs.session.active);
    /* step forward until a step has a goal with "show me" */
    for (int k = 0; k < 8 && !app->vs.session.lesson->steps[app->vs.session.step].goal_count; k++) {
        quick_click(find("button", "lesson_next", -1));
        frame();
    }
    cr_assert_gt(app->vs.session.lesson->steps[app->vs.session.step].goal_count, 0);
    quick_click(find("button", "show_me", 0));
    cr_assert(app->vs.session.showing, "show me did not start");
    for (int k = 0; k < 400 && app->vs.session.showing; k++) frame();
    quick_click(find("button", "lesson_leave", -1));
    frame();
    cr_assert_not(app->vs.session.active, "leave");
}

Test(app, copy_hands_the_selection_to_the_system_and_paste_takes_it_back) {
    frame();
    quick_click(find("button", "edit", -1));
    cr_assert(app->vs.editing);
    app_event(app,
              &(App_Event){.kind = APP_EV_KEY, .key = KEY_CHAR, .ch = 'a', .mods = UI_MOD_CTRL});
    app_event(app,
              &(App_Event){.kind = APP_EV_KEY, .key = KEY_CHAR, .ch = 'c', .mods = UI_MOD_CTRL});
    App_Frame_Result r = one_frame();
    cr_assert(r.clipboard, "Ctrl+C gives the backend text for the clipboard");
    cr_assert_str_eq(r.clipboard, "the cat sat on the mat");
    cr_assert_null(one_frame().clipboard, "once");
    app_paste(app, "a dog\nran");
    frame();
    cr_assert_str_eq(app->vs.edit, "a dog ran", "the paste replaced the selection");
    /* more than the app can hold: refused with its length, never cut */
    static char big[APP_PASTE_BYTES + 100];
    memset(big, 'x', sizeof big - 1);
    app_paste(app, big);
    frame();
    cr_assert_str_eq(app->vs.edit, "a dog ran");
    cr_assert(strstr(app->vs.status, "4195 bytes"), "%s", app->vs.status);
}

static void open_event(const char *path) {
    App_Event o = {.kind = APP_EV_OPEN};
    size_t n = strlen(path);
    cr_assert_lt(n, sizeof o.text);
    memcpy(o.text, path, n + 1);
    app_event(app, &o);
    frame();
}

/* A file dropped on the window (or picked in the page) opens: a scene
 * replaces the scene as one undo step, a lesson starts; a bad file changes
 * nothing and says why. */
Test(app, a_dropped_scene_or_lesson_opens_and_a_bad_file_changes_nothing) {
    char path[1200];
    Scene *before = malloc(sizeof *before);
    *before = app->model.scene;
    snprintf(path, sizeof path, "%s/assets/scenes/two-dims.json", test_env("ATTNLAB_DATA"));
    open_event(path);
    cr_assert_str_eq(app->model.scene.tokens[0], "king");
    cr_assert(strstr(app->vs.status, "Opened"), "%s", app->vs.status);
    app_event(app,
              &(App_Event){.kind = APP_EV_KEY, .key = KEY_CHAR, .ch = 'z', .mods = UI_MOD_CTRL});
    frame();
    cr_assert(scene_equal(&app->model.scene, before), "one undo brings the old scene back");

    snprintf(path, sizeof path, "%s/lessons/bad-dk-range.md", test_env("ATTNLAB_TESTDATA"));
    open_event(path);
    cr_assert(scene_equal(&app->model.scene, before), "a bad lesson changes nothing");
    cr_assert_not(app->vs.session.active);
    cr_assert(strstr(app->vs.status, "Not opened") && strstr(app->vs.status, "bad-dk-range.md:"),
              "%s", app->vs.status);
    open_event("/nonexistent/scene.json");
    cr_assert(strstr(app->vs.status, "Not opened"), "%s", app->vs.status);
    open_event(""); /* a path too long for the event arrives empty */
    cr_assert(strstr(app->vs.status, "longer than"), "%s", app->vs.status);

    snprintf(path, sizeof path, "%s/lessons/03-scores-softmax-outputs.md",
             test_env("ATTNLAB_DATA"));
    open_event(path);
    frame();
    cr_assert(app->vs.session.active);
    cr_assert_str_eq(app->vs.session.lesson->title, "3 · Scores, softmax and the weighted sum");
    free(before);
}

/* A file the user asked for is named in the frame's result: the page downloads it. */
Test(app, a_saved_file_is_named_in_the_frame_result) {
    char dir[] = "/tmp/attnlab-wrote-XXXXXX", cwd[1024];
    cr_assert(mkdtemp(dir));
    cr_assert(getcwd(cwd, sizeof cwd));
    cr_assert_eq(chdir(dir), 0);
    app_event(app, &(App_Event){.kind = APP_EV_COMMAND, .command = APP_CMD_EXPORT});
    App_Frame_Result r = one_frame();
    cr_assert_not_null(r.wrote);
    cr_assert(!strncmp(r.wrote, "attnlab-export-", 15), "%s", r.wrote);
    cr_assert_eq(access(r.wrote, F_OK), 0, "%s was not written", r.wrote);
    r = one_frame();
    cr_assert_null(r.wrote, "only the frame that wrote it names it");
    cr_assert_eq(chdir(cwd), 0);
    char cmd[1200];
    snprintf(cmd, sizeof cmd, "rm -rf '%s'", dir);
    cr_assert_eq(system(cmd), 0);
}

/* Ctrl+Shift+E: the window as a vector PDF, with its words as text. */
Test(app, the_window_as_a_vector_figure) {
    char dir[] = "/tmp/attnlab-figure-XXXXXX", cwd[1024], cmd[1400];
    cr_assert(mkdtemp(dir));
    cr_assert(getcwd(cwd, sizeof cwd));
    cr_assert_eq(chdir(dir), 0);
    app_event(app, &(App_Event){.kind = APP_EV_COMMAND, .command = APP_CMD_FIGURE});
    App_Frame_Result r = one_frame();
    cr_assert_not_null(r.wrote, "%s", app->vs.status);
    cr_assert(strstr(r.wrote, "attnlab-figure-") && strstr(r.wrote, ".pdf"), "%s", r.wrote);
    snprintf(cmd, sizeof cmd, "pdftotext '%s' - | grep -q 'Weights A'", r.wrote);
    cr_assert_eq(system(cmd), 0, "the PDF's text has no 'Weights A'");
    cr_assert_eq(chdir(cwd), 0);
    snprintf(cmd, sizeof cmd, "rm -rf '%s'", dir);
    cr_assert_eq(system(cmd), 0);
}

/* ---- retained frames: a frame repaints only what changed ---------------- */

enum { W = 1280, H = 800 };

/* The frame the app just drew (painted into its canvas only where the draw
 * list changed) against the same draw list painted whole. */
static void assert_same_as_full_repaint(const char *step) {
    static unsigned char incremental[W * H * 4], full[W * H * 4];
    render_read_rgba(&app->render, W, H, incremental);
    Render_Stats st = render_stats(&app->render);
    render_invalidate(&app->render);
    render_frame(&app->render, &app->dl, W, H, app->ui.theme->bg);
    cr_assert(render_stats(&app->render).full);
    render_read_rgba(&app->render, W, H, full);
    long differ = 0, first = -1;
    for (long k = 0; k < (long)W * H; k++) {
        if (memcmp(incremental + 4 * k, full + 4 * k, 3) != 0) {
            if (first < 0) first = k;
            differ++;
        }
    }
    cr_assert_eq(differ, 0,
                 "%s: %ld pixels differ from a full repaint, the first at (%ld, %ld); that frame "
                 "repainted %d rects, %lld pixels%s",
                 step, differ, first % W, first / W, st.damage_rects, (long long)st.damage_px,
                 st.full ? " (the whole frame)" : "");
}

static void move_to(float x, float y) {
    app_event(app, &(App_Event){.kind = APP_EV_MOUSE_MOVE, .x = x, .y = y});
    frame();
}

Test(app, every_incremental_frame_equals_a_full_repaint) {
    frame();
    assert_same_as_full_repaint("first frame");
    /* the pointer walks over S's cells, then onto a chip */
    const Ui_Record *g = find_any("grid", "S");
    int n = app->model.scene.n;
    for (int k = 0; k < 2 * n; k++) {
        move_to(g->r.x + g->r.w * ((float)(k % n) + 0.5f) / (float)n,
                g->r.y + g->r.h * ((float)(k / 3 % n) + 0.5f) / (float)n);
        assert_same_as_full_repaint("hovering S");
    }
    const Ui_Record *chip = find("chip", "token", 1);
    move_to(chip->r.x + 5, chip->r.y + 5);
    assert_same_as_full_repaint("hovering a chip");
    /* a token dragged across the plane, past its edge */
    const Ui_Record *pt = find("point", "token", 2);
    float x = pt->r.x + pt->r.w * 0.5f, y = pt->r.y + pt->r.h * 0.5f;
    move_to(x, y);
    app_event(app, &(App_Event){.kind = APP_EV_MOUSE_DOWN, .x = x, .y = y});
    frame();
    for (int k = 1; k <= 12; k++) {
        move_to(x + 9.0f * (float)k, y - 23.0f * (float)k);
        assert_same_as_full_repaint("dragging a token");
    }
    app_event(app, &(App_Event){.kind = APP_EV_MOUSE_UP, .x = x, .y = y});
    frame();
    assert_same_as_full_repaint("dropping it");
    /* keys: the focus ring walks, a toggle flips, the theme changes */
    for (int k = 0; k < 5; k++) {
        app_event(app, &(App_Event){.kind = APP_EV_KEY, .key = KEY_TAB});
        frame();
        assert_same_as_full_repaint("Tab");
    }
    quick_click(find("toggle", "scale", -1));
    assert_same_as_full_repaint("the scale toggle");
    app_event(app, &(App_Event){.kind = APP_EV_KEY, .key = KEY_F2});
    frame();
    assert_same_as_full_repaint("F2, the next theme");
    /* another view, the lesson menu, a lesson and its next step */
    quick_click(find("button", "tab", 2));
    assert_same_as_full_repaint("the permutation lab");
    quick_click(find("button", "lessons", -1));
    frame();
    assert_same_as_full_repaint("the lesson menu");
    quick_click(find("button", "lesson_item", 2));
    frame();
    assert_same_as_full_repaint("a lesson");
    quick_click(find("button", "lesson_next", -1));
    frame();
    assert_same_as_full_repaint("its next step");
    g = find_any("grid", "S");
    move_to(g->r.x + 3, g->r.y + 3);
    assert_same_as_full_repaint("hovering S beside a lesson");
}

Test(app, a_hover_repaints_a_small_part_and_uploads_no_heatmap) {
    frame();
    const Ui_Record *g = find_any("grid", "S");
    int n = app->model.scene.n;
    move_to(g->r.x + g->r.w * 0.5f / (float)n, g->r.y + g->r.h * 0.5f / (float)n);
    move_to(g->r.x + g->r.w * 1.5f / (float)n, g->r.y + g->r.h * 0.5f / (float)n);
    Render_Stats st = render_stats(&app->render);
    cr_assert_not(st.full, "a hover repainted the whole window");
    cr_assert_gt(st.damage_px, 0, "a hover changed nothing on screen");
    cr_assert_lt(st.damage_px, W * H / 20, "a hover repainted %lld of %d pixels",
                 (long long)st.damage_px, W * H);
    cr_assert_eq(st.texture_uploads, 0, "a hover uploaded a heatmap whose values did not change");
    /* the pointer resting: once the chips have caught up with the hover
     * (they are laid out first, so they show it a frame later), nothing */
    frame();
    frame();
    st = render_stats(&app->render);
    cr_assert_eq(st.damage_px, 0, "a frame with nothing new repainted %lld pixels",
                 (long long)st.damage_px);
}

static void nap_10ms(void) {
    nanosleep(&(struct timespec){.tv_nsec = 10000000}, NULL);
}

/* The window's background open (app_open_in_background), for the wake it
 * gives: how many times the thread called it. */
static atomic_int wakes;
static void count_wake(void *ctx) {
    (void)ctx;
    atomic_fetch_add(&wakes, 1);
}

/* Frames, 10 ms apart, until the thread's open has been taken over (at most
 * 60 s: the thread reads a small checkpoint). */
static int frames_until_opened(void) {
    int frames = 0;
    while (real_open_busy(&app->opening)) {
        one_frame();
        cr_assert_lt(++frames, 6000, "the open never ended");
        nap_10ms();
    }
    return frames;
}

/* In the window a model is read on a thread: the frame that asks for one
 * returns with the model not yet there and the status line saying it is
 * being read, later frames go on, and one of them attaches it. The first
 * look in the cache says what it does in the page, then what it found; a bad
 * folder, read the same way, leaves the open model as it was. */
Test(app, a_model_is_read_on_a_thread_while_frames_go_on) {
    char top[] = "/tmp/attnlab-open-XXXXXX";
    cr_assert(mkdtemp(top));
    setenv("HF_HUB_CACHE", top, 1); /* the look finds nothing there */
    app_open_in_background(app, count_wake, NULL);
    atomic_store(&wakes, 0);
    app_event(app, &(App_Event){.kind = APP_EV_KEY, .key = KEY_CHAR, .ch = '6'});
    /* frame by frame: the open a frame begins is taken over only by a later one */
    for (int k = 0; app->vs.view != VIEW_MODEL; k++) {
        cr_assert_lt(k, 8, "the key did not switch to the Model view");
        one_frame();
    }
    if (!real_open_busy(&app->opening)) one_frame(); /* the Model view's first frame looks */
    cr_assert(real_open_busy(&app->opening));
    cr_assert(strstr(app->model.real.note, "Looking for gpt2"), "the page says it looks: %s",
              app->model.real.note);
    frames_until_opened();
    cr_assert(strstr(app->model.real.note, "none was found") && strstr(app->model.real.note, top),
              "%s", app->model.real.note);
    cr_assert_eq(atomic_load(&wakes), 1, "the thread woke the window once");

    const char *dir = ref_make("gpt2_reference.py", top, "a", "--seed 17 --layers 2");
    snprintf(app->vs.real_open_path, sizeof app->vs.real_open_path, "%s", dir);
    one_frame(); /* begins the open, and returns */
    cr_assert(real_open_busy(&app->opening), "the frame that asked did not wait for the weights");
    cr_assert_null(app->checkpoint, "attached only by a later frame");
    /* the folder's own name, so the seconds after it stay in the line */
    cr_assert(!strncmp(app->vs.status, "Opening a… 0 s", strlen("Opening a… 0 s")), "%s",
              app->vs.status);
    cr_assert_str_eq(app->vs.real_open_path, "", "the ask is taken");
    frames_until_opened();
    cr_assert_not_null(app->checkpoint);
    cr_assert(app->model.real.model == &app->checkpoint->model);
    cr_assert(strstr(app->vs.status, "Opened") && strstr(app->vs.status, dir), "%s",
              app->vs.status);
    cr_assert_eq(atomic_load(&wakes), 2);

    const Checkpoint *before = app->checkpoint;
    char bad[300];
    snprintf(bad, sizeof bad, "%s/missing", top);
    snprintf(app->vs.real_open_path, sizeof app->vs.real_open_path, "%s", bad);
    one_frame();
    cr_assert(strstr(app->vs.status, "Opening missing…"), "%s", app->vs.status);
    frames_until_opened();
    cr_assert(app->vs.status_error && strstr(app->vs.status, "Not opened") &&
                  strstr(app->vs.status, "missing") && !strchr(app->vs.status, '\n'),
              "%s", app->vs.status);
    cr_assert(app->checkpoint == before && app->model.real.model == &before->model,
              "the open model stays");
    char cmd[400];
    snprintf(cmd, sizeof cmd, "rm -rf '%s'", top);
    cr_assert_eq(system(cmd), 0);
    unsetenv("HF_HUB_CACHE");
}

/* One open at a time: while one is not taken over, another does not begin;
 * nor does one whose name is longer than a path. */
Test(app, one_open_at_a_time) {
    char top[] = "/tmp/attnlab-open-XXXXXX";
    cr_assert(mkdtemp(top));
    const char *dir = ref_make("gpt2_reference.py", top, "b", "--seed 18 --layers 1");
    Real_Opening o = {0};
    const char *names[1] = {dir}, *other[1] = {"/nonexistent"};
    cr_assert(real_open_begin(&o, names, 1, NULL, NULL));
    cr_assert_not(real_open_begin(&o, other, 1, NULL, NULL), "a second open began");
    char err[1200];
    int got;
    while ((got = real_open_finish(&o, &app->model, &app->checkpoint, err, sizeof err)) < 0)
        nap_10ms();
    cr_assert_eq(got, 1, "%s", err);
    cr_assert_not(real_open_busy(&o));
    cr_assert_eq(real_open_finish(&o, &app->model, &app->checkpoint, err, sizeof err), -1,
                 "taken over once");
    static char longer[5000]; /* longer than a path: not cut short, left to real_open */
    memset(longer, 'x', sizeof longer - 1);
    const char *too_long[1] = {longer};
    cr_assert_not(real_open_begin(&o, too_long, 1, NULL, NULL));
    cr_assert_not(real_open_busy(&o));
    char cmd[400];
    snprintf(cmd, sizeof cmd, "rm -rf '%s'", top);
    cr_assert_eq(system(cmd), 0);
}

/* A second app, as the window starts one: --model read on a thread. */
static App_Frame_Result started_frame(App *b) {
    clock_s += 0.016;
    return app_frame(
        b, &(App_Frame){.fb_w = 1280, .fb_h = 800, .win_w = 1280, .win_h = 800, .time = clock_s});
}

/* The window with --model: its first frame shows at once, saying what it
 * reads; a later frame attaches the model and applies --text, --layer and
 * --head. A bad --model, found there, ends the app with the one line and
 * status app_init would have given. */
Test(app, the_window_shows_while_its_model_is_read) {
    char top[] = "/tmp/attnlab-open-XXXXXX", err[1024];
    cr_assert(mkdtemp(top));
    const char *dir = ref_make("gpt2_reference.py", top, "c", "--seed 19 --layers 3");
    char model[300];
    snprintf(model, sizeof model, "%s", dir);
    Cli_Options with = opts;
    with.model = model;
    with.text = "one two one two";
    with.open_layer = 3; /* --layer 2 --head 1 */
    with.open_head = 2;
    App_Desc d = desc;
    d.opts = &with;
    App *b = calloc(1, sizeof *b);
    app_open_in_background(b, NULL, NULL);
    cr_assert(app_init(b, &d, err, sizeof err), "%s", err);
    cr_assert_null(b->checkpoint, "app_init did not wait for the weights");
    App_Frame_Result r = started_frame(b);
    cr_assert(real_open_busy(&b->opening), "the first frame began reading and returned");
    cr_assert(strstr(b->vs.status, "Opening c…"), "%s", b->vs.status);
    cr_assert(strstr(b->model.real.note, model), "the page names the whole path: %s",
              b->model.real.note);
    cr_assert(strstr(b->model.real.note, "Reading"), "%s", b->model.real.note);
    cr_assert_not(r.quit);
    int frames = 0;
    while (real_open_busy(&b->opening)) {
        r = started_frame(b);
        cr_assert_lt(++frames, 6000);
        nap_10ms();
    }
    cr_assert_not(r.quit, "%s", r.fatal ? r.fatal : "");
    cr_assert_not_null(b->checkpoint);
    cr_assert_str_eq(b->model.real.text, "one two one two", "--text");
    cr_assert_eq(b->model.real.open_layer, 2, "--layer");
    cr_assert_eq(b->model.real.open_head, 1, "--head");
    cr_assert_str_eq(b->model.real.note, "");
    app_shutdown(b);
    free(b);

    char bad[300];
    snprintf(bad, sizeof bad, "%s/missing", top);
    with.model = bad;
    b = calloc(1, sizeof *b);
    app_open_in_background(b, NULL, NULL);
    cr_assert(app_init(b, &d, err, sizeof err), "%s", err);
    r = started_frame(b);
    for (frames = 0; !r.quit; frames++) {
        cr_assert_lt(frames, 6000);
        nap_10ms();
        r = started_frame(b);
    }
    cr_assert_not_null(r.fatal);
    cr_assert(!strncmp(r.fatal, "attnlab: ", 9) && strstr(r.fatal, "missing") &&
                  strstr(r.fatal, "no such folder") && !strchr(r.fatal, '\n'),
              "%s", r.fatal);
    app_shutdown(b);
    free(b);
    char cmd[400];
    snprintf(cmd, sizeof cmd, "rm -rf '%s'", top);
    cr_assert_eq(system(cmd), 0);
}
