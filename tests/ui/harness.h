/* A headless harness for UI tests: the real view and model, stub text
 * metrics (no font, no window), and synthetic mouse and keyboard input. */
#ifndef ATTN_TEST_HARNESS_H
#define ATTN_TEST_HARNESS_H

#include "model/scene_file.h"
#include "test_util.h"
#include "ui/view.h"

#include <string.h>

typedef struct Harness {
    Vocab vocab;
    Model m;
    Draw_List dl;
    Ui ui;
    View_State vs;
    Ui_Record records[UI_MAX_RECORDS];
    Ui_Input in;
    float w, h;
} Harness;

static float stub_width(void *ctx, Font_Id f, float size, const char *t, int len) {
    (void)ctx;
    (void)f;
    int chars = 0;
    for (int k = 0; k < len; k++) chars += ((unsigned char)t[k] & 0xC0) != 0x80;
    return (float)chars * size * 0.55f;
}

static float stub_line_height(void *ctx, Font_Id f, float size) {
    (void)ctx;
    (void)f;
    return size * 1.2f;
}

/* One frame: the view handles the input, edges reset. */
static inline void harness_one_frame(Harness *h) {
    ui_begin(&h->ui, &h->in, h->w, h->h);
    view_frame(&h->ui, &h->vs, &h->m);
    ui_end(&h->ui);
    ui_input_spent(&h->in);
    h->in.time += 0.02;
}

/* One frame, then the calm frame the app runs at once after input: it
 * applies what the widgets asked for and shows the result. */
static inline void harness_frame(Harness *h) {
    harness_one_frame(h);
    harness_one_frame(h);
    cr_assert_eq(h->vs.actions.count, 0, "a calm frame asked for more changes");
}

/* A test changes the scene the way everything else does: with an action. */
static inline void harness_act(Harness *h, Action a) {
    char err[400];
    cr_assert(model_apply(&h->m, &a, err, sizeof err), "%s: %s", action_name(a.kind), err);
}

static inline void harness_open(Harness *h, const char *scene_file, float w, float hgt,
                                Text_Metrics tm) {
    memset(h, 0, sizeof *h);
    char path[1024], err[512];
    snprintf(path, sizeof path, "%s/assets/vocab.tsv", test_env("ATTNLAB_DATA"));
    cr_assert(vocab_load(&h->vocab, path, err, sizeof err), "%s", err);
    snprintf(path, sizeof path, "%s/assets/scenes/%s", test_env("ATTNLAB_DATA"), scene_file);
    static Scene s;
    cr_assert(scene_load(&s, path, &h->vocab, err, sizeof err), "%s", err);
    cr_assert(model_init(&h->m, &s, &h->vocab));
    cr_assert(draw_init(&h->dl, &(Draw_Desc){0}));
    if (!tm.width) tm = (Text_Metrics){.width = stub_width, .line_height = stub_line_height};
    ui_init(&h->ui, &h->dl, tm);
    h->ui.records = h->records;
    view_init(&h->vs);
    h->w = w;
    h->h = hgt;
    h->in.mx = h->in.my = -1000;
    harness_frame(h);
    harness_frame(h);
}

static inline void harness_close(Harness *h) {
    model_free(&h->m);
    draw_free(&h->dl);
    vocab_free(&h->vocab);
}

/* That record, or NULL. */
static inline const Ui_Record *harness_find_maybe(Harness *h, const char *kind, const char *name,
                                                  int index) {
    for (int k = 0; k < h->ui.record_count; k++) {
        const Ui_Record *r = &h->records[k];
        if (!strcmp(r->kind, kind) && !strcmp(r->name, name) && r->index == index) return r;
    }
    return NULL;
}

static inline const Ui_Record *harness_find(Harness *h, const char *kind, const char *name,
                                            int index) {
    const Ui_Record *r = harness_find_maybe(h, kind, name, index);
    if (!r) cr_assert_fail("no %s '%s' %d in the layout", kind, name, index);
    return r;
}

/* The first record of that kind and name, whatever its index, or NULL. */
static inline const Ui_Record *harness_find_any(Harness *h, const char *kind, const char *name) {
    for (int k = 0; k < h->ui.record_count; k++) {
        const Ui_Record *r = &h->records[k];
        if (!strcmp(r->kind, kind) && !strcmp(r->name, name)) return r;
    }
    return NULL;
}

static inline void harness_move(Harness *h, float x, float y) {
    h->in.mx = x;
    h->in.my = y;
    harness_frame(h);
}

static inline void harness_press(Harness *h, float x, float y) {
    h->in.mx = x;
    h->in.my = y;
    h->in.down = true;
    h->in.pressed = true;
    harness_frame(h);
}

static inline void harness_release(Harness *h) {
    h->in.down = false;
    h->in.released = true;
    harness_frame(h);
}

static inline void harness_click(Harness *h, float x, float y) {
    harness_press(h, x, y);
    harness_release(h);
}

static inline void harness_key(Harness *h, Ui_Key key, char c, bool ctrl, bool shift) {
    h->in.keys[0] = key;
    h->in.key_chars[0] = c;
    h->in.key_mods[0] = (unsigned char)((ctrl ? UI_MOD_CTRL : 0) | (shift ? UI_MOD_SHIFT : 0));
    h->in.key_count = 1;
    harness_frame(h);
}

static inline void harness_type(Harness *h, const char *text) {
    snprintf(h->in.text, sizeof h->in.text, "%s", text);
    harness_frame(h);
}

/* Whether this frame drew a text run containing needle. */
static inline bool harness_drew_text(const Harness *h, const char *needle) {
    for (int k = 0; k < h->dl.count; k++)
        if (h->dl.cmds[k].kind == DRAW_TEXT) {
            char buf[512];
            snprintf(buf, sizeof buf, "%.*s", h->dl.cmds[k].text.len,
                     h->dl.text + h->dl.cmds[k].text.offset);
            if (strstr(buf, needle)) return true;
        }
    return false;
}

static inline float rect_cx(const Ui_Record *r) {
    return r->r.x + r->r.w * 0.5f;
}

static inline float rect_cy(const Ui_Record *r) {
    return r->r.y + r->r.h * 0.5f;
}

#endif
