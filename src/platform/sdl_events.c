/* SDL's events as App_Events, for both SDL backends; see sdl_events.h. */
#include "sdl_events.h"

#include <stdio.h>
#include <string.h>

static unsigned char mods_of(Uint16 m) {
    return (unsigned char)(((m & KMOD_CTRL) ? UI_MOD_CTRL : 0) |
                           ((m & KMOD_SHIFT) ? UI_MOD_SHIFT : 0));
}

/* The shortcuts for the app's commands. A browser keeps F5 (reload), F11
 * (its own fullscreen) and Ctrl+Q to itself, and F12 may open its tools:
 * there Ctrl+P (not printing) saves the PNG, beside F12. */
static App_Command command_for(SDL_Keycode sym, Uint16 mod) {
    bool ctrl = (mod & KMOD_CTRL) != 0, shift = (mod & KMOD_SHIFT) != 0;
    if (sym == SDLK_F12) return shift ? APP_CMD_SCREENSHOT_PANEL : APP_CMD_SCREENSHOT;
#ifdef __EMSCRIPTEN__
    if (!ctrl) return APP_CMD_NONE;
    if (sym == SDLK_p) return shift ? APP_CMD_SCREENSHOT_PANEL : APP_CMD_SCREENSHOT;
#else
    if (sym == SDLK_F11) return APP_CMD_FULLSCREEN;
    if (sym == SDLK_F5) return APP_CMD_RELOAD_SHADERS;
    if (!ctrl) return APP_CMD_NONE;
    if (sym == SDLK_q) return APP_CMD_QUIT;
#endif
    if (sym == SDLK_e) return shift ? APP_CMD_FIGURE : APP_CMD_EXPORT;
    if (sym == SDLK_f && shift) return APP_CMD_FIGURE_PANEL;
    if (sym == SDLK_EQUALS || sym == SDLK_PLUS || sym == SDLK_KP_PLUS) return APP_CMD_ZOOM_IN;
    if (sym == SDLK_MINUS || sym == SDLK_KP_MINUS) return APP_CMD_ZOOM_OUT;
    if (sym == SDLK_0 || sym == SDLK_KP_0) return APP_CMD_ZOOM_RESET;
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
        {SDLK_F2, KEY_F2},
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

bool sdl_events_handle(App *a, const SDL_Event *e, bool *quit) {
    switch (e->type) {
    case SDL_QUIT:
        *quit = true;
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
    case SDL_DROPFILE: { /* a scene or a lesson dropped on the window */
        App_Event o = {.kind = APP_EV_OPEN};
        if (strlen(e->drop.file) < sizeof o.text) /* else "" : open_file says why */
            snprintf(o.text, sizeof o.text, "%s", e->drop.file);
        SDL_free(e->drop.file);
        app_event(a, &o);
        return true;
    }
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
