/* The desktop backend: an SDL window with an OpenGL 3.3 core context. It
 * turns SDL's events into App_Events (mapping the keyboard shortcuts to
 * App_Commands), and runs app_frame() whenever something happened. It
 * sleeps in SDL_WaitEvent when nothing did. See sdl_app.h. */
#define _POSIX_C_SOURCE 200809L
#include "../core/i18n.h"
#include "sdl_app.h"

#include "app.h"
#include "headless.h"
#include "prefs.h"
#include "progress.h"
#include "sdl_events.h"

#include <SDL.h>
#ifdef __GLIBC__
#include <malloc.h>
#endif
#include <SDL_ttf.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

typedef struct Sdl_App {
    App app;
    SDL_Window *win;
    SDL_GLContext gl;
    Uint64 t0;
    bool quit;
    Prefs base;       /* the settings as this run started, or as it last saved them */
    bool save_failed; /* said once; not again */
    int status;       /* the exit status: 2 for bad input found after the first frame */
} Sdl_App;

/* The window remembers its theme and zoom as they change, and its size when
 * it closes (prefs.h). A settings file that cannot be written is said once. */
static void remember(Sdl_App *s, bool closing) {
    Lesson_Progress *lp = &s->app.vs.session.progress;
    if (lp->changed) {
        char why[PREFS_MESSAGE_BYTES];
        lp->changed = false;
        if (!progress_save(lp, why, sizeof why) && !s->save_failed) {
            s->save_failed = true;
            cli_report(_("attnlab: warning: lesson progress not saved: "), why);
        }
    }
    /* only what the user changed in this run is written, merged into the
     * file as it is now: another window's changes and the fields this run
     * could not read stay */
    Prefs p = {.theme = s->app.vs.theme, .zoom = s->app.zoom};
    p.has_theme = p.theme != s->base.theme;
    p.has_zoom = p.zoom != s->base.zoom;
    p.lang = s->app.vs.lang;
    p.has_lang = s->app.lang_changed;
    if (closing && !(SDL_GetWindowFlags(s->win) & SDL_WINDOW_FULLSCREEN_DESKTOP)) {
        SDL_GetWindowSize(s->win, &p.width, &p.height);
        /* the size the window closes at is what the next one opens at */
        p.has_size = p.width >= CLI_MIN_SIZE && p.height >= CLI_MIN_SIZE;
    }
    if (!p.has_theme && !p.has_zoom && !p.has_size && !p.has_lang) return;
    char err[PREFS_MESSAGE_BYTES];
    if (prefs_save(&p, err, sizeof err)) {
        if (p.has_theme) s->base.theme = p.theme;
        if (p.has_zoom) s->base.zoom = p.zoom;
        if (p.has_lang) s->app.lang_changed = false;
        if (p.has_size) s->base.width = p.width, s->base.height = p.height;
    } else if (!s->save_failed) {
        s->save_failed = true;
        cli_report(_("attnlab: warning: settings not saved: "), err);
    }
}

/* A window larger than the display costs its full size in framebuffers and
 * the canvas (16384 × 16384 would be gigabytes) and cannot be seen whole:
 * it opens at the display's usable size instead, with a warning. */
static void fit_display(int *w, int *h) {
    SDL_Rect usable;
    if (SDL_GetDisplayUsableBounds(0, &usable) != 0 || usable.w < CLI_MIN_SIZE ||
        usable.h < CLI_MIN_SIZE || (*w <= usable.w && *h <= usable.h))
        return;
    char msg[200];
    snprintf(msg, sizeof msg, _("a %dx%d window is larger than the display; opened at %dx%d"), *w,
             *h, *w < usable.w ? *w : usable.w, *h < usable.h ? *h : usable.h);
    cli_report(_("attnlab: warning: "), msg);
    if (*w > usable.w) *w = usable.w;
    if (*h > usable.h) *h = usable.h;
}

static bool open_window(Sdl_App *a, int w, int h, bool hidden, bool fullscreen, char *err,
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
    if (hidden)
        flags |= SDL_WINDOW_HIDDEN;
    else
        fit_display(&w, &h);
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
    char why[200];
    if (!render_gl_ready(why, sizeof why)) {
        snprintf(err, errsz, "attnlab: OpenGL 3.3 core is needed, but the %s video driver gave %s",
                 SDL_GetCurrentVideoDriver(), why);
        return false;
    }
    SDL_GL_SetSwapInterval(1);
    return true;
}

/* One frame: what a browser's requestAnimationFrame would call. */
static App_Frame_Result step(Sdl_App *s) {
    App_Frame f;
    SDL_GL_GetDrawableSize(s->win, &f.fb_w, &f.fb_h);
    SDL_GetWindowSize(s->win, &f.win_w, &f.win_h);
    f.time = (double)(SDL_GetPerformanceCounter() - s->t0) / (double)SDL_GetPerformanceFrequency();
    App_Frame_Result r = app_frame(&s->app, &f);
    SDL_GL_SwapWindow(s->win);
    if (r.toggle_fullscreen) {
        bool fs = (SDL_GetWindowFlags(s->win) & SDL_WINDOW_FULLSCREEN_DESKTOP) != 0;
        SDL_SetWindowFullscreen(s->win, fs ? 0 : SDL_WINDOW_FULLSCREEN_DESKTOP);
    }
    if (r.quit) s->quit = true;
    if (r.fatal) { /* as app_init would have said it: one line, status 2 */
        cli_report("", r.fatal);
        s->status = 2;
    }
    return r;
}

/* The Model view's pass and writing run on threads; the one that finishes
 * wakes the loop with an event of this type, so the window draws its result
 * at once instead of polling for it every frame. */
static Uint32 wake_type = (Uint32)-1;

static void wake_window(void *ctx) {
    (void)ctx;
    SDL_Event e = {.type = wake_type};
    SDL_PushEvent(&e); /* safe from any thread */
}

static bool handle(Sdl_App *s, const SDL_Event *e) {
    return e->type == wake_type || sdl_events_handle(&s->app, e, &s->quit);
}

static int window_loop(Sdl_App *s) {
    bool redraw = true;
    double wake_in = -1; /* seconds until the app wants a frame by itself, or -1 */
    s->t0 = SDL_GetPerformanceCounter();
    if (wake_type != (Uint32)-1) real_lab_on_wake(&s->app.model.real, wake_window, NULL);
    while (!s->quit) {
        SDL_Event e;
        /* sleep until something happens, unless a frame is already owed;
         * a text cursor blinks, so editing wakes twice a second */
        if (!redraw) {
            bool editing = s->app.vs.editing || s->app.vs.typing_dk;
            int timeout = editing ? 500 : -1;
            if (wake_in >= 0) {
                int ms = (int)ceil(wake_in * 1000) + 1;
                timeout = timeout < 0 || ms < timeout ? ms : timeout;
            }
            int got = timeout >= 0 ? SDL_WaitEventTimeout(&e, timeout) : SDL_WaitEvent(&e);
            if (got)
                redraw |= handle(s, &e);
            else if (timeout >= 0)
                redraw = true;
            else
                break;
        }
        while (SDL_PollEvent(&e)) redraw |= handle(s, &e);
        if (s->quit) break;
        if (!redraw) continue;
        App_Frame_Result r = step(s);
        if (r.clipboard) SDL_SetClipboardText(r.clipboard);
        redraw = r.more;
        wake_in = r.wake_in;
        remember(s, false);
    }
    if (s->status) return s->status; /* bad input: nothing of this run is kept */
    remember(s, true);
    return 0;
}

/* app_init for the window, which reads a model's weights on a thread
 * (--model too): it shows from the first frame on, and the thread wakes it
 * when they are read. */
static bool background_open(Sdl_App *s, const App_Desc *desc, char *err, size_t errsz) {
    wake_type = SDL_RegisterEvents(1);
    app_open_in_background(&s->app, wake_type != (Uint32)-1 ? wake_window : NULL, NULL);
    return app_init(&s->app, desc, err, errsz);
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
    if (o->mode == CLI_DUMP_UI || o->mode == CLI_FIGURE) return headless_dump_ui(desc);
    Sdl_App *s = calloc(1, sizeof *s);
    if (!s) {
        fprintf(stderr, "attnlab: out of memory\n");
        return 1;
    }
    bool headless = o->mode == CLI_SCREENSHOT || o->mode == CLI_BENCH;
    /* A screenshot needs no display: SDL's offscreen driver gives a real GL
     * context through EGL. An explicit SDL_VIDEODRIVER still wins. */
    if (headless && !getenv("SDL_VIDEODRIVER")) SDL_SetHint(SDL_HINT_VIDEODRIVER, "offscreen");
    char err[1024];
    int status;
    /* the window (not a screenshot or a benchmark) starts as it was left,
     * unless the command line says otherwise */
    Prefs prefs = {0};
    if (!headless) {
        char warn[PREFS_MESSAGE_BYTES];
        if (!prefs_load(&prefs, warn, sizeof warn)) cli_report(_("attnlab: warning: "), warn);
    }
    int w = o->has_size || !prefs.has_size ? o->width : prefs.width;
    int h = o->has_size || !prefs.has_size ? o->height : prefs.height;
    bool window = open_window(s, w, h, headless, o->fullscreen && !headless, err, sizeof err);
    if (!window) {
        cli_report("", err);
        status = 2;
    } else if (!headless && !background_open(s, desc, err, sizeof err)) {
        cli_report("", err);
        status = 2;
    } else if (headless && !app_init(&s->app, desc, err, sizeof err)) {
        cli_report("", err);
        status = 2;
    } else if (o->mode == CLI_BENCH) {
        status = headless_bench(&s->app, desc->start_ms);
    } else if (headless) {
        status = headless_screenshot(&s->app);
    } else {
        if (!o->has_theme && prefs.has_theme) s->app.vs.theme = prefs.theme;
        if (!o->lang && prefs.has_lang) {
            app_set_lang(&s->app, prefs.lang);
            s->app.lang_changed = false; /* as the file has it */
            s->app.vs.status[0] = '\0';
        }
        if (!o->has_hide && prefs.has_hide)
            snprintf(s->app.vs.teacher_hidden, sizeof s->app.vs.teacher_hidden, "%s", prefs.hide);
        char warn[PREFS_MESSAGE_BYTES];
        if (!progress_load(&s->app.vs.session.progress, warn, sizeof warn))
            cli_report(_("attnlab: warning: "), warn);
        if (!o->has_ui_scale && prefs.has_zoom) s->app.zoom = prefs.zoom;
        s->base = (Prefs){.theme = s->app.vs.theme, .zoom = s->app.zoom};
        SDL_GetWindowSize(s->win, &s->base.width, &s->base.height);
        SDL_StartTextInput();
        status = window_loop(s);
        /* a model still being read is waited for (its reader cannot stop halfway): the
         * window goes at once, the process once it is read */
        if (real_open_busy(&s->app.opening)) SDL_HideWindow(s->win);
    }
    app_shutdown(&s->app);
    if (s->gl) SDL_GL_DeleteContext(s->gl);
    if (s->win) SDL_DestroyWindow(s->win);
    if (TTF_WasInit()) TTF_Quit();
    SDL_Quit();
    free(s);
    return status;
}
