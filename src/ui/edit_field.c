/* The one-line text field; see edit_field.h. */
#include "edit_field.h"

#include "../core/i18n.h"
#include "../core/text.h"
#include "../gfx/utf8.h"

#include <math.h>
#include <stdio.h>
#include <string.h>

/* The selection is [edit_sel_from, edit_sel_to): between the anchor and the cursor. */
static int sel_from(const View_State *vs) {
    return vs->edit_anchor < vs->edit_cursor ? vs->edit_anchor : vs->edit_cursor;
}

static int sel_to(const View_State *vs) {
    return vs->edit_anchor > vs->edit_cursor ? vs->edit_anchor : vs->edit_cursor;
}

static void edit_remove(View_State *vs, int from, int to) {
    memmove(vs->edit + from, vs->edit + to, (size_t)(vs->edit_len - to + 1));
    vs->edit_len -= to - from;
    vs->edit_cursor = vs->edit_anchor = from;
}

/* Replace the selection with text (typed or pasted). Text that does not fit
 * whole is not put in at all, and the status line says so. Line breaks and
 * tabs become spaces; text that is not UTF-8 is refused. */
static void edit_insert(View_State *vs, const char *text, size_t len) {
    /* the length first: a paste too long for the platform's buffer is
     * reported with its real length and never read */
    int from = sel_from(vs), to = sel_to(vs);
    size_t room = sizeof vs->edit - 1 - (size_t)(vs->edit_len - (to - from));
    if (len > room) {
        view_set_status(vs, true, _("Not added: %zu bytes, and the sentence has room for %zu more"),
                        len, room);
        return;
    }
    size_t bad;
    if (!text_utf8_check(text, len, &bad)) {
        view_set_status(vs, true, _("Not added: the text is not UTF-8 (byte %zu)"), bad + 1);
        return;
    }
    edit_remove(vs, from, to);
    memmove(vs->edit + from + len, vs->edit + from, (size_t)(vs->edit_len - from + 1));
    for (size_t k = 0; k < len; k++) {
        char c = text[k];
        vs->edit[from + (int)k] = c == '\n' || c == '\r' || c == '\t' ? ' ' : c;
    }
    vs->edit_len += (int)len;
    vs->edit_cursor = vs->edit_anchor = from + (int)len;
}

/* Copy the selection for the platform's clipboard. */
static void edit_copy(View_State *vs) {
    int from = sel_from(vs), to = sel_to(vs);
    if (from == to) return;
    snprintf(vs->clipboard, sizeof vs->clipboard, "%.*s", to - from, vs->edit + from);
    vs->want_clipboard = true;
}

/* The byte offset of the character boundary nearest x in the box's text. */
static int edit_offset_at(Ui *ui, const View_State *vs, float fs, float x) {
    int best = 0;
    float best_d = fabsf(x - vs->edit_origin);
    for (int at = 0; at < vs->edit_len;) {
        at = utf8_after(vs->edit, at, vs->edit_len);
        float d = fabsf(x - vs->edit_origin - ui_text_widthn(ui, FONT_SANS, fs, vs->edit, at));
        if (d < best_d) best_d = d, best = at;
    }
    return best;
}

void edit_field(Ui *ui, View_State *vs, Rect r) {
    const Theme *t = ui->theme;
    float fs = t->text_size;
    Rect box = rect_inset(r, 2);
    Rect inner = rect_inset(box, 8);
    /* typed text goes in at the cursor, over the selection; ← → Home End
     * move (with Shift they select), Ctrl+A selects all, Ctrl+C Ctrl+X
     * Ctrl+V copy, cut and paste; Backspace and Delete remove the selection
     * or one UTF-8 character; Enter applies, Esc cancels; the mouse places
     * the cursor and drags a selection */
    if (ui->in.text[0]) edit_insert(vs, ui->in.text, strlen(ui->in.text));
    if (ui->in.paste) edit_insert(vs, ui->in.paste, ui->in.paste_len);
    for (int k = 0; k < ui->in.key_count; k++) {
        Ui_Key key = ui->in.keys[k];
        bool shift = ui->in.key_mods[k] & UI_MOD_SHIFT, ctrl = ui->in.key_mods[k] & UI_MOD_CTRL;
        bool has_sel = vs->edit_anchor != vs->edit_cursor;
        int c = vs->edit_cursor;
        switch (key) {
        case KEY_LEFT:
            c = has_sel && !shift ? sel_from(vs) : c > 0 ? utf8_prev(vs->edit, c) : 0;
            break;
        case KEY_RIGHT:
            c = has_sel && !shift  ? sel_to(vs)
                : c < vs->edit_len ? utf8_after(vs->edit, c, vs->edit_len)
                                   : c;
            break;
        case KEY_HOME:
            c = 0;
            break;
        case KEY_END:
            c = vs->edit_len;
            break;
        case KEY_BACKSPACE:
            if (has_sel)
                edit_remove(vs, sel_from(vs), sel_to(vs));
            else if (c > 0)
                edit_remove(vs, utf8_prev(vs->edit, c), c);
            continue;
        case KEY_DELETE:
            if (has_sel)
                edit_remove(vs, sel_from(vs), sel_to(vs));
            else if (c < vs->edit_len)
                edit_remove(vs, c, utf8_after(vs->edit, c, vs->edit_len));
            continue;
        case KEY_ESCAPE:
            vs->editing = false;
            if (vs->real_typing_path) { /* no model opened: the one open stays */
                vs->real_typing_path = false;
                view_set_status(vs, false, _("No model opened"));
                return;
            }
            if (vs->view == VIEW_MODEL) { /* the text as it was: read again */
                memcpy(vs->edit, vs->real_before, sizeof vs->edit);
                view_act(vs, (Action){.kind = ACTION_REAL_TEXT, .text = vs->edit});
                view_set_status(vs, false, _("Text unchanged"));
                return;
            }
            view_set_status(vs, false, _("Sentence unchanged"));
            return;
        case KEY_ENTER:                 /* view_apply says how it went, and ends the editing */
            if (vs->real_typing_path) { /* the platform opens it, or says why not */
                snprintf(vs->real_open_path, sizeof vs->real_open_path, "%s", vs->edit);
                vs->real_typing_path = false;
                vs->editing = false;
                return;
            }
            if (vs->view == VIEW_MODEL) {
                view_act(vs, (Action){.kind = ACTION_REAL_TEXT, .text = vs->edit});
                vs->editing = false;
                return;
            }
            view_act(vs, (Action){.kind = ACTION_SENTENCE, .text = vs->edit});
            continue;
        case KEY_CHAR:
            if (!ctrl) continue;
            if (ui->in.key_chars[k] == 'a') {
                vs->edit_anchor = 0;
                vs->edit_cursor = vs->edit_len;
            }
            if (ui->in.key_chars[k] == 'c' || ui->in.key_chars[k] == 'x') edit_copy(vs);
            if (ui->in.key_chars[k] == 'x' && has_sel) edit_remove(vs, sel_from(vs), sel_to(vs));
            continue;
        default:
            continue;
        }
        vs->edit_cursor = c;
        if (!shift) vs->edit_anchor = c;
    }
    uint32_t id = ui_id("sentence", -1);
    ui_record(ui, "field", "sentence", -1, box);
    if (ui->in.pressed && ui_hit(ui, box) && ui->active == 0) {
        ui->active = id;
        vs->edit_cursor = vs->edit_anchor = edit_offset_at(ui, vs, fs, ui->in.mx);
    } else if (ui->active == id && ui->in.down) {
        vs->edit_cursor = edit_offset_at(ui, vs, fs, ui->in.mx);
    }
    draw_round_rect(ui->dl, box, t->radius, t->field);
    draw_rect_outline(ui->dl, box, t->radius, 2, t->accent);
    float w = ui_text_width(ui, FONT_SANS, fs, vs->edit);
    float cx = ui_text_widthn(ui, FONT_SANS, fs, vs->edit, vs->edit_cursor);
    /* scroll so the cursor stays in view */
    float x = inner.x;
    if (cx > inner.w - 10) x = inner.x + inner.w - 10 - cx;
    vs->edit_origin = x;
    draw_clip(ui->dl, inner);
    if (vs->edit_anchor != vs->edit_cursor) {
        float x0 = ui_text_widthn(ui, FONT_SANS, fs, vs->edit, sel_from(vs));
        float x1 = ui_text_widthn(ui, FONT_SANS, fs, vs->edit, sel_to(vs));
        draw_rect(ui->dl, (Rect){x + x0, inner.y + 3, x1 - x0, inner.h - 6}, t->accent);
    }
    ui_label(ui, (Rect){x, inner.y, w + 4, inner.h}, FONT_SANS, fs, ALIGN_LEFT, t->text, vs->edit);
    bool blink = fmod(ui->in.time, 1.0) < 0.6;
    if (blink)
        draw_line(ui->dl, x + cx + 1, inner.y + 4, x + cx + 1, inner.y + inner.h - 4, 2, t->text);
    draw_noclip(ui->dl);
    /* the keys, inside the field at its right end while the sentence leaves
     * room (under it, they ran over the panel below) */
    const char *hint = _("Enter applies · Esc cancels · Ctrl+A C X V");
    float hw = ui_text_width(ui, FONT_SANS, t->small_size, hint);
    if (x + w + 24 + hw <= inner.x + inner.w)
        ui_label(ui, (Rect){inner.x, inner.y, inner.w - 4, inner.h}, FONT_SANS, t->small_size,
                 ALIGN_RIGHT, t->text_dim, hint);
}
