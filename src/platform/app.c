/* The app apart from any window system; see app.h. Input arrives as
 * App_Events from a backend (sdl_app.c) or a headless driver (headless.c);
 * nothing here calls SDL or waits. */
#define _POSIX_C_SOURCE 200809L
#include "../core/i18n.h"
#include "app.h"

#include "../core/fileio.h"
#include "../model/export.h"
#include "../lesson/lesson_check.h"
#include "../model/scene_file.h"
#include "../render/figure.h"
#include "../render/image.h"
#include "../ui/lesson_panel.h"
#include "lang.h"
#include "lesson_scan.h"
#include "paths.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

static const float zoom_steps[] = {0.75f, 0.9f, 1.0f, 1.1f, 1.25f, 1.5f, 1.75f, 2.0f, 2.5f, 3.0f};
#define ZOOM_STEPS ((int)(sizeof zoom_steps / sizeof *zoom_steps))

/* Lesson storage for the view (allocated once), the lesson menu, and
 * --lesson: a lesson that does not load is a bad file, exit 2. */
bool app_setup_lessons(View_State *vs, const App_Desc *desc, Lesson **lesson, Scene **saved,
                       Lesson_Index *index, char *err, size_t errsz) {
    *lesson = malloc(sizeof **lesson);
    *saved = malloc(sizeof **saved);
    vs->session.math = malloc(sizeof *vs->session.math);
    if (!*lesson || !*saved || !vs->session.math) {
        snprintf(err, errsz, "attnlab: out of memory for lessons");
        return false;
    }
    char dir[4200], why[600];
    /* --lesson first: if it is bad, that one line is all the user sees */
    if (desc->opts->lesson_path) {
        /* in the language chosen, where the lesson has a translation */
        char local[600];
        const char *path = lesson_localized_path(desc->opts->lesson_path, lang_code(lang_current()),
                                                 local, sizeof local)
                               ? local
                               : desc->opts->lesson_path;
        if (lesson_load(*lesson, path, why, sizeof why)) {
            vs->session.pending = true;
        } else {
#ifdef __EMSCRIPTEN__
            /* the page opens anyway, saying which lesson it could not open */
            cli_report("attnlab: ", why);
            view_set_status(vs, true, "attnlab: %.400s", why);
#else
            snprintf(err, errsz, "attnlab: %s", why);
            return false;
#endif
        }
    }
    paths_join(desc->data_dir, "lessons", dir, sizeof dir);
    if (!lesson_index_scan(index, dir, why, sizeof why)) index->count = 0; /* menu says none */
    lesson_index_localize(index, lang_code(lang_current()));
    /* A lesson that does not load is listed greyed out in the menu; say why
     * once here too, so its author sees the FILE:LINE without opening it. */
    for (int k = 0; k < index->count; k++)
        if (index->error[k][0]) cli_report(_("attnlab: warning: "), index->error[k]);
    if (index->skipped) {
        snprintf(why, sizeof why, _("%d more lessons in %.400s are not listed (at most %d)"),
                 index->skipped, dir, LESSON_INDEX_MAX);
        cli_report(_("attnlab: warning: "), why);
    }
    vs->session.lesson = *lesson;
    vs->session.saved = *saved;
    vs->session.index = index;
    vs->session.data_dir = desc->data_dir;
    return true;
}

/* --text, --generate, --layer and --head, on the model just opened. */
static bool real_options(Model *m, const Cli_Options *o, char *err, size_t errsz) {
    char why[1024];
    if (o->text && !real_lab_set_text(&m->real, o->text, strlen(o->text), why, sizeof why)) {
        snprintf(err, errsz, "attnlab: --text: %s", why);
        return false;
    }
    if (o->generate > 0 && m->real.n > 0) { /* the window writes as many tokens, then shows them */
        Net_Choice how = {o->temperature, o->top_k, o->top_p};
        uint64_t seed = o->has[SET_SEED] ? (uint64_t)o->value[SET_SEED] : 0;
        if (!real_gen_start(&m->real.gen, m->real.model, m->real.input, m->real.n, &how, seed, why,
                            sizeof why)) {
            snprintf(err, errsz, "attnlab: --generate: %s", why);
            return false;
        }
        for (int k = 0; k < o->generate; k++) real_gen_step(&m->real.gen);
    }
    return real_pick_head(m, o->open_layer - 1, o->open_head - 1, err, errsz);
}

bool app_open_real(Model *m, Checkpoint **ck, const Cli_Options *o, char *err, size_t errsz) {
    if (!o->model) return true;
    char why[1024];
    if (!real_open(m, ck, o->model, why, sizeof why)) {
        snprintf(err, errsz, "attnlab: %s", why);
        return false;
    }
    return real_options(m, o, err, errsz);
}

void app_writing_from_options(View_State *vs, const Cli_Options *o) {
    vs->real_next_mode = o->generate > 0;  /* the model writing, --generate's */
    if (o->generate > 0) vs->real_tab = 2; /* its tab, where panels are tabs */
    vs->real_greedy = !(o->temperature > 0);
    if (o->temperature > 0) vs->temperature = (float)o->temperature;
    vs->gen_top_k = (float)o->top_k;
    vs->gen_top_p = (float)o->top_p;
    if (o->has[SET_SEED]) vs->gen_seed = (unsigned)o->value[SET_SEED];
}

bool app_init(App *a, const App_Desc *desc, char *err, size_t errsz) {
    a->desc = desc;
    a->win_w = a->fb_w = desc->opts->width;
    a->win_h = a->fb_h = desc->opts->height;
    if (!draw_init(&a->dl, &(Draw_Desc){0})) {
        snprintf(err, errsz, "attnlab: out of memory for the draw list");
        return false;
    }
    a->dl_ready = true;
    if (!render_init(&a->render, &(Render_Desc){.data_dir = a->desc->data_dir}, err, errsz))
        return false;
    a->render_ready = true;
    if (!model_init(&a->model, a->desc->scene, a->desc->vocab)) {
        snprintf(err, errsz, "attnlab: out of memory computing attention for n=%d",
                 a->desc->scene->n);
        return false;
    }
    a->model_ready = true;
    real_lab_threaded(&a->model.real, true); /* the Model view's pass off the frame (not in
                                                the browser, which has no threads) */
    ui_init(&a->ui, &a->dl, render_text_metrics(&a->render));
    a->ui.records = a->records; /* Shift+F12 finds the panel under the mouse */
    view_init(&a->vs);
    a->vs.view = a->desc->opts->view;
    app_writing_from_options(&a->vs, a->desc->opts);
    a->vs.theme = a->desc->opts->theme; /* dark unless --theme (or the saved settings) say */
    a->vs.presenter = a->desc->opts->presenter;
    a->vs.lang = lang_current();
    a->vs.lang_count = lang_count();
    a->vs.lang_want = -1;
    for (int k = 0; k < a->vs.lang_count && k < 8; k++) {
        static const char *const shorts[] = {"EN", "ES", "DE", "中文"};
        a->vs.lang_names[k] = lang_name(k);
        a->vs.lang_short[k] = k < 4 ? shorts[k] : lang_code(k);
    }
    snprintf(a->vs.teacher_hidden, sizeof a->vs.teacher_hidden, "%s", a->desc->opts->hide);
    a->zoom = a->desc->opts->ui_scale;
    if (desc->notice) view_set_status(&a->vs, true, "%.400s", desc->notice);
    if (desc->opts->model && a->open_in_background) {
        /* the first frame begins it, once the window's settings (its language) are in */
        a->start_pending = true;
        snprintf(a->model.real.note, sizeof a->model.real.note, _("Reading %.900s…"),
                 desc->opts->model);
    } else if (!app_open_real(&a->model, &a->checkpoint, desc->opts, err, errsz)) {
        return false;
    }
    return app_setup_lessons(&a->vs, a->desc, &a->lesson, &a->lesson_saved, &a->lesson_index, err,
                             errsz);
}

void app_open_in_background(App *a, void (*wake)(void *ctx), void *ctx) {
    a->open_in_background = true;
    a->open_wake = wake;
    a->open_wake_ctx = ctx;
}

void app_shutdown(App *a) {
    real_open_cancel(&a->opening);
    free(a->lesson);
    free(a->lesson_saved);
    free(a->vs.session.math);
    if (a->model_ready) real_close(&a->model, &a->checkpoint);
    if (a->model_ready) model_free(&a->model);
    if (a->render_ready) render_shutdown(&a->render);
    if (a->dl_ready) draw_free(&a->dl);
}

/* The layout needs about 960×560 logical units to show every panel without
 * overlap; a zoom that would leave less is held at the largest that fits
 * (never below 0.75). w and h are in window points. */
#define LAYOUT_MIN_W 960.0f
#define LAYOUT_MIN_H 560.0f
float app_zoom_for(float zoom, int w, int h) {
    float cap = fminf((float)w / LAYOUT_MIN_W, (float)h / LAYOUT_MIN_H);
    if (cap < 0.75f) cap = 0.75f;
    return fminf(zoom, cap);
}

static float effective_zoom(const App *a) {
    return app_zoom_for(a->zoom, a->win_w, a->win_h);
}

/* Pixels per logical unit: display scale (drawable / window) × UI zoom. */
static float pixel_scale(const App *a, int fb_w) {
    float dpi = a->win_w > 0 ? (float)fb_w / (float)a->win_w : 1.0f;
    return dpi * effective_zoom(a);
}

/* The lesson loaded when the language changes reads on in the new one, at
 * the same step: its translation there, or its English original, where that
 * has the same steps, directives and goals (a checked translation does);
 * otherwise it stays as it was, and the status line says why. */
static void lesson_follow_lang(App *a, int lang) {
    static Lesson next; /* large: not on the stack */
    Lesson *cur = a->vs.session.lesson;
    if (!cur || !cur->path[0]) return;
    char orig[600], local[600], err[1200];
    const char *base = strrchr(cur->path, '/');
    int dir_len = base ? (int)(base - cur->path) : 0;
    const char *parent = cur->path + dir_len;
    while (parent > cur->path && parent[-1] != '/') parent--;
    bool in_lang = false; /* the lesson is itself a translation: lessons/LANG/NAME.md */
    for (int k = 1; k < lang_count() && base; k++)
        in_lang |= (int)strlen(lang_code(k)) == (int)(base - parent) &&
                   !strncmp(parent, lang_code(k), (size_t)(base - parent));
    if (in_lang)
        snprintf(orig, sizeof orig, "%.*s%s", (int)(parent - cur->path), cur->path, base + 1);
    else
        snprintf(orig, sizeof orig, "%s", cur->path);
    const char *want =
        lesson_localized_path(orig, lang_code(lang), local, sizeof local) ? local : orig;
    if (!strcmp(want, cur->path)) return;
    if (!lesson_load(&next, want, err, sizeof err) ||
        !lesson_same_shape(cur, &next, err, sizeof err)) {
        view_set_status(&a->vs, true, "%.900s", err);
        return;
    }
    *cur = next; /* offsets into its own text: a plain copy keeps it whole */
}

/* Lay out and draw one frame into the bound framebuffer of fb_w × fb_h. */
/* The language picked in the window: every later string speaks it, and the
 * lesson menu lists that language's lessons; a bad catalog keeps the old one. */
void app_set_lang(App *a, int lang) {
    char err[1200];
    a->vs.lang_want = -1;
    if (lang == a->vs.lang) return;
    if (!lang_use(lang, a->desc->data_dir, err, sizeof err)) {
        view_set_status(&a->vs, true, "%.600s", err);
        lang_use(a->vs.lang, a->desc->data_dir, err, sizeof err);
        return;
    }
    a->vs.lang = lang;
    a->lang_changed = true;
    char dir[4200];
    paths_join(a->desc->data_dir, "lessons", dir, sizeof dir);
    if (!lesson_index_scan(&a->lesson_index, dir, err, sizeof err)) a->lesson_index.count = 0;
    lesson_index_localize(&a->lesson_index, lang_code(lang));
    view_set_status(&a->vs, false, "%s", lang_name(lang));
    lesson_follow_lang(a, lang);
}

/* The last part of a path, for a status line that keeps its seconds in view:
 * "/models/SmolLM2-135M/" gives "SmolLM2-135M/" (the page says the whole path). */
static const char *last_part(const char *path) {
    size_t n = strlen(path);
    while (n > 1 && path[n - 1] == '/') n--;
    while (n > 0 && path[n - 1] != '/') n--;
    return path + n;
}

/* A model asked for: the window's --model (from its first frame), the first
 * look in the cache (once, on the Model view's first frame) and Open model…
 * (a bad one leaves the open one). In the background when the window asked
 * for it: this frame goes on, and a later one attaches what the thread read. */
static void opening(App *a) {
    char err[1200];
    Model *m = &a->model;
    const char *name = a->opening.names[0];
    int got = real_open_finish(&a->opening, m, &a->checkpoint, err, sizeof err);
    if (got >= 0 && a->opening_for == APP_OPEN_LOOK) {
        real_look_found(m, got == 1, err);
    } else if (got >= 0 && a->opening_for == APP_OPEN_START) {
        /* what app_init would have said and quit on, said now */
        if (got == 0)
            snprintf(a->fatal, sizeof a->fatal, "attnlab: %.1150s", err);
        else if (real_options(m, a->desc->opts, err, sizeof err))
            m->real.note[0] = '\0';
        else
            snprintf(a->fatal, sizeof a->fatal, "%s", err);
    } else if (got >= 0) {
        if (got == 1)
            view_set_status(&a->vs, false, _("Opened %.400s"), name);
        else
            view_set_status(&a->vs, true, _("Not opened: %.600s"), err);
    }
    if (got >= 0) a->opening_for = APP_OPEN_ASKED;
    bool busy = real_open_busy(&a->opening);
    if (a->start_pending) { /* --model */
        const char *model = a->desc->opts->model;
        a->start_pending = false;
        if (real_open_begin(&a->opening, &model, 1, a->open_wake, a->open_wake_ctx)) {
            a->opening_for = APP_OPEN_START;
            a->opening_since = a->vs.now;
            a->opening_said = -1;
            busy = true;
            name = model;
        } else if (app_open_real(m, &a->checkpoint, a->desc->opts, err, sizeof err)) {
            m->real.note[0] = '\0';
        } else {
            snprintf(a->fatal, sizeof a->fatal, "%s", err);
        }
    }
    double seconds = floor(a->vs.now - a->opening_since);
    if (busy && a->opening_for != APP_OPEN_LOOK && seconds != a->opening_said) {
        /* the seconds so far, once a second, so the line stays while it reads */
        view_set_status(&a->vs, false, _("Opening %.400s… %.0f s (the window stays usable)"),
                        last_part(name), seconds);
        a->opening_said = seconds;
    }
    if (a->vs.view == VIEW_MODEL && !busy) { /* once, on first view */
        if (a->open_in_background &&
            real_look_begin(&a->opening, m, a->open_wake, a->open_wake_ctx)) {
            a->opening_for = APP_OPEN_LOOK;
            a->opening_since = a->vs.now;
            name = a->opening.names[0];
            busy = true;
        } else {
            real_look(m, &a->checkpoint);
        }
    }
    const char *path = a->vs.real_open_path;
    if (!path[0]) return;
    if (busy) {
        view_set_status(&a->vs, true, _("Still opening %.400s: open another once it is done"),
                        name);
    } else if (a->open_in_background &&
               real_open_begin(&a->opening, &path, 1, a->open_wake, a->open_wake_ctx)) {
        a->opening_since = a->vs.now;
        a->opening_said = 0;
        view_set_status(&a->vs, false, _("Opening %.400s… %.0f s (the window stays usable)"),
                        last_part(path), 0.0);
    } else if (real_open(m, &a->checkpoint, path, err, sizeof err)) {
        view_set_status(&a->vs, false, _("Opened %.400s"), path);
    } else {
        view_set_status(&a->vs, true, _("Not opened: %.600s"), err);
    }
    a->vs.real_open_path[0] = '\0';
}

void app_layout(App *a, int fb_w, int fb_h, float scale) {
    render_set_scale(&a->render, scale);
    ui_begin(&a->ui, &a->in, (float)fb_w / scale, (float)fb_h / scale);
    a->ui.px_scale = scale;
    opening(a);
    /* the thread's reader speaks the language: it changes once the open is done */
    if (a->vs.lang_want >= 0 && !real_open_busy(&a->opening)) app_set_lang(a, a->vs.lang_want);
    view_frame(&a->ui, &a->vs, &a->model);
    ui_end(&a->ui);
    /* past the draw list's ceilings a frame is drawn in part: say so once,
     * and again only if it gets worse */
    if (a->dl.dropped > a->dropped_said) {
        view_set_status(&a->vs, true,
                        _("This frame is too large to draw whole: %d shapes or heatmaps were left "
                          "out (fewer tokens or heads fit)"),
                        a->dl.dropped);
        a->dropped_said = a->dl.dropped;
    } else if (a->dl.dropped == 0) {
        a->dropped_said = 0;
    }
}

void app_draw(App *a, int fb_w, int fb_h, float scale) {
    app_layout(a, fb_w, fb_h, scale);
    render_frame(&a->render, &a->dl, fb_w, fb_h, a->ui.theme->bg);
}

/* A file name in the working folder stamped with the local time; a second
 * save in the same second gets -2, -3 … rather than overwriting the first. */
static void stamped_name(const char *prefix, const char *ext, char *dest, size_t size) {
    char stamp[32], stem[64];
    time_t now = time(NULL);
    struct tm tmv;
    localtime_r(&now, &tmv);
    strftime(stamp, sizeof stamp, "%Y%m%d-%H%M%S", &tmv);
    snprintf(stem, sizeof stem, "%s-%s", prefix, stamp);
    if (!file_unique_name(stem, ext, dest, size)) snprintf(dest, size, "%s%s", stem, ext);
}

/* F12: the window as a PNG. Shift+F12: only the panel under the mouse. */
/* A file the user asked for is written: the frame's result names it. */
static void wrote(App *a, const char *path) {
    snprintf(a->wrote, sizeof a->wrote, "%s", path);
    a->pending.wrote = a->wrote;
}

/* The innermost recorded panel under the mouse (later records sit on top), or NULL. */
static const Ui_Record *panel_under_mouse(const App *a) {
    const Ui_Record *hit = NULL;
    for (int k = 0; k < a->ui.record_count; k++) {
        const Ui_Record *r = &a->ui.records[k];
        if (!strcmp(r->kind, "panel") && rect_contains(r->r, a->in.mx, a->in.my)) hit = r;
    }
    return hit;
}

static void window_screenshot(App *a, bool panel_only) {
    int fw = a->fb_w, fh = a->fb_h;
    unsigned char *px = malloc((size_t)fw * fh * 4);
    if (!px) return;
    char name[96], err[512];
    float scale = pixel_scale(a, fw);
    /* redraw for the readback without replaying this batch's clicks and keys */
    Ui_Input saved = a->in;
    ui_input_spent(&a->in);
    app_draw(a, fw, fh, scale);
    a->in = saved;
    render_finish(&a->render);
    render_read_rgba(&a->render, fw, fh, px);
    int x0 = 0, y0 = 0, w = fw, h = fh;
    const char *what = "window";
    if (panel_only) {
        const Ui_Record *hit = panel_under_mouse(a);
        if (!hit) {
            view_set_status(&a->vs, true,
                            _("Shift+F12 saves the panel under the mouse; there is none"));
            free(px);
            return;
        }
        x0 = (int)floorf(hit->r.x * scale);
        y0 = (int)floorf(hit->r.y * scale);
        w = (int)ceilf(hit->r.w * scale);
        h = (int)ceilf(hit->r.h * scale);
        if (x0 < 0) x0 = 0;
        if (y0 < 0) y0 = 0;
        if (x0 + w > fw) w = fw - x0;
        if (y0 + h > fh) h = fh - y0;
        /* move the panel's rows to the front of the buffer, then save that */
        for (int y = 0; y < h; y++)
            memmove(px + (size_t)y * w * 4, px + ((size_t)(y0 + y) * fw + x0) * 4, (size_t)w * 4);
        what = hit->name;
    }
    stamped_name(panel_only ? "attnlab-panel" : "attnlab", ".png", name, sizeof name);
    if (w > 0 && h > 0 && image_save_png(name, w, h, px, err, sizeof err)) {
        view_set_status(&a->vs, false, _("Saved %s (%s)"), name, what);
        wrote(a, name);
    } else {
        view_set_status(&a->vs, true, "%.400s", w > 0 && h > 0 ? err : _("empty panel"));
    }
    free(px);
}

/* Ctrl+Shift+E / Ctrl+Shift+F: the window, or the panel under the mouse, as
 * a vector PDF for slides. The frame is laid out again with the mouse away
 * and no focus ring, so neither a hover outline nor the ring is in it. */
static void window_figure(App *a, bool panel_only) {
    float scale = pixel_scale(a, a->fb_w), zoom = effective_zoom(a);
    Rect area = {0, 0, (float)a->fb_w / scale, (float)a->fb_h / scale};
    const char *what = "window";
    if (panel_only) {
        const Ui_Record *hit = panel_under_mouse(a);
        if (!hit) {
            view_set_status(&a->vs, true,
                            _("Ctrl+Shift+F saves the panel under the mouse; there is none"));
            return;
        }
        area = hit->r;
        what = hit->name;
    }
    Ui_Input saved = a->in;
    bool ring = a->ui.focus_visible;
    ui_input_spent(&a->in);
    a->in.mx = a->in.my = -1e6f;
    a->ui.focus_visible = false;
    ui_begin(&a->ui, &a->in, area.w > 0 ? (float)a->fb_w / scale : 1, (float)a->fb_h / scale);
    a->ui.px_scale = scale;
    view_frame(&a->ui, &a->vs, &a->model);
    ui_end(&a->ui);
    a->in = saved;
    a->ui.focus_visible = ring;
    char name[96], err[1400];
    stamped_name(panel_only ? "attnlab-panel" : "attnlab-figure", ".pdf", name, sizeof name);
    Figure_Desc fd = {.path = name,
                      .format = FIGURE_PDF,
                      .data_dir = a->desc->data_dir,
                      .area = area,
                      .scale = zoom,
                      .background = a->ui.theme->bg};
    if (figure_write(&a->dl, &fd, err, sizeof err)) {
        view_set_status(&a->vs, false, _("Saved %s (%s, vector PDF)"), name, what);
        wrote(a, name);
    } else {
        view_set_status(&a->vs, true, _("Not saved — %.400s"), err);
    }
}

static void write_export(FILE *f, const void *ctx) {
    const App *a = ctx;
    export_json(&a->model.scene, &a->model.derived, f);
}

/* Ctrl+E: every matrix of the computation as JSON (like --export json), atomically. */
static void window_export(App *a) {
    char name[96], err[512];
    stamped_name("attnlab-export", ".json", name, sizeof name);
    model_update(&a->model);
    if (!export_check(&a->model.scene, &a->model.derived, err, sizeof err)) {
        view_set_status(&a->vs, true, _("Not exported — %.400s"), err);
        return;
    }
    if (file_write_atomic(name, write_export, a, err, sizeof err)) {
        view_set_status(&a->vs, false, _("Exported every matrix to %s"), name);
        wrote(a, name);
    } else
        view_set_status(&a->vs, true, _("Not exported — %.400s"), err);
}

static void set_zoom(App *a, int direction) {
    if (direction == 0) {
        a->zoom = 1.0f;
        return;
    }
    int k = 0;
    while (k < ZOOM_STEPS - 1 && zoom_steps[k] < a->zoom - 1e-3f) k++;
    /* k: first step ≥ zoom */
    if (direction > 0) {
        if (zoom_steps[k] <= a->zoom + 1e-3f && k < ZOOM_STEPS - 1) k++;
    } else {
        if (k > 0) k--;
    }
    a->zoom = zoom_steps[k];
    float eff = effective_zoom(a);
    if (eff < a->zoom - 1e-3f)
        view_set_status(&a->vs, false,
                        _("Zoom held at %.2f× (asked %.2f×): the window is too small for more — "
                          "enlarge it or press F11"),
                        (double)eff, (double)a->zoom);
    else
        view_set_status(&a->vs, false, _("Zoom %.2f×"), (double)eff);
}

/* Ctrl+S: write the scene back to --scene, or attnlab-scene.json, atomically. */
static void save_scene(App *a) {
    const char *path = a->desc->scene_path ? a->desc->scene_path : "attnlab-scene.json";
    char err[1024];
    if (a->model.scene.learned) { /* a file would reload with the seed's weights, not these */
        view_set_status(&a->vs, true,
                        _("Not saved — a scene file holds a seed, not a trained head's weights; "
                          "Ctrl+E exports every matrix of it (JSON) instead"));
        return;
    }
    if (scene_save(&a->model.scene, path, err, sizeof err)) {
        view_set_status(&a->vs, false, _("Saved %s"), path);
        wrote(a, path);
    } else
        view_set_status(&a->vs, true, _("Not saved — %s (the scene in the window is unchanged)"),
                        err);
}

/* A scene or a lesson dropped on the window or picked in the page. A file
 * that does not load changes nothing and says why, once, in the status line. */
static void open_file(App *a, const char *path) {
    size_t n = strlen(path);
    char err[1024];
    if (n == 0) {
        view_set_status(&a->vs, true, _("Not opened — its path is longer than %d bytes"),
                        (int)sizeof a->queue[0].text - 1);
        return;
    }
    if (n > 3 && !strcmp(path + n - 3, ".md")) {
        /* load beside the open lesson, so a bad file leaves it as it was */
        Lesson *l = malloc(sizeof *l);
        if (!l) {
            view_set_status(&a->vs, true, _("Not opened — out of memory"));
            return;
        }
        if (!lesson_load(l, path, err, sizeof err)) {
            view_set_status(&a->vs, true, _("Not opened — %.400s"), err);
            free(l);
            return;
        }
        if (a->vs.session.active) lesson_leave(&a->vs, &a->model);
        *a->lesson = *l;
        free(l);
        a->vs.session.pending = true; /* entered before the next frame lays out */
        return;
    }
    if (!scene_load(&a->model.next, path, a->desc->vocab, err, sizeof err)) {
        view_set_status(&a->vs, true, _("Not opened — %.400s"), err);
        return;
    }
    if (!model_apply(&a->model, &(Action){.kind = ACTION_LOAD_SCENE, .scene = &a->model.next}, err,
                     sizeof err))
        view_set_status(&a->vs, true, _("Not opened — %.400s"), err);
    else
        view_set_status(&a->vs, false, _("Opened %.400s"), path);
}

static void reload_shaders(App *a) {
    char err[1024];
    if (render_reload_shaders(&a->render, err, sizeof err)) {
        view_set_status(&a->vs, false, _("Shaders reloaded"));
    } else {
        cli_report("", err);
        view_set_status(&a->vs, true, _("%.400s (kept the previous shaders)"), err);
    }
}

static void run_command(App *a, App_Command c) {
    switch (c) {
    case APP_CMD_NONE:
        break;
    case APP_CMD_SCREENSHOT:
    case APP_CMD_SCREENSHOT_PANEL:
        window_screenshot(a, c == APP_CMD_SCREENSHOT_PANEL);
        break;
    case APP_CMD_EXPORT:
        window_export(a);
        break;
    case APP_CMD_FIGURE:
    case APP_CMD_FIGURE_PANEL:
        window_figure(a, c == APP_CMD_FIGURE_PANEL);
        break;
    case APP_CMD_RELOAD_SHADERS:
        reload_shaders(a);
        break;
    case APP_CMD_ZOOM_IN:
        set_zoom(a, +1);
        break;
    case APP_CMD_ZOOM_OUT:
        set_zoom(a, -1);
        break;
    case APP_CMD_ZOOM_RESET:
        set_zoom(a, 0);
        break;
    case APP_CMD_FULLSCREEN:
        a->pending.toggle_fullscreen = !a->pending.toggle_fullscreen;
        break;
    case APP_CMD_QUIT:
        a->pending.quit = true;
        break;
    }
}

void app_event(App *a, const App_Event *e) {
    if (a->queued == APP_MAX_EVENTS) {
        /* a flood (a stalled frame under a fast mouse): moves can go, since
         * the latest position is all that counts; anything else waits */
        for (int k = 0; k < a->queued; k++)
            if (a->queue[k].kind == APP_EV_MOUSE_MOVE) {
                memmove(&a->queue[k], &a->queue[k + 1],
                        (size_t)(a->queued - k - 1) * sizeof *a->queue);
                a->queued--;
                break;
            }
        if (a->queued == APP_MAX_EVENTS) return;
    }
    a->queue[a->queued++] = *e;
}

void app_paste(App *a, const char *text) {
    size_t len = strlen(text);
    a->paste_len = len;
    /* too long to keep: nothing is kept, and the length says why */
    if (len < sizeof a->paste)
        memcpy(a->paste, text, len + 1);
    else
        a->paste[0] = '\0';
    app_event(a, &(App_Event){.kind = APP_EV_PASTE});
}

/* A press and a release in the same frame (a tap, a remote, xdotool's
 * "mousedown 1 mouseup 1") must reach the UI one after the other, as a click
 * does: the second waits for the next frame, which follows at once. */
static bool must_wait(const App *a, const App_Event *e) {
    return (e->kind == APP_EV_MOUSE_UP && a->in.pressed) ||
           (e->kind == APP_EV_MOUSE_DOWN && a->in.released);
}

static void apply_event(App *a, const App_Event *e) {
    float inv = 1.0f / effective_zoom(a); /* window points → logical units */
    switch (e->kind) {
    case APP_EV_REDRAW:
        break;
    case APP_EV_MOUSE_MOVE:
        a->in.mx = e->x * inv;
        a->in.my = e->y * inv;
        break;
    case APP_EV_MOUSE_DOWN:
        a->in.mx = e->x * inv;
        a->in.my = e->y * inv;
        a->in.down = true;
        a->in.pressed = true;
        break;
    case APP_EV_MOUSE_UP:
        a->in.mx = e->x * inv;
        a->in.my = e->y * inv;
        a->in.down = false;
        a->in.released = true;
        break;
    case APP_EV_RIGHT_DOWN:
        a->in.mx = e->x * inv;
        a->in.my = e->y * inv;
        a->in.right_pressed = true;
        break;
    case APP_EV_WHEEL:
        a->in.wheel += e->wheel;
        break;
    case APP_EV_KEY:
        if (a->in.key_count < UI_MAX_KEYS) {
            a->in.keys[a->in.key_count] = e->key;
            a->in.key_chars[a->in.key_count] = e->ch;
            a->in.key_mods[a->in.key_count] = e->mods;
            a->in.key_count++;
        }
        break;
    case APP_EV_TEXT: {
        size_t used = strlen(a->in.text);
        snprintf(a->in.text + used, sizeof a->in.text - used, "%s", e->text);
        break;
    }
    case APP_EV_COMMAND:
        run_command(a, e->command);
        break;
    case APP_EV_PASTE:
        a->in.paste = a->paste;
        a->in.paste_len = a->paste_len;
        break;
    case APP_EV_OPEN:
        open_file(a, e->text);
        break;
    }
}

App_Frame_Result app_frame(App *a, const App_Frame *f) {
    a->win_w = f->win_w;
    a->win_h = f->win_h;
    a->fb_w = f->fb_w;
    a->fb_h = f->fb_h;
    a->in.time = f->time;
    a->pending = (App_Frame_Result){0};
    int used = 0;
    while (used < a->queued && !must_wait(a, &a->queue[used])) apply_event(a, &a->queue[used++]);
    bool had_input = used > 0;
    memmove(a->queue, a->queue + used, (size_t)(a->queued - used) * sizeof *a->queue);
    a->queued -= used;
    float scale = pixel_scale(a, f->fb_w); /* after the events: a zoom command changes it */
    app_draw(a, f->fb_w, f->fb_h, scale);
    ui_input_spent(&a->in); /* the frame used the one-off input */
    if (a->vs.want_save) {
        a->vs.want_save = false;
        save_scene(a); /* the next frame shows how it went */
        had_input = true;
    }
    App_Frame_Result r = a->pending;
    /* more frames: events still waiting, an animation, actions the next
     * frame applies, or one calm frame after input, so panels laid out
     * before a click's panel show what it changed */
    r.more =
        a->queued > 0 || had_input || render_wants_redraw(&a->render) || view_wants_frames(&a->vs);
    r.wake_in = view_wake_in(&a->vs);
    if (real_open_busy(&a->opening)) /* the status line's seconds; the thread wakes it when done */
        r.wake_in = r.wake_in < 0 ? 1.0 : fmin(r.wake_in, 1.0);
    if (a->vs.want_clipboard) {
        a->vs.want_clipboard = false;
        r.clipboard = a->vs.clipboard;
    }
    if (a->fatal[0]) {
        r.quit = true;
        r.fatal = a->fatal;
    }
    return r;
}
