/* The windowed app: SDL window, GL context, event loop, screenshots.
 *
 * The loop is event-driven: it sleeps in SDL_WaitEvent until something
 * happens and draws only then (or while an animation runs). Input becomes a
 * Ui_Input for the frame; the UI turns it into model actions; the renderer
 * draws the UI's draw list.
 */
#define _POSIX_C_SOURCE 200809L
#include "app.h"

#include "../model/export.h"
#include "../core/fileio.h"
#include "../model/jsonw.h"
#include "../model/lesson.h"
#include "lesson_scan.h"
#include "../model/scene_file.h"
#include "../render/image.h"
#include "../render/render.h"
#include "../ui/view.h"
#include "paths.h"

#include <SDL.h>
#include <SDL_image.h>
#ifdef __GLIBC__
#include <malloc.h>
#endif
#include <SDL_ttf.h>
#include <epoxy/gl.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <time.h>

static const float zoom_steps[] = {0.75f, 0.9f, 1.0f, 1.1f, 1.25f, 1.5f, 1.75f, 2.0f, 2.5f, 3.0f};
#define ZOOM_STEPS ((int)(sizeof zoom_steps / sizeof *zoom_steps))

typedef struct App {
    const App_Desc *desc;
    SDL_Window *win;
    SDL_GLContext gl;
    Renderer render;
    Draw_List dl;
    Ui ui;
    View_State vs;
    Model model;
    float zoom;
    Ui_Input in;
    bool quit;
    bool render_ready, model_ready, dl_ready;
    Lesson *lesson;
    Scene *lesson_saved;
    Lesson_Index lesson_index;
    Ui_Record records[UI_MAX_RECORDS];
} App;

/* Lesson storage for the view (allocated once), the lesson menu, and
 * --lesson: a lesson that does not load is a bad file, exit 2. */
static bool setup_lessons(View_State *vs, const App_Desc *desc, Lesson **lesson, Scene **saved,
                          Lesson_Index *index, char *err, size_t errsz) {
    *lesson = malloc(sizeof **lesson);
    *saved = malloc(sizeof **saved);
    if (!*lesson || !*saved) {
        snprintf(err, errsz, "attnlab: out of memory for lessons");
        return false;
    }
    char dir[4200], why[600];
    /* --lesson first: if it is bad, that one line is all the user sees */
    if (desc->opts->lesson_path) {
        if (!lesson_load(*lesson, desc->opts->lesson_path, why, sizeof why)) {
            snprintf(err, errsz, "attnlab: %s", why);
            return false;
        }
        vs->lesson_pending = true;
    }
    paths_join(desc->data_dir, "lessons", dir, sizeof dir);
    if (!lesson_index_scan(index, dir, why, sizeof why)) index->count = 0; /* menu says none */
    /* A lesson that does not load is listed greyed out in the menu; say why
     * once here too, so its author sees the FILE:LINE without opening it. */
    for (int k = 0; k < index->count; k++)
        if (index->error[k][0]) cli_report("attnlab: warning: ", index->error[k]);
    if (index->skipped) {
        snprintf(why, sizeof why, "%d more lessons in %.400s are not listed (at most %d)",
                 index->skipped, dir, LESSON_INDEX_MAX);
        cli_report("attnlab: warning: ", why);
    }
    vs->lesson = *lesson;
    vs->lesson_saved = *saved;
    vs->lesson_index = index;
    vs->data_dir = desc->data_dir;
    return true;
}

static bool open_window(App *a, int w, int h, bool hidden, bool fullscreen, char *err,
                        size_t errsz) {
    if (SDL_Init(SDL_INIT_VIDEO) != 0) {
        snprintf(err, errsz, "attnlab: cannot start SDL video (driver %s): %s",
                 getenv("SDL_VIDEODRIVER") ? getenv("SDL_VIDEODRIVER") : "default", SDL_GetError());
        return false;
    }
    SDL_GL_SetAttribute(SDL_GL_CONTEXT_MAJOR_VERSION, 3);
    SDL_GL_SetAttribute(SDL_GL_CONTEXT_MINOR_VERSION, 3);
    SDL_GL_SetAttribute(SDL_GL_CONTEXT_PROFILE_MASK, SDL_GL_CONTEXT_PROFILE_CORE);
    SDL_GL_SetAttribute(SDL_GL_DOUBLEBUFFER, 1);
    Uint32 flags = SDL_WINDOW_OPENGL | SDL_WINDOW_RESIZABLE | SDL_WINDOW_ALLOW_HIGHDPI;
    if (hidden) flags |= SDL_WINDOW_HIDDEN;
    if (fullscreen) flags |= SDL_WINDOW_FULLSCREEN_DESKTOP;
    a->win =
        SDL_CreateWindow("attnlab", SDL_WINDOWPOS_CENTERED, SDL_WINDOWPOS_CENTERED, w, h, flags);
    if (!a->win) {
        snprintf(err, errsz, "attnlab: cannot open a window with the %s video driver: %s",
                 SDL_GetCurrentVideoDriver(), SDL_GetError());
        return false;
    }
    a->gl = SDL_GL_CreateContext(a->win);
    if (!a->gl) {
        snprintf(err, errsz,
                 "attnlab: cannot create an OpenGL 3.3 core context with the %s video driver: %s",
                 SDL_GetCurrentVideoDriver(), SDL_GetError());
        return false;
    }
    if (epoxy_gl_version() < 33) {
        snprintf(err, errsz,
                 "attnlab: OpenGL 3.3 core is needed, but the %s video driver gave %d.%d (%s)",
                 SDL_GetCurrentVideoDriver(), epoxy_gl_version() / 10, epoxy_gl_version() % 10,
                 (const char *)glGetString(GL_RENDERER));
        return false;
    }
    SDL_GL_SetSwapInterval(1);
    return true;
}

static bool start(App *a, char *err, size_t errsz) {
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
    ui_init(&a->ui, &a->dl, render_text_metrics(&a->render));
    a->ui.records = a->records; /* Shift+F12 finds the panel under the mouse */
    view_init(&a->vs);
    a->vs.view = a->desc->opts->view;
    a->zoom = a->desc->opts->ui_scale;
    return setup_lessons(&a->vs, a->desc, &a->lesson, &a->lesson_saved, &a->lesson_index, err,
                         errsz);
}

static void stop(App *a) {
    free(a->lesson);
    free(a->lesson_saved);
    if (a->model_ready) model_free(&a->model);
    if (a->render_ready) render_shutdown(&a->render);
    if (a->dl_ready) draw_free(&a->dl);
    if (a->gl) SDL_GL_DeleteContext(a->gl);
    if (a->win) SDL_DestroyWindow(a->win);
    if (TTF_WasInit()) TTF_Quit();
    SDL_Quit();
}

/* The layout needs about 960×560 logical units to show every panel without
 * overlap; a zoom that would leave less is held at the largest that fits
 * (never below 0.75). w and h are in window points. */
#define LAYOUT_MIN_W 960.0f
#define LAYOUT_MIN_H 560.0f
static float zoom_for(float zoom, int w, int h) {
    float cap = fminf((float)w / LAYOUT_MIN_W, (float)h / LAYOUT_MIN_H);
    if (cap < 0.75f) cap = 0.75f;
    return fminf(zoom, cap);
}

static float effective_zoom(App *a) {
    int ww, wh;
    SDL_GetWindowSize(a->win, &ww, &wh);
    return zoom_for(a->zoom, ww, wh);
}

/* Pixels per logical unit: display scale (drawable / window) × UI zoom. */
static float pixel_scale(App *a, int fb_w) {
    int ww, wh;
    SDL_GetWindowSize(a->win, &ww, &wh);
    float dpi = ww > 0 ? (float)fb_w / (float)ww : 1.0f;
    return dpi * effective_zoom(a);
}

/* Lay out and draw one frame into the bound framebuffer of fb_w × fb_h. */
static void draw_frame(App *a, int fb_w, int fb_h, float scale) {
    model_update(&a->model);
    render_set_scale(&a->render, scale);
    ui_begin(&a->ui, &a->in, (float)fb_w / scale, (float)fb_h / scale);
    view_frame(&a->ui, &a->vs, &a->model);
    ui_end(&a->ui);
    render_frame(&a->render, &a->dl, fb_w, fb_h, a->ui.theme->bg);
}

/* Headless modes run a virtual clock: this far apart, every animation ends. */
#define HEADLESS_SETTLE_SECONDS 60.0

static int screenshot_mode(App *a) {
    const Cli_Options *o = a->desc->opts;
    char err[1024];
    int w = o->width, h = o->height;
    if (!render_offscreen_begin(&a->render, w, h, err, sizeof err)) {
        cli_report("", err);
        return 1;
    }
    /* Two passes: the first settles hover state and fills the glyph atlas.
     * The clock is virtual: the second pass is a minute later, so an
     * animation the first one started (a lesson's reorder) has finished and
     * the picture shows the settled state, the same on every run. */
    float z = zoom_for(a->zoom, w, h);
    for (int pass = 0; pass < 2; pass++) {
        a->in.time = pass * HEADLESS_SETTLE_SECONDS;
        draw_frame(a, w, h, z);
    }
    if (render_wants_redraw(&a->render)) draw_frame(a, w, h, z);
    unsigned char *px = malloc((size_t)w * h * 4);
    if (!px) {
        fprintf(stderr, "attnlab: out of memory for a %dx%d screenshot\n", w, h);
        return 1;
    }
    render_read_rgba(&a->render, w, h, px);
    render_offscreen_end(&a->render);
    bool ok = image_save_png(o->screenshot_path, w, h, px, err, sizeof err);
    free(px);
    if (!ok) {
        cli_report("attnlab: ", err);
        return 1;
    }
    return 0;
}

/* ---- --bench: frame times measured headless ------------------------------ */

static double now_ms(void) {
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return ts.tv_sec * 1e3 + ts.tv_nsec / 1e6;
}

static int cmp_double(const void *a, const void *b) {
    double x = *(const double *)a, y = *(const double *)b;
    return x < y ? -1 : x > y;
}

static double percentile(double *v, int count, double p) {
    qsort(v, (size_t)count, sizeof *v, cmp_double);
    int k = (int)ceil(p * count) - 1;
    return v[k < 0 ? 0 : k >= count ? count - 1 : k];
}

/* A scene of n tokens: vocabulary words in turn, d = 2, d_k = 64. */
static void bench_scene(App *a, int n, Scene *s) {
    const Vocab *v = a->desc->vocab;
    static char text[ATTN_MAX_TOKENS * ATTN_MAX_TOKEN_BYTES];
    size_t used = 0;
    for (int i = 0; i < n; i++)
        used +=
            (size_t)snprintf(text + used, sizeof text - used, "%s ", v->entries[i % v->count].word);
    *s = *a->desc->scene;
    char err[256];
    scene_set_sentence(s, text, v, err, sizeof err);
    s->d_k = 64;
}

static int bench_mode(App *a, double process_start_ms) {
    static const int ns[4] = {6, 32, 128, 512};
    static const int sizes[2][2] = {{1280, 720}, {1920, 1080}};
    char err[1024];
    double first_frame = -1;
    printf("{\n  \"results\": [\n");
    static char table[4096];
    size_t tl = 0;
    tl += (size_t)snprintf(table + tl, sizeof table - tl,
                           "     n   size        frame median   frame p95   recompute median\n");
    for (int si = 0; si < 2; si++) {
        int w = sizes[si][0], h = sizes[si][1];
        if (!render_offscreen_begin(&a->render, w, h, err, sizeof err)) {
            cli_report("", err);
            return 1;
        }
        for (int k = 0; k < 4; k++) {
            static Scene s;
            bench_scene(a, ns[k], &s);
            model_replace_scene(&a->model, &s);
            a->vs.selected = 0;
            enum { WARM = 3, FRAMES = 40 };
            static double frame[FRAMES], recompute[FRAMES];
            for (int f = 0; f < WARM + FRAMES; f++) {
                /* a drag: one token moves a little every frame */
                int i = f % s.n;
                double t0 = now_ms();
                model_move_token(&a->model, i, 0, 0.01f * (float)(f % 7), 1,
                                 -0.01f * (float)(f % 5));
                double t1 = now_ms();
                model_update(&a->model);
                double t2 = now_ms();
                draw_frame(a, w, h, 1.0f);
                glFinish();
                double t3 = now_ms();
                if (first_frame < 0) first_frame = t3 - process_start_ms;
                if (f >= WARM) {
                    frame[f - WARM] = t3 - t0;
                    recompute[f - WARM] = t2 - t1;
                }
            }
            double fmed = percentile(frame, FRAMES, 0.5), fp95 = percentile(frame, FRAMES, 0.95);
            double rmed = percentile(recompute, FRAMES, 0.5);
            Render_Stats st = render_stats(&a->render);
            printf("    {\"n\": %d, \"width\": %d, \"height\": %d, \"frame_median_ms\": %.3f, "
                   "\"frame_p95_ms\": %.3f, \"recompute_median_ms\": %.3f, \"draw_calls\": %d, "
                   "\"quads\": %d, \"heatmaps\": %d}%s\n",
                   ns[k], w, h, fmed, fp95, rmed, st.draw_calls, st.quads, st.heatmaps,
                   si == 1 && k == 3 ? "" : ",");
            tl += (size_t)snprintf(table + tl, sizeof table - tl,
                                   "  %4d   %4dx%-4d   %8.2f ms    %7.2f ms   %8.3f ms\n", ns[k], w,
                                   h, fmed, fp95, rmed);
        }
        render_offscreen_end(&a->render);
    }
    struct rusage ru;
    getrusage(RUSAGE_SELF, &ru);
    printf("  ],\n  \"first_frame_ms\": %.1f,\n  \"peak_rss_mb\": %.1f\n}\n", first_frame,
           ru.ru_maxrss / 1024.0);
    fprintf(stderr, "%s  time from process start to first frame: %.1f ms\n", table, first_frame);
    return 0;
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
static void window_screenshot(App *a, bool panel_only) {
    int fw, fh;
    SDL_GL_GetDrawableSize(a->win, &fw, &fh);
    unsigned char *px = malloc((size_t)fw * fh * 4);
    if (!px) return;
    char name[96], err[512];
    float scale = pixel_scale(a, fw);
    /* redraw for the readback without replaying this batch's clicks and keys */
    Ui_Input saved = a->in;
    a->in.pressed = a->in.released = a->in.right_pressed = false;
    a->in.key_count = 0;
    a->in.text[0] = '\0';
    draw_frame(a, fw, fh, scale);
    a->in = saved;
    glFinish();
    render_read_rgba(&a->render, fw, fh, px);
    int x0 = 0, y0 = 0, w = fw, h = fh;
    const char *what = "window";
    if (panel_only) {
        /* the innermost recorded panel under the mouse (later records sit on top) */
        const Ui_Record *hit = NULL;
        for (int k = 0; k < a->ui.record_count; k++) {
            const Ui_Record *r = &a->ui.records[k];
            if (!strcmp(r->kind, "panel") && rect_contains(r->r, a->in.mx, a->in.my)) hit = r;
        }
        if (!hit) {
            view_set_status(&a->vs, true,
                            "Shift+F12 saves the panel under the mouse; there is none");
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
    if (w > 0 && h > 0 && image_save_png(name, w, h, px, err, sizeof err))
        view_set_status(&a->vs, false, "Saved %s (%s)", name, what);
    else
        view_set_status(&a->vs, true, "%.400s", w > 0 && h > 0 ? err : "empty panel");
    free(px);
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
    if (file_write_atomic(name, write_export, a, err, sizeof err))
        view_set_status(&a->vs, false, "Exported every matrix to %s", name);
    else
        view_set_status(&a->vs, true, "Not exported — %.400s", err);
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
                        "Zoom held at %.2f× (asked %.2f×): the window is too small for more — "
                        "enlarge it or press F11",
                        (double)eff, (double)a->zoom);
    else
        view_set_status(&a->vs, false, "Zoom %.2f×", (double)eff);
}

static void push_key(Ui_Input *in, Ui_Key key, char c, Uint16 sdl_mod) {
    if (in->key_count == UI_MAX_KEYS) return;
    in->keys[in->key_count] = key;
    in->key_chars[in->key_count] = c;
    in->key_mods[in->key_count] = (unsigned char)(((sdl_mod & KMOD_CTRL) ? UI_MOD_CTRL : 0) |
                                                  ((sdl_mod & KMOD_SHIFT) ? UI_MOD_SHIFT : 0));
    in->key_count++;
}

static void handle_key(App *a, const SDL_KeyboardEvent *k) {
    SDL_Keycode sym = k->keysym.sym;
    bool ctrl = (k->keysym.mod & KMOD_CTRL) != 0;
    if (sym == SDLK_F11) {
        bool fs = (SDL_GetWindowFlags(a->win) & SDL_WINDOW_FULLSCREEN_DESKTOP) != 0;
        SDL_SetWindowFullscreen(a->win, fs ? 0 : SDL_WINDOW_FULLSCREEN_DESKTOP);
        return;
    }
    if (sym == SDLK_F12) {
        window_screenshot(a, (k->keysym.mod & KMOD_SHIFT) != 0);
        return;
    }
    if (ctrl && sym == SDLK_e) {
        window_export(a);
        return;
    }
    if (sym == SDLK_F5) {
        char err[1024];
        if (render_reload_shaders(&a->render, err, sizeof err)) {
            snprintf(a->vs.status, sizeof a->vs.status, "Shaders reloaded");
            a->vs.status_error = false;
        } else {
            cli_report("", err);
            snprintf(a->vs.status, sizeof a->vs.status, "%.400s (kept the previous shaders)", err);
            a->vs.status_error = true;
        }
        return;
    }
    if (ctrl && (sym == SDLK_EQUALS || sym == SDLK_PLUS || sym == SDLK_KP_PLUS)) {
        set_zoom(a, +1);
        return;
    }
    if (ctrl && (sym == SDLK_MINUS || sym == SDLK_KP_MINUS)) {
        set_zoom(a, -1);
        return;
    }
    if (ctrl && (sym == SDLK_0 || sym == SDLK_KP_0)) {
        set_zoom(a, 0);
        return;
    }
    if (ctrl && sym == SDLK_q) {
        a->quit = true;
        return;
    }
    static const struct {
        SDL_Keycode sym;
        Ui_Key key;
    } map[] = {
        {SDLK_LEFT, KEY_LEFT},      {SDLK_RIGHT, KEY_RIGHT},       {SDLK_UP, KEY_UP},
        {SDLK_DOWN, KEY_DOWN},      {SDLK_HOME, KEY_HOME},         {SDLK_END, KEY_END},
        {SDLK_PAGEUP, KEY_PAGEUP},  {SDLK_PAGEDOWN, KEY_PAGEDOWN}, {SDLK_RETURN, KEY_ENTER},
        {SDLK_KP_ENTER, KEY_ENTER}, {SDLK_ESCAPE, KEY_ESCAPE},     {SDLK_BACKSPACE, KEY_BACKSPACE},
        {SDLK_DELETE, KEY_DELETE},  {SDLK_TAB, KEY_TAB},           {SDLK_F1, KEY_F1},
    };
    for (size_t i = 0; i < sizeof map / sizeof *map; i++) {
        if (map[i].sym == sym) {
            push_key(&a->in, map[i].key, 0, k->keysym.mod);
            return;
        }
    }
    if (sym == SDLK_SLASH && (k->keysym.mod & KMOD_SHIFT)) sym = '?';
    if (sym >= 32 && sym < 127) push_key(&a->in, KEY_CHAR, (char)sym, k->keysym.mod);
}

/* Returns true if the event asks for a redraw. */
static bool handle_event(App *a, const SDL_Event *e) {
    float inv = 1.0f / effective_zoom(a); /* window points → logical units */
    switch (e->type) {
    case SDL_QUIT:
        a->quit = true;
        return false;
    case SDL_WINDOWEVENT:
        return true;
    case SDL_MOUSEMOTION:
        a->in.mx = (float)e->motion.x * inv;
        a->in.my = (float)e->motion.y * inv;
        return true;
    case SDL_MOUSEBUTTONDOWN:
        a->in.mx = (float)e->button.x * inv;
        a->in.my = (float)e->button.y * inv;
        if (e->button.button == SDL_BUTTON_LEFT) {
            a->in.down = true;
            a->in.pressed = true;
        } else if (e->button.button == SDL_BUTTON_RIGHT) {
            a->in.right_pressed = true;
        }
        return true;
    case SDL_MOUSEBUTTONUP:
        if (e->button.button == SDL_BUTTON_LEFT) {
            a->in.down = false;
            a->in.released = true;
        }
        return true;
    case SDL_MOUSEWHEEL:
        a->in.wheel += (float)e->wheel.y;
        return true;
    case SDL_KEYDOWN:
        handle_key(a, &e->key);
        return true;
    case SDL_TEXTINPUT: {
        size_t used = strlen(a->in.text);
        snprintf(a->in.text + used, sizeof a->in.text - used, "%s", e->text.text);
        return true;
    }
    default:
        return false;
    }
}

/* Ctrl+S: write the scene back to --scene, or attnlab-scene.json, atomically. */
static void save_scene(App *a) {
    const char *path = a->desc->scene_path ? a->desc->scene_path : "attnlab-scene.json";
    char err[1024];
    if (scene_save(&a->model.scene, path, err, sizeof err))
        view_set_status(&a->vs, false, "Saved %s", path);
    else
        view_set_status(&a->vs, true, "Not saved — %s (the scene in the window is unchanged)", err);
}

static int window_mode(App *a) {
    bool redraw = true;
    Uint64 t0 = SDL_GetPerformanceCounter();
    while (!a->quit) {
        SDL_Event e;
        /* sleep until something happens, unless a frame is already owed;
         * a text cursor blinks, so editing wakes twice a second */
        if (!redraw) {
            bool editing = a->vs.editing || a->vs.typing_dk;
            int got = editing ? SDL_WaitEventTimeout(&e, 500) : SDL_WaitEvent(&e);
            if (got)
                redraw |= handle_event(a, &e);
            else if (editing)
                redraw = true;
            else
                break;
        }
        while (SDL_PollEvent(&e)) redraw |= handle_event(a, &e);
        if (a->quit) break;
        if (!redraw) continue;
        a->in.time =
            (double)(SDL_GetPerformanceCounter() - t0) / (double)SDL_GetPerformanceFrequency();
        int fw, fh;
        SDL_GL_GetDrawableSize(a->win, &fw, &fh);
        draw_frame(a, fw, fh, pixel_scale(a, fw));
        if (a->vs.want_save) {
            a->vs.want_save = false;
            save_scene(a);
            draw_frame(a, fw, fh, pixel_scale(a, fw)); /* show the confirmation now */
        }
        SDL_GL_SwapWindow(a->win);
        /* the frame consumed the edge-triggered input */
        a->in.pressed = a->in.released = a->in.right_pressed = false;
        a->in.wheel = 0;
        a->in.key_count = 0;
        a->in.text[0] = '\0';
        redraw = render_wants_redraw(&a->render) || view_wants_frames(&a->vs);
    }
    return 0;
}

/* --dump-ui: lay the interface out for --size and --view with real font
 * metrics but no window and no GL, and print every recorded item. */
static int dump_ui_mode(const App_Desc *desc) {
    const Cli_Options *o = desc->opts;
    char err[1024];
    static Font_Atlas atlas;
    if (!font_load(&atlas, desc->data_dir, false, err, sizeof err)) {
        cli_report("", err);
        return 2;
    }
    static Draw_List dl;
    static Model model;
    static Ui ui;
    static View_State vs;
    static Ui_Record records[UI_MAX_RECORDS];
    static Lesson_Index index;
    Lesson *lesson = NULL;
    Scene *saved = NULL;
    int status = 0;
    view_init(&vs);
    if (!draw_init(&dl, &(Draw_Desc){0}) || !model_init(&model, desc->scene, desc->vocab)) {
        fprintf(stderr, "attnlab: out of memory laying out the interface\n");
        status = 1;
    } else if (!setup_lessons(&vs, desc, &lesson, &saved, &index, err, sizeof err)) {
        cli_report("", err);
        status = 2;
    } else {
        float z = zoom_for(o->ui_scale, o->width, o->height);
        ui_init(&ui, &dl, font_text_metrics(&atlas, z));
        ui.records = records;
        vs.view = o->view;
        Ui_Input in = {.mx = -1000, .my = -1000};
        for (int pass = 0; pass < 2; pass++) {
            in.time = pass * HEADLESS_SETTLE_SECONDS; /* as in screenshot_mode */
            model_update(&model);
            ui_begin(&ui, &in, (float)o->width / z, (float)o->height / z);
            view_frame(&ui, &vs, &model);
            ui_end(&ui);
        }
        printf("{\n  \"size\": [%d, %d],\n  \"ui_scale\": %g,\n  \"view\": \"%s\",\n", o->width,
               o->height, (double)z, view_name(vs.view));
        printf("  \"items\": [\n");
        for (int k = 0; k < ui.record_count; k++) {
            const Ui_Record *r = &records[k];
            printf("    {\"kind\": \"%s\", \"id\": \"%s\", \"index\": %d, \"rect\": [%.1f, %.1f, "
                   "%.1f, %.1f]",
                   r->kind, r->name, r->index, (double)(r->r.x * z), (double)(r->r.y * z),
                   (double)(r->r.w * z), (double)(r->r.h * z));
            if (strcmp(r->kind, "point") == 0 || strcmp(r->kind, "chip") == 0) {
                printf(", \"token\": ");
                jw_string(stdout, model.scene.tokens[r->index]);
                printf(", \"x\": %.1f, \"y\": %.1f", (double)((r->r.x + r->r.w * 0.5f) * z),
                       (double)((r->r.y + r->r.h * 0.5f) * z));
            }
            printf("}%s\n", k + 1 < ui.record_count ? "," : "");
        }
        printf("  ]\n}\n");
    }
    free(lesson);
    free(saved);
    model_free(&model);
    draw_free(&dl);
    font_unload(&atlas);
    TTF_Quit();
    return status;
}

int app_run(const App_Desc *desc) {
    const Cli_Options *o = desc->opts;
#ifdef __GLIBC__
    /* The GL driver (Mesa) reallocates multi-megabyte vertex storage on every
     * buffer orphan. With glibc's default, blocks that large come from mmap
     * and are returned on free, so each frame faulted in tens of megabytes of
     * fresh pages (a third of the frame time, visible as kernel time in
     * perf). Keeping them in the heap makes them reusable. */
    mallopt(M_MMAP_THRESHOLD, 64 << 20);
    mallopt(M_TRIM_THRESHOLD, 128 << 20);
#endif
    if (o->mode == CLI_DUMP_UI) return dump_ui_mode(desc);
    App *a = calloc(1, sizeof *a);
    if (!a) {
        fprintf(stderr, "attnlab: out of memory\n");
        return 1;
    }
    a->desc = desc;
    bool headless = o->mode == CLI_SCREENSHOT || o->mode == CLI_BENCH;
    /* A screenshot needs no display: SDL's offscreen driver gives a real GL
     * context through EGL. An explicit SDL_VIDEODRIVER still wins. */
    if (headless && !getenv("SDL_VIDEODRIVER")) SDL_SetHint(SDL_HINT_VIDEODRIVER, "offscreen");
    char err[1024];
    int status;
    if (!open_window(a, o->width, o->height, headless, o->fullscreen && !headless, err,
                     sizeof err)) {
        cli_report("", err);
        status = 2;
    } else if (!start(a, err, sizeof err)) {
        cli_report("", err);
        status = 2;
    } else if (o->mode == CLI_BENCH) {
        status = bench_mode(a, desc->start_ms);
    } else if (headless) {
        status = screenshot_mode(a);
    } else {
        SDL_StartTextInput();
        status = window_mode(a);
    }
    stop(a);
    free(a);
    return status;
}
