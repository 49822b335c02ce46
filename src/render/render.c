/* The renderer; see render.h. */
#include "render.h"
#include "items.h"

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
    items_free(r);
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

static void emit_line(Renderer *r, const Draw_Cmd *cmd) {
    float xy[8], uv[8], p[4];
    items_line_quad(r, cmd, xy, uv, p);
    emit(r, xy, uv, p, cmd->color, MODE_LINE);
}

static void emit_triangle(Renderer *r, const Draw_Cmd *cmd) {
    static const float zero[8] = {0};
    float xy[8] = {cmd->tri.x[0], cmd->tri.y[0], cmd->tri.x[1], cmd->tri.y[1],
                   cmd->tri.x[2], cmd->tri.y[2], cmd->tri.x[2], cmd->tri.y[2]};
    emit(r, xy, zero, zero, cmd->color, MODE_SOLID);
}

/* Where a text run's glyph quads go when painted: the batch, in the run's colour. */
typedef struct Glyph_Sink {
    Renderer *r;
    Color color;
} Glyph_Sink;

static void emit_glyph(void *ctx, const float xy[8], const float uv[8]) {
    static const float zero[4] = {0};
    Glyph_Sink *g = ctx;
    emit(g->r, xy, uv, zero, g->color, MODE_GLYPH);
}

static void emit_text(Renderer *r, const Draw_List *dl, const Draw_Cmd *cmd) {
    Glyph_Sink sink = {r, cmd->color};
    items_text(r, dl, cmd, emit_glyph, &sink);
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

/* Scissor to the damage rect being painted, narrowed by a clip (or not). */
static void set_clip(Renderer *r, const Draw_Cmd *cmd) {
    flush(r);
    int x0 = r->pass_x0, y0 = r->pass_y0, x1 = r->pass_x1, y1 = r->pass_y1;
    if (cmd && cmd->clip.on) {
        Damage_Rect c = items_clip_px(r, cmd->clip.r);
        if (c.x0 > x0) x0 = c.x0;
        if (c.y0 > y0) y0 = c.y0;
        if (c.x1 < x1) x1 = c.x1;
        if (c.y1 < y1) y1 = c.y1;
        if (x1 < x0) x1 = x0;
        if (y1 < y0) y1 = y0;
    }
    glScissor(x0, r->fb_h - y1, x1 - x0, y1 - y0);
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
                 d->y0 < r->items[i].y1 && !items_hidden(r, i, d, occ, occ_n)))
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
            if (MEETS(i)) emit_text(r, dl, cmd);
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
    bool tracked = items_reserve(r, dl->count);
    if (tracked && direct) glBindFramebuffer(GL_FRAMEBUFFER, 0);
    if (tracked && !direct) tracked = ensure_canvas(r, fb_w, fb_h);
    Damage dmg;
    if (tracked) {
        items_build(r, dl);
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

int render_max_side(void) {
    GLint rb = 0, vp[2] = {0, 0};
    glGetIntegerv(GL_MAX_RENDERBUFFER_SIZE, &rb);
    glGetIntegerv(GL_MAX_VIEWPORT_DIMS, vp);
    int m = rb < vp[0] ? rb : vp[0];
    return m < vp[1] ? m : vp[1];
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
