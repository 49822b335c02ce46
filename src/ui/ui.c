/* The immediate-mode UI context and basic widgets; see ui.h. */
#include "../core/i18n.h"
#include "ui.h"

#include "../gfx/utf8.h"
#include "../model/hide.h"

#include <math.h>
#include <stdio.h>
#include <string.h>

void ui_init(Ui *ui, Draw_List *dl, Text_Metrics tm) {
    memset(ui, 0, sizeof *ui);
    ui->dl = dl;
    ui->tm = tm;
    ui->theme = theme_get(THEME_DARK, false);
}

void ui_input_spent(Ui_Input *in) {
    in->pressed = in->released = in->right_pressed = false;
    in->wheel = 0;
    in->key_count = 0;
    in->text[0] = '\0';
    in->paste = NULL;
    in->paste_len = 0;
}

void ui_begin(Ui *ui, const Ui_Input *in, float w, float h) {
    ui->in = *in;
    ui->w = w;
    ui->h = h;
    ui->hot = ui->hot_next;
    ui->hot_next = 0;
    ui->record_count = 0;
    ui->focus_count = 0;
    /* what the last frame drew over the panels stops presses this frame */
    ui->modal_open = ui->modal_seen;
    ui->modal_seen = ui->in_modal = false;
    memcpy(ui->blocked, ui->blocking, sizeof ui->blocked);
    ui->blocked_count = ui->blocking_count;
    ui->blocking_count = 0;
    if (ui->in.pressed) ui->focus_visible = false; /* the mouse took over */
    draw_clear(ui->dl);
}

/* A widget that takes the keyboard: it joins the Tab order, and a press on
 * it gives it the focus. Returns whether it has the focus now. */
static bool focusable(Ui *ui, uint32_t id, Rect r, Ui_Focus_Kind kind) {
    if (ui->focus_count < UI_MAX_FOCUS) {
        ui->focus_ids[ui->focus_count] = id;
        ui->focus_rects[ui->focus_count] = r;
        ui->focus_kinds[ui->focus_count] = (unsigned char)kind;
        ui->focus_count++;
    }
    if (ui->in.pressed && ui_hit(ui, r)) ui->focus = id;
    if (ui->focus == id) ui->focus_kind = kind;
    return ui->focus == id && !ui->keyboard_busy;
}

/* Space or Enter on the focused widget: a press, as a click is. */
static bool key_press(const Ui *ui) {
    return ui_key(ui, KEY_ENTER) || ui_key_char(ui, ' ');
}

bool ui_focus_takes_arrows(const Ui *ui) {
    return ui->focus && ui->focus_kind == UI_FOCUS_SLIDER && !ui->keyboard_busy;
}

void ui_record(Ui *ui, const char *kind, const char *name, int index, Rect r) {
    /* the panel a lesson points at gets a bright frame, whatever drew it */
    if (ui->highlight && ui->highlight[0] && !strcmp(kind, "panel") && !strcmp(name, ui->highlight))
        draw_rect_outline(ui->dl, rect_inset(r, -4), ui->theme->radius + 4, 4,
                          ui->theme->highlight);
    if (!ui->records || ui->record_count == UI_MAX_RECORDS) return;
    ui->records[ui->record_count++] = (Ui_Record){kind, name, index, r};
}

void ui_end(Ui *ui) {
    if (ui->in.released) ui->active = 0;
    int at = -1;
    for (int k = 0; k < ui->focus_count; k++)
        if (ui->focus_ids[k] == ui->focus) at = k;
    if (at < 0) ui->focus = 0; /* the widget is gone (another view, a closed menu) */
    for (int k = 0; k < ui->in.key_count && !ui->keyboard_busy; k++) {
        if (ui->in.keys[k] != KEY_TAB || ui->focus_count == 0) continue;
        bool back = ui->in.key_mods[k] & UI_MOD_SHIFT;
        at = at < 0 ? (back ? ui->focus_count - 1 : 0)
                    : (at + (back ? ui->focus_count - 1 : 1)) % ui->focus_count;
        ui->focus = ui->focus_ids[at];
        ui->focus_kind = (Ui_Focus_Kind)ui->focus_kinds[at];
        ui->focus_visible = true;
    }
    if (at >= 0 && ui->focus_visible) {
        /* the ring goes over everything, so it is never hidden */
        draw_layer(ui->dl);
        draw_rect_outline(ui->dl, rect_inset(ui->focus_rects[at], -3), ui->theme->radius + 3, 3,
                          ui->theme->highlight);
        draw_layer(ui->dl);
    }
}

float ui_text_widthn(Ui *ui, Font_Id font, float size, const char *text, int len) {
    return ui->tm.width(ui->tm.ctx, font, size, text, len);
}

float ui_text_width(Ui *ui, Font_Id font, float size, const char *text) {
    return ui_text_widthn(ui, font, size, text, (int)strlen(text));
}

float ui_line_height(Ui *ui, Font_Id font, float size) {
    return ui->tm.line_height(ui->tm.ctx, font, size);
}

bool ui_key(const Ui *ui, Ui_Key key) {
    for (int i = 0; i < ui->in.key_count; i++)
        if (ui->in.keys[i] == key) return true;
    return false;
}

bool ui_shortcut(const Ui *ui, char c, unsigned mods) {
    /* modifiers as they were when the key went down: a fast Ctrl+S (as from
     * a script or a remote) has already released Ctrl by the time we draw */
    for (int i = 0; i < ui->in.key_count; i++)
        if (ui->in.keys[i] == KEY_CHAR && ui->in.key_chars[i] == c && ui->in.key_mods[i] == mods)
            return true;
    return false;
}

bool ui_key_char(const Ui *ui, char c) {
    for (int i = 0; i < ui->in.key_count; i++)
        if (ui->in.keys[i] == KEY_CHAR && ui->in.key_chars[i] == c &&
            !(ui->in.key_mods[i] & UI_MOD_CTRL))
            return true;
    return false;
}

uint32_t ui_id(const char *name, int index) {
    uint32_t h = 2166136261u;
    for (; *name; name++) h = (h ^ (unsigned char)*name) * 16777619u;
    h = (h ^ (uint32_t)index) * 16777619u;
    return h ? h : 1;
}

bool rect_contains(Rect r, float x, float y) {
    return x >= r.x && y >= r.y && x < r.x + r.w && y < r.y + r.h;
}

bool ui_hit(const Ui *ui, Rect r) {
    if (!rect_contains(r, ui->in.mx, ui->in.my)) return false;
    if (ui->in_modal) return true;
    if (ui->modal_open) return false; /* the modal is over everything else */
    for (int k = 0; k < ui->blocked_count; k++)
        if (rect_contains(ui->blocked[k], ui->in.mx, ui->in.my)) return false;
    return true;
}

void ui_block(Ui *ui, Rect r) {
    if (ui->blocking_count < UI_MAX_BLOCKED) ui->blocking[ui->blocking_count++] = r;
}

Rect rect_cut_left(Rect *r, float w) {
    if (w > r->w) w = r->w;
    Rect out = {r->x, r->y, w, r->h};
    r->x += w;
    r->w -= w;
    return out;
}

Rect rect_cut_right(Rect *r, float w) {
    if (w > r->w) w = r->w;
    r->w -= w;
    return (Rect){r->x + r->w, r->y, w, r->h};
}

Rect rect_cut_top(Rect *r, float h) {
    if (h > r->h) h = r->h;
    Rect out = {r->x, r->y, r->w, h};
    r->y += h;
    r->h -= h;
    return out;
}

Rect rect_cut_bottom(Rect *r, float h) {
    if (h > r->h) h = r->h;
    r->h -= h;
    return (Rect){r->x, r->y + r->h, r->w, h};
}

Rect rect_inset(Rect r, float d) {
    Rect out = {r.x + d, r.y + d, r.w - 2 * d, r.h - 2 * d};
    if (out.w < 0) out.w = 0;
    if (out.h < 0) out.h = 0;
    return out;
}

/* Claim the mouse for a widget: hot when under it, active while pressed. */
static void interact(Ui *ui, uint32_t id, Rect r) {
    if (ui_hit(ui, r) && (ui->active == 0 || ui->active == id)) ui->hot_next = id;
    if (ui->in.pressed && ui_hit(ui, r) && ui->active == 0) {
        ui->active = id;
        ui->drag_x0 = ui->in.mx;
        ui->drag_y0 = ui->in.my;
    }
}

void ui_label(Ui *ui, Rect r, Font_Id font, float size, Align align, Color c, const char *text) {
    float lh = ui_line_height(ui, font, size);
    float x = align == ALIGN_LEFT ? r.x : align == ALIGN_CENTER ? r.x + r.w * 0.5f : r.x + r.w;
    draw_text(ui->dl, font, size, x, r.y + (r.h - lh) * 0.5f, align, c, text);
}

static void label_shortened(Ui *ui, Rect r, Font_Id font, float size, Align align, Color c,
                            const char *text, const char *kind);

void ui_label_fit(Ui *ui, Rect r, Font_Id font, float size, Align align, Color c,
                  const char *text) {
    label_shortened(ui, r, font, size, align, c, text, "cut");
}

void ui_label_abbrev(Ui *ui, Rect r, Font_Id font, float size, Align align, Color c,
                     const char *text) {
    label_shortened(ui, r, font, size, align, c, text, "abbreviated");
}

static void label_shortened(Ui *ui, Rect r, Font_Id font, float size, Align align, Color c,
                            const char *text, const char *kind) {
    /* A little smaller first; then shorten with an ellipsis rather than
     * spill out of the rectangle. */
    int len = (int)strlen(text);
    if (ui_text_widthn(ui, font, size, text, len) <= r.w) {
        ui_label(ui, r, font, size, align, c, text);
        return;
    }
    if (ui_text_widthn(ui, font, size * 0.85f, text, len) <= r.w) {
        ui_label(ui, r, font, size * 0.85f, align, c, text);
        return;
    }
    char buf[256];
    float ell = ui_text_width(ui, font, size, "…");
    while (len > 0) {
        len--;
        while (len > 0 && ((unsigned char)text[len] & 0xC0) == 0x80) len--; /* UTF-8 boundary */
        if (ui_text_widthn(ui, font, size, text, len) + ell <= r.w) break;
    }
    /* a label cut short is recorded: --dump-ui lists them, and the layout
     * tests hold the shipped layouts to none */
    ui_record(ui, kind, "label", -1, r);
    if (len <= 0) return;
    snprintf(buf, sizeof buf, "%.*s…", len, text);
    ui_label(ui, r, font, size, align, c, buf);
}

void ui_hidden(Ui *ui, Rect r, const char *title, const char *name, const char *why) {
    const Theme *t = ui->theme;
    ui_record(ui, "panel", name, -1, r);
    float title_h = ui_panel_wrapped(ui, r, title, false); /* wrapped, never cut */
    Rect body = rect_inset(r, t->pad);
    rect_cut_top(&body, title_h);
    float lh = ui_line_height(ui, FONT_BOLD, t->title_size * 2);
    ui_label(ui, (Rect){body.x, body.y + body.h * 0.5f - lh, body.w, lh}, FONT_BOLD,
             t->title_size * 2, ALIGN_CENTER, t->highlight, "?");
    /* the reason wraps rather than lose its end in a narrow panel */
    const char *say = why ? why : _("answer the lesson's prediction first");
    float sw = ui_text_width(ui, FONT_SANS, t->small_size, say);
    if (sw <= body.w)
        ui_label(ui, (Rect){body.x, body.y + body.h * 0.5f, body.w, lh * 0.6f}, FONT_SANS,
                 t->small_size, ALIGN_CENTER, t->text_dim, say);
    else
        ui_text_wrapped(ui, (Rect){body.x, body.y + body.h * 0.5f, body.w, body.h * 0.5f},
                        FONT_SANS, t->small_size, t->text_dim, say, true);
}

void ui_panel(Ui *ui, Rect r, const char *title, bool highlighted) {
    const Theme *t = ui->theme;
    draw_round_rect(ui->dl, r, t->radius, t->panel);
    if (highlighted)
        draw_rect_outline(ui->dl, rect_inset(r, -3), t->radius + 3, 3, t->highlight);
    else
        draw_rect_outline(ui->dl, r, t->radius, t->line, t->panel_border);
    if (title) {
        float lh = ui_line_height(ui, FONT_BOLD, t->title_size);
        ui_label_fit(ui, (Rect){r.x + t->pad, r.y + t->pad * 0.6f, r.w - 2 * t->pad, lh}, FONT_BOLD,
                     t->title_size, ALIGN_LEFT, t->text, title);
    }
}

float ui_panel_wrapped(Ui *ui, Rect r, const char *title, bool highlighted) {
    const Theme *t = ui->theme;
    ui_panel(ui, r, NULL, highlighted);
    if (!title) return 0;
    Rect tr = {r.x + t->pad, r.y + t->pad * 0.6f, r.w - 2 * t->pad, r.h};
    return ui_text_wrapped(ui, tr, FONT_BOLD, t->title_size, t->text, title, true);
}

bool ui_hides(const Ui *ui, const char *name) {
    return ui->hidden && hide_list_has(ui->hidden, name);
}

bool ui_hidden_if(Ui *ui, Rect r, const char *title, const char *name) {
    if (!ui_hides(ui, name)) return false;
    ui_hidden(ui, r, title, name, _("hidden for now"));
    return true;
}

int ui_button(Ui *ui, const char *name, int index, Rect r, const char *label, bool selected) {
    if (ui_hides(ui, name)) return 0; /* hidden for the class: not drawn, not there */
    uint32_t id = ui_id(name, index);
    ui_record(ui, "button", name, index, r);
    const Theme *t = ui->theme;
    interact(ui, id, r);
    int res = 0;
    if (ui->active == id && ui->in.released && ui_hit(ui, r)) res |= UI_CLICKED;
    if (focusable(ui, id, r, UI_FOCUS_BUTTON) && key_press(ui)) res |= UI_CLICKED;
    Color bg = selected ? t->accent : t->button;
    if (ui->hot == id && !selected) bg = t->button_hot;
    if (ui->active == id) bg = t->button_down;
    draw_round_rect(ui->dl, r, t->radius, bg);
    if (t->line > 1) draw_rect_outline(ui->dl, r, t->radius, t->line, t->panel_border);
    /* a label that does not fit is set smaller before anything is cut */
    float size = t->text_size;
    if (ui_text_width(ui, FONT_SANS, size, label) > r.w - 8) size = t->small_size;
    ui_label_fit(ui, rect_inset(r, 4), FONT_SANS, size, ALIGN_CENTER,
                 selected ? t->accent_text : t->text, label);
    return res;
}

int ui_button_strip(Ui *ui, Rect r, const Ui_Strip_Button *b, int count) {
    float bw = (r.w - 6.0f * (float)(count - 1)) / (float)count;
    int clicked = -1;
    for (int k = 0; k < count; k++) {
        Rect one = k + 1 < count ? rect_cut_left(&r, bw) : r; /* the last takes what is left */
        if (k + 1 < count) rect_cut_left(&r, 6);
        if (ui_button(ui, b[k].name, -1, rect_inset(one, 2), b[k].label, b[k].selected) &
            UI_CLICKED)
            clicked = k;
    }
    return clicked;
}

int ui_toggle(Ui *ui, const char *name, int index, Rect r, const char *label, bool *value) {
    if (ui_hides(ui, name)) return 0;
    uint32_t id = ui_id(name, index);
    ui_record(ui, "toggle", name, index, r);
    const Theme *t = ui->theme;
    interact(ui, id, r);
    int res = 0;
    bool pressed = ui->active == id && ui->in.released && ui_hit(ui, r);
    if (focusable(ui, id, r, UI_FOCUS_TOGGLE) && key_press(ui)) pressed = true;
    if (pressed) {
        *value = !*value;
        res |= UI_CHANGED | UI_CLICKED;
    }
    float sw = 40, sh = 22;
    Rect track = {r.x, r.y + (r.h - sh) * 0.5f, sw, sh};
    draw_round_rect(ui->dl, track, sh * 0.5f, *value ? t->accent : t->button);
    if (t->line > 1) draw_rect_outline(ui->dl, track, sh * 0.5f, t->line, t->panel_border);
    float knob_x = *value ? track.x + sw - sh * 0.5f : track.x + sh * 0.5f;
    draw_circle(ui->dl, knob_x, track.y + sh * 0.5f, sh * 0.5f - 3, t->text);
    if (ui->hot == id)
        draw_rect_outline(ui->dl, rect_inset(track, -2), sh * 0.5f + 2, 1.5f, t->text_dim);
    Rect lr = r;
    rect_cut_left(&lr, sw + 8);
    /* a label that does not fit is set smaller before anything is cut */
    float size = t->text_size;
    if (ui_text_width(ui, FONT_SANS, size, label) > lr.w) size = t->small_size;
    ui_label_fit(ui, lr, FONT_SANS, size, ALIGN_LEFT, t->text, label);
    return res;
}

static float slider_to_t(float v, const Slider_Desc *d) {
    if (d->log) return (logf(v) - logf(d->min)) / (logf(d->max) - logf(d->min));
    return (v - d->min) / (d->max - d->min);
}

static float slider_from_t(float t, const Slider_Desc *d) {
    if (t < 0) t = 0;
    if (t > 1) t = 1;
    float v = d->log ? expf(logf(d->min) + t * (logf(d->max) - logf(d->min)))
                     : d->min + t * (d->max - d->min);
    if (d->integer) v = roundf(v);
    if (v < d->min) v = d->min;
    if (v > d->max) v = d->max;
    return v;
}

int ui_slider(Ui *ui, const char *name, int index, Rect r, float *value, const Slider_Desc *d) {
    if (ui_hides(ui, name)) return 0;
    uint32_t id = ui_id(name, index);
    ui_record(ui, "slider", name, index, r);
    const Theme *t = ui->theme;
    /* label left, value right, track below them; in a row too low for two
     * lines, the short label, the track and the value side by side */
    Rect row = r;
    char vbuf[48];
    snprintf(vbuf, sizeof vbuf, d->format ? d->format : "%g", (double)*value);
    if (d->at_min && *value <= d->min) snprintf(vbuf, sizeof vbuf, "%s", d->at_min);
    float lh = ui_line_height(ui, FONT_SANS, t->text_size);
    if (r.h < 2 * lh + 4) {
        const char *label = d->short_label ? d->short_label : d->label;
        /* a label that does not fit in 40 % of the row is set smaller first */
        float ls = t->text_size;
        if (label && ui_text_width(ui, FONT_SANS, ls, label) + 8 > r.w * 0.4f) ls = t->small_size;
        float lw = label ? fminf(ui_text_width(ui, FONT_SANS, ls, label) + 8, r.w * 0.4f) : 0;
        /* room for the widest value, so the track does not move as the value changes */
        char widest[48];
        snprintf(widest, sizeof widest, d->format ? d->format : "%g", (double)d->max);
        float vw = fmaxf(fmaxf(ui_text_width(ui, FONT_MONO, t->text_size, vbuf),
                               ui_text_width(ui, FONT_MONO, t->text_size, widest)),
                         d->at_min ? ui_text_width(ui, FONT_MONO, t->text_size, d->at_min) : 0) +
                   8;
        if (label)
            ui_label_fit(ui, rect_cut_left(&row, lw), FONT_SANS, ls, ALIGN_LEFT, t->text, label);
        ui_label(ui, rect_cut_right(&row, vw), FONT_MONO, t->text_size, ALIGN_RIGHT, t->text, vbuf);
    } else {
        Rect top = rect_cut_top(&row, r.h * 0.5f);
        if (d->label) ui_label_fit(ui, top, FONT_SANS, t->text_size, ALIGN_LEFT, t->text, d->label);
        ui_label(ui, top, FONT_MONO, t->text_size, ALIGN_RIGHT, t->text, vbuf);
    }
    Rect track = {row.x + 8, row.y + row.h * 0.5f - 3, row.w - 16, 6};
    Rect grab = {row.x, row.y, row.w, row.h};
    interact(ui, id, grab);
    int res = 0;
    if (ui->active == id && ui->in.down) {
        float nv = slider_from_t((ui->in.mx - track.x) / track.w, d);
        /* a pixel of a log track is several values wide at its top: within
         * 0.15 of a doubling of a power of two, the power of two it is */
        if (d->pow2 && d->log && d->min > 0) {
            float tt = fminf(fmaxf((ui->in.mx - track.x) / track.w, 0), 1);
            float lv = log2f(d->min) + tt * (log2f(d->max) - log2f(d->min)), e = roundf(lv);
            if (fabsf(lv - e) < 0.15f) nv = fminf(fmaxf(exp2f(e), d->min), d->max);
        }
        if (nv != *value) {
            *value = nv;
            res |= UI_CHANGED;
        }
    }
    if (ui->active == id && ui->in.released) res |= UI_RELEASED;
    if (focusable(ui, id, r, UI_FOCUS_SLIDER)) {
        /* one step per arrow, ten per page, the ends with Home and End */
        float step = d->integer ? 1 : (d->max - d->min) / 100;
        float nv = *value;
        for (int k = 0; k < ui->in.key_count; k++) {
            Ui_Key key = ui->in.keys[k];
            if (key == KEY_RIGHT || key == KEY_UP) nv += step;
            if (key == KEY_LEFT || key == KEY_DOWN) nv -= step;
            if (key == KEY_PAGEUP)
                nv = d->pow2 && nv > 0 ? exp2f(floorf(log2f(nv)) + 1) : nv + 10 * step;
            if (key == KEY_PAGEDOWN)
                nv = d->pow2 && nv > 0 ? exp2f(ceilf(log2f(nv)) - 1) : nv - 10 * step;
            if (key == KEY_HOME) nv = d->min;
            if (key == KEY_END) nv = d->max;
        }
        nv = fminf(fmaxf(nv, d->min), d->max);
        if (nv != *value) {
            *value = nv;
            res |= UI_CHANGED;
        }
    }
    float tt = slider_to_t(*value, d);
    if (tt < 0) tt = 0;
    if (tt > 1) tt = 1;
    draw_round_rect(ui->dl, track, 3, t->panel_border);
    draw_round_rect(ui->dl, (Rect){track.x, track.y, track.w * tt, track.h}, 3, t->accent);
    float kx = track.x + track.w * tt, ky = track.y + 3;
    draw_circle(ui->dl, kx, ky, ui->active == id ? 10 : 8, t->text);
    if (ui->hot == id || ui->active == id) draw_circle_outline(ui->dl, kx, ky, 12, 2, t->accent);
    return res;
}

float ui_text_wrapped(Ui *ui, Rect r, Font_Id font, float size, Color c, const char *text,
                      bool draw) {
    float lh = ui_line_height(ui, font, size), y = r.y;
    const char *p = text;
    while (*p) {
        /* take as many words as fit; a word longer than the line is cut */
        const char *line_end = p, *scan = p;
        while (*scan) {
            const char *w = scan;
            while (*w == ' ') w++;
            const char *e = utf8_word_end(w, w + strlen(w));
            if (ui_text_widthn(ui, font, size, p, (int)(e - p)) > r.w && line_end != p) break;
            line_end = e;
            scan = e;
            if (ui_text_widthn(ui, font, size, p, (int)(e - p)) > r.w) break;
        }
        if (draw && y + lh <= r.y + r.h + 0.5f)
            draw_textn(ui->dl, font, size, r.x, y, ALIGN_LEFT, c, p, (int)(line_end - p));
        y += lh;
        p = line_end;
        while (*p == ' ') p++;
    }
    return y - r.y;
}

Rect ui_modal(Ui *ui, float w, float h, const char *title, const char *name, bool *closed) {
    w = fminf(ui->w - 40, w);
    h = fminf(ui->h - 40, h);
    Rect box = {(ui->w - w) * 0.5f, (ui->h - h) * 0.5f, w, h};
    ui->modal_seen = ui->in_modal = true;
    draw_layer(ui->dl); /* over everything, text included */
    draw_rect(ui->dl, (Rect){0, 0, ui->w, ui->h}, ui->theme->dim);
    ui_panel(ui, box, title, false);
    ui_record(ui, "panel", name, -1, box);
    *closed = ui_key(ui, KEY_ESCAPE) || (ui->in.pressed && !ui_hit(ui, box));
    Rect body = rect_inset(box, ui->theme->pad * 2);
    rect_cut_top(&body, 36);
    return body;
}

void ui_plot_area(Ui *ui, Rect r) {
    draw_rect(ui->dl, r, ui->theme->plot);
    draw_rect_outline(ui->dl, r, 0, ui->theme->line, ui->theme->panel_border);
}
