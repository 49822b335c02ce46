/* Glyphs: SDL2_ttf rasterizes, a texture atlas keeps them.
 *
 * Glyphs are rendered on first use at the exact pixel size they are drawn at
 * (UI size × zoom × display scale), so text is crisp at every zoom. The cache
 * is a fixed open-addressing table and the atlas a fixed texture; when the
 * atlas fills up it is cleared and refilled on the next frame.
 *
 *   bool font_load(Font_Atlas *a, const char *data_dir, bool gpu, char *err, size_t errsz)
 *       open the four faces; with gpu, make the atlas texture (without, glyphs are only measured)
 *   void font_unload(Font_Atlas *a)
 *   const Glyph *font_glyph(Font_Atlas *a, Font_Id font, int px, uint32_t cp)
 *       cached or freshly rasterized glyph
 *   void font_metrics(Font_Atlas *a, Font_Id font, int px, int *ascent, int *height)
 *   bool font_reset_if_full(Font_Atlas *a)
 *       at frame start: true if it was cleared
 *   int font_pixel_size(float size, float scale)
 *   float font_width_px(Font_Atlas *a, Font_Id font, int px, const char *text, int len)
 *   Text_Metrics font_text_metrics(Font_Atlas *a, float scale)
 *       Text_Metrics for the UI at a pixel scale
 *   const char *font_file(Font_Id font)
 *       the face's file in assets/fonts/ (the figure backend loads the same faces)
 *   unsigned font_fallbacks_missing(const Font_Atlas *a)
 *       bit k: fallback face k was needed and its file is not there (yet: the browser
 *       fetches it, then calls font_fallbacks_arrived)
 *   const char *font_fallback_file(int k)
 *       fallback face k's file in assets/fonts/
 *   void font_fallbacks_arrived(Font_Atlas *a)
 *       try the missing faces again and clear the glyphs drawn without them
 *
 * A code point the face lacks comes from the first fallback that has it:
 * DroidSansFallbackFull (CJK), then Symbola (symbols and emoji), opened on
 * first need. One no face has is drawn as a box holding its hexadecimal code,
 * so two unknown characters never look alike.
 */
#ifndef ATTN_FONT_H
#define ATTN_FONT_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "../gfx/draw.h"
#include "../gfx/text_metrics.h"

#define FONT_ATLAS_SIZE   2048
#define FONT_CACHE_SLOTS  8192
#define FONT_MAX_PX       256
#define FONT_METRIC_SLOTS 128
#define FONT_FALLBACKS    2

typedef struct Glyph {
    uint32_t key_cp; /* code point, 0 = empty slot */
    uint16_t font, px;
    int16_t x0;                  /* bitmap left, relative to the pen position */
    int16_t y0;                  /* bitmap top, below the line top */
    uint16_t w, h;               /* bitmap size; top is the line top */
    uint16_t ax, ay;             /* position in the atlas */
    float advance;               /* pixels */
    int16_t ink_top, ink_bottom; /* ink above (+) and below (-) the baseline, pixels */
} Glyph;

typedef struct Font_Metric {
    uint16_t font, px; /* px 0 = empty */
    int ascent, height;
} Font_Metric;

typedef struct Font_Atlas {
    void *faces[FONT_COUNT];        /* TTF_Font * */
    int face_px[FONT_COUNT];        /* size each face is currently set to */
    void *fallback[FONT_FALLBACKS]; /* TTF_Font *, opened on first need */
    int fallback_px[FONT_FALLBACKS];
    unsigned fallback_tried, fallback_missing; /* bit k: opening k was tried / found no file */
    char data_dir[1024];
    unsigned int tex;
    int shelf_x, shelf_y, shelf_h;
    bool full;
    Glyph *slots;
    Font_Metric metrics[FONT_METRIC_SLOTS];
    unsigned char *scratch; /* one glyph's alpha, for upload */
    bool gpu;               /* false: measuring only, no GL calls */
    float scale;            /* logical → pixel, for font_text_metrics */
} Font_Atlas;

bool font_load(Font_Atlas *a, const char *data_dir, bool gpu, char *err, size_t errsz);
void font_unload(Font_Atlas *a);
const Glyph *font_glyph(Font_Atlas *a, Font_Id font, int px, uint32_t cp);
void font_metrics(Font_Atlas *a, Font_Id font, int px, int *ascent, int *height);
bool font_reset_if_full(Font_Atlas *a);
int font_pixel_size(float size, float scale);
float font_width_px(Font_Atlas *a, Font_Id font, int px, const char *text, int len);
Text_Metrics font_text_metrics(Font_Atlas *a, float scale);
const char *font_file(Font_Id font);
unsigned font_fallbacks_missing(const Font_Atlas *a);
const char *font_fallback_file(int k);
void font_fallbacks_arrived(Font_Atlas *a);

#endif
