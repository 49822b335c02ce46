/* Drivers that run the app with no window on screen; see headless.h. */
#define _POSIX_C_SOURCE 200809L
#include "headless.h"
#include "../core/clock.h"

#include "../json/jsonw.h"
#include "real_open.h"
#include "../render/font.h"
#include "../render/figure.h"
#include "../render/image.h"
#include "../ui/lesson_panel.h"

#include <SDL_ttf.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <time.h>

/* Headless modes run a virtual clock: this far apart, every animation ends. */
#define HEADLESS_SETTLE_SECONDS 60.0

/* A picture with part of its frame left out is refused, not written. */
static bool drawn_whole(const Draw_List *dl, const char *option) {
    if (dl->dropped == 0) return true;
    fprintf(stderr,
            "attnlab: %s: the frame is too large to draw whole (%d shapes or heatmaps past the "
            "draw list's limits); nothing was written\n",
            option, dl->dropped);
    return false;
}

/* Read the offscreen picture back and write it to --screenshot's file. */
static int save_offscreen(App *a, int w, int h) {
    char err[1024];
    if (!drawn_whole(&a->dl, "--screenshot")) {
        render_offscreen_end(&a->render);
        return 2;
    }
    unsigned char *px = malloc((size_t)w * h * 4);
    if (!px) {
        fprintf(stderr, "attnlab: out of memory for a %dx%d screenshot\n", w, h);
        return 1;
    }
    render_read_rgba(&a->render, w, h, px);
    render_offscreen_end(&a->render);
    bool ok = image_save_png(a->desc->opts->screenshot_path, w, h, px, err, sizeof err);
    free(px);
    if (!ok) {
        cli_report("attnlab: ", err);
        return 1;
    }
    return 0;
}

/* --render-math: one formula, as tight as the lesson panel's padding allows. */
static int render_math(App *a) {
    const Cli_Options *o = a->desc->opts;
    char err[1024];
    float z = o->ui_scale;
    render_set_scale(&a->render, z);
    Rect need = lesson_formula_figure(&a->ui, &a->vs, &a->model, o->render_math, false);
    double fw = ceil(need.w * z), fh = ceil(need.h * z);
    int max = render_max_side();
    if (!(fw <= max && fh <= max)) { /* also NaN */
        fprintf(stderr,
                "attnlab: --render-math: the formula is %.0fx%.0f pixels at --ui-scale %g; this "
                "GL renders at most %d a side (shorten it, or lower --ui-scale)\n",
                fw, fh, (double)z, max);
        return 2;
    }
    int w = (int)fw, h = (int)fh;
    if (w < 1 || h < 1) {
        fprintf(stderr, "attnlab: --render-math: the formula could not be set\n");
        return 2;
    }
    if (!render_offscreen_begin(&a->render, w, h, err, sizeof err)) {
        cli_report("", err);
        return 1;
    }
    /* twice: the first fills the glyph atlas */
    for (int pass = 0; pass < 2 || render_wants_redraw(&a->render); pass++) {
        ui_begin(&a->ui, &a->in, (float)w / z, (float)h / z);
        a->ui.px_scale = z;
        lesson_formula_figure(&a->ui, &a->vs, &a->model, o->render_math, true);
        ui_end(&a->ui);
        render_frame(&a->render, &a->dl, w, h, a->ui.theme->panel);
        if (pass > 4) break;
    }
    return save_offscreen(a, w, h);
}

/* Steps a lesson asked for run a slice a frame in the window: a picture
 * shows where they end, like a finished animation. */
static void settle_training(Model *m) {
    real_lab_settle(&m->real); /* the real model's pass too: the picture shows it done */
    if (m->stack.queued > 0) stack_lab_run(&m->stack, m->stack.queued);
    if (m->train.queued > 0) train_lab_run(&m->train, m->train.queued);
    m->stack.queued = m->train.queued = 0;
}

int headless_screenshot(App *a) {
    const Cli_Options *o = a->desc->opts;
    if (o->render_math) return render_math(a);
    char err[1024];
    int w = o->width, h = o->height, max = render_max_side();
    if (w > max || h > max) {
        fprintf(stderr,
                "attnlab: --size: %dx%d is larger than the %d pixels a side this GL renders "
                "offscreen\n",
                w, h, max);
        return 2;
    }
    if (!render_offscreen_begin(&a->render, w, h, err, sizeof err)) {
        cli_report("", err);
        return 1;
    }
    /* Two passes: the first settles hover state and fills the glyph atlas.
     * The clock is virtual: the second pass is a minute later, so an
     * animation the first one started (a lesson's reorder) has finished and
     * the picture shows the settled state, the same on every run. */
    float z = app_zoom_for(a->zoom, w, h);
    for (int pass = 0; pass < 2; pass++) {
        a->in.time = pass * HEADLESS_SETTLE_SECONDS;
        app_draw(a, w, h, z);
        settle_training(&a->model);
    }
    if (render_wants_redraw(&a->render)) app_draw(a, w, h, z);
    return save_offscreen(a, w, h);
}

/* ---- --bench: frame times measured headless ------------------------------ */

static int cmp_double(const void *a, const void *b) {
    double x = *(const double *)a, y = *(const double *)b;
    return x < y ? -1 : x > y;
}

static double percentile(double *v, int count, double p) {
    qsort(v, (size_t)count, sizeof *v, cmp_double);
    int k = (int)ceil(p * count) - 1;
    return v[k < 0 ? 0 : k >= count ? count - 1 : k];
}

/* A scene of n tokens: vocabulary words in turn, d = 2, d_k = 64. */
static void bench_scene(App *a, int n, Scene *s) {
    const Vocab *v = a->desc->vocab;
    static char text[ATTN_MAX_TOKENS * ATTN_MAX_TOKEN_BYTES];
    size_t used = 0;
    for (int i = 0; i < n; i++)
        used +=
            (size_t)snprintf(text + used, sizeof text - used, "%s ", v->entries[i % v->count].word);
    *s = *a->desc->scene;
    char err[256];
    scene_set_sentence(s, text, v, err, sizeof err);
    s->d_k = 64;
}

typedef enum Bench_Kind { BENCH_DRAG, BENCH_HOVER, BENCH_SLIDER, BENCH_TRAIN } Bench_Kind;
static const char *const bench_kind_names[] = {"drag", "hover", "slider", "train"};

/* The grid of the panel `name` in the last frame's records, or an empty rect. */
static Rect bench_grid(const App *a, const char *name) {
    for (int k = 0; k < a->ui.record_count; k++) {
        const Ui_Record *r = &a->ui.records[k];
        if (!strcmp(r->kind, "grid") && !strcmp(r->name, name)) return r->r;
    }
    return (Rect){0, 0, 0, 0};
}

/* One input of the kind a row measures, applied as the window would. */
static void bench_input(App *a, Bench_Kind kind, int f, int n, Rect grid) {
    char err[256];
    switch (kind) {
    case BENCH_DRAG: {
        /* one token moves a little every frame */
        Action move = action_move(f % n, 0, 0.01f * (float)(f % 7), 1, -0.01f * (float)(f % 5));
        model_apply(&a->model, &move, err, sizeof err);
        break;
    }
    case BENCH_HOVER: {
        /* the pointer walks across S's cells, one cell a frame */
        int cells = n < 8 ? n : 8;
        float cw = grid.w / (float)n, ch = grid.h / (float)n;
        a->in.mx = grid.x + cw * ((float)(f % cells) + 0.5f);
        a->in.my = grid.y + ch * ((float)(f / cells % cells) + 0.5f);
        break;
    }
    case BENCH_SLIDER: {
        /* d_k is dragged back and forth: every score changes */
        Action set = action_set(SET_DK, 32 + (f % 16) * 4);
        model_apply(&a->model, &set, err, sizeof err);
        break;
    }
    case BENCH_TRAIN: /* the Train view's layers model plays fast: each frame trains a slice */
        a->in.time += 1.0 / 60;
        break;
    }
}

/* The Train view's layers model (n = its context), from step 0, playing
 * fast; or, after, back to the explorer. */
static bool bench_train(App *a, bool on) {
    a->vs.view = on ? VIEW_TRAIN : VIEW_EXPLORER;
    a->model.layers = on;
    if (!on) {
        a->model.stack.running = false;
        return true;
    }
    Stack_Desc d = stack_lab_desc(2, 1, TRAIN_POS_LEARNED, 1);
    if (!stack_lab_reset(&a->model.stack, &d)) return false;
    a->model.stack.running = a->model.stack.fast = true;
    return true;
}

/* The Model view with every head's picture (GPT-2 small's 144 with the bench's
 * checkpoint, $ATTNLAB_BENCH_MODEL): "model_hover" walks the pointer over the
 * grid, which changes one picture's frame at a time; "model_pass" shows a new
 * pass every frame (computed before the frame's clock starts), which changes
 * every picture. The
 * retained renderer paints only what changed: painted says how much. */
static bool bench_model_row(App *a, bool pass, int w, int h, char *table, size_t *tl, bool last) {
    static const char *const texts[2] = {
        "The quick brown fox jumps over the lazy dog. The quick brown fox jumps over the lazy dog",
        "When Mary and John went to the store, John gave a drink to Mary, who thanked him"};
    char err[600];
    Real_Lab *l = &a->model.real;
    if (!real_lab_set_text(l, texts[0], strlen(texts[0]), err, sizeof err)) return false;
    real_lab_settle(l);
    a->vs.view = VIEW_MODEL;
    a->vs.real_tab = a->vs.real_grid_mode = 0;
    a->in.mx = a->in.my = -1e6f;
    enum { WARM = 3, FRAMES = 40 };
    static double frame[FRAMES], painted[FRAMES];
    int passes = 0;
    for (int f = 0; f < WARM + FRAMES; f++) {
        if (pass) { /* a new pass, computed outside the frame's time: the frame shows it */
            real_lab_set_text(l, texts[(f + 1) % 2], strlen(texts[(f + 1) % 2]), err, sizeof err);
            real_lab_settle(l);
            passes++;
        }
        double t0 = clock_ms();
        if (!pass) { /* over the pictures, one a frame, along the first rows */
            int heads = l->model->weights.model.heads, k = f % (2 * heads);
            for (int r = 0; r < a->ui.record_count; r++) {
                const Ui_Record *rec = &a->ui.records[r];
                if (!strcmp(rec->name, "model_head") && rec->index == k) {
                    a->in.mx = rec->r.x + rec->r.w * 0.5f;
                    a->in.my = rec->r.y + rec->r.h * 0.5f;
                }
            }
        }
        app_layout(a, w, h, 1.0f);
        render_frame(&a->render, &a->dl, w, h, a->ui.theme->bg);
        render_finish(&a->render);
        if (f >= WARM) {
            frame[f - WARM] = clock_ms() - t0;
            painted[f - WARM] = (double)render_stats(&a->render).damage_px / ((double)w * h);
        }
    }
    double fmed = percentile(frame, FRAMES, 0.5), fp95 = percentile(frame, FRAMES, 0.95);
    double pmed = percentile(painted, FRAMES, 0.5), pmax = percentile(painted, FRAMES, 1.0);
    const char *kind = pass ? "model_pass" : "model_hover";
    int heads = l->model->weights.model.layers * l->model->weights.model.heads;
    printf(",\n    {\"kind\": \"%s\", \"n\": %d, \"heads\": %d, \"width\": %d, \"height\": %d, "
           "\"frame_median_ms\": %.3f, \"frame_p95_ms\": %.3f, \"painted_median\": %.3f, "
           "\"painted_max\": %.3f, \"passes\": %d}%s",
           kind, l->shown_n, heads, w, h, fmed, fp95, pmed, pmax, passes, last ? "\n" : "");
    *tl += (size_t)snprintf(table + *tl, 4096 - *tl,
                            "  %-11s %3d %3d   %4dx%-4d   %8.2f ms    %7.2f ms   painted %5.1f %% "
                            "(at most %5.1f %%)\n",
                            kind, l->shown_n, heads, w, h, fmed, fp95, 100 * pmed, 100 * pmax);
    return true;
}

int headless_bench(App *a, double process_start_ms) {
    /* drags at the sizes of the explorer's peer, one layer of eight heads at
     * the largest n, then the pointer over S, then the d_k slider, then the
     * Train view while its layers model trains fast */
    static const struct {
        int n, heads;
        Bench_Kind kind;
    } rows[] = {{6, 1, BENCH_DRAG},    {32, 1, BENCH_DRAG},  {128, 1, BENCH_DRAG},
                {512, 1, BENCH_DRAG},  {512, 8, BENCH_DRAG}, {6, 1, BENCH_HOVER},
                {512, 1, BENCH_HOVER}, {6, 1, BENCH_SLIDER}, {512, 1, BENCH_SLIDER},
                {24, 1, BENCH_TRAIN}};
    enum { ROWS = sizeof rows / sizeof rows[0] };
    static const int sizes[2][2] = {{1280, 720}, {1920, 1080}};
    const char *model = getenv("ATTNLAB_BENCH_MODEL"); /* the Model view's rows too */
    char err[1024];
    double first_frame = -1;
    printf("{\n  \"results\": [\n");
    static char table[4096];
    size_t tl = 0;
    tl += (size_t)snprintf(
        table + tl, sizeof table - tl,
        "  kind       n   H   size        frame median   frame p95   recompute    layout"
        "   painted\n");
    for (int si = 0; si < 2; si++) {
        int w = sizes[si][0], h = sizes[si][1];
        if (!render_offscreen_begin(&a->render, w, h, err, sizeof err)) {
            cli_report("", err);
            return 1;
        }
        for (int k = 0; k < ROWS; k++) {
            static Scene s;
            bench_scene(a, rows[k].n, &s);
            s.heads = rows[k].heads;
            if (!model_apply(&a->model, &(Action){.kind = ACTION_LOAD_SCENE, .scene = &s}, err,
                             sizeof err)) {
                cli_report("attnlab: --bench: ", err);
                return 1;
            }
            a->vs.selected = 0;
            a->in.mx = a->in.my = -1e6f; /* the pointer starts away from every panel */
            if (!bench_train(a, rows[k].kind == BENCH_TRAIN)) {
                cli_report("attnlab: --bench: ", "out of memory for the layers model");
                return 1;
            }
            enum { WARM = 3, FRAMES = 40 };
            static double frame[FRAMES], recompute[FRAMES], layout[FRAMES], painted[FRAMES];
            for (int f = 0; f < WARM + FRAMES; f++) {
                double t0 = clock_ms();
                bench_input(a, rows[k].kind, f, s.n, bench_grid(a, "S"));
                double t1 = clock_ms();
                model_update(&a->model);
                double t2 = clock_ms();
                app_layout(a, w, h, 1.0f);
                double t3 = clock_ms();
                render_frame(&a->render, &a->dl, w, h, a->ui.theme->bg);
                render_finish(&a->render);
                double t4 = clock_ms();
                if (first_frame < 0) first_frame = t4 - process_start_ms;
                if (f >= WARM) {
                    frame[f - WARM] = t4 - t0;
                    recompute[f - WARM] = t2 - t1;
                    layout[f - WARM] = t3 - t2;
                    Render_Stats st = render_stats(&a->render);
                    painted[f - WARM] = (double)st.damage_px / ((double)w * h);
                }
            }
            double fmed = percentile(frame, FRAMES, 0.5), fp95 = percentile(frame, FRAMES, 0.95);
            double rmed = percentile(recompute, FRAMES, 0.5);
            double lmed = percentile(layout, FRAMES, 0.5), pmed = percentile(painted, FRAMES, 0.5);
            Render_Stats st = render_stats(&a->render);
            const char *kind = bench_kind_names[rows[k].kind];
            printf("    {\"kind\": \"%s\", \"n\": %d, \"heads\": %d, \"width\": %d, "
                   "\"height\": %d, \"frame_median_ms\": %.3f, \"frame_p95_ms\": %.3f, "
                   "\"recompute_median_ms\": %.3f, \"layout_median_ms\": %.3f, "
                   "\"painted_median\": %.3f, \"draw_calls\": %d, \"quads\": %d, "
                   "\"heatmaps\": %d}%s\n",
                   kind, rows[k].n, rows[k].heads, w, h, fmed, fp95, rmed, lmed, pmed,
                   st.draw_calls, st.quads, st.heatmaps, k == ROWS - 1 ? "" : ",");
            tl += (size_t)snprintf(table + tl, sizeof table - tl,
                                   "  %-6s  %4d  %2d   %4dx%-4d   %8.2f ms    %7.2f ms   %8.3f ms"
                                   "   %7.2f ms   %5.1f %%\n",
                                   kind, rows[k].n, rows[k].heads, w, h, fmed, fp95, rmed, lmed,
                                   100 * pmed);
        }
        if (model) {
            char why[1200];
            if (!a->model.real.model &&
                !real_open(&a->model, &a->checkpoint, model, why, sizeof why)) {
                cli_report("attnlab: --bench: ATTNLAB_BENCH_MODEL: ", why);
                return 1;
            }
            for (int pass = 0; pass < 2; pass++)
                if (!bench_model_row(a, pass, w, h, table, &tl, false)) {
                    cli_report("attnlab: --bench: ", "the model's text could not be set");
                    return 1;
                }
        }
        printf(si == 0 ? ",\n" : "\n");
        render_offscreen_end(&a->render);
    }
    struct rusage ru;
    getrusage(RUSAGE_SELF, &ru);
    printf("  ],\n  \"first_frame_ms\": %.1f,\n  \"peak_rss_mb\": %.1f\n}\n", first_frame,
           ru.ru_maxrss / 1024.0);
    fprintf(stderr, "%s  time from process start to first frame: %.1f ms\n", table, first_frame);
    return 0;
}

/* --export-figure: the laid-out frame through cairo, the window's or one
 * panel's. Hover and focus marks are not drawn (the mouse is away and no key
 * was pressed). */
static int write_figure(const App_Desc *desc, const Ui *ui, const Draw_List *dl, float z) {
    const Cli_Options *o = desc->opts;
    Rect area = {0, 0, ui->w, ui->h};
    if (!drawn_whole(dl, "--export-figure")) return 2;
    if (o->figure_panel) {
        const Ui_Record *hit = NULL;
        char names[1200] = "";
        for (int k = 0; k < ui->record_count; k++) {
            const Ui_Record *r = &ui->records[k];
            if (strcmp(r->kind, "panel") != 0) continue;
            if (!hit && !strcmp(r->name, o->figure_panel)) hit = r;
            char one[80];
            snprintf(one, sizeof one, "%s%s", names[0] ? ", " : "", r->name);
            if (!strstr(names, one) && strlen(names) + strlen(one) + 1 < sizeof names)
                strcat(names, one);
        }
        if (!hit) {
            fprintf(stderr,
                    "attnlab: --panel: '%s' is not a panel of the %s view (its panels: %s)\n",
                    o->figure_panel, view_name(o->view), names);
            return 2;
        }
        area = hit->r;
    }
    Figure_Desc fd = {.path = o->figure_path,
                      .data_dir = desc->data_dir,
                      .area = area,
                      .scale = z * o->figure_scale,
                      .background = o->figure_background == FIGURE_BG_WHITE
                                        ? (Color){255, 255, 255, 255}
                                        : ui->theme->bg,
                      .transparent = o->figure_background == FIGURE_BG_TRANSPARENT};
    figure_format_of(o->figure_path, &fd.format);
    double pw = ceil(area.w * fd.scale), ph = ceil(area.h * fd.scale);
    if (fd.format == FIGURE_PNG && !(pw <= FIGURE_MAX_PNG_SIDE && ph <= FIGURE_MAX_PNG_SIDE)) {
        fprintf(stderr,
                "attnlab: --export-figure: a PNG of %.0fx%.0f pixels is larger than %d a side "
                "(lower --scale, or write .pdf or .svg)\n",
                pw, ph, FIGURE_MAX_PNG_SIDE);
        return 2;
    }
    char err[1400];
    if (!figure_write(dl, &fd, err, sizeof err)) {
        cli_report("attnlab: ", err);
        return 1;
    }
    return 0;
}

/* Every run of text the frame draws, as the box it fills in window pixels
 * (left, top, width, line height), the clip it is drawn in, and its text:
 * what a layout test needs to find text that overprints other text. */
static void dump_texts(Ui *ui, const Draw_List *dl, float z) {
    printf("  \"texts\": [\n");
    Rect clip = {0, 0, ui->w, ui->h};
    int layer = 0;
    bool first = true;
    for (int k = 0; k < dl->count; k++) {
        const Draw_Cmd *c = &dl->cmds[k];
        if (c->kind == DRAW_CLIP) clip = c->clip.on ? c->clip.r : (Rect){0, 0, ui->w, ui->h};
        if (c->kind == DRAW_LAYER) layer++;
        if (c->kind != DRAW_TEXT || c->text.len == 0) continue;
        const char *t = dl->text + c->text.offset;
        float w = ui->tm.width(ui->tm.ctx, c->text.font, c->text.size, t, c->text.len);
        float h = ui->tm.line_height(ui->tm.ctx, c->text.font, c->text.size);
        float x = c->text.align == ALIGN_CENTER  ? c->text.x - w * 0.5f
                  : c->text.align == ALIGN_RIGHT ? c->text.x - w
                                                 : c->text.x;
        printf("%s    {\"rect\": [%.1f, %.1f, %.1f, %.1f], \"clip\": [%.1f, %.1f, %.1f, %.1f], "
               "\"layer\": %d, \"text\": ",
               first ? "" : ",\n", (double)(x * z), (double)(c->text.y * z), (double)(w * z),
               (double)(h * z), (double)(clip.x * z), (double)(clip.y * z), (double)(clip.w * z),
               (double)(clip.h * z), layer);
        char buf[512];
        snprintf(buf, sizeof buf, "%.*s", c->text.len < 500 ? c->text.len : 500, t);
        jw_string(stdout, buf);
        printf("}");
        first = false;
    }
    printf("\n  ]\n");
}

/* --dump-ui: lay the interface out for --size and --view with real font
 * metrics but no window and no GL, and print every recorded item. With
 * --export-figure, write the frame as a figure instead. */
int headless_dump_ui(const App_Desc *desc) {
    const Cli_Options *o = desc->opts;
    char err[1024];
    /* what the layout needs, without a renderer: one allocation, freed below */
    struct Layout {
        Font_Atlas atlas;
        Draw_List dl;
        Model model;
        Ui ui;
        View_State vs;
        Ui_Record records[UI_MAX_RECORDS];
        Lesson_Index index;
    } *lay = calloc(1, sizeof *lay);
    if (!lay) {
        fprintf(stderr, "attnlab: out of memory laying out the interface\n");
        return 1;
    }
    if (!font_load(&lay->atlas, desc->data_dir, false, err, sizeof err)) {
        cli_report("", err);
        free(lay);
        return 2;
    }
    Font_Atlas *atlas = &lay->atlas;
    Draw_List *dl = &lay->dl;
    Model *model = &lay->model;
    Ui *ui = &lay->ui;
    View_State *vs = &lay->vs;
    Ui_Record *records = lay->records;
    Lesson *lesson = NULL;
    Scene *saved = NULL;
    int status = 0;
    Checkpoint *checkpoint = NULL;
    view_init(vs);
    if (!draw_init(dl, &(Draw_Desc){0}) || !model_init(model, desc->scene, desc->vocab)) {
        fprintf(stderr, "attnlab: out of memory laying out the interface\n");
        status = 1;
    } else if (!app_setup_lessons(vs, desc, &lesson, &saved, &lay->index, err, sizeof err) ||
               !app_open_real(model, &checkpoint, o, err, sizeof err)) {
        cli_report("", err);
        status = 2;
    } else {
        float z = app_zoom_for(o->ui_scale, o->width, o->height);
        ui_init(ui, dl, font_text_metrics(atlas, z));
        ui->records = records;
        vs->view = o->view;
        app_writing_from_options(vs, o);
        vs->theme = o->theme;
        vs->presenter = o->presenter;
        snprintf(vs->teacher_hidden, sizeof vs->teacher_hidden, "%s", o->hide);
        Ui_Input in = {.mx = -1000, .my = -1000};
        for (int pass = 0; pass < 2; pass++) {
            in.time = pass * HEADLESS_SETTLE_SECONDS; /* as in screenshot_mode */
            model_update(model);
            if (vs->view == VIEW_MODEL) real_look(model, &checkpoint);
            ui_begin(ui, &in, (float)o->width / z, (float)o->height / z);
            ui->px_scale = z;
            view_frame(ui, vs, model);
            ui_end(ui);
            settle_training(model);
        }
        if (o->mode == CLI_FIGURE) {
            status = write_figure(desc, ui, dl, z);
            goto done;
        }
        printf("{\n  \"size\": [%d, %d],\n  \"ui_scale\": %g,\n  \"view\": \"%s\",\n", o->width,
               o->height, (double)z, view_name(vs->view));
        printf("  \"items\": [\n");
        for (int k = 0; k < ui->record_count; k++) {
            const Ui_Record *r = &records[k];
            printf("    {\"kind\": \"%s\", \"id\": \"%s\", \"index\": %d, \"rect\": [%.1f, %.1f, "
                   "%.1f, %.1f]",
                   r->kind, r->name, r->index, (double)(r->r.x * z), (double)(r->r.y * z),
                   (double)(r->r.w * z), (double)(r->r.h * z));
            if (strcmp(r->kind, "point") == 0 || strcmp(r->kind, "chip") == 0) {
                printf(", \"token\": ");
                jw_string(stdout, model->scene.tokens[r->index]);
                printf(", \"x\": %.1f, \"y\": %.1f", (double)((r->r.x + r->r.w * 0.5f) * z),
                       (double)((r->r.y + r->r.h * 0.5f) * z));
            }
            printf("}%s\n", k + 1 < ui->record_count ? "," : "");
        }
        printf("  ],\n");
        dump_texts(ui, dl, z);
        printf("}\n");
    }
done:
    free(lesson);
    free(saved);
    free(vs->session.math);
    real_close(model, &checkpoint);
    model_free(model);
    draw_free(dl);
    font_unload(atlas);
    free(lay);
    TTF_Quit();
    return status;
}
