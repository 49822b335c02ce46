/* The desktop backend: an SDL window with an OpenGL 3.3 core context. It
 * turns SDL's events into App_Events (mapping the keyboard shortcuts to
 * App_Commands), and runs app_frame() whenever something happened. It
 * sleeps in SDL_WaitEvent when nothing did. See sdl_app.h. */
#define _POSIX_C_SOURCE 200809L
#include "sdl_app.h"

#include "app.h"
#include "headless.h"

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
} Sdl_App;

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
    char why[200];
    if (!render_gl_ready(why, sizeof why)) {
        snprintf(err, errsz, "attnlab: OpenGL 3.3 core is needed, but the %s video driver gave %s",
                 SDL_GetCurrentVideoDriver(), why);
        return false;
    }
    SDL_GL_SetSwapInterval(1);
    return true;
}

static unsigned char mods_of(Uint16 m) {
    return (unsigned char)(((m & KMOD_CTRL) ? UI_MOD_CTRL : 0) |
                           ((m & KMOD_SHIFT) ? UI_MOD_SHIFT : 0));
}

/* The desktop's shortcuts for the app's commands. */
static App_Command command_for(SDL_Keycode sym, Uint16 mod) {
    bool ctrl = (mod & KMOD_CTRL) != 0, shift = (mod & KMOD_SHIFT) != 0;
    if (sym == SDLK_F11) return APP_CMD_FULLSCREEN;
    if (sym == SDLK_F12) return shift ? APP_CMD_SCREENSHOT_PANEL : APP_CMD_SCREENSHOT;
    if (sym == SDLK_F5) return APP_CMD_RELOAD_SHADERS;
    if (!ctrl) return APP_CMD_NONE;
    if (sym == SDLK_e) return APP_CMD_EXPORT;
    if (sym == SDLK_EQUALS || sym == SDLK_PLUS || sym == SDLK_KP_PLUS) return APP_CMD_ZOOM_IN;
    if (sym == SDLK_MINUS || sym == SDLK_KP_MINUS) return APP_CMD_ZOOM_OUT;
    if (sym == SDLK_0 || sym == SDLK_KP_0) return APP_CMD_ZOOM_RESET;
    if (sym == SDLK_q) return APP_CMD_QUIT;
    return APP_CMD_NONE;
}

static void key_event(App *a, const SDL_KeyboardEvent *k) {
    SDL_Keycode sym = k->keysym.sym;
    if (sym == SDLK_v && (k->keysym.mod & KMOD_CTRL)) { /* paste: the clipboard as text */
        char *text = SDL_GetClipboardText();
        if (text) app_paste(a, text);
        SDL_free(text);
        return;
    }
    App_Command c = command_for(sym, k->keysym.mod);
    if (c != APP_CMD_NONE) {
        app_event(a, &(App_Event){.kind = APP_EV_COMMAND, .command = c});
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
    App_Event e = {.kind = APP_EV_KEY, .mods = mods_of(k->keysym.mod)};
    for (size_t i = 0; i < sizeof map / sizeof *map; i++) {
        if (map[i].sym == sym) {
            e.key = map[i].key;
            app_event(a, &e);
            return;
        }
    }
    if (sym == SDLK_SLASH && (k->keysym.mod & KMOD_SHIFT)) sym = '?';
    if (sym >= 32 && sym < 127) {
        e.key = KEY_CHAR;
        e.ch = (char)sym;
        app_event(a, &e);
    }
}

/* Returns true if the event asks for a frame. */
static bool handle_event(Sdl_App *s, const SDL_Event *e) {
    App *a = &s->app;
    switch (e->type) {
    case SDL_QUIT:
        s->quit = true;
        return false;
    case SDL_WINDOWEVENT:
        app_event(a, &(App_Event){.kind = APP_EV_REDRAW});
        return true;
    case SDL_MOUSEMOTION:
        app_event(a, &(App_Event){.kind = APP_EV_MOUSE_MOVE,
                                  .x = (float)e->motion.x,
                                  .y = (float)e->motion.y});
        return true;
    case SDL_MOUSEBUTTONDOWN:
    case SDL_MOUSEBUTTONUP: {
        bool down = e->type == SDL_MOUSEBUTTONDOWN;
        App_Event_Kind kind = e->button.button == SDL_BUTTON_LEFT
                                  ? (down ? APP_EV_MOUSE_DOWN : APP_EV_MOUSE_UP)
                              : e->button.button == SDL_BUTTON_RIGHT && down ? APP_EV_RIGHT_DOWN
                                                                             : APP_EV_MOUSE_MOVE;
        app_event(a, &(App_Event){.kind = kind, .x = (float)e->button.x, .y = (float)e->button.y});
        return true;
    }
    case SDL_MOUSEWHEEL:
        app_event(a, &(App_Event){.kind = APP_EV_WHEEL, .wheel = (float)e->wheel.y});
        return true;
    case SDL_KEYDOWN:
        key_event(a, &e->key);
        return true;
    case SDL_TEXTINPUT: {
        App_Event t = {.kind = APP_EV_TEXT};
        snprintf(t.text, sizeof t.text, "%s", e->text.text);
        app_event(a, &t);
        return true;
    }
    default:
        return false;
    }
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
    return r;
}

static int window_loop(Sdl_App *s) {
    bool redraw = true;
    double wake_in = -1; /* seconds until the app wants a frame by itself, or -1 */
    s->t0 = SDL_GetPerformanceCounter();
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
                redraw |= handle_event(s, &e);
            else if (timeout >= 0)
                redraw = true;
            else
                break;
        }
        while (SDL_PollEvent(&e)) redraw |= handle_event(s, &e);
        if (s->quit) break;
        if (!redraw) continue;
        App_Frame_Result r = step(s);
        if (r.clipboard) SDL_SetClipboardText(r.clipboard);
        redraw = r.more;
        wake_in = r.wake_in;
    }
    return 0;
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
    if (o->mode == CLI_DUMP_UI) return headless_dump_ui(desc);
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
    bool window =
        open_window(s, o->width, o->height, headless, o->fullscreen && !headless, err, sizeof err);
    if (!window) {
        cli_report("", err);
        status = 2;
    } else if (!app_init(&s->app, desc, err, sizeof err)) {
        cli_report("", err);
        status = 2;
    } else if (o->mode == CLI_BENCH) {
        status = headless_bench(&s->app, desc->start_ms);
    } else if (headless) {
        status = headless_screenshot(&s->app);
    } else {
        SDL_StartTextInput();
        status = window_loop(s);
    }
    app_shutdown(&s->app);
    if (s->gl) SDL_GL_DeleteContext(s->gl);
    if (s->win) SDL_DestroyWindow(s->win);
    if (TTF_WasInit()) TTF_Quit();
    SDL_Quit();
    free(s);
    return status;
}
