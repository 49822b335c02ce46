/* What each command of a draw list covers; see items.h. */
#include "items.h"
#include "../gfx/utf8.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

/* A line's quad: a rectangle along it, round caps and fringe included. */
void items_line_quad(const Renderer *r, const Draw_Cmd *cmd, float xy[8], float uv[8], float p[4]) {
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

void items_text(Renderer *r, const Draw_List *dl, const Draw_Cmd *cmd,
                void (*glyph)(void *ctx, const float xy[8], const float uv[8]), void *ctx) {
    int px = font_pixel_size(cmd->text.size, r->scale);
    const char *text = dl->text + cmd->text.offset;
    int len = cmd->text.len;
    float s = r->scale;
    /* pen position in whole device pixels keeps glyph texels on pixel centres */
    float pen = roundf(cmd->text.x * s), top = roundf(cmd->text.y * s);
    if (cmd->text.align != ALIGN_LEFT) {
        float w = font_width_px(&r->atlas, cmd->text.font, px, text, len);
        pen -= roundf(cmd->text.align == ALIGN_CENTER ? w * 0.5f : w);
    }
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
            float x0 = (pen + g->x0) / s, y0 = (top + g->y0) / s;
            float x1 = (pen + g->x0 + g->w) / s, y1 = (top + g->y0 + g->h) / s;
            float u0 = (float)g->ax / FONT_ATLAS_SIZE, v0 = (float)g->ay / FONT_ATLAS_SIZE;
            float u1 = (float)(g->ax + g->w) / FONT_ATLAS_SIZE;
            float v1 = (float)(g->ay + g->h) / FONT_ATLAS_SIZE;
            float xy[8] = {x0, y0, x1, y0, x1, y1, x0, y1};
            float uv[8] = {u0, v0, u1, v0, u1, v1, u0, v1};
            glyph(ctx, xy, uv);
        }
        pen += g->advance;
    }
}

/* grow box = {x0, y0, x1, y1} over a glyph's quad */
static void grow_box(void *ctx, const float xy[8], const float uv[8]) {
    (void)uv;
    float *box = ctx;
    box[0] = fminf(box[0], xy[0]);
    box[1] = fminf(box[1], xy[1]);
    box[2] = fmaxf(box[2], xy[4]);
    box[3] = fmaxf(box[3], xy[5]);
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
Damage_Rect items_clip_px(const Renderer *r, Rect q) {
    float s = r->scale;
    Damage_Rect c = {px_floor(q.x * s, r->fb_w), px_floor(q.y * s, r->fb_h),
                     px_ceil((q.x + q.w) * s, r->fb_w), px_ceil((q.y + q.h) * s, r->fb_h)};
    if (c.x1 < c.x0) c.x1 = c.x0;
    if (c.y1 < c.y0) c.y1 = c.y0;
    return c;
}

/* Room for one item per command, grown (never per frame) when the list is. */
bool items_reserve(Renderer *r, int count) {
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
        items_line_quad(r, cmd, xy, uv, p);
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
        items_text(r, dl, cmd, grow_box, box);
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
void items_build(Renderer *r, const Draw_List *dl) {
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
            if (clipped) clip = items_clip_px(r, cmd->clip.r);
        }
    }
}

/* Does a heatmap drawn after command i hide all of it within d? Heatmaps
 * are opaque and end the layer, so everything before one lies under it. */
bool items_hidden(const Renderer *r, int i, const Damage_Rect *d, const int *occ, int occ_n) {
    const Damage_Item *it = &r->items[i];
    int x0 = it->x0 > d->x0 ? it->x0 : d->x0, x1 = it->x1 < d->x1 ? it->x1 : d->x1;
    int y0 = it->y0 > d->y0 ? it->y0 : d->y0, y1 = it->y1 < d->y1 ? it->y1 : d->y1;
    for (int k = occ_n - 1; k >= 0 && occ[k] > i; k--) {
        const Damage_Rect *c = &r->cover[occ[k]];
        if (c->x0 <= x0 && c->y0 <= y0 && x1 <= c->x1 && y1 <= c->y1) return true;
    }
    return false;
}

void items_free(Renderer *r) {
    free(r->items);
    free(r->grid_hash);
    free(r->cover);
    free(r->heats);
    free(r->order);
    free(r->shown);
}
