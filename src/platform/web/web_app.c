/* The browser backend: the same App as the desktop's, in a canvas with a
 * WebGL2 (OpenGL ES 3.0) context. The browser owns the loop: each animation
 * frame calls frame(), which drains SDL's events and draws only when the app
 * asked for a frame (input, an animation, a message that expires), so an idle
 * page costs nothing but the check.
 *
 * The page (assets/web/index.html) talks to it through exported functions:
 * web_open (a file dropped or picked, already written into the in-memory
 * file system), web_open_model (a checkpoint's files, likewise), web_share (the scene, written for
 * a link), web_notice (a message for the status line) and web_describe (what is on screen, for
 * tests). Files the user asks for
 * (Ctrl+S, Ctrl+E, F12 or Ctrl+P) are handed to the page as downloads
 * (library.js).
 *
 * The Model view's passes and the writing's steps go to the page's Web Worker
 * (worker.c, which opens the same files into its own copy of the model): the
 * page posts each job (web_remote_post) and lands the answer here
 * (web_landing, web_gen_land, web_landed), so no frame runs a layer. Until
 * the worker has the model, or if it cannot have it, they run in slices
 * within the frames, as before. */
#include "../../core/i18n.h"
#include "../app.h"
#include "../lang.h"
#include "../sdl_app.h"
#include "../real_open.h"
#include "../sdl_events.h"

#include "../../model/scene_file.h"
#include "../../model/view_kind.h"

#include <SDL.h>
#include <emscripten.h>
#include <stdio.h>
#include <string.h>

/* a JSON string literal of s, quotes included */
static void json_string(char *dest, size_t size, const char *s) {
    size_t n = 0;
    if (size < 3) return;
    dest[n++] = '"';
    for (; *s && n + 8 < size; s++) {
        unsigned char c = (unsigned char)*s;
        if (c == '"' || c == '\\') {
            dest[n++] = '\\';
            dest[n++] = (char)c;
        } else if (c < 0x20) {
            n += (size_t)snprintf(dest + n, size - n, "\\u%04x", c);
        } else {
            dest[n++] = (char)c;
        }
    }
    dest[n++] = '"';
    dest[n] = '\0';
}

/* library.js */
extern void web_download(const char *path);
extern void web_started(void);             /* after the first frame */
extern void web_keep_drawing_buffer(void); /* before the GL context is made */
extern void web_pick_model(void);          /* the page's file picker, for Open model… */
extern int web_remote_post(int kind, int job, const int32_t *ids, int n,
                           int arg); /* to the worker */

typedef struct Web_App {
    App app;
    App_Desc desc;
    char data_dir[256], scene_path[512];
    SDL_Window *win;
    SDL_GLContext gl;
    Uint64 t0;
    bool redraw, quit, shown;
    double wake_at; /* seconds on the app's clock, or -1 */
    /* make bench: each drawn frame waits for the GPU and records its cost */
    bool timing;
    int frames;
    double frame_ms;
    unsigned fonts_asked; /* fallback faces fetched or being fetched (bit k) */
    long landed;          /* the worker's answers taken (web_describe, for tests) */
} Web_App;

/* The page's one app. The exported functions below are called by the page
 * with no context of their own, so they find it here. */
static Web_App web;

/* A fallback face (CJK, emoji) is not in attnlab.data, so the first load
 * stays small: a character that needs it is drawn as a code box until the
 * face arrives from fonts/ beside the page, then the text is drawn again. */
static void font_arrived(const char *file) {
    (void)file;
    font_fallbacks_arrived(&web.app.render.atlas);
    web.redraw = true;
}

static void font_failed(const char *file) {
    view_set_status(&web.app.vs, true,
                    _("%.300s could not be loaded: its characters stay shown as code boxes"), file);
    web.redraw = true;
}

static void fetch_fonts(Web_App *w) {
    unsigned missing = font_fallbacks_missing(&w->app.render.atlas) & ~w->fonts_asked;
    for (int k = 0; k < FONT_FALLBACKS; k++) {
        if (!(missing & (1u << k))) continue;
        w->fonts_asked |= 1u << k;
        const char *file = font_fallback_file(k), *base = strrchr(file, '/');
        char url[256], path[512];
        snprintf(url, sizeof url, "fonts/%s", base ? base + 1 : file);
        snprintf(path, sizeof path, "%s/assets/fonts/%s", w->data_dir, file);
        emscripten_async_wget(url, path, font_arrived, font_failed);
    }
}

static double now(const Web_App *w) {
    return (double)(SDL_GetPerformanceCounter() - w->t0) / (double)SDL_GetPerformanceFrequency();
}

static void frame(void *arg) {
    Web_App *w = arg;
    fetch_fonts(w);
    SDL_Event e;
    while (SDL_PollEvent(&e)) w->redraw |= sdl_events_handle(&w->app, &e, &w->quit);
    double t = now(w);
    bool editing = w->app.vs.editing || w->app.vs.typing_dk;
    if (!w->redraw && !editing && !(w->wake_at >= 0 && t >= w->wake_at)) return;
    App_Frame f = {.time = t};
    SDL_GL_GetDrawableSize(w->win, &f.fb_w, &f.fb_h);
    SDL_GetWindowSize(w->win, &f.win_w, &f.win_h);
    double t0 = w->timing ? emscripten_get_now() : 0;
    App_Frame_Result r = app_frame(&w->app, &f);
    if (w->timing) {
        render_finish(&w->app.render);
        w->frame_ms += emscripten_get_now() - t0;
    }
    w->frames++;
    if (!w->shown) { /* the first frame is on screen: the page stops saying "loading" */
        w->shown = true;
        web_started();
    }
    if (w->app.vs.real_pick) {
        w->app.vs.real_pick = false;
        web_pick_model();
    }
    if (r.clipboard) SDL_SetClipboardText(r.clipboard);
    if (r.wrote) web_download(r.wrote);
    w->redraw = r.more;
    w->wake_at = r.wake_in >= 0 ? t + r.wake_in : -1;
}

/* The Model view's jobs, to the page's worker (real_remote.h). */
static bool remote_post(void *ctx, Remote_Kind kind, int job, const int32_t *ids, int n, int arg) {
    (void)ctx;
    return web_remote_post((int)kind, job, ids, n, arg) != 0;
}
static const Real_Remote web_remote = {remote_post, NULL};

/* Where the worker's answer to a pass lands: the page copies that many floats there. */
EMSCRIPTEN_KEEPALIVE float *web_landing(int job, int field, double floats) {
    return real_lab_landing(&web.app.model.real, job, field, (int64_t)floats);
}

/* A piece of the worker's answer to a writing's job, from the page's scratch. */
EMSCRIPTEN_KEEPALIVE int web_gen_land(int job, int field, int index, const float *src,
                                      double floats) {
    return real_gen_land(&web.app.model.real.gen, job, field, index, src, (int64_t)floats);
}

/* The worker has done that many layers of pass job: the info line says so. */
EMSCRIPTEN_KEEPALIVE void web_stage(int job, int stage) {
    real_lab_remote_stage(&web.app.model.real, job, stage);
    web.redraw = true;
}

/* The worker's answer is in (ok 0: it could not run the job); fault: where a number stopped
 * being finite. The next frame shows it. */
EMSCRIPTEN_KEEPALIVE void web_landed(int job, int kind, int ok, int held, int fault_kind, int layer,
                                     int head, int row, int col, double value) {
    Net_Fault f = {(Net_Fault_Kind)fault_kind, layer, head, row, col, (float)value};
    if (kind == REMOTE_PASS)
        real_lab_landed(&web.app.model.real, job, ok ? &f : NULL);
    else
        real_gen_landed(&web.app.model.real.gen, job, held, ok ? &f : NULL);
    if (ok) web.landed++;
    web.redraw = true;
}

/* For make bench: from now on each frame waits for its pixels (a one-pixel
 * read-back) and web_frame_ms adds up what they cost. Off in normal use. */
EMSCRIPTEN_KEEPALIVE void web_time_frames(void) {
    web.timing = true;
}

/* What the frames drawn since the last call cost, in ms: one input's
 * change may take two frames (a widget's action lands in the next one). */
EMSCRIPTEN_KEEPALIVE double web_frame_ms(void) {
    double ms = web.frame_ms;
    web.frame_ms = 0;
    return ms;
}

/* For tests: the next frame paints the whole canvas, not only what changed. */
EMSCRIPTEN_KEEPALIVE void web_repaint(void) {
    render_invalidate(&web.app.render);
    web.redraw = true;
}

/* How many frames were drawn. */

EMSCRIPTEN_KEEPALIVE int web_frames(void) {
    return web.frames;
}

EMSCRIPTEN_KEEPALIVE void web_open(const char *path) {
    App_Event o = {.kind = APP_EV_OPEN};
    if (strlen(path) < sizeof o.text) snprintf(o.text, sizeof o.text, "%s", path);
    app_event(&web.app, &o);
    web.redraw = true;
}

/* Before web_open_model: the page has no threads, so reading the weights
 * holds its frames (seconds, for a few hundred million of them); the page
 * draws this line first, so what it waits for is on screen. */
EMSCRIPTEN_KEEPALIVE void web_reading_model(void) {
    view_set_status(&web.app.vs, false, "%s",
                    _("Reading the model's weights: the page waits until they are in…"));
    web.redraw = true;
}

/* A checkpoint the page wrote into dir (picked or dropped files): opened now, in
 * the Model view, so the page may delete the files once this returns (the app
 * holds its own copy). A bad one is one line in the status line, and the model
 * open before stays. Returns whether it opened. */
EMSCRIPTEN_KEEPALIVE int web_open_model(const char *dir) {
    char err[1200];
    bool ok = real_open(&web.app.model, &web.app.checkpoint, dir, err, sizeof err);
    if (ok) /* named by what the user gave, not by where the page put the files */
        snprintf(web.app.model.real.name, sizeof web.app.model.real.name, "%s",
                 _("your checkpoint"));
    if (ok)
        view_set_status(&web.app.vs, false, _("Opened the model: %d layers × %d heads"),
                        web.app.model.real.model->weights.model.layers,
                        web.app.model.real.model->weights.model.heads);
    else
        view_set_status(&web.app.vs, true, _("Not opened: %.600s"), err);
    web.app.vs.view = VIEW_MODEL;
    web.redraw = true;
    return ok;
}

/* The scene as a file for a "Share" link; NULL (with the reason in the
 * status line) if it cannot be written. */
EMSCRIPTEN_KEEPALIVE const char *web_share(void) {
    static const char path[] = "/tmp/attnlab-share.json";
    char err[600];
    web.redraw = true;
    if (!model_update(&web.app.model) || !scene_save(&web.app.model.scene, path, err, sizeof err)) {
        view_set_status(&web.app.vs, true, _("Not shared — %.400s"), err);
        return NULL;
    }
    return path;
}

/* What the page shows, as JSON: the view, the open lesson, the status line,
 * whether the Model view's pass is under way and how many it has shown, the
 * tokens its writing panel has written,
 * and every widget of the last frame with its rectangle in CSS pixels (what
 * --dump-ui prints on the desktop), so a test can aim its clicks. */
EMSCRIPTEN_KEEPALIVE const char *web_describe(void) {
    static char out[1 << 18];
    const App *a = &web.app;
    float z = a->ui.w > 0 ? (float)a->win_w / a->ui.w : 1; /* logical units → CSS pixels */
    size_t n = 0;
#define PUT(...)                                                                                   \
    do {                                                                                           \
        int put = snprintf(out + n, sizeof out - n, __VA_ARGS__);                                  \
        if (put < 0 || (size_t)put >= sizeof out - n) return "{\"error\": \"too long\"}";          \
        n += (size_t)put;                                                                          \
    } while (0)
    const Lesson_Session *ls = &a->vs.session;
    char lesson[300] = "null", status[700] = "";
    if (ls->active && ls->lesson) json_string(lesson, sizeof lesson, ls->lesson->title);
    json_string(status, sizeof status, a->vs.status);
    PUT("{\"view\": \"%s\", \"lang\": \"%s\", \"lesson\": %s, \"step\": %d, \"status\": %s, "
        "\"model_busy\": %s, \"model_passes\": %ld, \"model_written\": %d, "
        "\"model_from_worker\": %ld, ",
        view_name(a->vs.view), lang_code(lang_current()), lesson, ls->active ? ls->step : -1,
        status, a->vs.real_busy ? "true" : "false", a->model.real.generation,
        a->model.real.gen.written, web.landed);
    PUT("\"model_chosen\": [");
    for (int k = 0; k < a->model.real.gen.written; k++)
        PUT("%s%d", k ? ", " : "", (int)a->model.real.gen.chosen[k]);
    PUT("], \"items\": [");
    for (int k = 0; k < a->ui.record_count; k++) {
        const Ui_Record *r = &a->ui.records[k];
        PUT("%s{\"kind\": \"%s\", \"id\": \"%s\", \"index\": %d, \"rect\": [%.1f, %.1f, %.1f, "
            "%.1f]}",
            k ? ", " : "", r->kind, r->name, r->index, (double)(r->r.x * z), (double)(r->r.y * z),
            (double)(r->r.w * z), (double)(r->r.h * z));
    }
    PUT("]}");
#undef PUT
    return out;
}

EMSCRIPTEN_KEEPALIVE void web_notice(const char *text, int error) {
    view_set_status(&web.app.vs, error != 0, "%.400s", text);
    web.redraw = true;
}

int app_run(const App_Desc *desc) {
    Web_App *w = &web;
    /* main's frame is unwound when the browser takes over the loop: keep
     * what the app goes on using */
    w->desc = *desc;
    snprintf(w->data_dir, sizeof w->data_dir, "%s", desc->data_dir);
    w->desc.data_dir = w->data_dir;
    if (desc->scene_path) {
        snprintf(w->scene_path, sizeof w->scene_path, "%s", desc->scene_path);
        w->desc.scene_path = w->scene_path;
    }
    if (SDL_Init(SDL_INIT_VIDEO) != 0) {
        fprintf(stderr, "attnlab: cannot start SDL video: %s\n", SDL_GetError());
        return 2;
    }
    SDL_GL_SetAttribute(SDL_GL_CONTEXT_PROFILE_MASK, SDL_GL_CONTEXT_PROFILE_ES);
    SDL_GL_SetAttribute(SDL_GL_CONTEXT_MAJOR_VERSION, 3);
    SDL_GL_SetAttribute(SDL_GL_CONTEXT_MINOR_VERSION, 0);
    SDL_GL_SetAttribute(SDL_GL_DOUBLEBUFFER, 1);
    w->win = SDL_CreateWindow("attnlab", SDL_WINDOWPOS_UNDEFINED, SDL_WINDOWPOS_UNDEFINED,
                              desc->opts->width, desc->opts->height,
                              SDL_WINDOW_OPENGL | SDL_WINDOW_RESIZABLE | SDL_WINDOW_ALLOW_HIGHDPI);
    web_keep_drawing_buffer();
    if (!w->win || !(w->gl = SDL_GL_CreateContext(w->win))) {
        fprintf(stderr, "attnlab: this browser gives no WebGL2 context: %s\n", SDL_GetError());
        return 2;
    }
    char err[1024];
    if (!app_init(&w->app, &w->desc, err, sizeof err)) {
        fprintf(stderr, "%s\n", err);
        return 2;
    }
    w->app.vs.in_browser = true;
    real_lab_remote(&w->app.model.real, &web_remote);
    render_window_keeps_pixels(&w->app.render);
    SDL_StartTextInput();
    w->t0 = SDL_GetPerformanceCounter();
    w->redraw = true;
    w->wake_at = -1;
    emscripten_set_main_loop_arg(frame, w, 0, 1); /* does not return */
    return 0;
}
