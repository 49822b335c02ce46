/* A hidden SDL window with an OpenGL 3.3 core context, for the tests that
 * draw (render, app). SDL's offscreen driver gives a real context through
 * EGL with no display, unless SDL_VIDEODRIVER says otherwise. */
#ifndef ATTN_GL_FIXTURE_H
#define ATTN_GL_FIXTURE_H

#include <SDL.h>
#include <criterion/criterion.h>
#include <dlfcn.h>
#include <stdlib.h>

typedef struct Gl_Fixture {
    SDL_Window *win;
    SDL_GLContext ctx;
} Gl_Fixture;

static inline void gl_fixture_up(Gl_Fixture *g, int w, int h) {
    /* under the sanitizers, Mesa's driver loaded first and never closed, so that what it
     * keeps until unloaded stays in a mapped library LeakSanitizer can name (the Makefile) */
    const char *driver = getenv("ATTNLAB_GL_PRELOAD");
    if (driver && *driver) cr_assert(dlopen(driver, RTLD_NOW | RTLD_GLOBAL), "%s", dlerror());
    if (!getenv("SDL_VIDEODRIVER")) SDL_SetHint(SDL_HINT_VIDEODRIVER, "offscreen");
    cr_assert_eq(SDL_Init(SDL_INIT_VIDEO), 0, "%s", SDL_GetError());
    SDL_GL_SetAttribute(SDL_GL_CONTEXT_MAJOR_VERSION, 3);
    SDL_GL_SetAttribute(SDL_GL_CONTEXT_MINOR_VERSION, 3);
    SDL_GL_SetAttribute(SDL_GL_CONTEXT_PROFILE_MASK, SDL_GL_CONTEXT_PROFILE_CORE);
    g->win = SDL_CreateWindow("test", 0, 0, w, h, SDL_WINDOW_OPENGL | SDL_WINDOW_HIDDEN);
    cr_assert(g->win, "%s", SDL_GetError());
    g->ctx = SDL_GL_CreateContext(g->win);
    cr_assert(g->ctx, "no GL 3.3 core context: %s", SDL_GetError());
}

static inline void gl_fixture_down(Gl_Fixture *g) {
    SDL_GL_DeleteContext(g->ctx);
    SDL_DestroyWindow(g->win);
    SDL_Quit();
}

#endif
