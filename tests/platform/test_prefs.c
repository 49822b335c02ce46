/* src/platform/prefs.c and --theme: the window's remembered settings, what a
 * bad settings file does (one warning, never a stop), and the light theme's
 * brightness on a real screenshot. */
#define _POSIX_C_SOURCE 200809L
#include "platform/prefs.h"
#include "platform/progress.h"
#include "platform/run.h"
#include "test_util.h"

#include <SDL2/SDL.h>
#include <SDL2/SDL_image.h>
#include <math.h>
#include <string.h>
#include <sys/stat.h>

static char home[] = "/tmp/attnlab-prefs-XXXXXX";

static void up(void) {
    cr_assert(mkdtemp(home));
    setenv("XDG_CONFIG_HOME", home, 1);
}

static void down(void) {
    char cmd[300];
    snprintf(cmd, sizeof cmd, "rm -rf '%s'", home);
    cr_assert_eq(system(cmd), 0);
    unsetenv("XDG_CONFIG_HOME");
    memcpy(home + strlen(home) - 6, "XXXXXX", 6);
}

TestSuite(prefs, .init = up, .fini = down);

static void write_settings(const char *text) {
    char path[600];
    snprintf(path, sizeof path, "%s/attnlab", home);
    mkdir(path, 0755);
    snprintf(path, sizeof path, "%s/attnlab/settings.json", home);
    FILE *f = fopen(path, "w");
    cr_assert(f);
    fputs(text, f);
    fclose(f);
}

Test(prefs, saved_settings_come_back_and_a_missing_file_is_the_defaults) {
    Prefs p;
    char warn[1300];
    cr_assert(prefs_load(&p, warn, sizeof warn), "no file is no warning");
    cr_assert(!p.has_theme && !p.has_zoom && !p.has_size);
    Prefs want = {.has_theme = true,
                  .theme = THEME_CONTRAST,
                  .has_zoom = true,
                  .zoom = 1.25f,
                  .has_size = true,
                  .width = 1024,
                  .height = 768};
    char err[1300];
    cr_assert(prefs_save(&want, err, sizeof err), "%s", err);
    cr_assert(prefs_load(&p, warn, sizeof warn), "%s", warn);
    cr_assert(p.has_theme && p.theme == THEME_CONTRAST);
    cr_assert(p.has_zoom && p.zoom == 1.25f);
    cr_assert(p.has_size && p.width == 1024 && p.height == 768);
}

Test(prefs, a_bad_settings_file_is_one_warning_naming_it) {
    static const char *const bad[] = {
        "{\"theme\": \"blue\"}",
        "{\"ui_scale\": 9}",
        "{\"window\": [1, 2]}",
        "{\"window\": [1024.5, 700]}",
        "[1, 2]",
        "{\"theme\": ",
        "\xff\xfe garbage",
    };
    for (size_t k = 0; k < sizeof bad / sizeof *bad; k++) {
        write_settings(bad[k]);
        Prefs p = {.has_theme = true};
        char warn[1300] = "";
        cr_assert_not(prefs_load(&p, warn, sizeof warn), "%s was accepted", bad[k]);
        cr_assert(!p.has_theme && !p.has_zoom && !p.has_size, "nothing of it is used");
        cr_assert(strstr(warn, "settings.json") && strstr(warn, "ignored"), "%s", warn);
        cr_assert_null(strchr(warn, '\n'));
    }
}

Test(prefs, the_window_starts_despite_a_corrupt_file_and_a_screenshot_ignores_the_settings) {
    write_settings("{\"theme\": \"light\"}");
    /* a screenshot (and so every golden image) is the same whatever is saved */
    Run r = run_attnlab("--size 640x400 --screenshot /tmp/attnlab-prefs-shot.png");
    cr_assert_eq(r.status, 0, "%s", r.err);
    cr_assert_str_empty(r.err);
    run_free(&r);
    SDL_Surface *s = IMG_Load("/tmp/attnlab-prefs-shot.png");
    cr_assert(s);
    SDL_Surface *c = SDL_ConvertSurfaceFormat(s, SDL_PIXELFORMAT_RGBA32, 0);
    const Uint8 *px = c->pixels;
    cr_assert_lt(px[0] + px[1] + px[2], 200, "the dark background, not the saved light one");
    SDL_FreeSurface(c);
    SDL_FreeSurface(s);
    unlink("/tmp/attnlab-prefs-shot.png");
    r = run_attnlab("--theme purple");
    cr_assert_eq(r.status, 2);
    cr_assert_str_eq(r.err, "attnlab: --theme: 'purple' is not one of: dark, light, contrast\n");
    run_free(&r);
}

static double channel(Uint8 v) {
    double c = v / 255.0;
    return c <= 0.04045 ? c / 12.92 : pow((c + 0.055) / 1.055, 2.4);
}

/* The light theme is for washed-out projectors: the picture as a whole is bright. */
Test(prefs, the_light_theme_is_bright_on_screen) {
    static const char *const views[] = {"explorer", "scaling", "permutation", "train"};
    for (size_t v = 0; v < 4; v++) {
        char args[300];
        snprintf(args, sizeof args,
                 "--theme light --view %s --size 1280x720 --screenshot /tmp/attnlab-light.png",
                 views[v]);
        Run r = run_attnlab(args);
        cr_assert_eq(r.status, 0, "%s", r.err);
        run_free(&r);
        SDL_Surface *s = IMG_Load("/tmp/attnlab-light.png");
        cr_assert(s);
        SDL_Surface *c = SDL_ConvertSurfaceFormat(s, SDL_PIXELFORMAT_RGBA32, 0);
        double sum = 0;
        for (int y = 0; y < c->h; y++) {
            const Uint8 *row = (const Uint8 *)c->pixels + y * c->pitch;
            for (int x = 0; x < c->w; x++)
                sum += 0.2126 * channel(row[4 * x]) + 0.7152 * channel(row[4 * x + 1]) +
                       0.0722 * channel(row[4 * x + 2]);
        }
        double mean = sum / ((double)c->w * c->h);
        SDL_FreeSurface(c);
        SDL_FreeSurface(s);
        cr_assert_geq(mean, 0.7, "%s view: mean luminance %.3f", views[v], mean);
    }
    unlink("/tmp/attnlab-light.png");
}

Test(prefs, lesson_progress_is_kept_and_a_bad_file_is_one_warning) {
    setenv("XDG_DATA_HOME", home, 1);
    Lesson_Progress p = {.count = 2}, q;
    snprintf(p.file[0], sizeof p.file[0], "03-scores-softmax-outputs.md");
    p.steps[0] = 4;
    p.done[0] = 0xB; /* steps 0, 1, 3 */
    snprintf(p.file[1], sizeof p.file[1], "ünïcode \"quoted\".md");
    p.steps[1] = 2;
    char err[1300];
    cr_assert(progress_save(&p, err, sizeof err), "%s", err);
    cr_assert(progress_load(&q, err, sizeof err), "%s", err);
    cr_assert_eq(q.count, 2);
    cr_assert_str_eq(q.file[0], p.file[0]);
    cr_assert_eq(q.steps[0], 4);
    cr_assert_eq(q.done[0], 0xBu);
    cr_assert_str_eq(q.file[1], p.file[1]);
    cr_assert_eq(q.done[1], 0u);
    static const char *const bad[] = {
        "{\"lessons\": [{\"file\": \"a.md\", \"steps\": 3, \"done\": [3]}]}",
        "{\"lessons\": [{\"file\": \"../a.md\", \"steps\": 3, \"done\": []}]}",
        "{\"lessons\": [{\"file\": \"a.md\", \"steps\": 99, \"done\": []}]}",
        "{\"lessons\": 5}",
        "nonsense",
    };
    char path[700];
    snprintf(path, sizeof path, "%s/attnlab/progress.json", home);
    for (size_t k = 0; k < sizeof bad / sizeof *bad; k++) {
        FILE *f = fopen(path, "w");
        cr_assert(f);
        fputs(bad[k], f);
        fclose(f);
        char warn[1300] = "";
        cr_assert_not(progress_load(&q, warn, sizeof warn), "%s was accepted", bad[k]);
        cr_assert_eq(q.count, 0);
        cr_assert(strstr(warn, "progress.json") && strstr(warn, "ignored"), "%s", warn);
    }
    unsetenv("XDG_DATA_HOME");
}
