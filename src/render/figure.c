/* The draw list through cairo; see figure.h. */
#define _POSIX_C_SOURCE 200809L
#include "figure.h"

#include <stdio.h>
#include <string.h>

bool figure_format_of(const char *path, Figure_Format *f) {
    size_t n = strlen(path);
    if (n > 4 && !strcmp(path + n - 4, ".pdf"))
        *f = FIGURE_PDF;
    else if (n > 4 && !strcmp(path + n - 4, ".svg"))
        *f = FIGURE_SVG;
    else if (n > 4 && !strcmp(path + n - 4, ".png"))
        *f = FIGURE_PNG;
    else
        return false;
    return true;
}

#ifdef __EMSCRIPTEN__
bool figure_write(const Draw_List *dl, const Figure_Desc *d, char *err, size_t errsz) {
    (void)dl;
    (void)d;
    snprintf(err, errsz, "vector figures are made by the desktop app (attnlab --export-figure)");
    return false;
}
#else

#include "../core/fileio.h"
#include "../gfx/colormap.h"
#include "font.h"

#include <cairo-ft.h>
#include <cairo-pdf.h>
#include <cairo-svg.h>
#include <cairo.h>
#include <errno.h>
#include <ft2build.h>
#include FT_FREETYPE_H
#include <math.h>
#include <unistd.h>

#define PI                  3.14159265358979323846

typedef struct Faces {
    FT_Library lib;
    FT_Face ft[FONT_COUNT];
    cairo_font_face_t *cairo[FONT_COUNT];
} Faces;

static void faces_free(Faces *f) {
    for (int k = 0; k < FONT_COUNT; k++) {
        if (f->cairo[k]) cairo_font_face_destroy(f->cairo[k]);
        if (f->ft[k]) FT_Done_Face(f->ft[k]);
    }
    if (f->lib) FT_Done_FreeType(f->lib);
}

static bool faces_load(Faces *f, const char *data_dir, char *err, size_t errsz) {
    memset(f, 0, sizeof *f);
    if (FT_Init_FreeType(&f->lib)) {
        snprintf(err, errsz, "cannot start FreeType");
        return false;
    }
    for (int k = 0; k < FONT_COUNT; k++) {
        char path[1200];
        snprintf(path, sizeof path, "%s/assets/fonts/%s", data_dir, font_file((Font_Id)k));
        if (FT_New_Face(f->lib, path, 0, &f->ft[k])) {
            snprintf(err, errsz, "%s: cannot open font", path);
            faces_free(f);
            return false;
        }
        f->cairo[k] = cairo_ft_font_face_create_for_ft_face(f->ft[k], 0);
    }
    return true;
}

static void set_color(cairo_t *cr, Color c) {
    cairo_set_source_rgba(cr, c.r / 255.0, c.g / 255.0, c.b / 255.0, c.a / 255.0);
}

static void rounded(cairo_t *cr, Rect r, float radius) {
    float rad = fminf(radius, fminf(r.w, r.h) * 0.5f);
    if (rad <= 0) {
        cairo_rectangle(cr, r.x, r.y, r.w, r.h);
        return;
    }
    cairo_new_sub_path(cr);
    cairo_arc(cr, r.x + r.w - rad, r.y + rad, rad, -PI / 2, 0);
    cairo_arc(cr, r.x + r.w - rad, r.y + r.h - rad, rad, 0, PI / 2);
    cairo_arc(cr, r.x + rad, r.y + r.h - rad, rad, PI / 2, PI);
    cairo_arc(cr, r.x + rad, r.y + rad, rad, PI, 3 * PI / 2);
    cairo_close_path(cr);
}

static void shape(cairo_t *cr, const Draw_Cmd *c) {
    set_color(cr, c->color);
    switch (c->kind) {
    case DRAW_RECT:
        if (c->rect.thickness > 0) {
            /* the GL outline lies inside the rectangle */
            float t = c->rect.thickness;
            Rect in = {c->rect.r.x + t / 2, c->rect.r.y + t / 2, c->rect.r.w - t, c->rect.r.h - t};
            rounded(cr, in, c->rect.radius - t / 2);
            cairo_set_line_width(cr, t);
            cairo_stroke(cr);
        } else {
            rounded(cr, c->rect.r, c->rect.radius);
            cairo_fill(cr);
        }
        break;
    case DRAW_LINE:
        cairo_set_line_cap(cr, CAIRO_LINE_CAP_ROUND);
        cairo_set_line_width(cr, c->line.width);
        cairo_move_to(cr, c->line.x0, c->line.y0);
        cairo_line_to(cr, c->line.x1, c->line.y1);
        cairo_stroke(cr);
        break;
    case DRAW_TRIANGLE:
        cairo_move_to(cr, c->tri.x[0], c->tri.y[0]);
        cairo_line_to(cr, c->tri.x[1], c->tri.y[1]);
        cairo_line_to(cr, c->tri.x[2], c->tri.y[2]);
        cairo_close_path(cr);
        cairo_fill(cr);
        break;
    default:
        break;
    }
}

static void text(cairo_t *cr, const Draw_List *dl, const Draw_Cmd *c, const Faces *f) {
    char buf[4096];
    int len = c->text.len < (int)sizeof buf - 1 ? c->text.len : (int)sizeof buf - 1;
    memcpy(buf, dl->text + c->text.offset, (size_t)len);
    buf[len] = '\0';
    cairo_set_font_face(cr, f->cairo[c->text.font]);
    cairo_set_font_size(cr, c->text.size);
    cairo_font_extents_t fe;
    cairo_font_extents(cr, &fe);
    float x = c->text.x;
    if (c->text.align != ALIGN_LEFT) {
        cairo_text_extents_t te;
        cairo_text_extents(cr, buf, &te);
        x -= (float)te.x_advance * (c->text.align == ALIGN_CENTER ? 0.5f : 1.0f);
    }
    set_color(cr, c->color);
    cairo_move_to(cr, x, c->text.y + fe.ascent); /* y is the top of the line box */
    cairo_show_text(cr, buf);
}

/* A heatmap of more cells than this goes into the file as an image of one
 * pixel a cell, drawn without smoothing: each cell keeps its exact colour and
 * edges at any zoom, and the file stays small. As vector rectangles, the
 * largest scene's SVG was 362 MB and took 2.1 GB to write. */
#define FIGURE_VECTOR_CELLS (64 * 64)

static bool heatmap_image(cairo_t *cr, const Draw_Cmd *c, const float *g, double span) {
    int rows = c->heat.rows, cols = c->heat.cols;
    cairo_surface_t *img = cairo_image_surface_create(CAIRO_FORMAT_ARGB32, cols, rows);
    if (cairo_surface_status(img) != CAIRO_STATUS_SUCCESS) {
        cairo_surface_destroy(img);
        return false;
    }
    cairo_surface_flush(img);
    unsigned char *px = cairo_image_surface_get_data(img);
    int stride = cairo_image_surface_get_stride(img);
    for (int i = 0; i < rows; i++) {
        uint32_t *row = (uint32_t *)(void *)(px + (size_t)i * (size_t)stride);
        for (int j = 0; j < cols; j++) {
            float v = g[i * cols + j];
            if (v != v) { /* masked: what lies under shows */
                row[j] = 0;
                continue;
            }
            float t = span > 1e-30 ? (float)((v - c->heat.vmin) / span) : 0;
            Color k = colormap_sample(c->heat.map, fminf(fmaxf(t, 0), 1));
            row[j] = 0xFF000000u | (uint32_t)k.r << 16 | (uint32_t)k.g << 8 | k.b;
        }
    }
    cairo_surface_mark_dirty(img);
    cairo_save(cr);
    cairo_translate(cr, c->heat.r.x, c->heat.r.y);
    cairo_scale(cr, c->heat.r.w / cols, c->heat.r.h / rows);
    cairo_set_source_surface(cr, img, 0, 0);
    cairo_pattern_set_filter(cairo_get_source(cr), CAIRO_FILTER_NEAREST);
    cairo_rectangle(cr, 0, 0, cols, rows);
    cairo_fill(cr);
    cairo_restore(cr);
    cairo_surface_destroy(img);
    return true;
}

static void heatmap(cairo_t *cr, const Draw_List *dl, const Draw_Cmd *c) {
    const float *g = dl->grid + c->heat.offset;
    int rows = c->heat.rows, cols = c->heat.cols;
    double cw = c->heat.r.w / cols, ch = c->heat.r.h / rows, span = c->heat.vmax - c->heat.vmin;
    if (rows * cols > FIGURE_VECTOR_CELLS && heatmap_image(cr, c, g, span)) return;
    for (int i = 0; i < rows; i++)
        for (int j = 0; j < cols; j++) {
            float v = g[i * cols + j];
            if (v != v) continue; /* masked: what lies under shows */
            float t = span > 1e-30 ? (float)((v - c->heat.vmin) / span) : 0;
            set_color(cr, colormap_sample(c->heat.map, fminf(fmaxf(t, 0), 1)));
            /* a hair of overlap, so viewers do not show seams between cells */
            cairo_rectangle(cr, c->heat.r.x + j * cw, c->heat.r.y + i * ch, cw + 0.02, ch + 0.02);
            cairo_fill(cr);
        }
}

static void clip_to(cairo_t *cr, Rect area, const Rect *r) {
    cairo_reset_clip(cr);
    cairo_rectangle(cr, area.x, area.y, area.w, area.h);
    cairo_clip(cr);
    if (r) {
        cairo_rectangle(cr, r->x, r->y, r->w, r->h);
        cairo_clip(cr);
    }
}

/* The draw list in the GL renderer's order. */
static void replay(cairo_t *cr, const Draw_List *dl, const Figure_Desc *d, const Faces *f) {
    clip_to(cr, d->area, NULL);
    int start = 0;
    for (int i = 0; i <= dl->count; i++) {
        const Draw_Cmd *c = i < dl->count ? &dl->cmds[i] : NULL;
        if (c && c->kind != DRAW_LAYER && c->kind != DRAW_CLIP && c->kind != DRAW_HEATMAP) continue;
        for (int k = start; k < i; k++)
            if (dl->cmds[k].kind != DRAW_TEXT) shape(cr, &dl->cmds[k]);
        for (int k = start; k < i; k++)
            if (dl->cmds[k].kind == DRAW_TEXT) text(cr, dl, &dl->cmds[k], f);
        start = i + 1;
        if (!c) break;
        if (c->kind == DRAW_HEATMAP) heatmap(cr, dl, c);
        if (c->kind == DRAW_CLIP) clip_to(cr, d->area, c->clip.on ? &c->clip.r : NULL);
    }
}

bool figure_write(const Draw_List *dl, const Figure_Desc *d, char *err, size_t errsz) {
    Faces faces;
    if (!faces_load(&faces, d->data_dir, err, errsz)) return false;
    char path[4096], tmp[4200];
    if (!file_follow_links(d->path, path, sizeof path, err, errsz)) {
        faces_free(&faces);
        return false;
    }
    snprintf(tmp, sizeof tmp, "%s.tmp-%ld", path, (long)getpid());
    double w = ceil(d->area.w * d->scale), h = ceil(d->area.h * d->scale);
    if (d->format == FIGURE_PNG && !(w <= FIGURE_MAX_PNG_SIDE && h <= FIGURE_MAX_PNG_SIDE)) {
        snprintf(err, errsz,
                 "--export-figure: a PNG of %.0fx%.0f pixels is larger than %d a side (lower "
                 "--scale, or use .pdf or .svg)",
                 w, h, FIGURE_MAX_PNG_SIDE);
        faces_free(&faces);
        return false;
    }
    cairo_surface_t *s = d->format == FIGURE_PDF ? cairo_pdf_surface_create(tmp, w, h)
                         : d->format == FIGURE_SVG
                             ? cairo_svg_surface_create(tmp, w, h)
                             : cairo_image_surface_create(CAIRO_FORMAT_ARGB32, (int)w, (int)h);
    cairo_t *cr = cairo_create(s);
    cairo_scale(cr, d->scale, d->scale);
    cairo_translate(cr, -d->area.x, -d->area.y);
    if (!d->transparent) {
        set_color(cr, d->background);
        cairo_rectangle(cr, d->area.x, d->area.y, d->area.w, d->area.h);
        cairo_fill(cr);
    }
    replay(cr, dl, d, &faces);
    cairo_status_t st = cairo_status(cr);
    cairo_destroy(cr);
    if (st == CAIRO_STATUS_SUCCESS && d->format == FIGURE_PNG)
        st = cairo_surface_write_to_png(s, tmp);
    cairo_surface_finish(s);
    if (st == CAIRO_STATUS_SUCCESS) st = cairo_surface_status(s);
    cairo_surface_destroy(s);
    faces_free(&faces);
    if (st != CAIRO_STATUS_SUCCESS) {
        snprintf(err, errsz, "%s: %s", d->path, cairo_status_to_string(st));
        unlink(tmp);
        return false;
    }
    if (rename(tmp, path) != 0) {
        snprintf(err, errsz, "%s: %s", d->path, strerror(errno));
        unlink(tmp);
        return false;
    }
    return true;
}

#endif
