/* The renderer; see render.h. */
#include "render.h"
#include "../gfx/utf8.h"

#include <SDL.h>
#include <cglm/cglm.h>
#include "gl.h"
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

typedef struct Vertex {
    float x, y;
    float u, v;
    float p[4];
    unsigned char color[4];
    float mode;
} Vertex;

enum { MODE_SOLID = 0, MODE_GLYPH = 1, MODE_RRECT = 2, MODE_LINE = 3 };

/* Logical units, (0, 0) at the top left and y down, to clip space. The
 * logical window is the framebuffer divided by scale (UI zoom × display
 * scale), so one logical unit covers `scale` pixels. */
static void ortho(float *m, float w, float h, float scale) {
    mat4 p;
    glm_ortho(0.0f, w / scale, h / scale, 0.0f, -1.0f, 1.0f, p);
    memcpy(m, p, sizeof p); /* column-major, as glUniformMatrix4fv takes it */
}

static void upload_colormaps(Renderer *r) {
    unsigned char texels[COLORMAP_COUNT][256][4]; /* a few KB, once at start */
    for (int m = 0; m < COLORMAP_COUNT; m++) {
        for (int i = 0; i < 256; i++) {
            texels[m][i][0] = colormap_lut[m][i][0];
            texels[m][i][1] = colormap_lut[m][i][1];
            texels[m][i][2] = colormap_lut[m][i][2];
            texels[m][i][3] = 255;
        }
    }
    glGenTextures(1, &r->colormap_tex);
    glBindTexture(GL_TEXTURE_2D, r->colormap_tex);
    glPixelStorei(GL_UNPACK_ALIGNMENT, 4);
    glTexImage2D(GL_TEXTURE_2D, 0, GL_RGBA8, 256, COLORMAP_COUNT, 0, GL_RGBA, GL_UNSIGNED_BYTE,
                 texels);
    /* linear along a map (matches colormap_sample), rows never blend: v is a texel centre */
    glTexParameteri(GL_TEXTURE_2D, GL_TEXTURE_MIN_FILTER, GL_LINEAR);
    glTexParameteri(GL_TEXTURE_2D, GL_TEXTURE_MAG_FILTER, GL_LINEAR);
    glTexParameteri(GL_TEXTURE_2D, GL_TEXTURE_WRAP_S, GL_CLAMP_TO_EDGE);
    glTexParameteri(GL_TEXTURE_2D, GL_TEXTURE_WRAP_T, GL_CLAMP_TO_EDGE);
}

bool render_init(Renderer *r, const Render_Desc *desc, char *err, size_t errsz) {
    memset(r, 0, sizeof *r);
    snprintf(r->data_dir, sizeof r->data_dir, "%s", desc->data_dir);
    r->max_quads = desc->max_quads ? desc->max_quads : 16384;
    r->scale = 1.0f;
    if (!shader_build_all(r->data_dir, r->programs, err, errsz)) return false;
    if (!font_load(&r->atlas, r->data_dir, true, err, errsz)) {
        for (int i = 0; i < PROGRAM_COUNT; i++) shader_free(&r->programs[i]);
        return false;
    }
    r->verts = malloc(sizeof(Vertex) * 4 * (size_t)r->max_quads);
    r->text_verts = malloc(sizeof(Vertex) * 4 * (size_t)r->max_quads);
    unsigned int *idx = malloc(sizeof(unsigned int) * 6 * (size_t)r->max_quads);
    if (!r->verts || !r->text_verts || !idx) {
        free(idx);
        snprintf(err, errsz, "attnlab: out of memory for the vertex buffer");
        render_shutdown(r);
        return false;
    }
    for (int q = 0; q < r->max_quads; q++) {
        unsigned int b = (unsigned int)q * 4;
        unsigned int six[6] = {b, b + 1, b + 2, b, b + 2, b + 3};
        memcpy(idx + q * 6, six, sizeof six);
    }
    glGenVertexArrays(1, &r->vao);
    glBindVertexArray(r->vao);
    glGenBuffers(1, &r->vbo);
    glBindBuffer(GL_ARRAY_BUFFER, r->vbo);
    glBufferData(GL_ARRAY_BUFFER, (GLsizeiptr)(sizeof(Vertex) * 4 * (size_t)r->max_quads), NULL,
                 GL_STREAM_DRAW);
    glGenBuffers(1, &r->ibo);
    glBindBuffer(GL_ELEMENT_ARRAY_BUFFER, r->ibo);
    glBufferData(GL_ELEMENT_ARRAY_BUFFER,
                 (GLsizeiptr)(sizeof(unsigned int) * 6 * (size_t)r->max_quads), idx,
                 GL_STATIC_DRAW);
    free(idx);
    GLsizei stride = sizeof(Vertex);
    glEnableVertexAttribArray(0);
    glVertexAttribPointer(0, 2, GL_FLOAT, GL_FALSE, stride, (void *)offsetof(Vertex, x));
    glEnableVertexAttribArray(1);
    glVertexAttribPointer(1, 2, GL_FLOAT, GL_FALSE, stride, (void *)offsetof(Vertex, u));
    glEnableVertexAttribArray(2);
    glVertexAttribPointer(2, 4, GL_FLOAT, GL_FALSE, stride, (void *)offsetof(Vertex, p));
    glEnableVertexAttribArray(3);
    glVertexAttribPointer(3, 4, GL_UNSIGNED_BYTE, GL_TRUE, stride, (void *)offsetof(Vertex, color));
    glEnableVertexAttribArray(4);
    glVertexAttribPointer(4, 1, GL_FLOAT, GL_FALSE, stride, (void *)offsetof(Vertex, mode));

    glGenVertexArrays(1, &r->heat_vao);
    glBindVertexArray(r->heat_vao);
    glGenBuffers(1, &r->heat_vbo);
    glBindBuffer(GL_ARRAY_BUFFER, r->heat_vbo);
    glBufferData(GL_ARRAY_BUFFER, sizeof(float) * 16, NULL, GL_STREAM_DRAW);
    glEnableVertexAttribArray(0);
    glVertexAttribPointer(0, 2, GL_FLOAT, GL_FALSE, 4 * sizeof(float), (void *)0);
    glEnableVertexAttribArray(1);
    glVertexAttribPointer(1, 2, GL_FLOAT, GL_FALSE, 4 * sizeof(float), (void *)(2 * sizeof(float)));
    glBindVertexArray(0);

    glGenTextures(RENDER_HEATMAP_TEXTURES, r->heat_tex);
    for (int i = 0; i < RENDER_HEATMAP_TEXTURES; i++) {
        glBindTexture(GL_TEXTURE_2D, r->heat_tex[i]);
        glTexParameteri(GL_TEXTURE_2D, GL_TEXTURE_MIN_FILTER, GL_NEAREST);
        glTexParameteri(GL_TEXTURE_2D, GL_TEXTURE_MAG_FILTER, GL_NEAREST);
        glTexParameteri(GL_TEXTURE_2D, GL_TEXTURE_WRAP_S, GL_CLAMP_TO_EDGE);
        glTexParameteri(GL_TEXTURE_2D, GL_TEXTURE_WRAP_T, GL_CLAMP_TO_EDGE);
    }
    upload_colormaps(r);
    return true;
}

void render_shutdown(Renderer *r) {
    for (int i = 0; i < PROGRAM_COUNT; i++) shader_free(&r->programs[i]);
    font_unload(&r->atlas);
    if (r->vbo) glDeleteBuffers(1, &r->vbo);
    if (r->ibo) glDeleteBuffers(1, &r->ibo);
    if (r->vao) glDeleteVertexArrays(1, &r->vao);
    if (r->heat_vbo) glDeleteBuffers(1, &r->heat_vbo);
    if (r->heat_vao) glDeleteVertexArrays(1, &r->heat_vao);
    if (r->heat_tex[0]) glDeleteTextures(RENDER_HEATMAP_TEXTURES, r->heat_tex);
    if (r->colormap_tex) glDeleteTextures(1, &r->colormap_tex);
    render_offscreen_end(r);
    if (r->fbo) glDeleteFramebuffers(1, &r->fbo);
    if (r->fbo_color) glDeleteRenderbuffers(1, &r->fbo_color);
    if (r->canvas) glDeleteFramebuffers(1, &r->canvas);
    if (r->canvas_color) glDeleteRenderbuffers(1, &r->canvas_color);
    free(r->items);
    free(r->grid_hash);
    free(r->cover);
    free(r->heats);
    free(r->order);
    free(r->shown);
    free(r->verts);
    free(r->text_verts);
    memset(r, 0, sizeof *r);
}

bool render_reload_shaders(Renderer *r, char *err, size_t errsz) {
    r->canvas_valid = false; /* new shaders may paint the same items otherwise */
    return shader_build_all(r->data_dir, r->programs, err, errsz);
}

void render_set_scale(Renderer *r, float scale) {
    r->scale = scale > 0 ? scale : 1.0f;
    r->atlas.scale = r->scale; /* the UI measures text at the scale it is drawn at */
}

static int pixel_size(const Renderer *r, float size) {
    return font_pixel_size(size, r->scale);
}

static float text_width_px(Renderer *r, Font_Id font, int px, const char *text, int len) {
    return font_width_px(&r->atlas, font, px, text, len);
}

Text_Metrics render_text_metrics(Renderer *r) {
    return font_text_metrics(&r->atlas, r->scale);
}

/* ---- batching ---------------------------------------------------------- */

static void draw_batch(Renderer *r, Program_Id id, const Vertex *verts, int quads) {
    if (quads == 0) return;
    Program *p = &r->programs[id];
    glUseProgram(p->id);
    glUniformMatrix4fv(p->u_proj, 1, GL_FALSE, r->proj);
    if (id == PROGRAM_TEXT) {
        glUniform1i(p->u_atlas, 0);
        glActiveTexture(GL_TEXTURE0);
        glBindTexture(GL_TEXTURE_2D, r->atlas.tex);
    }
    glBindVertexArray(r->vao);
    glBindBuffer(GL_ARRAY_BUFFER, r->vbo);
    /* fresh storage of exactly this batch's size: the driver need not wait
     * for the previous draw, and copies no more than it must */
    glBufferData(GL_ARRAY_BUFFER, (GLsizeiptr)(sizeof(Vertex) * 4 * (size_t)quads), verts,
                 GL_STREAM_DRAW);
    glDrawElements(GL_TRIANGLES, 6 * quads, GL_UNSIGNED_INT, 0);
    r->stats.draw_calls++;
    r->stats.quads += quads;
}

/* End the layer: its shapes in order, then its text over them. */
static void flush(Renderer *r) {
    draw_batch(r, PROGRAM_SHAPE, r->verts, r->quad_count);
    draw_batch(r, PROGRAM_TEXT, r->text_verts, r->text_count);
    r->quad_count = r->text_count = 0;
}

static Vertex *quad(Renderer *r, int mode) {
    if (r->quad_count == r->max_quads || r->text_count == r->max_quads) flush(r);
    if (mode == MODE_GLYPH) return &((Vertex *)r->text_verts)[4 * r->text_count++];
    return &((Vertex *)r->verts)[4 * r->quad_count++];
}

static void set_color(Vertex *v, Color c) {
    v->color[0] = c.r;
    v->color[1] = c.g;
    v->color[2] = c.b;
    v->color[3] = c.a;
}

/* A quad from four corners with per-corner (u, v); shared params and mode. */
static void emit(Renderer *r, const float xy[8], const float uv[8], const float p[4], Color c,
                 int mode) {
    Vertex *v = quad(r, mode);
    for (int k = 0; k < 4; k++) {
        v[k].x = xy[2 * k];
        v[k].y = xy[2 * k + 1];
        v[k].u = uv[2 * k];
        v[k].v = uv[2 * k + 1];
        memcpy(v[k].p, p, sizeof v[k].p);
        set_color(&v[k], c);
        v[k].mode = (float)mode;
    }
}

/* One quad of a rounded rectangle's distance field: the part of the shape
 * between (x0, y0) and (x1, y1), with local coordinates relative to the
 * shape's centre (cx, cy). */
static void emit_rrect_part(Renderer *r, float x0, float y0, float x1, float y1, float cx, float cy,
                            const float p[4], Color c) {
    float xy[8] = {x0, y0, x1, y0, x1, y1, x0, y1};
    float uv[8] = {x0 - cx, y0 - cy, x1 - cx, y0 - cy, x1 - cx, y1 - cy, x0 - cx, y1 - cy};
    emit(r, xy, uv, p, c, MODE_RRECT);
}

static void emit_rect(Renderer *r, const Draw_Cmd *cmd) {
    Rect q = cmd->rect.r;
    static const float zero[8] = {0};
    if (cmd->rect.radius <= 0 && cmd->rect.thickness <= 0) {
        float xy[8] = {q.x, q.y, q.x + q.w, q.y, q.x + q.w, q.y + q.h, q.x, q.y + q.h};
        emit(r, xy, zero, zero, cmd->color, MODE_SOLID);
        return;
    }
    /* The distance field only matters near the edge: the software rasterizer
     * pays for every fragment, so the inside of a filled shape is a plain
     * solid quad and only a band around the edge runs the shape shader. */
    float f = 1.5f / r->scale + 0.5f;
    float hw = q.w * 0.5f, hh = q.h * 0.5f, cx = q.x + hw, cy = q.y + hh;
    float rad = fminf(cmd->rect.radius, fminf(hw, hh));
    float band = fmaxf(rad, cmd->rect.thickness) + f; /* everything inside this is plain */
    float p[4] = {hw, hh, cmd->rect.radius, cmd->rect.thickness};
    float X0 = q.x - f, Y0 = q.y - f, X1 = q.x + q.w + f, Y1 = q.y + q.h + f;
    if (band * 2 >= fminf(q.w, q.h)) {
        emit_rrect_part(r, X0, Y0, X1, Y1, cx, cy, p, cmd->color);
        return;
    }
    float ix0 = q.x + band, iy0 = q.y + band, ix1 = q.x + q.w - band, iy1 = q.y + q.h - band;
    emit_rrect_part(r, X0, Y0, X1, iy0, cx, cy, p, cmd->color);   /* top band */
    emit_rrect_part(r, X0, iy1, X1, Y1, cx, cy, p, cmd->color);   /* bottom band */
    emit_rrect_part(r, X0, iy0, ix0, iy1, cx, cy, p, cmd->color); /* left band */
    emit_rrect_part(r, ix1, iy0, X1, iy1, cx, cy, p, cmd->color); /* right band */
    if (cmd->rect.thickness <= 0) {
        float xy[8] = {ix0, iy0, ix1, iy0, ix1, iy1, ix0, iy1};
        emit(r, xy, zero, zero, cmd->color, MODE_SOLID);
    }
}

/* A line's quad: a rectangle along it, round caps and fringe included. */
static void line_quad(const Renderer *r, const Draw_Cmd *cmd, float xy[8], float uv[8],
                      float p[4]) {
    float x0 = cmd->line.x0, y0 = cmd->line.y0, x1 = cmd->line.x1, y1 = cmd->line.y1;
    float dx = x1 - x0, dy = y1 - y0, len = sqrtf(dx * dx + dy * dy);
    float ux = len > 1e-6f ? dx / len : 1, uy = len > 1e-6f ? dy / len : 0;
    float hw = cmd->line.width * 0.5f, hl = len * 0.5f;
    float f = 1.5f / r->scale + 0.5f;
    float ex = hl + hw + f, ey = hw + f; /* extents along and across */
    float cx = (x0 + x1) * 0.5f, cy = (y0 + y1) * 0.5f;
    const float sa[4] = {-1, 1, 1, -1}, sb[4] = {-1, -1, 1, 1};
    for (int k = 0; k < 4; k++) {
        float a = sa[k] * ex, b = sb[k] * ey;
        xy[2 * k] = cx + ux * a - uy * b;
        xy[2 * k + 1] = cy + uy * a + ux * b;
        uv[2 * k] = a;
        uv[2 * k + 1] = b;
    }
    p[0] = hl;
    p[1] = hw;
    p[2] = p[3] = 0;
}

static void emit_line(Renderer *r, const Draw_Cmd *cmd) {
    float xy[8], uv[8], p[4];
    line_quad(r, cmd, xy, uv, p);
    emit(r, xy, uv, p, cmd->color, MODE_LINE);
}

static void emit_triangle(Renderer *r, const Draw_Cmd *cmd) {
    static const float zero[8] = {0};
    float xy[8] = {cmd->tri.x[0], cmd->tri.y[0], cmd->tri.x[1], cmd->tri.y[1],
                   cmd->tri.x[2], cmd->tri.y[2], cmd->tri.x[2], cmd->tri.y[2]};
    emit(r, xy, zero, zero, cmd->color, MODE_SOLID);
}

/* Walk a text run's glyphs as the renderer places them: emit their quads,
 * or (box != NULL) only grow box = {x0, y0, x1, y1}, in logical units. */
static void text_run(Renderer *r, const Draw_List *dl, const Draw_Cmd *cmd, float *box) {
    int px = pixel_size(r, cmd->text.size);
    const char *text = dl->text + cmd->text.offset;
    int len = cmd->text.len;
    float s = r->scale;
    /* pen position in whole device pixels keeps glyph texels on pixel centres */
    float pen = roundf(cmd->text.x * s), top = roundf(cmd->text.y * s);
    if (cmd->text.align != ALIGN_LEFT) {
        float w = text_width_px(r, cmd->text.font, px, text, len);
        pen -= roundf(cmd->text.align == ALIGN_CENTER ? w * 0.5f : w);
    }
    static const float zero[8] = {0};
    const char *p = text, *end = text + len;
    while (p < end) {
        uint32_t cp;
        p = utf8_next(p, &cp);
        const Glyph *g = font_glyph(&r->atlas, cmd->text.font, px, cp);
        if (!g) {
            r->redraw = true; /* atlas full: cleared and redrawn next frame */
            continue;
        }
        if (g->w > 0) {
            float x0 = (pen + g->x0) / s, y0 = top / s;
            float x1 = (pen + g->x0 + g->w) / s, y1 = (top + g->h) / s;
            if (box) {
                box[0] = fminf(box[0], x0);
                box[1] = fminf(box[1], y0);
                box[2] = fmaxf(box[2], x1);
                box[3] = fmaxf(box[3], y1);
            } else {
                float u0 = (float)g->ax / FONT_ATLAS_SIZE, v0 = (float)g->ay / FONT_ATLAS_SIZE;
                float u1 = (float)(g->ax + g->w) / FONT_ATLAS_SIZE;
                float v1 = (float)(g->ay + g->h) / FONT_ATLAS_SIZE;
                float xy[8] = {x0, y0, x1, y0, x1, y1, x0, y1};
                float uv[8] = {u0, v0, u1, v0, u1, v1, u0, v1};
                emit(r, xy, uv, zero, cmd->color, MODE_GLYPH);
            }
        }
        pen += g->advance;
    }
}

static void draw_heat(Renderer *r, const Draw_List *dl, const Draw_Cmd *cmd, uint64_t hash) {
    flush(r);
    int w = cmd->heat.cols, h = cmd->heat.rows;
    /* a texture that already holds this grid (the last frame's, or another
     * damage rect's of this frame) is drawn again without an upload */
    int slot = -1;
    for (int k = 0; k < RENDER_HEATMAP_TEXTURES && slot < 0; k++)
        if (hash && r->heat_hash[k] == hash && r->heat_w[k] == w && r->heat_h[k] == h) slot = k;
    glActiveTexture(GL_TEXTURE1);
    if (slot < 0) {
        slot = r->heat_next;
        r->heat_next = (r->heat_next + 1) % RENDER_HEATMAP_TEXTURES;
        glBindTexture(GL_TEXTURE_2D, r->heat_tex[slot]);
        glPixelStorei(GL_UNPACK_ALIGNMENT, 4);
        const float *grid = dl->grid + cmd->heat.offset;
        if (r->heat_w[slot] != w || r->heat_h[slot] != h) {
            glTexImage2D(GL_TEXTURE_2D, 0, GL_R32F, w, h, 0, GL_RED, GL_FLOAT, grid);
            r->heat_w[slot] = w;
            r->heat_h[slot] = h;
        } else {
            glTexSubImage2D(GL_TEXTURE_2D, 0, 0, 0, w, h, GL_RED, GL_FLOAT, grid);
        }
        r->heat_hash[slot] = hash;
        r->stats.texture_uploads++;
    } else {
        glBindTexture(GL_TEXTURE_2D, r->heat_tex[slot]);
    }
    glActiveTexture(GL_TEXTURE2);
    glBindTexture(GL_TEXTURE_2D, r->colormap_tex);

    Program *p = &r->programs[PROGRAM_HEATMAP];
    glUseProgram(p->id);
    glUniformMatrix4fv(p->u_proj, 1, GL_FALSE, r->proj);
    glUniform1i(p->u_grid, 1);
    glUniform1i(p->u_colormaps, 2);
    glUniform1f(p->u_vmin, cmd->heat.vmin);
    glUniform1f(p->u_vmax, cmd->heat.vmax);
    glUniform1f(p->u_map_row, ((float)cmd->heat.map + 0.5f) / COLORMAP_COUNT);
    Rect q = cmd->heat.r;
    float v[16] = {q.x, q.y,       0, 0, q.x + q.w, q.y,       1, 0,
                   q.x, q.y + q.h, 0, 1, q.x + q.w, q.y + q.h, 1, 1};
    glBindVertexArray(r->heat_vao);
    glBindBuffer(GL_ARRAY_BUFFER, r->heat_vbo);
    glBufferSubData(GL_ARRAY_BUFFER, 0, sizeof v, v);
    glDisable(GL_BLEND); /* opaque: the software rasterizer need not read what is under it */
    glDrawArrays(GL_TRIANGLE_STRIP, 0, 4);
    glEnable(GL_BLEND);
    glActiveTexture(GL_TEXTURE0);
    r->stats.draw_calls++;
    r->stats.heatmaps++;
}

/* A device-pixel coordinate as an int, held within a few pixels of the
 * frame [0, size] first: anything further out draws nothing there, and a
 * float beyond int's range (or not a number) has no int. */
static int px_floor(float v, int size) {
    return (int)floorf(fminf(fmaxf(v, -4.0f), (float)size + 4.0f));
}

static int px_ceil(float v, int size) {
    return (int)ceilf(fminf(fmaxf(v, -4.0f), (float)size + 4.0f));
}

/* A logical rect in device pixels, rounded outwards as scissoring needs. */
static Damage_Rect clip_px(const Renderer *r, Rect q) {
    float s = r->scale;
    Damage_Rect c = {px_floor(q.x * s, r->fb_w), px_floor(q.y * s, r->fb_h),
                     px_ceil((q.x + q.w) * s, r->fb_w), px_ceil((q.y + q.h) * s, r->fb_h)};
    if (c.x1 < c.x0) c.x1 = c.x0;
    if (c.y1 < c.y0) c.y1 = c.y0;
    return c;
}

/* Scissor to the damage rect being painted, narrowed by a clip (or not). */
static void set_clip(Renderer *r, const Draw_Cmd *cmd) {
    flush(r);
    int x0 = r->pass_x0, y0 = r->pass_y0, x1 = r->pass_x1, y1 = r->pass_y1;
    if (cmd && cmd->clip.on) {
        Damage_Rect c = clip_px(r, cmd->clip.r);
        if (c.x0 > x0) x0 = c.x0;
        if (c.y0 > y0) y0 = c.y0;
        if (c.x1 < x1) x1 = c.x1;
        if (c.y1 < y1) y1 = c.y1;
        if (x1 < x0) x1 = x0;
        if (y1 < y0) y1 = y0;
    }
    glScissor(x0, r->fb_h - y1, x1 - x0, y1 - y0);
}

/* ---- what changed ------------------------------------------------------- */

/* Room for one item per command, grown (never per frame) when the list is. */
static bool reserve_items(Renderer *r, int count) {
    if (count <= r->item_cap) return true;
    int cap = r->item_cap ? r->item_cap : 1024;
    while (cap < count) cap *= 2;
    Damage_Item *items = realloc(r->items, sizeof *items * (size_t)cap);
    if (items) r->items = items;
    uint64_t *gh = realloc(r->grid_hash, sizeof *gh * (size_t)cap);
    if (gh) r->grid_hash = gh;
    Damage_Item *order = realloc(r->order, sizeof *order * (size_t)cap);
    if (order) r->order = order;
    Damage_Item *shown = realloc(r->shown, sizeof *shown * (size_t)cap);
    if (shown) r->shown = shown;
    Damage_Rect *cover = realloc(r->cover, sizeof *cover * (size_t)cap);
    if (cover) r->cover = cover;
    int *heats = realloc(r->heats, sizeof *heats * 2 * (size_t)cap); /* and a pass's */
    if (heats) r->heats = heats;
    if (!items || !gh || !order || !shown || !cover || !heats) return false;
    r->item_cap = cap;
    return true;
}

static uint64_t hash_floats(uint64_t h, const float *v, int n) {
    return damage_hash(h, v, sizeof *v * (size_t)n);
}

/* One command's item: its device-pixel bounds within the clip, and a hash of
 * everything that decides its pixels. Bounds are empty when nothing shows. */
static void measure(Renderer *r, const Draw_List *dl, int i, Damage_Rect clip, bool clipped) {
    const Draw_Cmd *cmd = &dl->cmds[i];
    Damage_Item *it = &r->items[i];
    float box[4] = {1e30f, 1e30f, -1e30f, -1e30f};
    uint64_t h = damage_hash(DAMAGE_HASH_SEED, &cmd->kind, sizeof cmd->kind);
    unsigned char rgba[4] = {cmd->color.r, cmd->color.g, cmd->color.b, cmd->color.a};
    h = damage_hash(h, rgba, 4);
    switch (cmd->kind) {
    case DRAW_RECT: {
        Rect q = cmd->rect.r;
        /* the fringe emit_rect gives shapes with soft edges; a plain fill has none */
        bool plain = cmd->rect.radius <= 0 && cmd->rect.thickness <= 0;
        float f = plain ? 0 : 1.5f / r->scale + 0.5f;
        float v[6] = {q.x, q.y, q.w, q.h, cmd->rect.radius, cmd->rect.thickness};
        h = hash_floats(h, v, 6);
        box[0] = q.x - f;
        box[1] = q.y - f;
        box[2] = q.x + q.w + f;
        box[3] = q.y + q.h + f;
        break;
    }
    case DRAW_LINE: {
        float xy[8], uv[8], p[4];
        line_quad(r, cmd, xy, uv, p);
        float v[5] = {cmd->line.x0, cmd->line.y0, cmd->line.x1, cmd->line.y1, cmd->line.width};
        h = hash_floats(h, v, 5);
        for (int k = 0; k < 4; k++) {
            box[0] = fminf(box[0], xy[2 * k]);
            box[1] = fminf(box[1], xy[2 * k + 1]);
            box[2] = fmaxf(box[2], xy[2 * k]);
            box[3] = fmaxf(box[3], xy[2 * k + 1]);
        }
        break;
    }
    case DRAW_TRIANGLE:
        h = hash_floats(h, cmd->tri.x, 3);
        h = hash_floats(h, cmd->tri.y, 3);
        for (int k = 0; k < 3; k++) {
            box[0] = fminf(box[0], cmd->tri.x[k]);
            box[1] = fminf(box[1], cmd->tri.y[k]);
            box[2] = fmaxf(box[2], cmd->tri.x[k]);
            box[3] = fmaxf(box[3], cmd->tri.y[k]);
        }
        break;
    case DRAW_TEXT: {
        float v[3] = {cmd->text.x, cmd->text.y, cmd->text.size};
        int e[2] = {(int)cmd->text.font, (int)cmd->text.align};
        h = hash_floats(h, v, 3);
        h = damage_hash(h, e, sizeof e);
        h = damage_hash(h, dl->text + cmd->text.offset, (size_t)cmd->text.len);
        text_run(r, dl, cmd, box);
        break;
    }
    case DRAW_HEATMAP: {
        Rect q = cmd->heat.r;
        float v[6] = {q.x, q.y, q.w, q.h, cmd->heat.vmin, cmd->heat.vmax};
        int e[3] = {cmd->heat.rows, cmd->heat.cols, (int)cmd->heat.map};
        uint64_t g = damage_hash(DAMAGE_HASH_SEED, dl->grid + cmd->heat.offset,
                                 sizeof(float) * (size_t)cmd->heat.rows * (size_t)cmd->heat.cols);
        r->grid_hash[i] = g;
        h = hash_floats(h, v, 6);
        h = damage_hash(h, e, sizeof e);
        h = damage_hash(h, &g, sizeof g);
        box[0] = q.x;
        box[1] = q.y;
        box[2] = q.x + q.w;
        box[3] = q.y + q.h;
        break;
    }
    case DRAW_CLIP:
    case DRAW_LAYER:
        break;
    }
    float s = r->scale;
    /* a pixel of slack either side for antialiasing and rounding; nothing
     * (no glyphs, a clip, a layer, coordinates that are not numbers) is an
     * empty rect */
    Damage_Rect b = {0, 0, 0, 0};
    if (box[0] <= box[2] && box[1] <= box[3])
        b = (Damage_Rect){px_floor(box[0] * s, r->fb_w) - 1, px_floor(box[1] * s, r->fb_h) - 1,
                          px_ceil(box[2] * s, r->fb_w) + 1, px_ceil(box[3] * s, r->fb_h) + 1};
    if (b.x0 < 0) b.x0 = 0;
    if (b.y0 < 0) b.y0 = 0;
    if (b.x1 > r->fb_w) b.x1 = r->fb_w;
    if (b.y1 > r->fb_h) b.y1 = r->fb_h;
    if (clipped) {
        if (b.x0 < clip.x0) b.x0 = clip.x0;
        if (b.y0 < clip.y0) b.y0 = clip.y0;
        if (b.x1 > clip.x1) b.x1 = clip.x1;
        if (b.y1 > clip.y1) b.y1 = clip.y1;
    }
    if (b.x1 <= b.x0 || b.y1 <= b.y0) b = (Damage_Rect){0, 0, 0, 0};
    if (cmd->kind == DRAW_HEATMAP) {
        /* every pixel whose centre lies inside gets the heatmap's colour */
        Rect q = cmd->heat.r;
        Damage_Rect c = {px_ceil(q.x * s - 0.5f, r->fb_w), px_ceil(q.y * s - 0.5f, r->fb_h),
                         px_ceil((q.x + q.w) * s - 0.5f, r->fb_w),
                         px_ceil((q.y + q.h) * s - 0.5f, r->fb_h)};
        if (c.x0 < b.x0) c.x0 = b.x0;
        if (c.y0 < b.y0) c.y0 = b.y0;
        if (c.x1 > b.x1) c.x1 = b.x1;
        if (c.y1 > b.y1) c.y1 = b.y1;
        r->cover[i] = c;
    }
    /* the clipped bounds are part of the identity: the same shape under
     * another clip shows other pixels exactly when these bounds differ */
    h = damage_hash(h, &b, sizeof b);
    *it = (Damage_Item){h, b.x0, b.y0, b.x1, b.y1};
}

static bool visible(const Damage_Item *it) {
    return it->x1 > it->x0;
}

static bool is_text(const Draw_Cmd *c) {
    return c->kind == DRAW_TEXT;
}

static bool is_shape(const Draw_Cmd *c) {
    return c->kind == DRAW_RECT || c->kind == DRAW_LINE || c->kind == DRAW_TRIANGLE;
}

/* Items for every command, then the visible ones in the order their pixels
 * are painted: within a layer (up to a heatmap, clip or draw_layer) shapes
 * first, then text, as flush() draws them. */
static void build_items(Renderer *r, const Draw_List *dl) {
    Damage_Rect clip = {0, 0, 0, 0};
    bool clipped = false;
    int start = 0;
    r->order_n = r->heat_n = 0;
    for (int i = 0; i <= dl->count; i++) {
        const Draw_Cmd *cmd = i < dl->count ? &dl->cmds[i] : NULL;
        bool boundary =
            !cmd || cmd->kind == DRAW_HEATMAP || cmd->kind == DRAW_CLIP || cmd->kind == DRAW_LAYER;
        if (!boundary) {
            measure(r, dl, i, clip, clipped);
            continue;
        }
        for (int k = start; k < i; k++)
            if (is_shape(&dl->cmds[k]) && visible(&r->items[k]))
                r->order[r->order_n++] = r->items[k];
        for (int k = start; k < i; k++)
            if (is_text(&dl->cmds[k]) && visible(&r->items[k]))
                r->order[r->order_n++] = r->items[k];
        start = i + 1;
        if (!cmd) break;
        measure(r, dl, i, clip, clipped);
        if (cmd->kind == DRAW_HEATMAP && visible(&r->items[i])) {
            r->order[r->order_n++] = r->items[i];
            r->heats[r->heat_n++] = i;
        }
        if (cmd->kind == DRAW_CLIP) {
            clipped = cmd->clip.on;
            if (clipped) clip = clip_px(r, cmd->clip.r);
        }
    }
}

/* Keep a color renderbuffer of the frame's size for the canvas. */
static bool ensure_canvas(Renderer *r, int w, int h) {
    if (!r->canvas) glGenFramebuffers(1, &r->canvas);
    if (!r->canvas_color) glGenRenderbuffers(1, &r->canvas_color);
    glBindFramebuffer(GL_FRAMEBUFFER, r->canvas);
    if (r->canvas_w != w || r->canvas_h != h) {
        glBindRenderbuffer(GL_RENDERBUFFER, r->canvas_color);
        glRenderbufferStorage(GL_RENDERBUFFER, GL_RGBA8, w, h);
        glFramebufferRenderbuffer(GL_FRAMEBUFFER, GL_COLOR_ATTACHMENT0, GL_RENDERBUFFER,
                                  r->canvas_color);
        r->canvas_w = w;
        r->canvas_h = h;
        r->canvas_valid = false;
        /* asked once per size, not per frame: in a browser the answer is a
         * round trip to the GPU process that stalls the frame */
        r->canvas_ok = glCheckFramebufferStatus(GL_FRAMEBUFFER) == GL_FRAMEBUFFER_COMPLETE;
    }
    return r->canvas_ok;
}

/* Does a heatmap drawn after command i hide all of it within d? Heatmaps
 * are opaque and end the layer, so everything before one lies under it. */
static bool hidden(const Renderer *r, int i, const Damage_Rect *d, const int *occ, int occ_n) {
    const Damage_Item *it = &r->items[i];
    int x0 = it->x0 > d->x0 ? it->x0 : d->x0, x1 = it->x1 < d->x1 ? it->x1 : d->x1;
    int y0 = it->y0 > d->y0 ? it->y0 : d->y0, y1 = it->y1 < d->y1 ? it->y1 : d->y1;
    for (int k = occ_n - 1; k >= 0 && occ[k] > i; k--) {
        const Damage_Rect *c = &r->cover[occ[k]];
        if (c->x0 <= x0 && c->y0 <= y0 && x1 <= c->x1 && y1 <= c->y1) return true;
    }
    return false;
}

/* Paint the commands that reach damage rect d, scissored to it, leaving out
 * what a later heatmap covers; with no items (none could be kept), every
 * command. */
static void paint(Renderer *r, const Draw_List *dl, const Damage_Rect *d, Color clear,
                  bool culled) {
    r->pass_x0 = d->x0;
    r->pass_y0 = d->y0;
    r->pass_x1 = d->x1;
    r->pass_y1 = d->y1;
    set_clip(r, NULL);
    glClearColor(clear.r / 255.0f, clear.g / 255.0f, clear.b / 255.0f, 1.0f);
    glClear(GL_COLOR_BUFFER_BIT);
    r->quad_count = r->text_count = 0;
    /* the heatmaps that reach d, in order; the draw list's own heatmap
     * array is reused for them, since its tail is not needed again */
    int occ_n = 0, *occ = r->heats + r->heat_n;
    if (culled) {
        for (int k = 0; k < r->heat_n; k++) {
            const Damage_Rect *c = &r->cover[r->heats[k]];
            if (c->x0 < d->x1 && d->x0 < c->x1 && c->y0 < d->y1 && d->y0 < c->y1)
                occ[occ_n++] = r->heats[k];
        }
    }
#define MEETS(i)                                                                                   \
    (!culled || (r->items[i].x0 < d->x1 && d->x0 < r->items[i].x1 && r->items[i].y0 < d->y1 &&     \
                 d->y0 < r->items[i].y1 && !hidden(r, i, d, occ, occ_n)))
    for (int i = 0; i < dl->count; i++) {
        const Draw_Cmd *cmd = &dl->cmds[i];
        switch (cmd->kind) {
        case DRAW_RECT:
            if (MEETS(i)) emit_rect(r, cmd);
            break;
        case DRAW_LINE:
            if (MEETS(i)) emit_line(r, cmd);
            break;
        case DRAW_TRIANGLE:
            if (MEETS(i)) emit_triangle(r, cmd);
            break;
        case DRAW_TEXT:
            if (MEETS(i)) text_run(r, dl, cmd, NULL);
            break;
        case DRAW_HEATMAP:
            /* an unseen heatmap still ends the layer, as it would in a full frame */
            if (MEETS(i))
                draw_heat(r, dl, cmd, culled ? r->grid_hash[i] : 0);
            else
                flush(r);
            break;
        case DRAW_CLIP:
            set_clip(r, cmd->clip.on ? cmd : NULL);
            break;
        case DRAW_LAYER:
            flush(r);
            break;
        }
    }
#undef MEETS
    flush(r);
    r->stats.damage_rects++;
    r->stats.damage_px += (int64_t)(d->x1 - d->x0) * (d->y1 - d->y0);
}

void render_frame(Renderer *r, const Draw_List *dl, int fb_w, int fb_h, Color clear) {
    r->redraw = font_reset_if_full(&r->atlas);
    memset(&r->stats, 0, sizeof r->stats);
    r->fb_w = fb_w;
    r->fb_h = fb_h;
    ortho(r->proj, (float)fb_w, (float)fb_h, r->scale);
    glViewport(0, 0, fb_w, fb_h);
    glDisable(GL_DEPTH_TEST);
    glDisable(GL_CULL_FACE);
    glEnable(GL_BLEND);
    glBlendFuncSeparate(GL_SRC_ALPHA, GL_ONE_MINUS_SRC_ALPHA, GL_ONE, GL_ONE_MINUS_SRC_ALPHA);
    glEnable(GL_SCISSOR_TEST);

    /* a window whose framebuffer keeps its pixels is painted directly */
    bool direct = r->target == 0 && r->window_keeps;
    bool tracked = reserve_items(r, dl->count);
    if (tracked && direct) glBindFramebuffer(GL_FRAMEBUFFER, 0);
    if (tracked && !direct) tracked = ensure_canvas(r, fb_w, fb_h);
    Damage dmg;
    if (tracked) {
        build_items(r, dl);
        bool same_frame = r->canvas_valid && r->canvas_scale == r->scale &&
                          !memcmp(&r->canvas_clear, &clear, sizeof clear) && r->shown_w == fb_w &&
                          r->shown_h == fb_h && r->shown_direct == direct;
        if (same_frame)
            damage_diff(r->shown, r->shown_n, r->order, r->order_n, fb_w, fb_h, &dmg);
        else
            damage_full(&dmg, fb_w, fb_h);
    } else {
        /* no memory to track items, or no canvas: paint everything straight
         * into the target, as every frame did before the canvas */
        glBindFramebuffer(GL_FRAMEBUFFER, r->target);
        r->canvas_valid = false;
        damage_full(&dmg, fb_w, fb_h);
    }
    r->stats.full = dmg.full;
    for (int k = 0; k < dmg.count; k++) paint(r, dl, &dmg.rects[k], clear, tracked);
    glDisable(GL_SCISSOR_TEST);
    glBindVertexArray(0);
    if (tracked) {
        Damage_Item *t = r->shown;
        r->shown = r->order;
        r->order = t;
        r->shown_n = r->order_n;
        r->canvas_scale = r->scale;
        r->canvas_clear = clear;
        r->shown_w = fb_w;
        r->shown_h = fb_h;
        r->shown_direct = direct;
        /* glyphs the full atlas could not hold are missing: paint all next time */
        r->canvas_valid = !r->redraw;
        if (!direct) {
            /* the window's back buffer holds nothing of the last frame: copy it all */
            glBindFramebuffer(GL_READ_FRAMEBUFFER, r->canvas);
            glBindFramebuffer(GL_DRAW_FRAMEBUFFER, r->target);
            glBlitFramebuffer(0, 0, fb_w, fb_h, 0, 0, fb_w, fb_h, GL_COLOR_BUFFER_BIT, GL_NEAREST);
            glBindFramebuffer(GL_FRAMEBUFFER, r->target);
        }
    }
}

void render_invalidate(Renderer *r) {
    r->canvas_valid = false;
}

void render_window_keeps_pixels(Renderer *r) {
    r->window_keeps = true;
    r->canvas_valid = false;
}

bool render_wants_redraw(const Renderer *r) {
    return r->redraw;
}

bool render_offscreen_begin(Renderer *r, int w, int h, char *err, size_t errsz) {
    if (!r->fbo) glGenFramebuffers(1, &r->fbo);
    if (!r->fbo_color) glGenRenderbuffers(1, &r->fbo_color);
    glBindRenderbuffer(GL_RENDERBUFFER, r->fbo_color);
    if (r->fbo_w != w || r->fbo_h != h) {
        glRenderbufferStorage(GL_RENDERBUFFER, GL_RGBA8, w, h);
        r->fbo_w = w;
        r->fbo_h = h;
    }
    glBindFramebuffer(GL_FRAMEBUFFER, r->fbo);
    glFramebufferRenderbuffer(GL_FRAMEBUFFER, GL_COLOR_ATTACHMENT0, GL_RENDERBUFFER, r->fbo_color);
    GLenum status = glCheckFramebufferStatus(GL_FRAMEBUFFER);
    if (status != GL_FRAMEBUFFER_COMPLETE) {
        snprintf(err, errsz, "attnlab: cannot make a %dx%d offscreen framebuffer (status 0x%x)", w,
                 h, status);
        glBindFramebuffer(GL_FRAMEBUFFER, 0);
        return false;
    }
    r->target = r->fbo;
    return true;
}

void render_offscreen_end(Renderer *r) {
    r->target = 0;
    glBindFramebuffer(GL_FRAMEBUFFER, 0);
}

void render_read_rgba(Renderer *r, int w, int h, unsigned char *dest) {
    (void)r;
    glPixelStorei(GL_PACK_ALIGNMENT, 1);
    glReadPixels(0, 0, w, h, GL_RGBA, GL_UNSIGNED_BYTE, dest);
    /* GL reads bottom row first; flip in place so row 0 is the top */
    size_t stride = (size_t)w * 4;
    unsigned char tmp[4 * 4096];
    for (int y = 0; y < h / 2; y++) {
        unsigned char *a = dest + (size_t)y * stride, *b = dest + (size_t)(h - 1 - y) * stride;
        for (size_t off = 0; off < stride; off += sizeof tmp) {
            size_t n = stride - off < sizeof tmp ? stride - off : sizeof tmp;
            memcpy(tmp, a + off, n);
            memcpy(a + off, b + off, n);
            memcpy(b + off, tmp, n);
        }
    }
}

Render_Stats render_stats(const Renderer *r) {
    return r->stats;
}

void render_finish(Renderer *r) {
    (void)r;
#ifdef __EMSCRIPTEN__
    /* a browser's gl.finish() returns at once; reading a pixel back waits */
    unsigned char px[4];
    glReadPixels(0, 0, 1, 1, GL_RGBA, GL_UNSIGNED_BYTE, px);
#else
    glFinish();
#endif
}

bool render_gl_ready(char *why, size_t whysz) {
#ifdef __EMSCRIPTEN__
    (void)why;
    (void)whysz;
    return true; /* SDL asked for WebGL2 (OpenGL ES 3.0), and got it or failed */
#else
    int v = epoxy_gl_version();
    if (v >= 33) return true;
    snprintf(why, whysz, "%d.%d (%s)", v / 10, v % 10, (const char *)glGetString(GL_RENDERER));
    return false;
#endif
}
