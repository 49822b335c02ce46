/* The desktop backend (SDL2 + OpenGL 3.3 core), and the entry of every mode
 * that needs a GL context or fonts.
 *
 *   int app_run(const App_Desc *desc)
 *       open the window (hidden, on SDL's offscreen driver, for --screenshot
 *       and --bench), run until the user quits, return the exit status;
 *       --dump-ui needs no window and goes straight to headless.h
 */
#ifndef ATTN_SDL_APP_H
#define ATTN_SDL_APP_H

#include "app.h"

int app_run(const App_Desc *desc);

#endif
