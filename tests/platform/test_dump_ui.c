/* --dump-ui: the positions it prints are where the app draws and hit-tests.
 * The same layout is rebuilt here with the real fonts' metrics, and a press
 * at a dumped position must grab that point or chip. */
#define _POSIX_C_SOURCE 200809L
#include "render/font.h"
#include "ui/harness.h"

#include <SDL_ttf.h>
#include <cjson/cJSON.h>

static cJSON *dump(const char *args) {
    char cmd[1024];
    snprintf(cmd, sizeof cmd, "'%s' --dump-ui %s", test_env("ATTNLAB_BIN"), args);
    FILE *p = popen(cmd, "r");
    cr_assert(p);
    static char buf[1 << 20];
    size_t n = fread(buf, 1, sizeof buf - 1, p);
    buf[n] = '\0';
    cr_assert_eq(pclose(p), 0, "%s failed", cmd);
    cJSON *root = cJSON_Parse(buf);
    cr_assert(root, "--dump-ui printed no JSON: %.200s", buf);
    return root;
}

static const cJSON *find_item(const cJSON *root, const char *kind, int index) {
    const cJSON *items = cJSON_GetObjectItem(root, "items");
    for (const cJSON *it = items->child; it; it = it->next)
        if (!strcmp(cJSON_GetObjectItem(it, "kind")->valuestring, kind) &&
            cJSON_GetObjectItem(it, "index")->valueint == index)
            return it;
    cr_assert_fail("no %s %d in --dump-ui", kind, index);
    return NULL;
}

static Font_Atlas atlas;
static Harness h;

Test(dump_ui, a_press_at_a_dumped_point_grabs_that_point) {
    cJSON *root = dump("--size 1600x900");
    cr_assert_eq(cJSON_GetArrayItem(cJSON_GetObjectItem(root, "size"), 0)->valueint, 1600);
    const cJSON *pt = find_item(root, "point", 3);
    cr_assert_str_eq(cJSON_GetObjectItem(pt, "token")->valuestring, "on");
    float x = (float)cJSON_GetObjectItem(pt, "x")->valuedouble;
    float y = (float)cJSON_GetObjectItem(pt, "y")->valuedouble;

    char err[512];
    cr_assert(font_load(&atlas, test_env("ATTNLAB_DATA"), false, err, sizeof err), "%s", err);
    harness_open(&h, "default.json", 1600, 900, font_text_metrics(&atlas, 1));
    static Scene before;
    before = h.m.scene;
    harness_press(&h, x, y);
    harness_move(&h, x + 25, y + 10);
    harness_release(&h);
    const Scene *s = &h.m.scene;
    for (int i = 0; i < s->n; i++) {
        bool moved = s->X[i * 2] != before.X[i * 2] || s->X[i * 2 + 1] != before.X[i * 2 + 1];
        cr_assert_eq(moved, i == 3, "token %d %s", i, moved ? "moved" : "did not move");
    }
    harness_close(&h);
    font_unload(&atlas);
    TTF_Quit();
    cJSON_Delete(root);
}

Test(dump_ui, chips_and_panels_are_listed_for_every_view_and_zoom) {
    const char *args[] = {"--size 1024x640", "--size 1920x1080 --ui-scale 2", "--view scaling",
                          "--view permutation --tokens 'a b c d'"};
    for (int k = 0; k < 4; k++) {
        cJSON *root = dump(args[k]);
        int chips = 0, panels = 0;
        const cJSON *items = cJSON_GetObjectItem(root, "items");
        for (const cJSON *it = items->child; it; it = it->next) {
            const char *kind = cJSON_GetObjectItem(it, "kind")->valuestring;
            chips += !strcmp(kind, "chip");
            panels += !strcmp(kind, "panel");
        }
        cr_assert_geq(chips, 4, "%s: %d chips", args[k], chips);
        cr_assert_geq(panels, 3, "%s: %d panels", args[k], panels);
        cJSON_Delete(root);
    }
}

/* ---- projector sizes: the cells get the room (n = 6) ------------------------------- */

/* The smallest cell side, in pixels, of the grids dump-ui reports under these
 * names: n rows of tokens, and n columns too when square. */
static double smallest_cell(const char *args, const char *const *names, int count, int n,
                            bool square) {
    cJSON *root = dump(args);
    double least = 1e9;
    int found = 0;
    const cJSON *items = cJSON_GetObjectItem(root, "items");
    for (const cJSON *it = items->child; it; it = it->next) {
        if (strcmp(cJSON_GetObjectItem(it, "kind")->valuestring, "grid")) continue;
        for (int k = 0; k < count; k++)
            if (!strcmp(cJSON_GetObjectItem(it, "id")->valuestring, names[k])) {
                const cJSON *r = cJSON_GetObjectItem(it, "rect");
                /* rows are tokens: the cell height is the grid's height over n */
                double side = cJSON_GetArrayItem(r, 3)->valuedouble / n;
                if (square && cJSON_GetArrayItem(r, 2)->valuedouble / n < side)
                    side = cJSON_GetArrayItem(r, 2)->valuedouble / n;
                least = side < least ? side : least;
                found++;
            }
    }
    cJSON_Delete(root);
    cr_assert_eq(found, count, "%s: %d of %d grids on screen", args, found, count);
    return least;
}

Test(dump_ui, scores_and_weights_keep_big_cells_beside_a_lesson_on_a_projector) {
    static const char *const sa[2] = {"S", "A"};
    char args[512];
    snprintf(args, sizeof args, "--size 1920x1080 --ui-scale 2 --lesson %s/lessons/%s",
             test_env("ATTNLAB_DATA"), "03-scores-softmax-outputs.md");
    double c = smallest_cell(args, sa, 2, 6, true);
    cr_assert_geq(c, 48, "S and A cells are %.1f px at 1920×1080 ×2 with lesson 3", c);
    snprintf(args, sizeof args, "--size 1024x768 --lesson %s/lessons/%s", test_env("ATTNLAB_DATA"),
             "04-matrix-form.md");
    c = smallest_cell(args, sa, 2, 6, true);
    cr_assert_geq(c, 30, "S and A cells are %.1f px at 1024×768 with lesson 4", c);
}

Test(dump_ui, the_permutation_lab_keeps_readable_cells_beside_a_lesson_on_a_projector) {
    static const char *const weights[3] = {"A_PX", "A_P", "A_diff"};
    static const char *const outputs[3] = {"O_PX", "O_P", "O_diff"};
    char args[512];
    snprintf(args, sizeof args,
             "--size 1920x1080 --ui-scale 2 --lesson %s/layout/permutation-weights.md",
             test_env("ATTNLAB_TESTDATA"));
    double c = smallest_cell(args, weights, 3, 6, true);
    cr_assert_geq(c, 24, "weight cells are %.1f px at 1920×1080 ×2 with a lesson", c);
    /* lesson 6 opens on the verdict: the outputs' row, one token per row (the
     * difference waits, hidden, for the step's prediction) */
    snprintf(args, sizeof args, "--size 1920x1080 --ui-scale 2 --lesson %s/lessons/%s",
             test_env("ATTNLAB_DATA"), "06-permutation-equivariance.md");
    c = smallest_cell(args, outputs, 2, 6, false);
    cr_assert_geq(c, 24, "output rows are %.1f px at 1920×1080 ×2 with lesson 6", c);
}

/* Presenting (--presenter, or P): the lesson is a caption strip 38 % of what
 * lies under the chips, and the panels get the rest. */
Test(dump_ui, presenting_gives_s_and_a_big_cells_over_a_caption_strip) {
    static const char *const sa[2] = {"S", "A"};
    char args[512];
    snprintf(args, sizeof args, "--size 1920x1080 --ui-scale 2 --presenter --lesson %s/lessons/%s",
             test_env("ATTNLAB_DATA"), "03-scores-softmax-outputs.md");
    double c = smallest_cell(args, sa, 2, 6, true);
    cr_assert_geq(c, 64, "S and A cells are %.1f px presenting lesson 3 at 1920×1080 ×2", c);
    cJSON *root = dump(args);
    double strip_h = -1, strip_y = -1;
    bool tabs = false;
    for (const cJSON *it = cJSON_GetObjectItem(root, "items")->child; it; it = it->next) {
        const char *kind = cJSON_GetObjectItem(it, "kind")->valuestring,
                   *id = cJSON_GetObjectItem(it, "id")->valuestring;
        const cJSON *r = cJSON_GetObjectItem(it, "rect");
        if (!strcmp(kind, "panel") && !strcmp(id, "lesson")) {
            strip_y = cJSON_GetArrayItem(r, 1)->valuedouble;
            strip_h = cJSON_GetArrayItem(r, 3)->valuedouble;
        }
        tabs |= !strcmp(kind, "button") && !strcmp(id, "tab");
    }
    cJSON_Delete(root);
    cr_assert_gt(strip_h, 0, "no lesson strip");
    cr_assert_leq(strip_h, 0.36 * 1080, "the strip is %.0f px high", strip_h);
    cr_assert_gt(strip_y, 1080 * 0.6, "the strip is at the bottom (y = %.0f)", strip_y);
    cr_assert_not(tabs, "presenting hides the view tabs (keys 1–4 stay)");
}
