/* Colormap sampling; the tables are in colormap_data.c. */
#include "colormap.h"

#include <math.h>

Color colormap_sample(Colormap map, float t) {
    if (!(t > 0)) t = 0; /* also catches NaN */
    if (t > 1) t = 1;
    /* Same rule as the GPU's linear filtering of a 256-texel lookup texture
     * sampled at texel centres: t = 0 hits entry 0, t = 1 hits entry 255. */
    float x = t * 255.0f;
    int i = (int)floorf(x);
    if (i > 254) i = 254;
    float f = x - (float)i;
    const unsigned char *a = colormap_lut[map][i], *b = colormap_lut[map][i + 1];
    Color c;
    c.r = (unsigned char)lroundf(a[0] + f * (b[0] - a[0]));
    c.g = (unsigned char)lroundf(a[1] + f * (b[1] - a[1]));
    c.b = (unsigned char)lroundf(a[2] + f * (b[2] - a[2]));
    c.a = 255;
    return c;
}

const char *colormap_name(Colormap map) {
    static const char *const names[COLORMAP_COUNT] = {"viridis", "cividis", "diverging"};
    return names[map];
}

static float linear(unsigned char v) {
    float c = v / 255.0f;
    return c <= 0.04045f ? c / 12.92f : powf((c + 0.055f) / 1.055f, 2.4f);
}

float color_luminance(Color c) {
    return 0.2126f * linear(c.r) + 0.7152f * linear(c.g) + 0.0722f * linear(c.b);
}

float color_contrast(Color a, Color b) {
    float la = color_luminance(a), lb = color_luminance(b);
    return (fmaxf(la, lb) + 0.05f) / (fminf(la, lb) + 0.05f);
}

Color color_text_on(Color bg) {
    /* black wins from L = 0.179 up: there both give √(1.05 / 0.05) ≈ 4.58 */
    return color_luminance(bg) >= 0.1791f ? (Color){0, 0, 0, 255} : (Color){255, 255, 255, 255};
}
