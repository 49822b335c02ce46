/* The app, apart from any window system. An App owns the model, the view
 * state, the UI, the renderer and the lessons. A backend creates the GL
 * context, turns its input into App_Events, and calls app_frame() once per
 * frame. That is the shape of sokol_app's init/frame/event/cleanup, so a
 * browser's requestAnimationFrame can drive it as well as a desktop loop.
 * app_frame() never blocks and never waits for input.
 *
 * Events are applied in the order they came. When a press and its release
 * (a tap, a remote's click) arrive within one frame, the UI sees the press
 * in one pass and the release in the next, as it would have with a slower
 * hand.
 *
 *   bool app_init(App *a, const App_Desc *desc, char *err, size_t errsz)
 *       once a GL context is current; false (err set) if anything is missing
 *   void app_writing_from_options(View_State *vs, const Cli_Options *o)
 *       the Model view's writing as --generate, --temperature, --top-k, --top-p and --seed
 *       ask: the write mode shown, greedy or drawn, the panel's sliders and seed
 *   bool app_open_real(Model *m, Checkpoint **ck, const Cli_Options *o, char *err,
 *                      size_t errsz)
 *       --model, --text, --layer and --head into the Model view's lab (nothing without
 *       --model); false with one line for a bad checkpoint, text or head
 *   void app_open_in_background(App *a, void (*wake)(void *ctx), void *ctx)
 *       before app_init: from then on a model is read on a thread of its own (--model,
 *       Open model…, and the first look in the Hugging Face cache), the frames going on
 *       meanwhile: the window's way. wake(ctx) is called from that thread when it is done;
 *       the status line counts the seconds until then. A bad --model, or a --text, --layer
 *       or --head it refuses, then ends the app with App_Frame_Result.fatal. Without this
 *       call (a screenshot, --dump-ui, the tests' harness) app_init reads --model, and the
 *       frame that asks opens a model
 *   void app_shutdown(App *a)
 *   void app_event(App *a, const App_Event *e)     queue one event
 *   void app_paste(App *a, const char *text)
 *       the clipboard's text, pasted (at most APP_PASTE_BYTES - 1 are kept; a longer paste
 *       keeps its length, so the view can say it is too long)
 *   App_Frame_Result app_frame(App *a, const App_Frame *f)
 *       apply the queued events, lay out and draw into the bound framebuffer
 *   void app_layout(App *a, int fb_w, int fb_h, float scale)
 *       lay the frame out into the draw list (the first half of app_draw)
 *   void app_set_lang(App *a, int lang)
 *       speak lang from now on (the picker in the window): the lesson menu lists its lessons; a
 *       bad catalog is said in the status line and the language stays
 *   void app_draw(App *a, int fb_w, int fb_h, float scale)
 *       lay out and draw with no new input (headless drivers, readbacks)
 *   float app_zoom_for(float zoom, int w, int h)
 *       the UI zoom the layout allows in a window of w × h points
 *   bool app_setup_lessons(View_State *vs, const App_Desc *desc, Lesson **lesson,
 *                          Scene **saved, Lesson_Index *index, char *err, size_t errsz)
 *       lesson storage (the lesson, the scene to give back, vs->session.math), the lesson menu
 *       and --lesson, for the app and --dump-ui; the caller frees all three
 */
#ifndef ATTN_APP_H
#define ATTN_APP_H

#include "../lesson/lesson_index.h"
#include "../model/model.h"
#include "../model/scene.h"
#include "../render/render.h"
#include "../ui/view.h"
#include "checkpoint.h"
#include "cli.h"
#include "real_open.h"

typedef struct App_Desc {
    const Cli_Options *opts;
    const Scene *scene;
    const Vocab *vocab;
    const char *data_dir;
    const char *scene_path; /* --scene, or NULL: Ctrl+S then writes attnlab-scene.json */
    double start_ms;        /* CLOCK_MONOTONIC when main began, for --bench */
    const char
        *notice; /* a message for the status line at start (the page's bad option), or NULL */
} App_Desc;

/* What the app does on its own, whatever key a backend maps to it (a browser
 * cannot take F5 or F12 from the page, so its keys differ). */
typedef enum App_Command {
    APP_CMD_NONE = 0,
    APP_CMD_SCREENSHOT,       /* the window as a PNG */
    APP_CMD_SCREENSHOT_PANEL, /* the panel under the mouse as a PNG */
    APP_CMD_EXPORT,           /* every matrix as JSON */
    APP_CMD_FIGURE,           /* the window as a vector PDF */
    APP_CMD_FIGURE_PANEL,     /* the panel under the mouse as a vector PDF */
    APP_CMD_RELOAD_SHADERS,
    APP_CMD_ZOOM_IN,
    APP_CMD_ZOOM_OUT,
    APP_CMD_ZOOM_RESET,
    APP_CMD_FULLSCREEN, /* asks the backend */
    APP_CMD_QUIT,       /* asks the backend */
} App_Command;

typedef enum App_Event_Kind {
    APP_EV_REDRAW = 0, /* exposed, resized: nothing but a new frame */
    APP_EV_MOUSE_MOVE,
    APP_EV_MOUSE_DOWN,
    APP_EV_MOUSE_UP,
    APP_EV_RIGHT_DOWN,
    APP_EV_WHEEL,
    APP_EV_KEY,
    APP_EV_TEXT,
    APP_EV_COMMAND,
    APP_EV_PASTE, /* the text is the App's paste buffer (app_paste) */
    APP_EV_OPEN,  /* open the file named by text: a scene (.json) or a lesson (.md) */
} App_Event_Kind;

typedef struct App_Event {
    App_Event_Kind kind;
    float x, y;          /* mouse events: window points (not pixels) */
    float wheel;         /* wheel: steps, up positive */
    Ui_Key key;          /* key */
    char ch;             /* key: the character for KEY_CHAR */
    unsigned char mods;  /* key: UI_MOD_* */
    char text[512];      /* text: UTF-8 typed text; open: the file's path */
    App_Command command; /* command */
} App_Event;

typedef struct App_Frame {
    int fb_w, fb_h;   /* framebuffer pixels */
    int win_w, win_h; /* window points: fb / win is the display scale */
    double time;      /* seconds, for animations */
} App_Frame;

typedef struct App_Frame_Result {
    bool more;             /* an animation runs: call again soon, even with no input */
    double wake_in;        /* else: call again after this many seconds (a message expires), or -1 */
    const char *clipboard; /* text copied or cut this frame, for the system clipboard, or NULL */
    bool quit;             /* the user asked to quit */
    bool toggle_fullscreen; /* the user asked for fullscreen on/off */
    const char *wrote;      /* a file the user asked for was written this frame (a browser
                               downloads it), or NULL */
    const char *fatal;      /* with quit: bad input the command line gave, found only now (its
                               --model read on a thread): the one line to print, status 2 */
} App_Frame_Result;

#define APP_MAX_EVENTS  256
#define APP_PASTE_BYTES 4096

/* What a model being read on a thread is for. */
typedef enum App_Opening {
    APP_OPEN_ASKED = 0, /* Open model… */
    APP_OPEN_LOOK,      /* the first look in the Hugging Face cache */
    APP_OPEN_START,     /* --model: its --text, --generate, --layer and --head follow */
} App_Opening;

typedef struct App {
    const App_Desc *desc;
    Renderer render;
    Draw_List dl;
    Ui ui;
    View_State vs;
    Model model;
    float zoom;       /* asked for; the layout may hold it lower */
    int win_w, win_h; /* window points, from the last frame */
    int fb_w, fb_h;   /* framebuffer pixels, from the last frame */
    Ui_Input in;
    bool render_ready, model_ready, dl_ready;
    bool lang_changed; /* the language was picked in the window: the settings keep it */
    int dropped_said;  /* the draw list's overflow last reported (0: none since it fit) */
    Lesson *lesson;
    Scene *lesson_saved;
    Checkpoint *checkpoint; /* the real model the Model view reads, or NULL */
    bool open_in_background;
    void (*open_wake)(void *ctx);
    void *open_wake_ctx;
    Real_Opening opening;
    App_Opening opening_for; /* what the opening running is for */
    bool start_pending;      /* --model, read on a thread from the first frame */
    double opening_since;    /* vs.now when it began */
    double opening_said;     /* the whole seconds the status line last said */
    char fatal[1200];        /* bad input found after the first frame (--model read on a thread):
                                the line the app quits with, status 2 */
    Lesson_Index lesson_index;
    Ui_Record records[UI_MAX_RECORDS];
    App_Event queue[APP_MAX_EVENTS];
    int queued;
    App_Frame_Result pending; /* quit / fullscreen asked by commands this frame */
    char wrote[512];          /* the file behind App_Frame_Result.wrote */
    char paste[APP_PASTE_BYTES];
    size_t paste_len; /* the whole paste's length, even when it did not fit */
} App;

bool app_init(App *a, const App_Desc *desc, char *err, size_t errsz);
bool app_open_real(Model *m, Checkpoint **ck, const Cli_Options *o, char *err, size_t errsz);
void app_writing_from_options(View_State *vs, const Cli_Options *o);
void app_open_in_background(App *a, void (*wake)(void *ctx), void *ctx);
void app_shutdown(App *a);
void app_event(App *a, const App_Event *e);
void app_paste(App *a, const char *text);
App_Frame_Result app_frame(App *a, const App_Frame *f);
void app_layout(App *a, int fb_w, int fb_h, float scale);
void app_set_lang(App *a, int lang);
void app_draw(App *a, int fb_w, int fb_h, float scale);
float app_zoom_for(float zoom, int w, int h);
bool app_setup_lessons(View_State *vs, const App_Desc *desc, Lesson **lesson, Scene **saved,
                       Lesson_Index *index, char *err, size_t errsz);

#endif
