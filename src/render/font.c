/* Glyph atlas over SDL2_ttf; see font.h. */
#include "font.h"
#include "../gfx/utf8.h"

#include <SDL.h>
#include <math.h>
#include <SDL_ttf.h>
#include "gl.h"
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static const char *const face_files[FONT_COUNT] = {
    [FONT_SANS] = "DejaVuSans.ttf",
    [FONT_BOLD] = "DejaVuSans-Bold.ttf",
    [FONT_MONO] = "DejaVuSansMono.ttf",
    [FONT_ITALIC] = "DejaVuSans-Oblique.ttf",
};

const char *font_file(Font_Id font) {
    return (unsigned)font < FONT_COUNT ? face_files[font] : face_files[FONT_SANS];
}

static void clear_atlas(Font_Atlas *a) {
    memset(a->slots, 0, sizeof *a->slots * FONT_CACHE_SLOTS);
    a->shelf_x = a->shelf_y = a->shelf_h = 0;
    a->full = false;
    if (!a->gpu) return;
    /* clear the texture so stale glyphs can never show through */
    static const unsigned char zero[256] = {0};
    glBindTexture(GL_TEXTURE_2D, a->tex);
    glPixelStorei(GL_UNPACK_ALIGNMENT, 1);
    for (int y = 0; y < FONT_ATLAS_SIZE; y += 16) {
        for (int x = 0; x < FONT_ATLAS_SIZE; x += 16)
            glTexSubImage2D(GL_TEXTURE_2D, 0, x, y, 16, 16, GL_RED, GL_UNSIGNED_BYTE, zero);
    }
}

bool font_load(Font_Atlas *a, const char *data_dir, bool gpu, char *err, size_t errsz) {
    memset(a, 0, sizeof *a);
    a->gpu = gpu;
    a->scale = 1;
    if (!TTF_WasInit() && TTF_Init() != 0) {
        snprintf(err, errsz, "attnlab: cannot start SDL2_ttf: %s", TTF_GetError());
        return false;
    }
    for (int f = 0; f < FONT_COUNT; f++) {
        char path[1200];
        snprintf(path, sizeof path, "%s/assets/fonts/%s", data_dir, face_files[f]);
        a->faces[f] = TTF_OpenFont(path, 16);
        if (!a->faces[f]) {
            snprintf(err, errsz, "attnlab: %s: cannot open font: %s", path, TTF_GetError());
            font_unload(a);
            return false;
        }
        a->face_px[f] = 16;
        TTF_SetFontHinting(a->faces[f], TTF_HINTING_LIGHT);
    }
    a->slots = calloc(FONT_CACHE_SLOTS, sizeof *a->slots);
    a->scratch = malloc((size_t)FONT_MAX_PX * 4 * FONT_MAX_PX * 2);
    if (!a->slots || !a->scratch) {
        snprintf(err, errsz, "attnlab: out of memory for the glyph cache");
        font_unload(a);
        return false;
    }
    if (!gpu) {
        clear_atlas(a);
        return true;
    }
    glGenTextures(1, &a->tex);
    glBindTexture(GL_TEXTURE_2D, a->tex);
    glTexImage2D(GL_TEXTURE_2D, 0, GL_R8, FONT_ATLAS_SIZE, FONT_ATLAS_SIZE, 0, GL_RED,
                 GL_UNSIGNED_BYTE, NULL);
    glTexParameteri(GL_TEXTURE_2D, GL_TEXTURE_MIN_FILTER, GL_NEAREST);
    glTexParameteri(GL_TEXTURE_2D, GL_TEXTURE_MAG_FILTER, GL_NEAREST);
    glTexParameteri(GL_TEXTURE_2D, GL_TEXTURE_WRAP_S, GL_CLAMP_TO_EDGE);
    glTexParameteri(GL_TEXTURE_2D, GL_TEXTURE_WRAP_T, GL_CLAMP_TO_EDGE);
    clear_atlas(a);
    return true;
}

void font_unload(Font_Atlas *a) {
    for (int f = 0; f < FONT_COUNT; f++)
        if (a->faces[f]) TTF_CloseFont(a->faces[f]);
    if (a->tex) glDeleteTextures(1, &a->tex);
    free(a->slots);
    free(a->scratch);
    memset(a, 0, sizeof *a);
}

static TTF_Font *face_at(Font_Atlas *a, Font_Id font, int px) {
    TTF_Font *f = a->faces[font];
    if (a->face_px[font] != px) {
        TTF_SetFontSize(f, px);
        a->face_px[font] = px;
    }
    return f;
}

void font_metrics(Font_Atlas *a, Font_Id font, int px, int *ascent, int *height) {
    if (px < 1) px = 1;
    if (px > FONT_MAX_PX) px = FONT_MAX_PX;
    unsigned h = ((unsigned)font * 131u + (unsigned)px) % FONT_METRIC_SLOTS;
    for (int probe = 0; probe < FONT_METRIC_SLOTS; probe++) {
        Font_Metric *m = &a->metrics[(h + (unsigned)probe) % FONT_METRIC_SLOTS];
        if (m->px == px && m->font == font) {
            *ascent = m->ascent;
            *height = m->height;
            return;
        }
        if (m->px == 0) {
            TTF_Font *f = face_at(a, font, px);
            m->font = (uint16_t)font;
            m->px = (uint16_t)px;
            m->ascent = TTF_FontAscent(f);
            m->height = TTF_FontHeight(f);
            *ascent = m->ascent;
            *height = m->height;
            return;
        }
    }
    /* table full (more than 128 sizes in use): ask the font directly */
    TTF_Font *f = face_at(a, font, px);
    *ascent = TTF_FontAscent(f);
    *height = TTF_FontHeight(f);
}

static bool place(Font_Atlas *a, int w, int h, int *x, int *y) {
    if (a->shelf_x + w + 1 > FONT_ATLAS_SIZE) {
        a->shelf_y += a->shelf_h + 1;
        a->shelf_x = 0;
        a->shelf_h = 0;
    }
    if (a->shelf_y + h + 1 > FONT_ATLAS_SIZE) return false;
    *x = a->shelf_x;
    *y = a->shelf_y;
    a->shelf_x += w + 1;
    if (h > a->shelf_h) a->shelf_h = h;
    return true;
}

const Glyph *font_glyph(Font_Atlas *a, Font_Id font, int px, uint32_t cp) {
    if (px < 1) px = 1;
    if (px > FONT_MAX_PX) px = FONT_MAX_PX;
    if (cp == 0) cp = 0xFFFD;
    uint32_t h = (cp * 2654435761u) ^ ((uint32_t)px * 40503u) ^ ((uint32_t)font * 977u);
    Glyph *slot = NULL;
    for (int probe = 0; probe < 64; probe++) {
        Glyph *g = &a->slots[(h + (uint32_t)probe) % FONT_CACHE_SLOTS];
        if (g->key_cp == cp && g->px == px && g->font == font) return g;
        if (g->key_cp == 0) {
            slot = g;
            break;
        }
    }
    if (!slot || a->full) {
        a->full = true; /* cleared at the start of the next frame */
        return NULL;
    }
    TTF_Font *f = face_at(a, font, px);
    uint32_t wanted = cp;
    if (!TTF_GlyphIsProvided32(f, cp)) cp = TTF_GlyphIsProvided32(f, 0xFFFD) ? 0xFFFD : '?';
    int minx, maxx, miny, maxy, advance;
    if (TTF_GlyphMetrics32(f, cp, &minx, &maxx, &miny, &maxy, &advance) != 0) return NULL;
    Glyph g = {.key_cp = cp,
               .font = (uint16_t)font,
               .px = (uint16_t)px,
               .advance = (float)advance,
               .ink_top = (int16_t)(maxy > miny ? maxy : 0),
               .ink_bottom = (int16_t)(maxy > miny ? miny : 0)};
    if (a->gpu && cp != ' ' && maxx > minx) {
        SDL_Surface *s = TTF_RenderGlyph32_Blended(f, cp, (SDL_Color){255, 255, 255, 255});
        if (!s) return NULL;
        SDL_Surface *conv = SDL_ConvertSurfaceFormat(s, SDL_PIXELFORMAT_ARGB8888, 0);
        SDL_FreeSurface(s);
        if (!conv) return NULL;
        int w = conv->w, hgt = conv->h;
        if (w > FONT_MAX_PX * 2 || hgt > FONT_MAX_PX * 2) w = hgt = 0;
        int ax = 0, ay = 0;
        if (w > 0 && !place(a, w, hgt, &ax, &ay)) {
            SDL_FreeSurface(conv);
            a->full = true;
            return NULL;
        }
        if (w > 0) {
            SDL_LockSurface(conv);
            for (int y = 0; y < hgt; y++) {
                const uint32_t *row =
                    (const uint32_t *)((const char *)conv->pixels + y * conv->pitch);
                for (int x = 0; x < w; x++) a->scratch[y * w + x] = (unsigned char)(row[x] >> 24);
            }
            SDL_UnlockSurface(conv);
            glBindTexture(GL_TEXTURE_2D, a->tex);
            glPixelStorei(GL_UNPACK_ALIGNMENT, 1);
            glTexSubImage2D(GL_TEXTURE_2D, 0, ax, ay, w, hgt, GL_RED, GL_UNSIGNED_BYTE, a->scratch);
        }
        SDL_FreeSurface(conv);
        /* SDL_ttf lays a one-glyph surface out from min(0, minx) */
        g.x0 = (int16_t)(minx < 0 ? minx : 0);
        g.w = (uint16_t)w;
        g.h = (uint16_t)hgt;
        g.ax = (uint16_t)ax;
        g.ay = (uint16_t)ay;
    }
    /* stored under the requested code point, so a fallback glyph is cached too */
    g.key_cp = wanted;
    *slot = g;
    return slot;
}

bool font_reset_if_full(Font_Atlas *a) {
    if (!a->full) return false;
    clear_atlas(a);
    return true;
}

int font_pixel_size(float size, float scale) {
    int px = (int)lroundf(size * scale);
    return px < 1 ? 1 : px > FONT_MAX_PX ? FONT_MAX_PX : px;
}

float font_width_px(Font_Atlas *a, Font_Id font, int px, const char *text, int len) {
    float w = 0;
    const char *p = text, *end = text + len;
    while (p < end) {
        uint32_t cp;
        p = utf8_next(p, &cp);
        const Glyph *g = font_glyph(a, font, px, cp);
        if (g) w += g->advance;
    }
    return w;
}

static float metric_width(void *ctx, Font_Id font, float size, const char *text, int len) {
    Font_Atlas *a = ctx;
    return font_width_px(a, font, font_pixel_size(size, a->scale), text, len) / a->scale;
}

static float metric_line_height(void *ctx, Font_Id font, float size) {
    Font_Atlas *a = ctx;
    int ascent, height;
    font_metrics(a, font, font_pixel_size(size, a->scale), &ascent, &height);
    return (float)height / a->scale;
}

static float metric_ascent(void *ctx, Font_Id font, float size) {
    Font_Atlas *a = ctx;
    int ascent, height;
    font_metrics(a, font, font_pixel_size(size, a->scale), &ascent, &height);
    return (float)ascent / a->scale;
}

static void metric_ink(void *ctx, Font_Id font, float size, const char *text, int len, float *above,
                       float *below) {
    Font_Atlas *a = ctx;
    int px = font_pixel_size(size, a->scale), top = 0, bottom = 0;
    const char *p = text, *end = text + len;
    while (p < end) {
        uint32_t cp;
        p = utf8_next(p, &cp);
        const Glyph *g = font_glyph(a, font, px, cp);
        if (!g) continue;
        if (g->ink_top > top) top = g->ink_top;
        if (g->ink_bottom < bottom) bottom = g->ink_bottom;
    }
    *above = (float)top / a->scale;
    *below = (float)-bottom / a->scale;
}

Text_Metrics font_text_metrics(Font_Atlas *a, float scale) {
    a->scale = scale > 0 ? scale : 1;
    return (Text_Metrics){.ctx = a,
                          .width = metric_width,
                          .line_height = metric_line_height,
                          .ascent = metric_ascent,
                          .ink = metric_ink};
}
