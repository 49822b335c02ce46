/* src/platform/prefs.c and --theme: the window's remembered settings, what a
 * bad settings file does (one warning, never a stop), and the light theme's
 * brightness on a real screenshot. */
#define _POSIX_C_SOURCE 200809L
#include "platform/lang.h"
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

static void write_file(const char *path, const char *text);
static char *read_text(const char *path);

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
    };
    char path[700];
    snprintf(path, sizeof path, "%s/attnlab/progress.json", home);
    for (size_t k = 0; k < sizeof bad / sizeof *bad; k++) {
        write_file(path, bad[k]);
        char warn[1300] = "";
        cr_assert_not(progress_load(&q, warn, sizeof warn), "%s was accepted", bad[k]);
        cr_assert_eq(q.count, 0);
        cr_assert(strstr(warn, "progress.json") && strstr(warn, "kept in the file"), "%s", warn);
    }
    unsetenv("XDG_DATA_HOME");
}

static void write_file(const char *path, const char *text) {
    FILE *f = fopen(path, "w");
    cr_assert(f);
    fputs(text, f);
    fclose(f);
}

static char *read_text(const char *path) {
    FILE *f = fopen(path, "r");
    cr_assert(f, "%s", path);
    static char buf[1 << 16];
    size_t n = fread(buf, 1, sizeof buf - 1, f);
    buf[n] = '\0';
    fclose(f);
    return buf;
}

static char progress_path[700];

static void progress_home(void) {
    setenv("XDG_DATA_HOME", home, 1);
    char dir[700];
    snprintf(dir, sizeof dir, "%s/attnlab", home);
    mkdir(dir, 0755);
    snprintf(progress_path, sizeof progress_path, "%s/attnlab/progress.json", home);
}

static Lesson_Progress one_lesson(const char *file, int steps, uint32_t done) {
    Lesson_Progress p = {.count = 1};
    snprintf(p.file[0], sizeof p.file[0], "%s", file);
    p.steps[0] = steps;
    p.done[0] = done;
    return p;
}

/* Two windows share the data folder: each saves what it has, and the file
 * ends with the union of their done steps (A's steps 1-2 are not lost when B,
 * which loaded before A saved, saves step 3). */
Test(prefs, two_windows_saving_progress_keep_both_students_steps) {
    progress_home();
    Lesson_Progress a = one_lesson("03-scores-softmax-outputs.md", 4, 0x3);
    Lesson_Progress b = one_lesson("03-scores-softmax-outputs.md", 4, 0x4);
    Lesson_Progress other = one_lesson("05-why-scale.md", 6, 0x1);
    char err[1300];
    cr_assert(progress_save(&a, err, sizeof err), "%s", err);
    cr_assert(progress_save(&b, err, sizeof err), "%s", err);
    cr_assert(progress_save(&other, err, sizeof err), "%s", err);
    Lesson_Progress q;
    cr_assert(progress_load(&q, err, sizeof err), "%s", err);
    cr_assert_eq(q.count, 2);
    cr_assert_str_eq(q.file[0], "03-scores-softmax-outputs.md");
    cr_assert_eq(q.done[0], 0x7u, "steps 1, 2 and 3: %x", q.done[0]);
    cr_assert_eq(q.done[1], 0x1u);
    unsetenv("XDG_DATA_HOME");
}

/* One bad entry: the good ones are used, and the next save keeps the bad one
 * as it was instead of writing a file with only the new lesson. */
Test(prefs, a_bad_progress_entry_keeps_the_good_ones_and_is_kept_itself) {
    progress_home();
    write_file(progress_path,
               "{\"lessons\": [{\"file\": \"01-tokens-become-vectors.md\", \"steps\": 4, "
               "\"done\": [0, 1]},\n{\"file\": \"odd.md\", \"steps\": 25, \"done\": []}]}");
    Lesson_Progress q;
    char warn[1300] = "";
    cr_assert_not(progress_load(&q, warn, sizeof warn));
    cr_assert(strstr(warn, "progress.json") && strstr(warn, "1 entry is skipped"), "%s", warn);
    cr_assert_eq(q.count, 1);
    cr_assert_eq(q.done[0], 0x3u);
    Lesson_Progress more = one_lesson("02-queries-keys-values.md", 5, 0x1);
    char err[1300];
    cr_assert(progress_save(&more, err, sizeof err), "%s", err);
    const char *text = read_text(progress_path);
    cr_assert(strstr(text, "01-tokens-become-vectors.md"), "the good entry stays: %s", text);
    cr_assert(strstr(text, "odd.md") && strstr(text, "25"), "the bad entry stays as it was: %s",
              text);
    cr_assert(strstr(text, "02-queries-keys-values.md"), "and the new one is added: %s", text);
    unsetenv("XDG_DATA_HOME");
}

/* A file that is not progress at all is kept aside under a dated name and
 * said once; the new progress goes to a fresh file. */
Test(prefs, an_unreadable_progress_file_is_kept_aside_not_replaced) {
    progress_home();
    static const char *const bad[] = {"nonsense", "{\"lessons\": 5}",
                                      "{\"lessons\": [], \"lessons\": []}"};
    for (size_t k = 0; k < sizeof bad / sizeof *bad; k++) {
        write_file(progress_path, bad[k]);
        Lesson_Progress q;
        char warn[1300] = "";
        cr_assert_not(progress_load(&q, warn, sizeof warn), "%s was accepted", bad[k]);
        cr_assert(strstr(warn, "kept aside as") && strstr(warn, "progress.json.bad-"), "%s", warn);
        const char *aside = strstr(warn, "kept aside as ") + strlen("kept aside as ");
        char name[800];
        snprintf(name, sizeof name, "%.*s", (int)strcspn(aside, ";"), aside);
        cr_assert_str_eq(read_text(name), bad[k], "the bad file is kept whole");
        struct stat st;
        cr_assert_neq(stat(progress_path, &st), 0, "and no longer in the way");
    }
    unsetenv("XDG_DATA_HOME");
}

/* Past what a run keeps in memory (PROGRESS_MAX_LESSONS), the rest is said
 * and stays in the file through a save. */
Test(prefs, progress_for_more_lessons_than_a_run_keeps_is_not_lost) {
    progress_home();
    FILE *f = fopen(progress_path, "w");
    fprintf(f, "{\"lessons\": [");
    for (int k = 0; k < PROGRESS_MAX_LESSONS + 20; k++)
        fprintf(f, "%s{\"file\": \"l%03d.md\", \"steps\": 2, \"done\": [1]}", k ? "," : "", k);
    fprintf(f, "]}");
    fclose(f);
    Lesson_Progress q;
    char warn[1300] = "";
    cr_assert_not(progress_load(&q, warn, sizeof warn));
    cr_assert(strstr(warn, "20 are kept in the file"), "%s", warn);
    cr_assert_eq(q.count, PROGRESS_MAX_LESSONS);
    Lesson_Progress more = one_lesson("new.md", 2, 0x1);
    char err[1300];
    cr_assert(progress_save(&more, err, sizeof err), "%s", err);
    const char *text = read_text(progress_path);
    char last[32];
    snprintf(last, sizeof last, "l%03d.md", PROGRESS_MAX_LESSONS + 19);
    cr_assert(strstr(text, last) && strstr(text, "new.md"), "every lesson stays");
    unsetenv("XDG_DATA_HOME");
}

/* A settings file with one bad value: the good fields are used, and a save
 * of another change writes only that change: the theme, the bad value and an
 * unknown field stay as they were. (A bad ui_scale once wiped the light theme
 * on the first frame.) */
Test(prefs, a_bad_setting_keeps_the_rest_and_a_save_writes_only_what_changed) {
    write_settings("{\"theme\": \"light\", \"ui_scale\": 9, \"notes\": \"mine\"}");
    Prefs p;
    char warn[1300] = "";
    cr_assert_not(prefs_load(&p, warn, sizeof warn));
    cr_assert(strstr(warn, "ui_scale") && strstr(warn, "the rest is used"), "%s", warn);
    cr_assert(p.has_theme && p.theme == THEME_LIGHT && !p.has_zoom);
    char err[1300];
    cr_assert(prefs_save(&(Prefs){.has_size = true, .width = 800, .height = 600}, err, sizeof err),
              "%s", err);
    char path[700];
    snprintf(path, sizeof path, "%s/attnlab/settings.json", home);
    const char *text = read_text(path);
    cr_assert(strstr(text, "\"light\""), "%s", text);
    cr_assert(strstr(text, "\"ui_scale\": 9"), "%s", text);
    cr_assert(strstr(text, "\"notes\": \"mine\""), "%s", text);
    cr_assert(strstr(text, "800"), "%s", text);
}

/* A teacher's "hide" in the settings: read as --hide reads it, a bad name is
 * one warning naming it (the rest is used), and a save of another setting
 * keeps it as it was written. */
Test(prefs, a_teachers_hide_list_is_read_and_kept_by_a_save) {
    write_settings("{\"hide\": \"S, dk mask\", \"theme\": \"light\"}");
    Prefs p;
    char warn[1300] = "", err[1300];
    cr_assert(prefs_load(&p, warn, sizeof warn), "%s", warn);
    cr_assert(p.has_hide);
    cr_assert_str_eq(p.hide, " S dk mask");
    cr_assert(prefs_save(&(Prefs){.has_zoom = true, .zoom = 1.5f}, err, sizeof err), "%s", err);
    char path[700];
    snprintf(path, sizeof path, "%s/attnlab/settings.json", home);
    cr_assert(strstr(read_text(path), "\"hide\": \"S, dk mask\""), "%s", read_text(path));
    write_settings("{\"hide\": \"S, Scores\", \"theme\": \"light\"}");
    cr_assert_not(prefs_load(&p, warn, sizeof warn));
    cr_assert(strstr(warn, "\"hide\": 'Scores' is not a panel or control"), "%s", warn);
    cr_assert(!p.has_hide && p.has_theme, "the bad field is not used, the good one is");
}

/* Two windows: A changes the theme, B (started before) changes only the zoom;
 * the file ends with both. */
Test(prefs, two_windows_saving_settings_keep_both_changes) {
    char err[1300];
    cr_assert(prefs_save(&(Prefs){.has_theme = true, .theme = THEME_LIGHT}, err, sizeof err));
    cr_assert(prefs_save(&(Prefs){.has_zoom = true, .zoom = 1.5f}, err, sizeof err));
    Prefs p;
    cr_assert(prefs_load(&p, err, sizeof err), "%s", err);
    cr_assert(p.has_theme && p.theme == THEME_LIGHT);
    cr_assert(p.has_zoom && p.zoom == 1.5f);
}

/* The settings are read as strictly as a scene: a NUL inside a string or a
 * key given twice is one warning, nothing of the file is used, and a save
 * leaves the file as it is. */
Test(prefs, nul_and_duplicate_keys_are_refused_and_the_file_is_left_alone) {
    static const char *const bad[] = {"{\"theme\": \"light\\u0000junk\"}",
                                      "{\"theme\": \"light\", \"theme\": \"dark\"}"};
    char path[700];
    snprintf(path, sizeof path, "%s/attnlab/settings.json", home);
    for (int k = 0; k < 2; k++) {
        write_settings(bad[k]);
        Prefs p;
        char warn[1300] = "";
        cr_assert_not(prefs_load(&p, warn, sizeof warn), "%s was accepted", bad[k]);
        cr_assert(!p.has_theme, "%s", bad[k]);
        cr_assert(strstr(warn, "settings.json:1:") && strstr(warn, "left as it is"), "%s", warn);
        char err[1300];
        cr_assert_not(prefs_save(&(Prefs){.has_zoom = true, .zoom = 2}, err, sizeof err));
        cr_assert(strstr(err, "not saved"), "%s", err);
        cr_assert_str_eq(read_text(path), bad[k]);
    }
}

/* A settings file that is a symbolic link (a dotfiles folder) stays a link. */
Test(prefs, a_settings_file_that_is_a_link_stays_a_link) {
    char dir[700], real[800], link[800];
    snprintf(dir, sizeof dir, "%s/attnlab", home);
    mkdir(dir, 0755);
    snprintf(real, sizeof real, "%s/dotfiles-settings.json", home);
    snprintf(link, sizeof link, "%s/attnlab/settings.json", home);
    write_file(real, "{\"theme\": \"contrast\"}");
    cr_assert_eq(symlink(real, link), 0);
    char err[1300];
    cr_assert(prefs_save(&(Prefs){.has_zoom = true, .zoom = 1.25f}, err, sizeof err), "%s", err);
    struct stat st;
    cr_assert(lstat(link, &st) == 0 && S_ISLNK(st.st_mode));
    const char *text = read_text(real);
    cr_assert(strstr(text, "contrast") && strstr(text, "1.25"), "%s", text);
}

/* A home path too long for the settings file names the variable and the
 * limit, not "neither XDG_CONFIG_HOME nor HOME is set". */
Test(prefs, a_too_long_folder_says_so) {
    char longdir[1100];
    memset(longdir, 'a', sizeof longdir);
    longdir[0] = '/';
    longdir[sizeof longdir - 1] = '\0';
    setenv("XDG_CONFIG_HOME", longdir, 1);
    char err[1300];
    cr_assert_not(prefs_save(&(Prefs){.has_zoom = true, .zoom = 2}, err, sizeof err));
    cr_assert(strstr(err, "XDG_CONFIG_HOME=") && strstr(err, "longer than"), "%s", err);
    Prefs p;
    cr_assert_not(prefs_load(&p, err, sizeof err));
    cr_assert(strstr(err, "longer than"), "%s", err);
    setenv("XDG_CONFIG_HOME", home, 1);
}

/* A warning is never cut, however long the path, and speaks the chosen language: the longest
 * settings path there is (1023 bytes), a file cut short, German. */
Test(prefs, the_longest_warning_is_whole_and_translated) {
    char dir[1100], err[200];
    int n = snprintf(dir, sizeof dir, "%s/", home);
    while (n < 1023 - (int)strlen("/attnlab/settings.json") - 1) {
        dir[n] = n % 200 ? 'd' : '/';
        n++;
    }
    dir[n++] = 'e';
    dir[n] = '\0';
    char path[1200];
    snprintf(path, sizeof path, "%s/attnlab", dir);
    char cmd[1400];
    snprintf(cmd, sizeof cmd, "mkdir -p '%s'", path);
    cr_assert_eq(system(cmd), 0);
    snprintf(path, sizeof path, "%s/attnlab/settings.json", dir);
    cr_assert_eq(strlen(path), 1023);
    write_file(path, "{\"theme\": \"light\",");
    setenv("XDG_CONFIG_HOME", dir, 1);
    cr_assert(lang_use(lang_parse("de"), test_env("ATTNLAB_DATA"), err, sizeof err), "%s", err);
    Prefs p;
    char warn[PREFS_MESSAGE_BYTES];
    bool ok = prefs_load(&p, warn, sizeof warn);
    lang_use(0, test_env("ATTNLAB_DATA"), err, sizeof err);
    setenv("XDG_CONFIG_HOME", home, 1);
    cr_assert_not(ok);
    cr_assert(strstr(warn, path), "%s", warn);
    const char *tail = ":1:19: die Datei endet, bevor das JSON vollständig ist (offene Klammer?) "
                       "(die Einstellungen werden ignoriert; die Datei bleibt, wie sie ist)";
    cr_assert_str_eq(warn + strlen(path), tail, "%s", warn);
}
