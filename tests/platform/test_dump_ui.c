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
