/* End to end in a real X window (Xvfb + xdotool): drag a token's point at
 * the position --dump-ui gives, press Ctrl+S, and check that exactly that
 * token's embedding changed in the saved file. */
#define _POSIX_C_SOURCE 200809L
#include "core/fileio.h"
#include "model/scene_file.h"
#include "test_util.h"

#include <cjson/cJSON.h>
#include <math.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

/* A real window behaves the same in both builds; only the sanitizer build
 * also sees the memory each session touches. Each session runs there, once. */
static void in_the_sanitizer_pass(void) {
    if (!getenv("ATTNLAB_SANITIZED")) cr_skip("the sanitizer pass runs the real window");
}

/* The folder the last session ran in: kept for checks, removed by cleanup(). */
static char last_dir[64];

static void cleanup(void) {
    char cmd[128];
    snprintf(cmd, sizeof cmd, "rm -rf '%s'", last_dir);
    cr_assert_eq(system(cmd), 0);
}

/* Copy the default scene to a fresh folder, find where token 2 is drawn,
 * run a session script, and check that exactly token 2 moved in the file. */
/* A fresh folder holding a copy of the default scene; scene gets its path. */
static void copy_default_scene(char dir[], char *scene, size_t size) {
    char cmd[2048];
    cr_assert(mkdtemp(dir));
    snprintf(scene, size, "%s/scene.json", dir);
    snprintf(cmd, sizeof cmd, "cp '%s/assets/scenes/default.json' '%s'", test_env("ATTNLAB_DATA"),
             scene);
    cr_assert_eq(system(cmd), 0);
}

/* The --dump-ui layout of scene in a 1600×900 window, in a static buffer. */
static const char *layout_of(const char *scene) {
    char cmd[2048];
    snprintf(cmd, sizeof cmd, "'%s' --dump-ui --scene '%s' --size 1600x900",
             test_env("ATTNLAB_BIN"), scene);
    FILE *p = popen(cmd, "r");
    static char buf[1 << 20];
    size_t n = fread(buf, 1, sizeof buf - 1, p);
    buf[n] = '\0';
    cr_assert_eq(pclose(p), 0);
    return buf;
}

static void session(const char *script) {
    char dir[] = "/tmp/attnlab-e2e-XXXXXX", scene[256], cmd[2048], err[512];
    copy_default_scene(dir, scene, sizeof scene);
    /* where token 2 ("sat") is drawn in a 1600×900 window */
    const char *buf = layout_of(scene);
    cJSON *root = cJSON_Parse(buf);
    cr_assert(root);
    double x = -1, y = -1;
    for (const cJSON *it = cJSON_GetObjectItem(root, "items")->child; it; it = it->next)
        if (!strcmp(cJSON_GetObjectItem(it, "kind")->valuestring, "point") &&
            cJSON_GetObjectItem(it, "index")->valueint == 2) {
            x = cJSON_GetObjectItem(it, "x")->valuedouble;
            y = cJSON_GetObjectItem(it, "y")->valuedouble;
        }
    cJSON_Delete(root);
    cr_assert(x >= 0 && y >= 0, "no point for token 2");

    static Vocab vocab;
    static Scene before, after;
    char path[1024];
    snprintf(path, sizeof path, "%s/assets/vocab.tsv", test_env("ATTNLAB_DATA"));
    cr_assert(vocab_load(&vocab, path, err, sizeof err));
    cr_assert(scene_load(&before, scene, &vocab, err, sizeof err), "%s", err);

    snprintf(cmd, sizeof cmd, "'%s/tests/e2e/%s' '%s' '%s' %d %d %d %d", test_env("ATTNLAB_DATA"),
             script, test_env("ATTNLAB_BIN"), scene, (int)lround(x), (int)lround(y),
             (int)lround(x) + 40, (int)lround(y) - 30);
    cr_assert_eq(system(cmd), 0, "the X session failed: %s", cmd);

    cr_assert(scene_load(&after, scene, &vocab, err, sizeof err), "saved file: %s", err);
    cr_assert_eq(after.n, before.n);
    for (int i = 0; i < before.n; i++) {
        bool changed =
            after.X[i * 2] != before.X[i * 2] || after.X[i * 2 + 1] != before.X[i * 2 + 1];
        cr_assert_eq(changed, i == 2, "token %d %s", i, changed ? "changed" : "did not change");
    }
    /* dragged right and up: both coordinates grew */
    cr_assert_gt(after.X[2 * 2], before.X[2 * 2]);
    cr_assert_gt(after.X[2 * 2 + 1], before.X[2 * 2 + 1]);
    cr_assert_eq(after.d_k, before.d_k);
    vocab_free(&vocab);
    snprintf(last_dir, sizeof last_dir, "%s", dir);
}

Test(e2e, drag_a_point_then_ctrl_s_saves_exactly_that_change, .timeout = 120) {
    in_the_sanitizer_pass();
    session("drag_and_save.sh");
    cleanup();
}

Test(e2e, ctrl_e_exports_json_and_shift_f12_saves_one_panel, .timeout = 120) {
    in_the_sanitizer_pass();
    session("drag_and_save.sh");
    /* the export parses and carries the dragged scene; the panel PNG is
     * smaller than the window */
    char cmd[512];
    /* Ctrl+E was pressed twice within a second: two files, neither overwritten */
    snprintf(cmd, sizeof cmd, "test $(ls '%s'/attnlab-export-*.json | wc -l) -eq 2", last_dir);
    cr_assert_eq(system(cmd), 0, "two quick exports should give two files in %s", last_dir);
    snprintf(cmd, sizeof cmd,
             "cd '%s' && ls attnlab-export-*.json | head -1 && ls attnlab-panel-*.png", last_dir);
    FILE *p = popen(cmd, "r");
    char json[256] = "", png[256] = "";
    cr_assert(fgets(json, sizeof json, p) && fgets(png, sizeof png, p), "files missing in %s",
              last_dir);
    pclose(p);
    json[strcspn(json, "\n")] = png[strcspn(png, "\n")] = '\0';
    char path[600], err[256], *text;
    size_t len;
    snprintf(path, sizeof path, "%s/%s", last_dir, json);
    cr_assert(file_read_all(path, 1 << 24, &text, &len, err, sizeof err), "%s", err);
    cJSON *root = cJSON_Parse(text);
    free(text);
    cr_assert(root, "%s is not JSON", json);
    cr_assert(cJSON_IsArray(cJSON_GetObjectItem(root, "A")));
    cJSON_Delete(root);
    snprintf(path, sizeof path, "%s/%s", last_dir, png);
    FILE *f = fopen(path, "rb");
    cr_assert(f, "no %s", path);
    unsigned char hdr[24];
    cr_assert_eq(fread(hdr, 1, 24, f), 24u);
    fclose(f);
    /* PNG signature, then IHDR width and height (big-endian) */
    cr_assert_eq(memcmp(hdr, "\x89PNG", 4), 0);
    unsigned w = (unsigned)hdr[16] << 24 | hdr[17] << 16 | hdr[18] << 8 | hdr[19];
    unsigned h = (unsigned)hdr[20] << 24 | hdr[21] << 16 | hdr[22] << 8 | hdr[23];
    cr_assert(w > 100 && w < 1600 && h > 100 && h < 900, "panel PNG is %ux%u", w, h);
    cleanup();
}

Test(e2e, survives_1x1_hiding_and_a_vanished_scene_folder, .timeout = 120) {
    in_the_sanitizer_pass();
    session("hostile_window.sh");
    cleanup();
}

/* The centre of the first --dump-ui item of kind and id (and index, if ≥ 0). */
static void item_centre(const char *json, const char *kind, const char *id, int index, int *x,
                        int *y) {
    cJSON *root = cJSON_Parse(json);
    cr_assert(root);
    *x = *y = -1;
    for (const cJSON *it = cJSON_GetObjectItem(root, "items")->child; it; it = it->next) {
        const cJSON *r = cJSON_GetObjectItem(it, "rect");
        if (!strcmp(cJSON_GetObjectItem(it, "kind")->valuestring, kind) &&
            !strcmp(cJSON_GetObjectItem(it, "id")->valuestring, id) &&
            (index < 0 || cJSON_GetObjectItem(it, "index")->valueint == index) && *x < 0) {
            *x = (int)lround(cJSON_GetArrayItem(r, 0)->valuedouble +
                             cJSON_GetArrayItem(r, 2)->valuedouble / 2);
            *y = (int)lround(cJSON_GetArrayItem(r, 1)->valuedouble +
                             cJSON_GetArrayItem(r, 3)->valuedouble / 2);
        }
    }
    cJSON_Delete(root);
    cr_assert(*x >= 0, "no %s '%s' in --dump-ui", kind, id);
}

Test(e2e, quick_taps_act_as_clicks_in_a_real_window, .timeout = 120) {
    in_the_sanitizer_pass();
    char dir[] = "/tmp/attnlab-e2e-XXXXXX", scene[256], cmd[2048], err[512];
    copy_default_scene(dir, scene, sizeof scene);
    const char *buf = layout_of(scene);
    int cx, cy, rx, ry;
    item_centre(buf, "chip", "token", 2, &cx, &cy);
    item_centre(buf, "button", "reverse", -1, &rx, &ry);

    static Vocab vocab;
    static Scene before, after;
    char path[1024];
    snprintf(path, sizeof path, "%s/assets/vocab.tsv", test_env("ATTNLAB_DATA"));
    cr_assert(vocab_load(&vocab, path, err, sizeof err));
    cr_assert(scene_load(&before, scene, &vocab, err, sizeof err), "%s", err);
    snprintf(cmd, sizeof cmd, "'%s/tests/e2e/quick_click.sh' '%s' '%s' %d %d %d %d",
             test_env("ATTNLAB_DATA"), test_env("ATTNLAB_BIN"), scene, cx, cy, rx, ry);
    cr_assert_eq(system(cmd), 0, "the X session failed: %s", cmd);
    cr_assert(scene_load(&after, scene, &vocab, err, sizeof err), "saved file: %s", err);
    cr_assert_eq(after.n, before.n);
    for (int i = 0; i < before.n; i++)
        cr_assert_str_eq(after.tokens[i], before.tokens[before.n - 1 - i],
                         "slot %d: the taps did not leave exactly a reversed sentence", i);
    vocab_free(&vocab);
    snprintf(cmd, sizeof cmd, "rm -rf '%s'", dir);
    cr_assert_eq(system(cmd), 0);
}

/* F2 and Ctrl+= in a real window are remembered for the next start; the
 * command line's --size wins over the remembered size. */
Test(e2e, the_theme_and_zoom_are_remembered_between_runs, .timeout = 120) {
    in_the_sanitizer_pass();
    char dir[] = "/tmp/attnlab-e2e-XXXXXX", cmd[2048], *text;
    cr_assert(mkdtemp(dir));
    snprintf(cmd, sizeof cmd, "'%s/tests/e2e/theme_persists.sh' '%s' '%s'",
             test_env("ATTNLAB_DATA"), test_env("ATTNLAB_BIN"), dir);
    cr_assert_eq(system(cmd), 0, "the X session failed: %s", cmd);
    char path[1200], err[512];
    size_t len;
    snprintf(path, sizeof path, "%s/first.json", dir);
    cr_assert(file_read_all(path, 1 << 16, &text, &len, err, sizeof err), "%s", err);
    cr_assert(strstr(text, "\"theme\": \"light\""), "%s", text);
    cr_assert(strstr(text, "\"ui_scale\": 1.1"), "%s", text);
    cr_assert(strstr(text, "\"window\": [1200, 800]"), "%s", text);
    free(text);
    /* the second run started light and zoomed, and wrote that back unchanged */
    snprintf(path, sizeof path, "%s/attnlab/settings.json", dir);
    cr_assert(file_read_all(path, 1 << 16, &text, &len, err, sizeof err), "%s", err);
    cr_assert(strstr(text, "\"theme\": \"light\"") && strstr(text, "\"ui_scale\": 1.1"), "%s",
              text);
    free(text);
    snprintf(path, sizeof path, "%s/stderr", dir);
    cr_assert(file_read_all(path, 1 << 16, &text, &len, err, sizeof err), "%s", err);
    /* attnlab's own lines (a sanitizer build may add its report of suppressions) */
    cr_assert_null(strstr(text, "attnlab"), "warnings: %s", text);
    free(text);
    snprintf(cmd, sizeof cmd, "rm -rf '%s'", dir);
    cr_assert_eq(system(cmd), 0);
}

/* A settings file with a bad value, a light theme and a field of its own:
 * a window that opens and closes with no change by the user keeps all of it
 * (the first frame once rewrote it with only the dark theme), adding only
 * the size it closed at, and warns once about the bad value. */
Test(e2e, a_window_that_changes_nothing_keeps_the_settings_file, .timeout = 120) {
    in_the_sanitizer_pass();
    char dir[] = "/tmp/attnlab-e2e-XXXXXX", cmd[2048], *text;
    cr_assert(mkdtemp(dir));
    char path[1200], err[512];
    size_t len;
    snprintf(path, sizeof path, "%s/attnlab", dir);
    cr_assert_eq(mkdir(path, 0755), 0);
    snprintf(path, sizeof path, "%s/attnlab/settings.json", dir);
    FILE *f = fopen(path, "w");
    fputs("{\"theme\": \"light\", \"ui_scale\": 9, \"mine\": [1, 2]}\n", f);
    fclose(f);
    snprintf(cmd, sizeof cmd, "'%s/tests/e2e/settings_kept.sh' '%s' '%s'", test_env("ATTNLAB_DATA"),
             test_env("ATTNLAB_BIN"), dir);
    cr_assert_eq(system(cmd), 0, "the X session failed: %s", cmd);
    cr_assert(file_read_all(path, 1 << 16, &text, &len, err, sizeof err), "%s", err);
    cr_assert(strstr(text, "\"theme\": \"light\""), "%s", text);
    cr_assert(strstr(text, "\"ui_scale\": 9"), "the bad value stays as it was: %s", text);
    cr_assert(strstr(text, "\"mine\": [1, 2]"), "%s", text);
    cr_assert(strstr(text, "\"window\": [1000, 700]"), "%s", text);
    free(text);
    snprintf(path, sizeof path, "%s/stderr", dir);
    cr_assert(file_read_all(path, 1 << 16, &text, &len, err, sizeof err), "%s", err);
    cr_assert(strstr(text, "\"ui_scale\" must be a number from 0.75 to 3"), "%s", text);
    free(text);
    snprintf(cmd, sizeof cmd, "rm -rf '%s'", dir);
    cr_assert_eq(system(cmd), 0);
}

/* A window asked for larger than the display (16384 × 16384 is in range,
 * and would cost gigabytes of framebuffers) opens at the display's size with
 * one warning, and that is the size remembered. */
Test(e2e, a_window_larger_than_the_display_opens_at_its_size, .timeout = 120) {
    in_the_sanitizer_pass();
    char dir[] = "/tmp/attnlab-e2e-XXXXXX", cmd[2048], *text;
    cr_assert(mkdtemp(dir));
    snprintf(cmd, sizeof cmd, "'%s/tests/e2e/settings_kept.sh' '%s' '%s' 16384x16384",
             test_env("ATTNLAB_DATA"), test_env("ATTNLAB_BIN"), dir);
    cr_assert_eq(system(cmd), 0, "the X session failed: %s", cmd);
    char path[1200], err[512];
    size_t len;
    snprintf(path, sizeof path, "%s/stderr", dir);
    cr_assert(file_read_all(path, 1 << 16, &text, &len, err, sizeof err), "%s", err);
    cr_assert(strstr(text, "attnlab: warning: a 16384x16384 window is larger than the display"),
              "%s", text);
    free(text);
    snprintf(path, sizeof path, "%s/attnlab/settings.json", dir);
    cr_assert(file_read_all(path, 1 << 16, &text, &len, err, sizeof err), "%s", err);
    const char *w = strstr(text, "\"window\": [");
    cr_assert(w, "%s", text);
    int ww = 0, wh = 0;
    cr_assert_eq(sscanf(w, "\"window\": [%d, %d]", &ww, &wh), 2, "%s", text);
    cr_assert(ww <= 1600 && wh <= 900 && ww > 0 && wh > 0, "remembered %dx%d", ww, wh);
    free(text);
    snprintf(cmd, sizeof cmd, "rm -rf '%s'", dir);
    cr_assert_eq(system(cmd), 0);
}
