/* Text measurement, injected: the UI lays out text through these
 * functions, the renderer's font atlas provides them, and tests stub them,
 * so layout needs no font and no window (microui's shape).
 *
 *   float tm.width(tm.ctx, font, size, text, len)   advance of text[0..len) in UI units
 *   float tm.line_height(tm.ctx, font, size)        height of one line box
 *   float tm.ascent(tm.ctx, font, size)             line top to baseline (may be NULL)
 *   void tm.ink(tm.ctx, font, size, text, len, &above, &below)
 *       how far the glyphs' ink reaches above and below the baseline (may be NULL);
 *       math layout sets its boxes by it, as TeX does by each character's height and depth
 */
#ifndef ATTN_TEXT_METRICS_H
#define ATTN_TEXT_METRICS_H

#include "draw.h"

typedef struct Text_Metrics {
    void *ctx;
    float (*width)(void *ctx, Font_Id font, float size, const char *text, int len);
    float (*line_height)(void *ctx, Font_Id font, float size);
    float (*ascent)(void *ctx, Font_Id font, float size);
    void (*ink)(void *ctx, Font_Id font, float size, const char *text, int len, float *above,
                float *below);
} Text_Metrics;

#endif
