/* src/ui/theme.c: every text run of every view, in every theme, stands out
 * from what it is drawn on: WCAG contrast ≥ 4.5:1, and ≥ 7:1 in the contrast
 * theme. The background of a run is found the way the renderer paints: the
 * window's colour, then each earlier segment's shapes and heatmaps, then the
 * shapes of the run's own segment (which are all drawn before its text),
 * blended by their alpha. */
#include "harness.h"
#include "ui/lesson_panel.h"

#include <math.h>

static Harness h;

static void open_default(void) {
    harness_open(&h, "default.json", 1600, 900, (Text_Metrics){0});
}
static void close_default(void) {
    harness_close(&h);
}

TestSuite(theme, .init = open_default, .fini = close_default);

static double channel(unsigned char v) {
    double c = v / 255.0;
    return c <= 0.04045 ? c / 12.92 : pow((c + 0.055) / 1.055, 2.4);
}

static double luminance(Color c) {
    return 0.2126 * channel(c.r) + 0.7152 * channel(c.g) + 0.0722 * channel(c.b);
}

static Color over(Color top, Color below) {
    float a = top.a / 255.0f;
    return (Color){(unsigned char)lroundf(top.r * a + below.r * (1 - a)),
                   (unsigned char)lroundf(top.g * a + below.g * (1 - a)),
                   (unsigned char)lroundf(top.b * a + below.b * (1 - a)), 255};
}

static bool covers(const Draw_Cmd *c, float x, float y) {
    if (c->kind == DRAW_RECT && c->rect.thickness == 0) {
        Rect r = c->rect.r;
        if (c->rect.radius >= r.w * 0.5f - 0.01f && fabsf(r.w - r.h) < 0.01f) { /* a circle */
            float dx = x - (r.x + r.w / 2), dy = y - (r.y + r.h / 2);
            return dx * dx + dy * dy <= r.w * r.w / 4;
        }
        return x >= r.x && x < r.x + r.w && y >= r.y && y < r.y + r.h;
    }
    if (c->kind == DRAW_HEATMAP) {
        Rect r = c->heat.r;
        return x >= r.x && x < r.x + r.w && y >= r.y && y < r.y + r.h;
    }
    return false;
}

static Color paint(const Draw_List *dl, const Draw_Cmd *c, float x, float y, Color below) {
    if (c->kind == DRAW_RECT) return over(c->color, below);
    Rect r = c->heat.r;
    int col = (int)((x - r.x) / r.w * (float)c->heat.cols);
    int row = (int)((y - r.y) / r.h * (float)c->heat.rows);
    float v = dl->grid[c->heat.offset + row * c->heat.cols + col];
    if (v != v) return below; /* a masked cell: the rect under it shows */
    float t = c->heat.vmax > c->heat.vmin ? (v - c->heat.vmin) / (c->heat.vmax - c->heat.vmin) : 0;
    return colormap_sample(c->heat.map, fminf(fmaxf(t, 0), 1));
}

static bool breaks(Draw_Kind k) {
    return k == DRAW_LAYER || k == DRAW_CLIP || k == DRAW_HEATMAP;
}

/* What is under (x, y) when the text command k is drawn. */
static Color background(const Draw_List *dl, int k, float x, float y, Color clear) {
    int seg = k; /* the start of k's segment */
    while (seg > 0 && !breaks(dl->cmds[seg - 1].kind)) seg--;
    int end = k; /* its end: shapes after k in the segment are drawn before k's text */
    while (end < dl->count && !breaks(dl->cmds[end].kind)) end++;
    Color c = clear;
    for (int i = 0; i < end; i++) {
        if (dl->cmds[i].kind == DRAW_TEXT) continue;
        if (covers(&dl->cmds[i], x, y)) c = paint(dl, &dl->cmds[i], x, y, c);
    }
    return c;
}

/* Every text run's contrast; fails naming the worst one. */
static void check_contrast(const char *what, double need) {
    const Theme *t = h.ui.theme;
    double worst = 1e9;
    char worst_text[200] = "";
    int runs = 0;
    for (int k = 0; k < h.dl.count; k++) {
        const Draw_Cmd *c = &h.dl.cmds[k];
        if (c->kind != DRAW_TEXT || c->text.len == 0 || c->color.a == 0) continue;
        const char *s = h.dl.text + c->text.offset;
        bool blank = true;
        for (int i = 0; i < c->text.len; i++) blank &= s[i] == ' ';
        if (blank) continue;
        float half = stub_width(NULL, FONT_SANS, c->text.size, s, c->text.len) / 2;
        float first = fminf(0.3f * c->text.size, half);
        float x = c->text.align == ALIGN_LEFT    ? c->text.x + first
                  : c->text.align == ALIGN_RIGHT ? c->text.x - first
                                                 : c->text.x;
        float y = c->text.y + 0.6f * c->text.size;
        if (x < 0 || y < 0 || x >= h.w || y >= h.h) continue; /* scrolled or clipped away */
        Color bg = background(&h.dl, k, x, y, t->bg);
        Color fg = over(c->color, bg);
        double l1 = luminance(fg), l2 = luminance(bg);
        double ratio = (fmax(l1, l2) + 0.05) / (fmin(l1, l2) + 0.05);
        runs++;
        if (ratio < worst) {
            worst = ratio;
            snprintf(worst_text, sizeof worst_text, "'%.*s' (%d,%d,%d on %d,%d,%d)",
                     c->text.len > 60 ? 60 : c->text.len, s, fg.r, fg.g, fg.b, bg.r, bg.g, bg.b);
        }
    }
    cr_assert_gt(runs, 20, "%s: only %d text runs", what, runs);
    cr_assert_geq(worst, need, "%s: %s has contrast %.2f:1, below %.1f:1", what, worst_text, worst,
                  need);
}

static void every_view(Theme_Id id) {
    static const View views[] = {VIEW_EXPLORER, VIEW_SCALING, VIEW_PERMUTATION, VIEW_TRAIN};
    char what[120];
    double need = id == THEME_CONTRAST ? 7.0 : 4.5;
    h.vs.theme = id;
    for (size_t v = 0; v < sizeof views / sizeof *views; v++) {
        h.vs.view = views[v];
        harness_frame(&h);
        snprintf(what, sizeof what, "%s theme, %s view", theme_name(id), view_name(views[v]));
        check_contrast(what, need);
    }
    /* a lesson step beside the explorer, with its goal box */
    static Lesson lesson;
    static Scene saved;
    static Math_Scratch math;
    char path[1024], err[1024];
    snprintf(path, sizeof path, "%s/lessons/03-scores-softmax-outputs.md",
             test_env("ATTNLAB_DATA"));
    cr_assert(lesson_load(&lesson, path, err, sizeof err), "%s", err);
    h.vs.session.lesson = &lesson;
    h.vs.session.saved = &saved;
    h.vs.session.math = &math;
    h.vs.session.data_dir = test_env("ATTNLAB_DATA");
    cr_assert(lesson_enter(&h.vs, &h.m, err, sizeof err), "%s", err);
    h.vs.view = VIEW_EXPLORER;
    for (int k = 0; k < 40 && h.vs.session.step == 0; k++) /* → turns step 1's pages, then on */
        harness_key(&h, KEY_RIGHT, 0, false, false);
    harness_frame(&h);
    snprintf(what, sizeof what, "%s theme, lesson 3 step 2", theme_name(id));
    check_contrast(what, need);
    /* the help over everything */
    harness_key(&h, KEY_F1, 0, false, false);
    snprintf(what, sizeof what, "%s theme, help", theme_name(id));
    check_contrast(what, need);
}

Test(theme, dark_text_stands_out_everywhere) {
    every_view(THEME_DARK);
}
Test(theme, light_text_stands_out_everywhere) {
    every_view(THEME_LIGHT);
}
Test(theme, contrast_text_is_seven_to_one_everywhere) {
    every_view(THEME_CONTRAST);
}

Test(theme, names_and_f2_cycle) {
    Theme_Id id;
    cr_assert(theme_by_name("light", &id) && id == THEME_LIGHT);
    cr_assert(theme_by_name("contrast", &id) && id == THEME_CONTRAST);
    cr_assert_not(theme_by_name("blue", &id));
    cr_assert_str_eq(theme_name(THEME_DARK), "dark");
    cr_assert_eq(h.vs.theme, THEME_DARK);
    harness_key(&h, KEY_F2, 0, false, false);
    cr_assert_eq(h.vs.theme, THEME_LIGHT);
    cr_assert_eq(h.ui.theme->bg.r, theme_get(THEME_LIGHT, false)->bg.r, "the frame uses it");
    harness_key(&h, KEY_F2, 0, false, false);
    harness_key(&h, KEY_F2, 0, false, false);
    cr_assert_eq(h.vs.theme, THEME_DARK, "three presses come back");
    cr_assert_gt(theme_get(THEME_CONTRAST, false)->line, theme_get(THEME_DARK, false)->line,
                 "the contrast theme draws thicker outlines");
}
