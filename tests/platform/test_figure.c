/* src/render/figure.c through --export-figure: a PDF with real text, a valid
 * SVG, and a PNG that is the GL screenshot of the same frame, drawn by cairo;
 * one panel, any scale, a white or transparent background; bad options. */
#define _POSIX_C_SOURCE 200809L
#include "platform/run.h"
#include "test_util.h"

#include <SDL2/SDL.h>
#include <SDL2/SDL_image.h>
#include <cjson/cJSON.h>
#include <string.h>
#include <sys/stat.h>

static char dir[] = "/tmp/attnlab-figure-XXXXXX";

static void up(void) {
    cr_assert(mkdtemp(dir));
}

static void down(void) {
    char cmd[300];
    snprintf(cmd, sizeof cmd, "rm -rf '%s'", dir);
    cr_assert_eq(system(cmd), 0);
    memcpy(dir + strlen(dir) - 6, "XXXXXX", 6);
}

TestSuite(figure, .init = up, .fini = down);

static void make(const char *file, const char *options) {
    char args[1200];
    snprintf(args, sizeof args, "--export-figure '%s/%s' %s", dir, file, options);
    Run r = run_attnlab(args);
    cr_assert_eq(r.status, 0, "%s: %s", args, r.err);
    cr_assert_str_empty(r.err);
    run_free(&r);
}

static char *shell(const char *cmd) {
    FILE *p = popen(cmd, "r");
    cr_assert(p);
    char *out = slurp(p);
    cr_assert_eq(pclose(p), 0, "%s failed", cmd);
    return out;
}

Test(figure, a_pdf_has_real_text_and_an_svg_is_valid) {
    make("f.pdf", "--size 1600x900 --tokens 'the dog barked loudly'");
    char cmd[600];
    snprintf(cmd, sizeof cmd, "pdftotext '%s/f.pdf' -", dir);
    char *text = shell(cmd);
    static const char *const want[] = {"dog", "barked", "loudly", "Scores S", "Weights A"};
    for (size_t k = 0; k < sizeof want / sizeof *want; k++)
        cr_assert(strstr(text, want[k]), "pdftotext does not find '%s'", want[k]);
    free(text);
    snprintf(cmd, sizeof cmd, "pdffonts '%s/f.pdf'", dir);
    text = shell(cmd);
    cr_assert(strstr(text, "DejaVuSans"), "%s", text);
    cr_assert_null(strstr(text, " no  "), "every font is embedded: %s", text);
    free(text);
    make("f.svg", "--view scaling");
    snprintf(cmd, sizeof cmd, "xmllint --noout '%s/f.svg' 2>&1", dir);
    free(shell(cmd));
}

static SDL_Surface *load(const char *name) {
    char path[600];
    snprintf(path, sizeof path, "%s/%s", dir, name);
    SDL_Surface *s0 = IMG_Load(path);
    cr_assert(s0, "%s: %s", path, IMG_GetError());
    SDL_Surface *s = SDL_ConvertSurfaceFormat(s0, SDL_PIXELFORMAT_RGBA32, 0);
    SDL_FreeSurface(s0);
    return s;
}

static const Uint8 *pixel(const SDL_Surface *s, int x, int y) {
    return (const Uint8 *)s->pixels + y * s->pitch + x * 4;
}

/* The same frame through cairo and through GL: the same picture, but for
 * the anti-aliasing of text and edges. */
Test(figure, the_cairo_png_is_the_gl_screenshot) {
    make("cairo.png", "--size 1280x720 --view permutation");
    char args[600];
    snprintf(args, sizeof args, "--size 1280x720 --view permutation --screenshot '%s/gl.png'", dir);
    Run r = run_attnlab(args);
    cr_assert_eq(r.status, 0, "%s", r.err);
    run_free(&r);
    SDL_Surface *a = load("cairo.png"), *b = load("gl.png");
    cr_assert(a->w == b->w && a->h == b->h, "%dx%d vs %dx%d", a->w, a->h, b->w, b->h);
    double sum = 0;
    long far = 0;
    for (int y = 0; y < a->h; y++)
        for (int x = 0; x < a->w; x++) {
            const Uint8 *p = pixel(a, x, y), *q = pixel(b, x, y);
            int d = 0;
            for (int c = 0; c < 3; c++) d = abs(p[c] - q[c]) > d ? abs(p[c] - q[c]) : d;
            sum += d;
            far += d > 48;
        }
    double n = (double)a->w * a->h;
    /* measured: mean 2.0, 1.1 % of pixels past 48 (text edges) */
    cr_assert_lt(sum / n, 5.0, "mean difference %.2f per pixel", sum / n);
    cr_assert_lt(far / n, 0.03, "%.1f %% of pixels differ by more than 48", 100 * far / n);
    SDL_FreeSurface(a);
    SDL_FreeSurface(b);
}

Test(figure, one_panel_at_any_scale_on_white_or_transparent) {
    /* where the panel is, from the same layout */
    Run r = run_attnlab("--dump-ui --size 1600x900");
    cr_assert_eq(r.status, 0);
    cJSON *root = cJSON_Parse(r.out);
    double w = 0, h = 0;
    for (const cJSON *it = cJSON_GetObjectItem(root, "items")->child; it; it = it->next)
        if (!strcmp(cJSON_GetObjectItem(it, "kind")->valuestring, "panel") &&
            !strcmp(cJSON_GetObjectItem(it, "id")->valuestring, "S") && w == 0) {
            w = cJSON_GetArrayItem(cJSON_GetObjectItem(it, "rect"), 2)->valuedouble;
            h = cJSON_GetArrayItem(cJSON_GetObjectItem(it, "rect"), 3)->valuedouble;
        }
    cJSON_Delete(root);
    run_free(&r);
    cr_assert_gt(w, 100);
    make("s.png", "--size 1600x900 --panel S --scale 2 --background transparent");
    SDL_Surface *s = load("s.png");
    cr_assert(abs(s->w - (int)(2 * w + 0.99)) <= 1 && abs(s->h - (int)(2 * h + 0.99)) <= 1,
              "%dx%d for a %.0fx%.0f panel at 2x", s->w, s->h, w, h);
    cr_assert_eq(pixel(s, 0, 0)[3], 0, "the corner outside the rounded panel is transparent");
    cr_assert_eq(pixel(s, s->w / 2, s->h / 2)[3], 255, "the panel itself is opaque");
    SDL_FreeSurface(s);
    make("w.png", "--size 1600x900 --panel S --background white");
    s = load("w.png");
    const Uint8 *c = pixel(s, 0, 0);
    cr_assert(c[0] == 255 && c[1] == 255 && c[2] == 255 && c[3] == 255, "a white corner");
    SDL_FreeSurface(s);
}

Test(figure, bad_options_exit_2_with_one_line) {
    static const struct {
        const char *args, *says;
    } bad[] = {
        {"--export-figure /tmp/x.gif",
         "attnlab: --export-figure: '/tmp/x.gif' must end in .pdf, .svg or .png\n"},
        {"--export-figure /tmp/attnlab-never.pdf --panel nope",
         "attnlab: --panel: 'nope' is not a panel of the explorer view (its panels: S, A, X, Q, K, "
         "V, O, plane, controls, query)\n"},
        {"--panel S",
         "attnlab: --panel, --scale and --background: only used with --export-figure\n"},
        {"--export-figure /tmp/attnlab-never.pdf --scale 0",
         "attnlab: --scale: 0 is out of range (0.1 to 16)\n"},
        {"--export-figure /tmp/attnlab-never.pdf --background pink",
         "attnlab: --background: 'pink' is not one of: theme, white, transparent\n"},
    };
    for (size_t k = 0; k < sizeof bad / sizeof *bad; k++) {
        Run r = run_attnlab(bad[k].args);
        cr_assert_eq(r.status, 2, "%s", bad[k].args);
        cr_assert_str_eq(r.err, bad[k].says);
        run_free(&r);
    }
    cr_assert_eq(access("/tmp/attnlab-never.pdf", F_OK), -1, "nothing is written");
}

/* A figure or screenshot path that is a symbolic link is written through to
 * its target: the link stays a link. */
Test(figure, a_path_that_is_a_link_writes_its_target) {
    const char *kinds[][2] = {{"svg", "--export-figure"}, {"png", "--screenshot"}};
    for (int k = 0; k < 2; k++) {
        char real[300], link[300], args[800];
        snprintf(real, sizeof real, "%s/real.%s", dir, kinds[k][0]);
        snprintf(link, sizeof link, "%s/link.%s", dir, kinds[k][0]);
        cr_assert_eq(symlink(real, link), 0);
        snprintf(args, sizeof args, "%s '%s' --size 640x400", kinds[k][1], link);
        Run r = run_attnlab(args);
        cr_assert_eq(r.status, 0, "%s", r.err);
        run_free(&r);
        struct stat st;
        cr_assert(lstat(link, &st) == 0 && S_ISLNK(st.st_mode), "%s is still a link", link);
        cr_assert(stat(real, &st) == 0 && S_ISREG(st.st_mode) && st.st_size > 100,
                  "the target %s was written", real);
    }
}

/* The largest scene (n = 512, 16 heads) as an SVG and a PDF: big heatmaps
 * are embedded as images of one pixel a cell, so the files stay small (the
 * SVG was 362 MB, written with 2.1 GB of memory). A PNG past 16384 pixels a
 * side is refused with one line and exit 2, not a cairo error. */
Test(figure, the_largest_scene_is_a_small_file_and_a_huge_png_is_refused, .timeout = 120) {
    static char tokens[512 * 5];
    size_t used = 0;
    for (int i = 0; i < 512; i++)
        used += (size_t)snprintf(tokens + used, sizeof tokens - used, "%s ",
                                 (const char *[]){"the", "cat", "sat", "on", "mat", "dog"}[i % 6]);
    tokens[used - 1] = '\0';
    const char *ext[] = {"svg", "pdf"};
    for (int k = 0; k < 2; k++) {
        char args[4000], path[300];
        snprintf(path, sizeof path, "%s/largest.%s", dir, ext[k]);
        snprintf(args, sizeof args,
                 "--tokens '%s' --heads 16 --size 1920x1080 --export-figure '%s'", tokens, path);
        Run r = run_attnlab(args);
        cr_assert_eq(r.status, 0, "%s", r.err);
        run_free(&r);
        struct stat st;
        cr_assert_eq(stat(path, &st), 0);
        cr_assert_lt(st.st_size, 8 << 20, "%s is %lld bytes", path, (long long)st.st_size);
    }
    char args[600];
    snprintf(args, sizeof args, "--size 16384x16384 --scale 2 --export-figure '%s/huge.png'", dir);
    Run r = run_attnlab(args);
    cr_assert_eq(r.status, 2, "%s", r.err);
    cr_assert(strstr(r.err, "--export-figure: a PNG of 32768x32768 pixels is larger than 16384"),
              "%s", r.err);
    cr_assert_eq(strchr(r.err, '\n'), r.err + strlen(r.err) - 1, "one line: %s", r.err);
    run_free(&r);
}
