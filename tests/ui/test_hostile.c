/* Hostile sizes and shapes: every view laid out at 1×1, at n = 1 and at the
 * largest n, at d_k = 1 and 1024, scaled and not. Nothing may crash, and no
 * coordinate in the draw list may be NaN or infinite. */
#include "harness.h"

#include <math.h>

static Harness h;

static void open_default(void) {
    harness_open(&h, "default.json", 1600, 900, (Text_Metrics){0});
}

static void close_default(void) {
    harness_close(&h);
}

TestSuite(hostile, .init = open_default, .fini = close_default);

static void check_draw_list_finite(const char *what) {
    for (int k = 0; k < h.dl.count; k++) {
        const Draw_Cmd *c = &h.dl.cmds[k];
        float v[6] = {0};
        switch (c->kind) {
        case DRAW_RECT:
            v[0] = c->rect.r.x, v[1] = c->rect.r.y, v[2] = c->rect.r.w, v[3] = c->rect.r.h;
            break;
        case DRAW_LINE:
            v[0] = c->line.x0, v[1] = c->line.y0, v[2] = c->line.x1, v[3] = c->line.y1,
            v[4] = c->line.width;
            break;
        case DRAW_TEXT:
            v[0] = c->text.x, v[1] = c->text.y, v[2] = c->text.size;
            break;
        case DRAW_HEATMAP:
            v[0] = c->heat.r.x, v[1] = c->heat.r.w, v[2] = c->heat.vmin, v[3] = c->heat.vmax;
            break;
        case DRAW_TRIANGLE:
            v[0] = c->tri.x[0], v[1] = c->tri.y[1], v[2] = c->tri.x[2];
            break;
        default:
            break;
        }
        for (int i = 0; i < 6; i++)
            cr_assert(isfinite(v[i]), "%s: command %d (kind %d) has a non-finite number %d", what,
                      k, c->kind, i);
    }
    for (long g = 0; g < h.dl.grid_len; g++)
        cr_assert(isfinite(h.dl.grid[g]), "%s: heatmap value %ld", what, g);
}

static void all_views(const char *what) {
    for (int v = 0; v < VIEW_COUNT; v++) {
        h.vs.view = (View)v;
        harness_frame(&h);
        harness_frame(&h);
        char label[96];
        snprintf(label, sizeof label, "%s, %s view", what, view_name((View)v));
        check_draw_list_finite(label);
    }
}

Test(hostile, a_one_pixel_window) {
    h.w = h.h = 1;
    all_views("1x1");
    h.w = 1600;
    h.h = 900;
    all_views("back to 1600x900");
    cr_assert_eq(h.dl.dropped, 0);
}

Test(hostile, one_token) {
    harness_act(&h, (Action){.kind = ACTION_SENTENCE, .text = "alone"});
    const int dks[2] = {1, 1024};
    for (int k = 0; k < 2; k++) {
        harness_act(&h, action_set(SET_DK, dks[k]));
        harness_act(&h, action_set(SET_SCALED, k == 0));
        all_views("n = 1");
        cr_assert_float_eq(h.m.derived.pass.head[0].A[0], 1.0f, 1e-7,
                           "one token attends fully to itself");
    }
}

Test(hostile, the_largest_sentence_at_both_ends_of_dk) {
    static char text[ATTN_MAX_TOKENS * 8];
    size_t used = 0;
    for (int i = 0; i < ATTN_MAX_TOKENS; i++)
        used += (size_t)snprintf(text + used, sizeof text - used, "t%d ", i);
    harness_act(&h, (Action){.kind = ACTION_SENTENCE, .text = text});
    const int dks[2] = {1, 1024};
    for (int k = 0; k < 2; k++) {
        harness_act(&h, action_set(SET_DK, dks[k]));
        harness_act(&h, action_set(SET_SCALED, k == 1));
        harness_act(&h, action_set(SET_POS, k ? POS_SIN : POS_NONE));
        all_views("n = 512");
        cr_assert_eq(h.dl.dropped, 0, "the draw list holds the frame");
    }
}

Test(hostile, extreme_embeddings_unscaled_at_full_width) {
    for (int i = 0; i < h.m.scene.n; i++)
        harness_act(&h, action_move(i, 0, (i % 2 ? 1 : -1) * (float)ATTN_MAX_ABS_X, 1,
                                    (float)ATTN_MAX_ABS_X));
    harness_act(&h, action_set(SET_DK, 1024));
    harness_act(&h, action_set(SET_SCALED, false));
    all_views("|x| = 1000, d_k = 1024 unscaled");
}
