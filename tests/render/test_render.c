/* src/render: shaders compile on Mesa, and known draw lists land on known
 * pixels. Runs headless through SDL's offscreen video driver. On a failed
 * pixel check the rendered image is written to build/ for a person to see. */
#define _POSIX_C_SOURCE 200809L
#include "render/image.h"
#include "render/render.h"
#include "gl_fixture.h"
#include "test_util.h"

#include <SDL.h>
#include <SDL_image.h>
#include <math.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

static Gl_Fixture gl;
static Renderer rr;
static Draw_List dl;

static void gl_up(void) {
    gl_fixture_up(&gl, 64, 64);
    char err[1024];
    cr_assert(
        render_init(&rr, &(Render_Desc){.data_dir = test_env("ATTNLAB_DATA")}, err, sizeof err),
        "%s", err);
    cr_assert(draw_init(&dl, &(Draw_Desc){0}));
}

static void gl_down(void) {
    draw_free(&dl);
    render_shutdown(&rr);
    gl_fixture_down(&gl);
}

TestSuite(render, .init = gl_up, .fini = gl_down);

static const Color BG = {10, 20, 30, 255};

/* Render dl at scale into a w×h target and return the pixels (top row first). */
static unsigned char *render_to_pixels(int w, int h, float scale) {
    char err[256];
    cr_assert(render_offscreen_begin(&rr, w, h, err, sizeof err), "%s", err);
    render_set_scale(&rr, scale);
    render_frame(&rr, &dl, w, h, BG);
    unsigned char *px = malloc((size_t)w * h * 4);
    render_read_rgba(&rr, w, h, px);
    render_offscreen_end(&rr);
    return px;
}

static void save_actual(const char *name, const unsigned char *px, int w, int h) {
    char path[512], err[256];
    snprintf(path, sizeof path, "%s/build/test-actual-%s.png", test_env("ATTNLAB_DATA"), name);
    if (image_save_png(path, w, h, px, err, sizeof err))
        fprintf(stderr, "rendered image written to %s\n", path);
}

static bool near(const unsigned char *p, Color c, int tol) {
    return abs(p[0] - c.r) <= tol && abs(p[1] - c.g) <= tol && abs(p[2] - c.b) <= tol;
}

#define PX(px, w, x, y) ((px) + ((size_t)(y) * (w) + (x)) * 4)

Test(render, every_shader_compiles_and_links) {
    for (int i = 0; i < PROGRAM_COUNT; i++) {
        Program p = {0};
        char err[1024];
        cr_assert(shader_build(test_env("ATTNLAB_DATA"), (Program_Id)i, &p, err, sizeof err), "%s",
                  err);
        cr_assert_neq(p.id, 0u);
        cr_assert_geq(p.u_proj, 0, "%s has no u_proj", program_files[i].vs);
        shader_free(&p);
    }
}

Test(render, broken_shader_names_file_and_line_and_keeps_old_programs) {
    /* A data folder whose ui.frag has an error on line 3. */
    char dir[] = "/tmp/attnlab-shaders-XXXXXX", path[256], cmd[512];
    cr_assert(mkdtemp(dir));
    snprintf(cmd, sizeof cmd, "mkdir -p %s/shaders && cp %s/shaders/* %s/shaders/", dir,
             test_env("ATTNLAB_DATA"), dir);
    cr_assert_eq(system(cmd), 0);
    snprintf(path, sizeof path, "%s/shaders/text.frag", dir);
    FILE *f = fopen(path, "w");
    fputs("#version 330 core\nout vec4 frag;\nvoid main() { frag = vec4(1.0) +; }\n", f);
    fclose(f);
    unsigned int before = rr.programs[PROGRAM_SHAPE].id;
    char err[1024];
    cr_assert_not(shader_build_all(dir, rr.programs, err, sizeof err));
    cr_assert(strncmp(err, "shaders/text.frag:3: ", 21) == 0, "got: %s", err);
    cr_assert_eq(rr.programs[PROGRAM_SHAPE].id, before, "the old program must stay in use");
    snprintf(cmd, sizeof cmd, "rm -rf %s", dir);
    cr_assert_eq(system(cmd), 0);
}

Test(render, heatmap_cells_have_their_colormap_colour) {
    const float v[4 * 4] = {0,    0.1f, 0.2f, 0.3f,  0.4f,  0.5f,  0.6f,  0.7f,
                            0.8f, 0.9f, 1.0f, 0.05f, 0.33f, 0.66f, 0.99f, 0.5f};
    for (int map = 0; map < COLORMAP_COUNT; map++) {
        draw_clear(&dl);
        draw_heatmap(&dl, (Rect){10, 10, 80, 80}, v, 4, 4, 0, 1, (Colormap)map);
        unsigned char *px = render_to_pixels(100, 100, 1);
        for (int i = 0; i < 4; i++) {
            for (int j = 0; j < 4; j++) {
                Color want = colormap_sample((Colormap)map, v[i * 4 + j]);
                const unsigned char *p = PX(px, 100, 10 + j * 20 + 10, 10 + i * 20 + 10);
                /* GPU linear filtering in 8 bits vs. the CPU's: within 2 levels */
                if (!near(p, want, 2)) save_actual("heatmap", px, 100, 100);
                cr_assert(near(p, want, 2), "map %d cell (%d,%d): got %d,%d,%d want %d,%d,%d", map,
                          i, j, p[0], p[1], p[2], want.r, want.g, want.b);
            }
        }
        /* outside the heatmap: the clear colour */
        cr_assert(near(PX(px, 100, 5, 5), BG, 0));
        free(px);
    }
}

/* Coordinates far outside the frame, or not numbers at all, are painted
 * nowhere and damage nothing; the next frame paints what changed around them. */
Test(render, wild_coordinates_are_no_damage_and_the_next_frame_still_paints) {
    draw_clear(&dl);
    draw_rect(&dl, (Rect){1e20f, -1e20f, 5e19f, 3e19f}, rgba(255, 0, 0, 255));
    draw_rect(&dl, (Rect){NAN, 10, 20, NAN}, rgba(255, 0, 0, 255));
    draw_line(&dl, -INFINITY, 0, INFINITY, 1e30f, 3, rgba(255, 0, 0, 255));
    draw_text(&dl, FONT_SANS, 14, -3e9f, 4e9f, ALIGN_CENTER, rgba(255, 0, 0, 255), "far");
    draw_clip(&dl, (Rect){-1e25f, -1e25f, 2e25f, 2e25f});
    draw_rect(&dl, (Rect){10, 10, 20, 20}, rgba(0, 255, 0, 255));
    draw_noclip(&dl);
    unsigned char *px = render_to_pixels(100, 100, 1);
    cr_assert(near(PX(px, 100, 20, 20), rgba(0, 255, 0, 255), 0), "the one real rect is missing");
    cr_assert(near(PX(px, 100, 60, 60), BG, 0), "a wild coordinate painted the frame");
    free(px);
    /* the real rect moves: only it is damaged, and it lands */
    dl.cmds[dl.count - 2].rect.r.x = 50;
    px = render_to_pixels(100, 100, 1);
    Render_Stats st = render_stats(&rr);
    cr_assert_not(st.full);
    /* its old and new place, each with a pixel of slack around */
    cr_assert_leq(st.damage_px, 2 * 22 * 22, "painted %lld pixels for a 20 x 20 move",
                  (long long)st.damage_px);
    cr_assert(near(PX(px, 100, 60, 20), rgba(0, 255, 0, 255), 0));
    cr_assert(near(PX(px, 100, 20, 20), BG, 0), "the rect's old place was not repainted");
    free(px);
}

Test(render, rectangles_lines_and_circles_land_where_asked) {
    draw_clear(&dl);
    draw_rect(&dl, (Rect){0, 0, 10, 10}, rgba(255, 0, 0, 255));
    draw_line(&dl, 20, 50, 90, 50, 4, rgba(0, 255, 0, 255));
    draw_circle(&dl, 50, 80, 8, rgba(0, 0, 255, 255));
    draw_rect_outline(&dl, (Rect){60, 5, 30, 30}, 0, 2, rgba(255, 255, 0, 255));
    unsigned char *px = render_to_pixels(100, 100, 1);
    bool ok =
        near(PX(px, 100, 5, 5), rgba(255, 0, 0, 255), 0) && near(PX(px, 100, 15, 15), BG, 0) &&
        near(PX(px, 100, 55, 50), rgba(0, 255, 0, 255), 2) && near(PX(px, 100, 55, 56), BG, 0) &&
        near(PX(px, 100, 50, 80), rgba(0, 0, 255, 255), 2) && near(PX(px, 100, 50, 92), BG, 0) &&
        near(PX(px, 100, 61, 20), rgba(255, 255, 0, 255), 2) && near(PX(px, 100, 75, 20), BG, 0);
    if (!ok) save_actual("shapes", px, 100, 100);
    cr_assert(ok, "a shape is not where it was drawn (see build/test-actual-shapes.png)");
    free(px);
}

Test(render, text_run_has_glyph_pixels_inside_its_box_only) {
    draw_clear(&dl);
    Text_Metrics tm = render_text_metrics(&rr);
    render_set_scale(&rr, 1);
    const char *text = "s₂₃ = ⟨q₂,k₃⟩/√d_k ≈ 0.80";
    float w = tm.width(tm.ctx, FONT_SANS, 20, text, (int)strlen(text));
    float h = tm.line_height(tm.ctx, FONT_SANS, 20);
    cr_assert(w > 100 && w < 380, "width %g", w);
    draw_text(&dl, FONT_SANS, 20, 20, 20, ALIGN_LEFT, rgba(255, 255, 255, 255), text);
    unsigned char *px = render_to_pixels(400, 80, 1);
    int inside = 0, outside = 0;
    for (int y = 0; y < 80; y++) {
        for (int x = 0; x < 400; x++) {
            bool ink = !near(PX(px, 400, x, y), BG, 8);
            bool in_box = x >= 20 - 2 && x < 20 + w + 2 && y >= 20 && y < 20 + h;
            if (ink && in_box) inside++;
            if (ink && !in_box) outside++;
        }
    }
    if (inside < 200 || outside) save_actual("text", px, 400, 80);
    cr_assert_geq(inside, 200, "too few glyph pixels: %d", inside);
    cr_assert_eq(outside, 0, "%d glyph pixels outside the measured box", outside);
    free(px);
}

/* One word alone, rendered at 28 px: its ink as a bitmap, cropped to the ink,
 * and how many pixels it has. */
typedef struct Ink {
    unsigned char bits[120 * 48];
    int w, h, count;
} Ink;

static void ink_of(const char *word, Ink *out) {
    draw_clear(&dl);
    render_set_scale(&rr, 1);
    draw_text(&dl, FONT_SANS, 28, 8, 4, ALIGN_LEFT, rgba(255, 255, 255, 255), word);
    unsigned char *px = render_to_pixels(240, 48, 1);
    int x0 = 240, x1 = -1;
    for (int y = 0; y < 48; y++)
        for (int x = 0; x < 240; x++)
            if (!near(PX(px, 240, x, y), BG, 40)) {
                x0 = x < x0 ? x : x0;
                x1 = x > x1 ? x : x1;
            }
    memset(out, 0, sizeof *out);
    out->h = 48;
    out->w = x1 >= x0 ? x1 - x0 + 1 : 0;
    if (out->w > 120) out->w = 120;
    for (int y = 0; y < 48; y++)
        for (int x = 0; x < out->w; x++) {
            bool ink = !near(PX(px, 240, x0 + x, y), BG, 40);
            out->bits[y * 120 + x] = ink;
            out->count += ink;
        }
    free(px);
}

/* Words in any script have their own ink: Han (two words sharing a
 * character still differ), Greek, Cyrillic, emoji from the fallback faces,
 * and a code point no face has becomes a box with its code, so two such
 * never look alike and never look like "�". */
Test(render, every_script_draws_its_own_ink_and_unknown_code_points_their_code) {
    static const char *const words[] = {"東京",
                                        "京都",
                                        "Ωμέγα",
                                        "Москва",
                                        "😀",
                                        "🐱",
                                        "Straße",
                                        "\xf0\x9f\xab\xa0", /* U+1FAE0 */
                                        "\xf3\xb0\x80\x81" /* U+F0001, private use */};
    enum { N = sizeof words / sizeof *words };
    static Ink ink[N], replacement;
    ink_of("\xef\xbf\xbd", &replacement); /* U+FFFD itself */
    for (int k = 0; k < N; k++) {
        ink_of(words[k], &ink[k]);
        cr_assert_gt(ink[k].count, 40, "'%s' draws ink (%d pixels)", words[k], ink[k].count);
        cr_assert(ink[k].w != replacement.w ||
                      memcmp(ink[k].bits, replacement.bits, sizeof ink[k].bits),
                  "'%s' is drawn as the replacement character", words[k]);
    }
    for (int a = 0; a < N; a++)
        for (int b = a + 1; b < N; b++) {
            int differ = 0;
            for (int q = 0; q < (int)sizeof ink[a].bits; q++)
                differ += ink[a].bits[q] != ink[b].bits[q];
            cr_assert_gt(differ, 20, "'%s' and '%s' have the same ink", words[a], words[b]);
        }
}

Test(render, zoom_2x_lands_at_2x_coordinates) {
    draw_clear(&dl);
    draw_rect(&dl, (Rect){5, 5, 10, 10}, rgba(255, 0, 0, 255));
    unsigned char *one = render_to_pixels(100, 100, 1);
    unsigned char *two = render_to_pixels(100, 100, 2);
    for (int y = 0; y < 50; y++) {
        for (int x = 0; x < 50; x++) {
            /* pixel (x, y) at 1× must equal pixels (2x, 2y) … (2x+1, 2y+1) at 2× */
            bool red1 = near(PX(one, 100, x, y), rgba(255, 0, 0, 255), 0);
            for (int dy = 0; dy < 2; dy++)
                for (int dx = 0; dx < 2; dx++) {
                    bool red2 = near(PX(two, 100, 2 * x + dx, 2 * y + dy), rgba(255, 0, 0, 255), 0);
                    if (red1 != red2) save_actual("zoom2x", two, 100, 100);
                    cr_assert_eq(red1, red2, "1× (%d,%d) vs 2× (%d,%d)", x, y, 2 * x + dx,
                                 2 * y + dy);
                }
        }
    }
    free(one);
    free(two);
}

Test(render, a_frame_is_a_handful_of_draw_calls_whatever_n) {
    draw_clear(&dl);
    static float grid[512 * 512];
    for (int i = 0; i < 512 * 512; i++) grid[i] = (float)(i % 7) / 7.0f;
    draw_heatmap(&dl, (Rect){0, 0, 256, 256}, grid, 512, 512, 0, 1, COLORMAP_VIRIDIS);
    for (int i = 0; i < 2000; i++)
        draw_rect(&dl, (Rect){(float)(i % 100), (float)(i / 100), 1, 1}, rgba(1, 2, 3, 255));
    for (int i = 0; i < 200; i++)
        draw_text(&dl, FONT_MONO, 12, 0, (float)i, ALIGN_LEFT, rgba(255, 255, 255, 255), "0.00");
    free(render_to_pixels(256, 256, 1));
    Render_Stats st = render_stats(&rr);
    cr_assert_eq(st.heatmaps, 1);
    /* one heatmap, then one batch of shapes and one of text */
    cr_assert_leq(st.draw_calls, 3, "draw calls: %d", st.draw_calls);
}

Test(render, screenshot_option_writes_a_png_of_the_requested_size) {
    char dir[] = "/tmp/attnlab-shot-XXXXXX", path[128], cmd[1024];
    cr_assert(mkdtemp(dir));
    snprintf(path, sizeof path, "%s/out.png", dir);
    snprintf(cmd, sizeof cmd, "'%s' --screenshot '%s' --size 640x400", test_env("ATTNLAB_BIN"),
             path);
    cr_assert_eq(system(cmd), 0, "%s failed", cmd);
    SDL_Surface *s = IMG_Load(path);
    cr_assert(s, "not a decodable PNG: %s", IMG_GetError());
    cr_assert_eq(s->w, 640);
    cr_assert_eq(s->h, 400);
    /* not a blank frame: many distinct colours */
    SDL_Surface *c = SDL_ConvertSurfaceFormat(s, SDL_PIXELFORMAT_ABGR8888, 0);
    int distinct = 0;
    uint32_t seen[64] = {0};
    for (int y = 0; y < c->h && distinct < 64; y += 7) {
        const uint32_t *row = (const uint32_t *)((const char *)c->pixels + y * c->pitch);
        for (int x = 0; x < c->w && distinct < 64; x += 7) {
            bool found = false;
            for (int k = 0; k < distinct; k++) found |= seen[k] == row[x];
            if (!found) seen[distinct++] = row[x];
        }
    }
    cr_assert_geq(distinct, 20, "only %d colours: the frame looks empty", distinct);
    SDL_FreeSurface(c);
    SDL_FreeSurface(s);
    unlink(path);
    rmdir(dir);
}

/* Where --dump-ui puts the item {"kind": KIND, "id": ID} at 1600x900. */
static void dump_rect(const char *args, const char *kind, const char *id, Rect *r) {
    char cmd[1600];
    snprintf(cmd, sizeof cmd, "'%s' --dump-ui --size 1600x900 %s", test_env("ATTNLAB_BIN"), args);
    FILE *p = popen(cmd, "r");
    static char buf[1 << 20];
    size_t n = fread(buf, 1, sizeof buf - 1, p);
    buf[n] = '\0';
    cr_assert_eq(pclose(p), 0, "%s", cmd);
    char key[96];
    snprintf(key, sizeof key, "\"kind\": \"%s\", \"id\": \"%s\"", kind, id);
    const char *at = strstr(buf, key);
    cr_assert(at, "no %s %s in --dump-ui", kind, id);
    at = strstr(at, "\"rect\": [");
    cr_assert_eq(sscanf(at, "\"rect\": [%f, %f, %f, %f]", &r->x, &r->y, &r->w, &r->h), 4);
}

/* Render a view with the binary and, if asked, find a heatmap grid with --dump-ui. */
static SDL_Surface *shoot(const char *args, const char *grid_name, Rect *grid) {
    char dir[] = "/tmp/attnlab-view-XXXXXX", path[128], cmd[1024];
    cr_assert(mkdtemp(dir));
    snprintf(path, sizeof path, "%s/view.png", dir);
    snprintf(cmd, sizeof cmd, "'%s' --screenshot '%s' --size 1600x900 %s", test_env("ATTNLAB_BIN"),
             path, args);
    cr_assert_eq(system(cmd), 0, "%s", cmd);
    SDL_Surface *raw = IMG_Load(path);
    cr_assert(raw, "%s", IMG_GetError());
    cr_assert_eq(raw->w, 1600);
    cr_assert_eq(raw->h, 900);
    SDL_Surface *s = SDL_ConvertSurfaceFormat(raw, SDL_PIXELFORMAT_ABGR8888, 0);
    SDL_FreeSurface(raw);
    unlink(path);
    rmdir(dir);
    if (grid_name) dump_rect(args, "grid", grid_name, grid);
    return s;
}

static const unsigned char *pixel(SDL_Surface *s, int x, int y) {
    return (const unsigned char *)s->pixels + y * s->pitch + x * 4;
}

Test(render, every_view_renders_at_1600x900) {
    const char *views[3] = {"--view explorer", "--view scaling", "--view permutation"};
    for (int v = 0; v < 3; v++) {
        SDL_Surface *s = shoot(views[v], NULL, NULL);
        /* the title bar's background and some bright text both appear */
        int bright = 0;
        for (int y = 0; y < 900; y += 5)
            for (int x = 0; x < 1600; x += 5) bright += pixel(s, x, y)[0] > 200;
        cr_assert_gt(bright, 500, "%s looks empty", views[v]);
        SDL_FreeSurface(s);
    }
}

Test(render, permutation_difference_is_blank_without_positions_only) {
    /* d_v = 4 and six tokens: a 6×4 grid of large cells; sample each centre */
    const char *runs[2] = {"--view permutation --dv 4 --perm '5 4 3 2 1 0'",
                           "--view permutation --dv 4 --perm '5 4 3 2 1 0' --pos sin"};
    Color zero = colormap_sample(COLORMAP_DIVERGING, 0.5f);
    for (int k = 0; k < 2; k++) {
        Rect g;
        SDL_Surface *s = shoot(runs[k], "O_diff", &g);
        int off = 0;
        for (int i = 0; i < 6; i++)
            for (int j = 0; j < 4; j++) {
                int x = (int)(g.x + (j + 0.5f) * g.w / 4), y = (int)(g.y + (i + 0.5f) * g.h / 6);
                off += !near(pixel(s, x, y), zero, 3);
            }
        if (k == 0)
            cr_assert_eq(off, 0,
                         "without positions every difference cell is the zero colour (%d are not)",
                         off);
        else
            cr_assert_geq(off, 6, "with positions the difference shows (%d cells off zero)", off);
        SDL_FreeSurface(s);
    }
}

Test(render, a_lesson_step_shows_its_text) {
    char args[1200];
    snprintf(args, sizeof args, "--lesson '%s/lessons/01-tokens-become-vectors.md'",
             test_env("ATTNLAB_DATA"));
    /* the lesson panel's rectangle from --dump-ui, then bright text pixels inside it */
    Rect r;
    dump_rect(args, "panel", "lesson", &r);
    SDL_Surface *s = shoot(args, NULL, NULL);
    /* the upper part of the panel holds the step's prose: many light pixels */
    int text = 0;
    for (int y = (int)r.y + 60; y < (int)(r.y + r.h * 0.5f); y++)
        for (int x = (int)r.x + 10; x < (int)(r.x + r.w - 10); x++) text += pixel(s, x, y)[0] > 180;
    cr_assert_gt(text, 2000, "only %d text pixels in the lesson panel", text);
    SDL_FreeSurface(s);
}
