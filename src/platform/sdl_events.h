/* SDL's events turned into App_Events, shared by the desktop backend
 * (sdl_app.c) and the browser's (web_app.c). The keyboard shortcuts map to
 * App_Commands here; a browser keeps some keys for itself, so its map differs.
 *
 *   bool sdl_events_handle(App *a, const SDL_Event *e, bool *quit)
 *       queue e for the app; true if it asks for a frame; SDL_QUIT sets *quit
 */
#ifndef ATTN_SDL_EVENTS_H
#define ATTN_SDL_EVENTS_H

#include "app.h"

#include <SDL.h>
#include <stdbool.h>

bool sdl_events_handle(App *a, const SDL_Event *e, bool *quit);

#endif
