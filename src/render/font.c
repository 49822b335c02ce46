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

/* What DejaVu lacks, in the order tried (licences in assets/fonts/fallback/) */
static const char *const fallback_files[FONT_FALLBACKS] = {
    "fallback/DroidSansFallbackFull.ttf", /* CJK: Han, kana, Hangul */
    "fallback/Symbola_hint.ttf",          /* symbols, emoji (Unicode 9) */
};

const char *font_file(Font_Id font) {
    return (unsigned)font < FONT_COUNT ? face_files[font] : face_files[FONT_SANS];
}

const char *font_fallback_file(int k) {
    return k >= 0 && k < FONT_FALLBACKS ? fallback_files[k] : NULL;
}

unsigned font_fallbacks_missing(const Font_Atlas *a) {
    return a->fallback_missing;
}

void font_fallbacks_arrived(Font_Atlas *a) {
    a->fallback_tried &= ~a->fallback_missing;
    a->fallback_missing = 0;
    a->full = true; /* every glyph drawn as a box is drawn again */
}

/* Han, kana, Hangul and their punctuation: what the CJK face is for. */
static bool cjk(uint32_t cp) {
    return (cp >= 0x1100 && cp <= 0x11FF) || (cp >= 0x2E80 && cp <= 0x9FFF) ||
           (cp >= 0xAC00 && cp <= 0xD7AF) || (cp >= 0xF900 && cp <= 0xFAFF) ||
           (cp >= 0xFF00 && cp <= 0xFFEF) || (cp >= 0x20000 && cp <= 0x2FFFF);
}

/* Fallback face k at px, opened on first need; NULL if its file is not there. */
static TTF_Font *fallback_at(Font_Atlas *a, int k, int px) {
    if (!(a->fallback_tried & (1u << k))) {
        a->fallback_tried |= 1u << k;
        char path[1200];
        snprintf(path, sizeof path, "%s/assets/fonts/%s", a->data_dir, fallback_files[k]);
        a->fallback[k] = TTF_OpenFont(path, px);
        a->fallback_px[k] = px;
        if (!a->fallback[k])
            a->fallback_missing |= 1u << k;
        else
            TTF_SetFontHinting(a->fallback[k], TTF_HINTING_LIGHT);
    }
    TTF_Font *f = a->fallback[k];
    if (f && a->fallback_px[k] != px) {
        TTF_SetFontSize(f, px);
        a->fallback_px[k] = px;
    }
    return f;
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
    if (strlen(data_dir) >= sizeof a->data_dir) {
        snprintf(err, errsz, "attnlab: the data folder's path is longer than %zu bytes",
                 sizeof a->data_dir - 1);
        return false;
    }
    snprintf(a->data_dir, sizeof a->data_dir, "%s", data_dir);
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
    for (int k = 0; k < FONT_FALLBACKS; k++)
        if (a->fallback[k]) TTF_CloseFont(a->fallback[k]);
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

/* A rendered surface's alpha into a->scratch (w × h; 0 × 0 if too big);
 * false if there is no surface. Frees s. */
static bool alpha_of(Font_Atlas *a, SDL_Surface *s, int *w, int *h) {
    if (!s) return false;
    SDL_Surface *conv = SDL_ConvertSurfaceFormat(s, SDL_PIXELFORMAT_ARGB8888, 0);
    SDL_FreeSurface(s);
    if (!conv) return false;
    *w = conv->w;
    *h = conv->h;
    if (*w > FONT_MAX_PX * 2 || *h > FONT_MAX_PX * 2) *w = *h = 0;
    SDL_LockSurface(conv);
    for (int y = 0; y < *h; y++) {
        const uint32_t *row = (const uint32_t *)((const char *)conv->pixels + y * conv->pitch);
        for (int x = 0; x < *w; x++) a->scratch[y * *w + x] = (unsigned char)(row[x] >> 24);
    }
    SDL_UnlockSurface(conv);
    SDL_FreeSurface(conv);
    return true;
}

/* a->scratch (w × h) into the atlas, where g records it; false when full. */
static bool upload(Font_Atlas *a, int w, int h, Glyph *g) {
    int ax = 0, ay = 0;
    if (!place(a, w, h, &ax, &ay)) {
        a->full = true;
        return false;
    }
    glBindTexture(GL_TEXTURE_2D, a->tex);
    glPixelStorei(GL_UNPACK_ALIGNMENT, 1);
    glTexSubImage2D(GL_TEXTURE_2D, 0, ax, ay, w, h, GL_RED, GL_UNSIGNED_BYTE, a->scratch);
    g->w = (uint16_t)w;
    g->h = (uint16_t)h;
    g->ax = (uint16_t)ax;
    g->ay = (uint16_t)ay;
    return true;
}

/* A code point no face has: a box on the baseline holding its hexadecimal
 * code in small mono digits, so "東" and "京" never both show as "�". */
static const Glyph *code_box(Font_Atlas *a, Glyph *slot, Font_Id font, int px, uint32_t cp,
                             int ascent) {
    char hex[16];
    snprintf(hex, sizeof hex, "%04X", (unsigned)cp);
    int hp = px * 9 / 20 < 6 ? 6 : px * 9 / 20;
    TTF_Font *mono = face_at(a, FONT_MONO, hp);
    int tw = 0, th = TTF_FontHeight(mono);
    TTF_SizeUTF8(mono, hex, &tw, NULL);
    int w = tw + 6, h = th + 4;
    if (w > FONT_MAX_PX * 2) w = FONT_MAX_PX * 2;
    Glyph g = {.key_cp = cp,
               .font = (uint16_t)font,
               .px = (uint16_t)px,
               .advance = (float)(w + (px > 8 ? px / 8 : 1)),
               .y0 = (int16_t)(ascent - h),
               .ink_top = (int16_t)h,
               .ink_bottom = 0};
    if (a->gpu) {
        int sw = 0, sh = 0;
        if (!alpha_of(a, TTF_RenderUTF8_Blended(mono, hex, (SDL_Color){255, 255, 255, 255}), &sw,
                      &sh))
            return NULL;
        /* the digits, then a one-pixel frame around them, in place */
        /* the scratch holds two glyphs: the digits move to its second half */
        unsigned char *digits = a->scratch + FONT_MAX_PX * 2 * FONT_MAX_PX * 2;
        if (sw > w - 6) sw = w - 6;
        if (sh > h - 4) sh = h - 4;
        for (int y = 0; y < sh; y++) memcpy(digits + y * sw, a->scratch + y * (sw), (size_t)sw);
        memset(a->scratch, 0, (size_t)w * (size_t)h);
        for (int y = 0; y < sh; y++)
            memcpy(a->scratch + (y + 2) * w + 3, digits + y * sw, (size_t)sw);
        for (int x = 0; x < w; x++) a->scratch[x] = a->scratch[(h - 1) * w + x] = 255;
        for (int y = 0; y < h; y++) a->scratch[y * w] = a->scratch[y * w + w - 1] = 255;
        if (!upload(a, w, h, &g)) return NULL;
    }
    *slot = g;
    return slot;
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
    uint32_t wanted = cp;
    TTF_Font *f = face_at(a, font, px);
    int ascent = TTF_FontAscent(f);
    /* the face, else the first fallback that has it, else a box with its code;
     * a fallback whose file is not here yet (the browser fetches it) ends the
     * search, so a character fetches only the face it most likely needs */
    for (int q = 0; q < FONT_FALLBACKS && !TTF_GlyphIsProvided32(f, cp); q++) {
        int k = cjk(cp) ? q : FONT_FALLBACKS - 1 - q; /* symbols try Symbola first */
        TTF_Font *fb = fallback_at(a, k, px);
        if (!fb && (a->fallback_missing & (1u << k))) break;
        if (fb && TTF_GlyphIsProvided32(fb, cp)) f = fb;
    }
    if (!TTF_GlyphIsProvided32(f, cp)) return code_box(a, slot, font, px, cp, ascent);
    int minx, maxx, miny, maxy, advance;
    if (TTF_GlyphMetrics32(f, cp, &minx, &maxx, &miny, &maxy, &advance) != 0) return NULL;
    Glyph g = {.key_cp = cp,
               .font = (uint16_t)font,
               .px = (uint16_t)px,
               .advance = (float)advance,
               /* a fallback's line sits so that its baseline is the face's */
               .y0 = (int16_t)(ascent - TTF_FontAscent(f)),
               .ink_top = (int16_t)(maxy > miny ? maxy : 0),
               .ink_bottom = (int16_t)(maxy > miny ? miny : 0)};
    if (a->gpu && cp != ' ' && maxx > minx) {
        SDL_Surface *s = TTF_RenderGlyph32_Blended(f, cp, (SDL_Color){255, 255, 255, 255});
        int w = 0, hgt = 0;
        if (!alpha_of(a, s, &w, &hgt) || (w > 0 && !upload(a, w, hgt, &g))) return NULL;
        /* SDL_ttf lays a one-glyph surface out from min(0, minx) */
        g.x0 = (int16_t)(minx < 0 ? minx : 0);
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
