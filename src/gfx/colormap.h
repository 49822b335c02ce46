/* Colormaps shared by the UI (legends, text contrast) and the renderer
 * (lookup textures).
 *
 *   Color colormap_sample(Colormap map, float t)
 *       colour at t ∈ [0, 1] (clamped; NaN → 0)
 *   const char *colormap_name(Colormap map)
 *   float color_luminance(Color c)
 *       WCAG relative luminance, 0 (black) to 1 (white), of an sRGB colour
 *   float color_contrast(Color a, Color b)
 *       WCAG contrast ratio, 1 to 21
 *   Color color_text_on(Color bg)
 *       black or white, whichever stands out more on bg (never below 4.58:1)
 */
#ifndef ATTN_COLORMAP_H
#define ATTN_COLORMAP_H

typedef enum Colormap {
    COLORMAP_VIRIDIS = 0, /* sequential, for weights in [0, 1] */
    COLORMAP_CIVIDIS,     /* sequential, optimised for colour-vision deficiency */
    COLORMAP_DIVERGING,   /* signed values, white at the centre */
    COLORMAP_COUNT
} Colormap;

typedef struct Color {
    unsigned char r, g, b, a;
} Color;

extern const unsigned char colormap_lut[COLORMAP_COUNT][256][3];

Color colormap_sample(Colormap map, float t);
const char *colormap_name(Colormap map);
float color_luminance(Color c);
float color_contrast(Color a, Color b);
Color color_text_on(Color bg);

#endif
