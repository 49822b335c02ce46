/* src/ui/draw.c and src/ui/colormap.c: the draw list records what widgets
 * ask for, within fixed capacities; colormaps sample their tables. */
#include "test_util.h"
#include "gfx/draw.h"
#include "gfx/utf8.h"

#include <string.h>

Test(draw, records_commands_in_order) {
    Draw_List dl;
    cr_assert(draw_init(&dl, &(Draw_Desc){.max_cmds = 16, .max_text = 64, .max_grid = 16}));
    draw_rect(&dl, (Rect){1, 2, 3, 4}, rgba(1, 2, 3, 4));
    draw_text(&dl, FONT_MONO, 12, 5, 6, ALIGN_RIGHT, rgba(9, 9, 9, 255), "héllo");
    float g[4] = {1, 2, 3, 4};
    draw_heatmap(&dl, (Rect){0, 0, 10, 10}, g, 2, 2, 0, 4, COLORMAP_CIVIDIS);
    cr_assert_eq(dl.count, 3);
    cr_assert_eq(dl.cmds[0].kind, DRAW_RECT);
    cr_assert_eq(dl.cmds[0].rect.r.w, 3);
    cr_assert_eq(dl.cmds[1].kind, DRAW_TEXT);
    cr_assert_eq(dl.cmds[1].text.len, 6);
    cr_assert_eq(memcmp(dl.text + dl.cmds[1].text.offset, "héllo", 6), 0);
    cr_assert_eq(dl.cmds[2].heat.rows, 2);
    cr_assert_eq(dl.grid[dl.cmds[2].heat.offset + 3], 4);
    draw_clear(&dl);
    cr_assert_eq(dl.count, 0);
    draw_free(&dl);
}

Test(draw, overflow_is_dropped_and_counted_not_written) {
    Draw_List dl;
    cr_assert(draw_init(&dl, &(Draw_Desc){.max_cmds = 2, .max_text = 4, .max_grid = 3}));
    draw_text(&dl, FONT_SANS, 10, 0, 0, ALIGN_LEFT, rgba(0, 0, 0, 0), "too long");
    float g[4] = {0};
    draw_heatmap(&dl, (Rect){0}, g, 2, 2, 0, 1, COLORMAP_VIRIDIS);
    draw_rect(&dl, (Rect){0}, rgba(0, 0, 0, 0));
    draw_rect(&dl, (Rect){0}, rgba(0, 0, 0, 0));
    draw_rect(&dl, (Rect){0}, rgba(0, 0, 0, 0));
    cr_assert_eq(dl.count, 2);
    cr_assert_eq(dl.dropped, 3);
    draw_free(&dl);
}

/* The buffers grow when a frame needs more than they hold, keeping what was
 * recorded, and a frame of the same size afterwards needs no growth. */
Test(draw, the_list_grows_for_a_bigger_frame_and_keeps_its_contents) {
    Draw_List dl;
    cr_assert(draw_init(&dl, &(Draw_Desc){0}));
    static float g[512 * 512];
    for (int k = 0; k < 512 * 512; k++) g[k] = (float)(k % 97);
    for (int frame = 0; frame < 2; frame++) {
        draw_clear(&dl);
        for (int m = 0; m < 24; m++) draw_heatmap(&dl, (Rect){0}, g, 512, 512, 0, 97, 0);
        for (int m = 0; m < 40000; m++)
            draw_text(&dl, FONT_SANS, 10, 0, 0, 0, rgba(0, 0, 0, 0), "ab");
        cr_assert_eq(dl.dropped, 0);
        cr_assert_eq(dl.count, 24 + 40000);
        cr_assert_eq(dl.grid_len, 24 * 512 * 512);
        for (int m = 0; m < 24; m++)
            cr_assert_eq(dl.grid[dl.cmds[m].heat.offset + 512 * 512 - 1], g[512 * 512 - 1]);
    }
    int32_t cap = dl.grid_cap;
    draw_clear(&dl);
    for (int m = 0; m < 24; m++) draw_heatmap(&dl, (Rect){0}, g, 512, 512, 0, 97, 0);
    cr_assert_eq(dl.grid_cap, cap, "a frame no bigger than before does not grow the list");
    draw_free(&dl);
}

Test(draw, utf8_decoding) {
    uint32_t cp;
    const char *s = "a√⟨\xF0\x9D\x9B\xBC\xff";
    s = utf8_next(s, &cp);
    cr_assert_eq(cp, 'a');
    s = utf8_next(s, &cp);
    cr_assert_eq(cp, 0x221A);
    s = utf8_next(s, &cp);
    cr_assert_eq(cp, 0x27E8);
    s = utf8_next(s, &cp);
    cr_assert_eq(cp, 0x1D6FC);
    s = utf8_next(s, &cp);
    cr_assert_eq(cp, 0xFFFD, "an invalid byte decodes to the replacement character");
    cr_assert_eq(*s, '\0');
}

/* Chinese has no spaces: a line may break after any Han character, but a
 * closing mark (。，、) never starts a line and an opening one (「（) never ends
 * one; Latin words still break only at spaces. Words are cut one after another. */
Test(draw, line_breaking_cuts_chinese_between_characters_by_the_punctuation_rules) {
    static const struct {
        const char *text, *words[8];
    } cases[] = {
        {"注意力", {"注", "意", "力"}},
        {"查询，键。", {"查", "询，", "键。"}},
        {"「值」很好", {"「值」", "很", "好"}},
        {"头（head）很", {"头", "（head）", "很"}},
        {"softmax权重、值", {"softmax", "权", "重、", "值"}},
        {"Q·K 的点积", {"Q·K", " ", "的", "点", "积"}},
    };
    for (size_t k = 0; k < sizeof cases / sizeof *cases; k++) {
        const char *s = cases[k].text, *end = s + strlen(s);
        for (int w = 0; s < end; w++) {
            if (*s == ' ') { /* spaces are skipped by the callers; keep the count honest */
                cr_assert_str_eq(cases[k].words[w], " ", "case %zu word %d", k, w);
                s++;
                continue;
            }
            const char *e = utf8_word_end(s, end);
            cr_assert(e > s, "case %zu: a word is never empty", k);
            cr_assert(cases[k].words[w], "case %zu: more words than expected at '%s'", k, s);
            char got[64];
            snprintf(got, sizeof got, "%.*s", (int)(e - s), s);
            cr_assert_str_eq(got, cases[k].words[w], "case %zu word %d", k, w);
            s = e;
        }
    }
    cr_assert(utf8_cjk(0x6CE8) && utf8_cjk(0x3002) && !utf8_cjk('a') && !utf8_cjk(0x00E9));
}

Test(colormap, ends_and_middle_come_from_the_tables) {
    for (int m = 0; m < COLORMAP_COUNT; m++) {
        Color lo = colormap_sample((Colormap)m, 0), hi = colormap_sample((Colormap)m, 1);
        cr_assert_eq(lo.r, colormap_lut[m][0][0]);
        cr_assert_eq(hi.b, colormap_lut[m][255][2]);
        Color nan = colormap_sample((Colormap)m, 0.0f / 0.0f);
        cr_assert_eq(nan.g, lo.g, "NaN maps to the low end, never garbage");
    }
    /* the diverging map is (near) white at its centre and cool / warm at its ends */
    Color mid = colormap_sample(COLORMAP_DIVERGING, 0.5f);
    cr_assert(mid.r > 230 && mid.g > 230 && mid.b > 230);
    Color neg = colormap_sample(COLORMAP_DIVERGING, 0),
          pos = colormap_sample(COLORMAP_DIVERGING, 1);
    cr_assert(neg.b > neg.r && pos.r > pos.b);
    /* viridis gets lighter from 0 to 1: monotone luminance is why it reads as an order */
    float prev = -1;
    for (int k = 0; k <= 10; k++) {
        float l = color_luminance(colormap_sample(COLORMAP_VIRIDIS, k / 10.0f));
        cr_assert_gt(l, prev);
        prev = l;
    }
}
