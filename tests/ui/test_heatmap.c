/* src/ui/heatmap.c: numbers in cells fit and never read "-0.00"; labels
 * stay on every row and column up to 12; nothing of a title is cut. */
#include "harness.h"
#include "ui/heatmap.h"

#include <math.h>

static void number(double v, int decimals, bool sci, const char *want) {
    char buf[32];
    heatmap_number(v, decimals, sci, buf, sizeof buf);
    cr_assert_str_eq(buf, want, "%g with %d decimals%s", v, decimals, sci ? ", sci" : "");
}

Test(heatmap, numbers_read_as_numbers) {
    number(0.4069, 2, false, "0.41");
    number(-22.7, 0, false, "-23");
    number(-0.004, 2, false, "0.00");
    number(-0.0, 1, false, "0.0");
    number(-0.04, 1, false, "0.0");
    number(-0.06, 1, false, "-0.1");
    number(1234.0, 1, true, "1.2e3");
    number(-0.045, 1, true, "-4.5e-2");
    number(0.0, 1, true, "0.0");
    number(-1e-9, 0, true, "-1e-9");
}

static Draw_List dl;
static Ui ui;

static void up(void) {
    cr_assert(draw_init(&dl, &(Draw_Desc){0}));
    ui_init(&ui, &dl, (Text_Metrics){.width = stub_width, .line_height = stub_line_height});
    ui_begin(&ui, &(Ui_Input){.mx = -100, .my = -100}, 1600, 900);
    ui.theme = theme_get(THEME_DARK, true);
}

static void down(void) {
    draw_free(&dl);
}

TestSuite(heatmap_layout, .init = up, .fini = down);

typedef struct Text_Run {
    float x, y, w, size;
    char s[64];
} Text_Run;

static int texts(Text_Run *out, int max) {
    int count = 0;
    for (int k = 0; k < dl.count && count < max; k++) {
        const Draw_Cmd *c = &dl.cmds[k];
        if (c->kind != DRAW_TEXT) continue;
        Text_Run *r = &out[count++];
        snprintf(r->s, sizeof r->s, "%.*s", c->text.len, dl.text + c->text.offset);
        r->size = c->text.size;
        r->w = stub_width(NULL, c->text.font, c->text.size, r->s, (int)strlen(r->s));
        r->x = c->text.align == ALIGN_CENTER  ? c->text.x - r->w * 0.5f
               : c->text.align == ALIGN_RIGHT ? c->text.x - r->w
                                              : c->text.x;
        r->y = c->text.y;
    }
    return count;
}

static const char *const words[12] = {"the",   "cat",  "sat",   "on",   "a",     "mat",
                                      "while", "dogs", "slept", "near", "fires", "home"};

Test(heatmap_layout, twelve_rows_and_columns_keep_every_label_in_a_small_panel) {
    static float v[144];
    for (int k = 0; k < 144; k++) v[k] = (float)(k % 7) - 3.0f;
    Heatmap_Result res;
    ui_heatmap(&ui,
               &(Heatmap_Desc){.name = "S",
                               .r = {10, 10, 260, 250},
                               .title = "Scores S",
                               .values = v,
                               .rows = 12,
                               .cols = 12,
                               .vmin = -3,
                               .vmax = 3,
                               .map = COLORMAP_DIVERGING,
                               .row_labels = words,
                               .col_labels = words,
                               .row_axis = "query",
                               .col_axis = "key"},
               &res);
    cr_assert_lt(res.cell_h, 14, "the cells (%g) are smaller than a line of text", res.cell_h);
    static Text_Run run[512];
    int count = texts(run, 512);
    for (int w = 0; w < 12; w++) {
        int seen = 0;
        for (int k = 0; k < count; k++) {
            /* a label, whole or shortened with "…" */
            size_t len = strlen(run[k].s);
            bool cut = len > 3 && !strcmp(run[k].s + len - 3, "…");
            if (!strcmp(run[k].s, words[w]) ||
                (cut && !strncmp(run[k].s, words[w], len - 3) && len > 3 + 1))
                seen++;
        }
        cr_assert_geq(seen, 2, "'%s' has %d labels, not a row and a column label", words[w], seen);
    }
    /* labels on the same line never overlap: staggered columns have two cells' room */
    for (int a = 0; a < count; a++)
        for (int b = a + 1; b < count; b++)
            if (fabsf(run[a].y - run[b].y) < 1 && run[a].x < run[b].x + run[b].w - 0.5f &&
                run[b].x < run[a].x + run[a].w - 0.5f)
                cr_assert_fail("'%s' and '%s' overlap", run[a].s, run[b].s);
}

Test(heatmap_layout, numbers_fit_their_cells_or_are_left_out) {
    static float v[36];
    for (int k = 0; k < 36; k++) v[k] = k % 2 ? -22.73f * (float)k : 0.004f * (float)k - 0.07f;
    for (float side = 120; side <= 600; side += 40) {
        draw_clear(&dl);
        Heatmap_Result res;
        ui_heatmap(&ui,
                   &(Heatmap_Desc){.name = "S",
                                   .r = {10, 10, side, side},
                                   .title = "S",
                                   .values = v,
                                   .rows = 6,
                                   .cols = 6,
                                   .vmin = -800,
                                   .vmax = 800,
                                   .map = COLORMAP_DIVERGING,
                                   .numbers = true,
                                   .decimals = 2},
                   &res);
        static Text_Run run[256];
        int count = texts(run, 256);
        int in_cells = 0;
        for (int k = 0; k < count; k++) {
            if (run[k].x < res.grid.x || run[k].y < res.grid.y) continue; /* title, legend */
            if (run[k].x > res.grid.x + res.grid.w) continue;
            in_cells++;
            bool minus_zero = run[k].s[0] == '-';
            for (const char *p = run[k].s + 1; minus_zero && *p; p++)
                minus_zero = *p == '0' || *p == '.';
            cr_assert_not(minus_zero, "'%s' reads as minus zero", run[k].s);
            cr_assert_leq(run[k].w + 4, res.cell_w, "'%s' is %g wide in a %g cell", run[k].s,
                          run[k].w, res.cell_w);
        }
        cr_assert(in_cells == 0 || in_cells == 36, "side %g: %d numbers", side, in_cells);
        if (side >= 560) cr_assert_eq(in_cells, 36, "big cells show their numbers");
    }
}
