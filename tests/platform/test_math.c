/* Formulas end to end: --render-math pictures, what --check-lessons says of
 * an unknown TeX command, and the red it shows in the window. */
#define _POSIX_C_SOURCE 200809L
#include "test_util.h"
#include "platform/run.h"

#include <SDL2/SDL.h>
#include <SDL2/SDL_image.h>
#include <string.h>
#include <unistd.h>

typedef struct Picture {
    int w, h;
    unsigned char *rgba;
} Picture;

static Picture load(const char *path) {
    Picture p = {0};
    SDL_Surface *s0 = IMG_Load(path);
    cr_assert(s0, "%s: %s", path, IMG_GetError());
    SDL_Surface *s = SDL_ConvertSurfaceFormat(s0, SDL_PIXELFORMAT_RGBA32, 0);
    SDL_FreeSurface(s0);
    p.w = s->w;
    p.h = s->h;
    p.rgba = malloc((size_t)p.w * p.h * 4);
    for (int y = 0; y < p.h; y++)
        memcpy(p.rgba + (size_t)y * p.w * 4, (const Uint8 *)s->pixels + y * s->pitch,
               (size_t)p.w * 4);
    SDL_FreeSurface(s);
    return p;
}

/* a pixel clearly brighter than the panel behind the formula: ink */
static bool ink_at(const Picture *p, int x, int y) {
    const unsigned char *c = p->rgba + ((size_t)y * p->w + x) * 4;
    return c[0] > 150;
}

static Picture render(const char *tex, const char *extra) {
    char args[1200];
    snprintf(args, sizeof args, "--render-math '%s' --screenshot /tmp/attnlab-math.png %s", tex,
             extra);
    unlink("/tmp/attnlab-math.png");
    Run r = run_attnlab(args);
    cr_assert_eq(r.status, 0, "%s: %s", tex, r.err);
    run_free(&r);
    Picture p = load("/tmp/attnlab-math.png");
    unlink("/tmp/attnlab-math.png");
    return p;
}

Test(math, render_math_is_tight_and_a_fraction_stands_taller) {
    Picture x = render("x + y", ""), f = render("\\frac{x}{y}", "");
    cr_assert_lt(x.h, 80, "one line of math, tight: %d px", x.h);
    cr_assert_gt(f.h, x.h + 10, "a fraction (%d px) is taller than x + y (%d px)", f.h, x.h);
    cr_assert_lt(f.w, x.w, "and narrower: its parts are stacked, not side by side");
    /* the rule: one row with ink across most of the width, ink above and below it */
    int rule_y = -1;
    for (int y = 0; y < f.h && rule_y < 0; y++) {
        int run = 0;
        for (int xx = 0; xx < f.w; xx++) run += ink_at(&f, xx, y);
        if (run > f.w / 3) rule_y = y;
    }
    cr_assert_geq(rule_y, 0, "no fraction rule found");
    bool above = false, below = false;
    for (int y = 0; y < f.h; y++)
        for (int xx = 0; xx < f.w; xx++)
            if (ink_at(&f, xx, y)) {
                above |= y < rule_y - 3;
                below |= y > rule_y + 4;
            }
    cr_assert(above && below, "the numerator sits above the rule, the denominator below");
    /* --ui-scale scales the picture */
    Picture x2 = render("x + y", "--ui-scale 2");
    cr_assert(abs(x2.w - 2 * x.w) <= 3 && abs(x2.h - 2 * x.h) <= 3, "%dx%d at 2x vs %dx%d", x2.w,
              x2.h, x.w, x.h);
    free(x.rgba);
    free(f.rgba);
    free(x2.rgba);
}

Test(math, render_math_refuses_what_it_cannot_set) {
    static const struct {
        const char *args, *says;
    } bad[] = {
        {"--render-math '\\frobnicate{x}' --screenshot /tmp/attnlab-never.png",
         "attnlab: --render-math: unknown TeX command \\frobnicate\n"},
        {"--render-math '\\frac{a}{b' --screenshot /tmp/attnlab-never.png",
         "attnlab: --render-math: a { is never closed\n"},
        {"--render-math 'x'", "attnlab: --render-math: needs --screenshot FILE.png\n"},
        {"--render-math '\\frac{a}' --screenshot /tmp/attnlab-never.png",
         "attnlab: --render-math: \\frac's denominator is missing\n"},
        {"--render-math \"$(printf 'a\\300\\257')\" --screenshot /tmp/attnlab-never.png",
         "attnlab: --render-math: byte 2 (0xC0) is not valid UTF-8 text in a formula\n"},
    };
    for (size_t k = 0; k < sizeof bad / sizeof *bad; k++) {
        Run r = run_attnlab(bad[k].args);
        cr_assert_eq(r.status, 2, "%s", bad[k].args);
        cr_assert_str_eq(r.err, bad[k].says);
        run_free(&r);
        cr_assert_eq(access("/tmp/attnlab-never.png", F_OK), -1, "nothing is written");
    }
}

/* A formula too wide to render is one line naming the option and the limit,
 * exit 2: not GL's "cannot make a 216060x102 offscreen framebuffer", exit 1. */
Test(math, a_formula_too_big_to_render_names_the_limit) {
    static char args[2000];
    char text[1300];
    memset(text, 'W', 1200); /* some 65,000 pixels wide at 3x */
    text[1200] = '\0';
    snprintf(args, sizeof args,
             "--render-math '\\text{%s}' --ui-scale 3 --screenshot /tmp/attnlab-never.png", text);
    Run r = run_attnlab(args);
    cr_assert_eq(r.status, 2, "%s", r.err);
    cr_assert(strstr(r.err, "attnlab: --render-math: the formula is ") &&
                  strstr(r.err, "pixels at --ui-scale 3; this GL renders at most"),
              "%s", r.err);
    cr_assert_eq(access("/tmp/attnlab-never.png", F_OK), -1, "nothing is written");
    run_free(&r);
}

static void write_file(const char *path, const char *text) {
    FILE *f = fopen(path, "w");
    cr_assert(f);
    fputs(text, f);
    fclose(f);
}

Test(math, an_unknown_command_fails_the_check_but_shows_red_in_the_window) {
    char dir[] = "/tmp/attnlab-tex-XXXXXX", path[200], args[600], want[400];
    cr_assert(mkdtemp(dir));
    snprintf(path, sizeof path, "%s/odd.md", dir);
    write_file(path, "# Odd\n\n## One\n\nFine $x$ here.\n\n$a = \\frobnicate{b}$\n");
    snprintf(args, sizeof args, "--check-lessons '%s'", dir);
    Run r = run_attnlab(args);
    cr_assert_eq(r.status, 2);
    snprintf(want, sizeof want, "%s:7: unknown TeX command \\frobnicate\n", path);
    cr_assert_str_eq(r.err, want);
    run_free(&r);
    /* the window opens it, and the command is drawn as written, in red */
    snprintf(args, sizeof args, "--lesson '%s' --size 1280x720 --screenshot %s/shot.png", path,
             dir);
    r = run_attnlab(args);
    cr_assert_eq(r.status, 0, "%s", r.err);
    run_free(&r);
    snprintf(path, sizeof path, "%s/shot.png", dir);
    Picture p = load(path);
    long red = 0;
    for (long k = 0; k < (long)p.w * p.h; k++) {
        const unsigned char *c = p.rgba + k * 4;
        red += c[0] > 230 && c[1] > 90 && c[1] < 130 && c[2] > 80 && c[2] < 120;
    }
    cr_assert_gt(red, 20, "no red ink for \\frobnicate");
    free(p.rgba);
    snprintf(args, sizeof args, "rm -rf '%s'", dir);
    cr_assert_eq(system(args), 0);
}
