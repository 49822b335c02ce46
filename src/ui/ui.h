/* The immediate-mode UI context: input in, draw commands out.
 *
 * Widgets are functions called every frame; each takes an id, reads the
 * frame's input, draws into the draw list and returns what happened
 * (UI_CHANGED, UI_CLICKED). A widget is named by (name, index): its id
 * comes from that, and it records itself under that name for --dump-ui, so
 * one widget never has two names. Text is measured through injected metrics, so
 * the whole UI runs in tests with a stub and no window.
 *
 *   void ui_init(Ui *ui, Draw_List *dl, Text_Metrics tm)
 *   void ui_begin(Ui *ui, const Ui_Input *in, float w, float h)
 *   void ui_input_spent(Ui_Input *in)
 *       the frame used its one-off input: clear presses, releases, wheel, keys and text
 *       (positions and held buttons stay)
 *   void ui_end(Ui *ui)
 *       Tab and Shift+Tab move the focus; the focused widget gets its ring
 *   bool ui_focus_takes_arrows(const Ui *ui)
 *       a focused slider uses ← → ↑ ↓ PageUp PageDown Home End: shortcuts leave them alone
 *   float ui_text_width(Ui *ui, Font_Id font, float size, const char *text)
 *   float ui_text_widthn(Ui *ui, Font_Id font, float size, const char *text, int len)
 *   float ui_line_height(Ui *ui, Font_Id font, float size)
 *   bool ui_key(const Ui *ui, Ui_Key key)
 *   bool ui_key_char(const Ui *ui, char c)
 *   bool ui_shortcut(const Ui *ui, char c, unsigned mods)
 *       keys as they went down this frame, with the modifiers held at that moment
 *   bool ui_hit(const Ui *ui, Rect r)
 *       mouse inside r this frame, and not on something drawn over r: an open modal (only what
 *       the modal holds is hit) or a rect blocked with ui_block last frame
 *   bool ui_hides(const Ui *ui, const char *name)
 *       the panel or control of that name is hidden this frame (ui->hidden): a button, switch
 *       or slider so named draws nothing and takes no input
 *   bool ui_hidden_if(Ui *ui, Rect r, const char *title, const char *name)
 *       when ui_hides(name), r shows a "?" placeholder instead of the panel, and true
 *   void ui_block(Ui *ui, Rect r)
 *       r lies over the panels (a callout, a note): from the next frame on, a press on it reaches
 *       nothing beneath
 *   void ui_plot_area(Ui *ui, Rect r)
 *       the dark plotting area of a lab's curves, with its border
 *   int ui_button(Ui *ui, const char *name, int index, Rect r, const char *label, bool selected)
 *   int ui_button_strip(Ui *ui, Rect r, const Ui_Strip_Button *b, int count)
 *       count buttons in r, equal widths 6 apart (a lab's ▶ +100 … ⟲ row); the index of the one
 *       clicked, or −1
 *   int ui_toggle(Ui *ui, const char *name, int index, Rect r, const char *label, bool *value)
 *   int ui_slider(Ui *ui, const char *name, int index, Rect r, float *value,
 *       const Slider_Desc *desc)
 *   void ui_label(Ui *ui, Rect r, Font_Id font, float size, Align align, Color c,
 *       const char *text)
 *       text aligned inside a rectangle
 *   void ui_label_fit(Ui *ui, Rect r, Font_Id font, float size, Align align, Color c,
 *       const char *text)
 *       the same, shortened with "…" when it does not fit, and recorded as a "cut"
 *       (the layout audit holds shipped layouts to none)
 *   void ui_label_abbrev(Ui *ui, Rect r, Font_Id font, float size, Align align, Color c,
 *       const char *text)
 *       the same for a label that must be shown however little room there is (a column
 *       of a small heatmap): recorded as "abbreviated", not as a cut
 *   void ui_panel(Ui *ui, Rect r, const char *title, bool highlighted)
 *   float ui_panel_wrapped(Ui *ui, Rect r, const char *title, bool highlighted)
 *       the title word-wrapped over as many lines as it needs; returns their height
 *   void ui_hidden(Ui *ui, Rect r, const char *title, const char *name, const char *why)
 *       a panel whose content waits for the lesson: its title, a "?" and why (NULL: "answer the
 *       lesson's prediction first"); recorded as the panel name, so a lesson can point at it
 *   Rect ui_modal(Ui *ui, float w, float h, const char *title, const char *name, bool *closed)
 *       a centred box over a dimmed window; returns its body; closed when Esc is pressed or
 *       the mouse goes down outside it. From then to the frame's end only the modal's own
 *       widgets are hit, and in the frames it stays open nothing under it is: a click on a menu
 *       item never reaches the token row beneath. Draw modals last.
 *   float ui_text_wrapped(Ui *ui, Rect r, Font_Id font, float size, Color c, const char *text,
 *       bool draw)
 *       word-wrapped; returns the height
 *   uint32_t ui_id(const char *name, int index)
 *   void ui_record(Ui *ui, const char *kind, const char *name, int index, Rect r)
 *   Rect rect_cut_left(Rect *r, float w)
 *   Rect rect_cut_right(Rect *r, float w)
 *   Rect rect_cut_top(Rect *r, float h)
 *   Rect rect_cut_bottom(Rect *r, float h)
 *   Rect rect_inset(Rect r, float d)
 *   bool rect_contains(Rect r, float x, float y)
 */
#ifndef ATTN_UI_H
#define ATTN_UI_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "../gfx/draw.h"
#include "../gfx/text_metrics.h"
#include "theme.h"

/* Keys the UI cares about, independent of SDL's key codes. */
typedef enum Ui_Key {
    KEY_NONE = 0,
    KEY_LEFT,
    KEY_RIGHT,
    KEY_UP,
    KEY_DOWN,
    KEY_HOME,
    KEY_END,
    KEY_PAGEUP,
    KEY_PAGEDOWN,
    KEY_ENTER,
    KEY_ESCAPE,
    KEY_BACKSPACE,
    KEY_DELETE,
    KEY_TAB,
    KEY_F1,
    KEY_F2,
    KEY_CHAR, /* a printable key with no text meaning: shortcut letters; see Ui_Input.key_char */
} Ui_Key;

#define UI_MAX_KEYS 16

typedef struct Ui_Input {
    float mx, my;  /* logical units */
    bool down;     /* left button held */
    bool pressed;  /* went down this frame */
    bool released; /* went up this frame */
    bool right_pressed;
    float wheel;
    int key_count;
    Ui_Key keys[UI_MAX_KEYS];
    char key_chars[UI_MAX_KEYS];         /* for KEY_CHAR: the lower-case letter or symbol */
    unsigned char key_mods[UI_MAX_KEYS]; /* UI_MOD_* held when that key went down */
    char text[64];                       /* UTF-8 typed this frame (text input) */
    const char *paste;                   /* pasted this frame, or NULL (the platform's) */
    size_t paste_len;                    /* its length (if the platform could not hold it
                                            all, the full length, and it is not read) */
    double time;                         /* seconds, for animations */
} Ui_Input;

enum { UI_CHANGED = 1, UI_CLICKED = 2, UI_RELEASED = 4 };
enum { UI_MOD_CTRL = 1, UI_MOD_SHIFT = 2 };

/* What --dump-ui prints and tests click on: every panel, widget, draggable
 * point and chip laid out this frame, in logical units. */
typedef struct Ui_Record {
    const char *kind; /* "panel", "button", "slider", "toggle", "point", "chip", … */
    const char *name; /* stable id, e.g. "dk", "S", "tab" */
    int index;        /* token or item index, -1 if none */
    Rect r;           /* for points: a small box centred on the point */
} Ui_Record;

#define UI_MAX_RECORDS 2048
#define UI_MAX_FOCUS   512
#define UI_MAX_BLOCKED 8 /* overlays a frame draws over the panels */

typedef enum Ui_Focus_Kind { UI_FOCUS_BUTTON = 1, UI_FOCUS_TOGGLE, UI_FOCUS_SLIDER } Ui_Focus_Kind;

typedef struct Ui {
    Draw_List *dl;
    Text_Metrics tm;
    Ui_Input in;
    float w, h;      /* logical size of the window */
    uint32_t hot;    /* under the mouse this frame */
    uint32_t active; /* being dragged / pressed */
    uint32_t hot_next;
    float drag_x0, drag_y0; /* where the active drag started */
    float drag_v0;          /* widget value when it started */
    const Theme *theme;
    Ui_Record *records; /* NULL: not recording */
    int record_count;
    const char *highlight; /* a lesson points at the panel with this name */
    const char *hidden;    /* names hidden this frame, " a b" (model/hide.h), or NULL */
    float px_scale;        /* pixels per logical unit (display × zoom); 0 means 1 */
    /* keyboard focus: Tab and Shift+Tab walk the widgets in the order they
     * were laid out; Space or Enter presses, arrows move a slider */
    uint32_t focus;     /* the focused widget, or 0 */
    bool focus_visible; /* a ring shows it (set by the keyboard, hidden by the mouse) */
    Ui_Focus_Kind focus_kind;
    bool keyboard_busy; /* a text field has the keys this frame: no widget takes them */
    int focus_count;
    uint32_t focus_ids[UI_MAX_FOCUS];
    Rect focus_rects[UI_MAX_FOCUS];
    unsigned char focus_kinds[UI_MAX_FOCUS];
    /* what lies over the panels: last frame's modal and blocked rects (whose
     * presses reach nothing beneath), and this frame's, for the next */
    bool modal_open, modal_seen, in_modal;
    Rect blocked[UI_MAX_BLOCKED], blocking[UI_MAX_BLOCKED];
    int blocked_count, blocking_count;
} Ui;

/* One button of a strip: its name (for tests and hiding), label and whether it shows as on. */
typedef struct Ui_Strip_Button {
    const char *name, *label;
    bool selected;
} Ui_Strip_Button;

typedef struct Slider_Desc {
    float min, max;
    bool log;     /* log-spaced track */
    bool integer; /* snap to whole numbers */
    bool pow2;    /* log: a drag snaps to a power of two near it, PageUp/PageDown go to the next */
    const char *label;
    const char *short_label; /* when the row is too low for the label over the track */
    const char *format;      /* printf format for the value, default "%g" */
    const char *at_min;      /* the value's text at min, if not a number ("all": no cut) */
} Slider_Desc;

void ui_init(Ui *ui, Draw_List *dl, Text_Metrics tm);
void ui_begin(Ui *ui, const Ui_Input *in, float w, float h);
void ui_input_spent(Ui_Input *in);
void ui_end(Ui *ui);
bool ui_focus_takes_arrows(const Ui *ui);

float ui_text_width(Ui *ui, Font_Id font, float size, const char *text);
float ui_text_widthn(Ui *ui, Font_Id font, float size, const char *text, int len);
float ui_line_height(Ui *ui, Font_Id font, float size);
bool ui_key(const Ui *ui, Ui_Key key);
bool ui_key_char(const Ui *ui, char c);
bool ui_shortcut(const Ui *ui, char c, unsigned mods);

bool ui_hit(const Ui *ui, Rect r);
bool ui_hides(const Ui *ui, const char *name);
bool ui_hidden_if(Ui *ui, Rect r, const char *title, const char *name);
void ui_block(Ui *ui, Rect r);
void ui_plot_area(Ui *ui, Rect r);
int ui_button(Ui *ui, const char *name, int index, Rect r, const char *label, bool selected);
int ui_button_strip(Ui *ui, Rect r, const Ui_Strip_Button *b, int count);
int ui_toggle(Ui *ui, const char *name, int index, Rect r, const char *label, bool *value);
int ui_slider(Ui *ui, const char *name, int index, Rect r, float *value, const Slider_Desc *desc);
void ui_label(Ui *ui, Rect r, Font_Id font, float size, Align align, Color c, const char *text);
void ui_label_fit(Ui *ui, Rect r, Font_Id font, float size, Align align, Color c, const char *text);
void ui_label_abbrev(Ui *ui, Rect r, Font_Id font, float size, Align align, Color c,
                     const char *text);
void ui_panel(Ui *ui, Rect r, const char *title, bool highlighted);
float ui_panel_wrapped(Ui *ui, Rect r, const char *title, bool highlighted);
void ui_hidden(Ui *ui, Rect r, const char *title, const char *name, const char *why);
Rect ui_modal(Ui *ui, float w, float h, const char *title, const char *name, bool *closed);
float ui_text_wrapped(Ui *ui, Rect r, Font_Id font, float size, Color c, const char *text,
                      bool draw);

uint32_t ui_id(const char *name, int index);
void ui_record(Ui *ui, const char *kind, const char *name, int index, Rect r);

Rect rect_cut_left(Rect *r, float w);
Rect rect_cut_right(Rect *r, float w);
Rect rect_cut_top(Rect *r, float h);
Rect rect_cut_bottom(Rect *r, float h);
Rect rect_inset(Rect r, float d);
bool rect_contains(Rect r, float x, float y);

#endif
