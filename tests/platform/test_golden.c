/* Golden images: every state in tests/golden/states.tsv is rendered with
 * --screenshot and laid out with --dump-ui, and must match NAME.png pixel
 * for pixel and NAME.json byte for byte. A refactoring that changes nothing
 * visible passes; a change on purpose is followed by `make golden` (and a
 * commit message saying why). On a mismatch the actual picture and a diff
 * (changed pixels in magenta over a faded copy) are written to
 * build/golden-diff/ for a person to look at. */
#define _POSIX_C_SOURCE 200809L
#include "test_util.h"

#include <SDL2/SDL.h>
#include <SDL2/SDL_image.h>
#include <string.h>
#include <sys/stat.h>

static char *slurp_file(const char *path, size_t *len) {
    char err[512], *text = NULL;
    if (!file_read_all(path, 1 << 26, &text, len, err, sizeof err)) return NULL;
    return text;
}

/* 0 when equal; else the count of differing pixels (or -1 if unreadable),
 * with NAME_actual.png and NAME_diff.png written to diff_dir. */
static long compare_png(const char *want_path, const char *got_path, const char *diff_dir,
                        const char *name) {
    SDL_Surface *w0 = IMG_Load(want_path), *g0 = IMG_Load(got_path);
    if (!w0 || !g0) {
        if (w0) SDL_FreeSurface(w0);
        if (g0) SDL_FreeSurface(g0);
        return -1;
    }
    SDL_Surface *w = SDL_ConvertSurfaceFormat(w0, SDL_PIXELFORMAT_RGBA32, 0);
    SDL_Surface *g = SDL_ConvertSurfaceFormat(g0, SDL_PIXELFORMAT_RGBA32, 0);
    SDL_FreeSurface(w0);
    SDL_FreeSurface(g0);
    long differ = 0;
    if (w->w != g->w || w->h != g->h) {
        differ = (long)g->w * g->h;
    } else {
        for (int y = 0; y < w->h; y++) {
            const Uint8 *a = (const Uint8 *)w->pixels + y * w->pitch;
            Uint8 *b = (Uint8 *)g->pixels + y * g->pitch;
            differ += memcmp(a, b, (size_t)w->w * 4) != 0;
        }
    }
    if (differ) {
        char path[2400];
        mkdir(diff_dir, 0755);
        snprintf(path, sizeof path, "%.1100s/%.200s_actual.png", diff_dir, name);
        IMG_SavePNG(g, path);
        if (w->w == g->w && w->h == g->h) {
            differ = 0;
            for (int y = 0; y < w->h; y++)
                for (int x = 0; x < w->w; x++) {
                    const Uint8 *a = (const Uint8 *)w->pixels + y * w->pitch + x * 4;
                    Uint8 *b = (Uint8 *)g->pixels + y * g->pitch + x * 4;
                    bool same = memcmp(a, b, 4) == 0;
                    differ += !same;
                    b[0] = same ? (Uint8)(b[0] / 4 + 160) : 255;
                    b[1] = same ? (Uint8)(b[1] / 4 + 160) : 0;
                    b[2] = same ? (Uint8)(b[2] / 4 + 160) : 255;
                }
            snprintf(path, sizeof path, "%.1100s/%.200s_diff.png", diff_dir, name);
            IMG_SavePNG(g, path);
        }
    }
    SDL_FreeSurface(w);
    SDL_FreeSurface(g);
    return differ;
}

/* The hang guard is `timeout` around the renderer, not Criterion's
 * .timeout: with a Criterion timer running beside other suites, the runner
 * itself leaks 48 bytes under LeakSanitizer. */
Test(golden, every_state_matches_its_image_and_layout) {
    const char *top = test_env("ATTNLAB_DATA");
    char out[] = "/tmp/attnlab-golden-XXXXXX", cmd[2048], list[1024], line[2048];
    cr_assert(mkdtemp(out));
    /* The sanitizer build draws each view once, among them a lesson open, presenting, the
     * contrast theme, 2× and the Q/K plane (what the drawing reads and writes); the normal
     * pass compares every state's pixels */
    static const char sanitized[] =
        "scaling-1024x768 permutation-1920x1080-zoom2 qk-plane-dk2-1600x900 "
        "theme-contrast-1600x900 presenter-lesson12-1920x1080-zoom2 shift-alibi-causal-1920x1080-"
        "zoom2 presenter-layers-1920x1080-zoom2 model-generated-gpt2-presenter-1920x1080-zoom2";
    const char *only = getenv("ATTNLAB_SANITIZED") ? sanitized : "";
    snprintf(cmd, sizeof cmd, "GOLDEN_ONLY='%s' timeout 900 '%s/tests/golden/render.sh' '%s' '%s'",
             only, top, test_env("ATTNLAB_BIN"), out);
    cr_assert_eq(system(cmd), 0, "rendering the golden states failed: %s", cmd);
    snprintf(list, sizeof list, "%s/tests/golden/states.tsv", top);
    FILE *f = fopen(list, "r");
    cr_assert(f, "no %s", list);
    char diff_dir[1100], failures[4096] = "";
    snprintf(diff_dir, sizeof diff_dir, "%.1000s/build/golden-diff", top);
    int states = 0;
    while (fgets(line, sizeof line, f)) {
        if (line[0] == '#' || line[0] == '\n') continue;
        line[strcspn(line, "\t")] = '\0';
        const char *name = line;
        char padded[300], list[sizeof sanitized + 2];
        snprintf(padded, sizeof padded, " %.200s ", name);
        snprintf(list, sizeof list, " %s ", only);
        if (only[0] && !strstr(list, padded)) continue;
        char want[4200], got[4200];
        snprintf(want, sizeof want, "%.1500s/tests/golden/%.200s.png", top, name);
        snprintf(got, sizeof got, "%s/%.200s.png", out, name);
        long px = compare_png(want, got, diff_dir, name);
        if (px) {
            size_t used = strlen(failures);
            snprintf(failures + used, sizeof failures - used, "\n  %s.png: %ld pixels differ", name,
                     px);
        }
        snprintf(want, sizeof want, "%.1500s/tests/golden/%.200s.json", top, name);
        snprintf(got, sizeof got, "%s/%.200s.json", out, name);
        size_t wl = 0, gl = 0;
        char *wt = slurp_file(want, &wl), *gt = slurp_file(got, &gl);
        if (!wt || !gt || wl != gl || memcmp(wt, gt, wl) != 0) {
            size_t used = strlen(failures);
            snprintf(failures + used, sizeof failures - used, "\n  %s.json: layout differs", name);
        }
        free(wt);
        free(gt);
        states++;
    }
    fclose(f);
    snprintf(cmd, sizeof cmd, "rm -rf '%s'", out);
    cr_assert_eq(system(cmd), 0);
    if (only[0])
        cr_assert_eq(states, 8, "each of the 8 states the sanitizer build draws is in states.tsv");
    else
        cr_assert_geq(states, 24, "at least 24 golden states");
    cr_assert_str_eq(failures, "",
                     "golden mismatches (pictures in build/golden-diff/; `make golden` "
                     "regenerates on purpose):%s",
                     failures);
}
